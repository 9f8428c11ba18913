import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data folder on disk: `wallet.json`, `store.json` and the App Store's record `record.sqlite`.
/// Every read-modify-write holds an exclusive lock on the folder, so monkeyshop processes on one
/// wallet never lose an update; readers take no lock.
public final class DataFolder: ShopStorage {
  public let path: String
  public var walletPath: String { path + "/wallet.json" }
  public var storePath: String { path + "/store.json" }
  /// The App Store's record of the transactions that left the store (`TransactionRecord`).
  public var recordPath: String { path + "/" + TransactionRecord.name }
  /// Where earlier versions kept that record, converted into `recordPath` when found.
  public var historyPath: String { path + "/" + HistoryFile.name }
  /// How a change waits for another monkeyshop's lock.
  public var waiting = LockWaiting()
  /// Signs each transaction a change completes or refunds, as the change is written; nil: none is
  /// signed then (walkthroughs, tests of the files alone).
  public var signer: (any TransactionSigner)?
  /// Told what a change did to a file besides its own write (a torn last history line cut off).
  public var onNotice: ((String) -> Void)?

  /// The record's connection, kept for this folder object's later reads and changes while the
  /// file stays the same.
  var openedRecord: TransactionRecord?

  public init(path: String) {
    self.path = path
  }

  /// The App Store's record, opened once and reused while it is the same file; nil when there is
  /// none and `creating` is false.
  /// `migrating`: the lock is held, so a record of an earlier schema is brought up to date here;
  /// without it, the lock is taken for that (`migrateRecordLocking`).
  func record(in folder: Int32, creating: Bool, migrating: Bool = false) throws(DataFileError) -> TransactionRecord? {
    var record = try TransactionRecord.open(
      folder: folder, folderPath: path, creating: creating, migrating: migrating, reusing: openedRecord)
    if let earlier = record, !earlier.isCurrent {
      if !creating && !migrating { try migrateRecordLocking() }
      record = try TransactionRecord.open(folder: folder, folderPath: path, creating: creating, migrating: true)
    }
    openedRecord = record
    return record
  }

  /// `--data-dir`, else `MONKEYSHOP_DATA_DIR`, else `$XDG_DATA_HOME/monkeyshop`, else
  /// `~/.local/share/monkeyshop`.
  public static func defaultPath(explicit: String?, environment: [String: String]) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let folder = environment["MONKEYSHOP_DATA_DIR"], !folder.isEmpty { return folder }
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/monkeyshop" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/monkeyshop"
  }

  public func read() throws(DataFileError) -> (store: StoreState, wallet: Wallet) {
    guard let folder = try openFolder(creating: false) else { return (StoreState(), Wallet()) }
    defer { close(folder) }
    let (store, wallet, _) = try read(in: folder)
    return (store, wallet)
  }

  /// Whether a file at `path` would be in this folder or below it (`content/`), whose files only
  /// monkeyshop writes: a path a command is told to write (`--log-file`, `--out`, `--junit`,
  /// `--cast`, `MONKEYSHOP_SCREEN_DUMP`) is refused there, however it is spelled (`..`, links).
  public func holds(_ path: String) -> Bool {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().resolvingSymlinksInPath().path
    let own = URL(fileURLWithPath: self.path).resolvingSymlinksInPath().path
    return folder == own || folder.hasPrefix(own.hasSuffix("/") ? own : own + "/")
  }

  public func readHistory() throws(DataFileError) -> [StoreTransaction] {
    var every: [StoreTransaction] = []
    try opened { folder throws(DataFileError) in
      guard let record = try read(in: folder).record else { return }
      try record.access { try record.eachTransaction { every.append($0) } }
    }
    return every
  }

  public func readHistoryTransaction(_ id: String) throws(DataFileError) -> StoreTransaction? {
    try opened { folder throws(DataFileError) in try read(in: folder).record?.transaction(id) } ?? nil
  }

  public func readHistory(ofProducts products: Set<String>) throws(DataFileError) -> [StoreTransaction] {
    let found = try opened { folder throws(DataFileError) in
      try read(in: folder).record?.transactions(ofProducts: products)
    }
    return (found ?? nil) ?? []
  }

  /// Every transaction of the record, oldest first, each handed to `body` as it is read, without
  /// the lock: a listing of a million transactions never holds them all, nor holds up a purchase.
  public func forEachInHistory(_ body: (StoreTransaction) throws -> Void) throws {
    guard let record = try opened({ folder throws(DataFileError) in try read(in: folder).record }) ?? nil else {
      return
    }
    try record.eachTransaction(body)
  }

  /// A page of the record: up to `limit` transactions numbered above `after`, oldest first, found
  /// by the key wherever the page starts.
  public func readHistoryPage(after: Int, limit: Int) throws(DataFileError) -> [StoreTransaction] {
    let page = try opened { folder throws(DataFileError) in
      try read(in: folder).record?.page(after: after, limit: limit)
    }
    return (page ?? nil) ?? []
  }

  /// How many transactions the record holds (counting them: a cost that grows with the record).
  public func historyCount() throws(DataFileError) -> Int {
    let count = try opened { folder throws(DataFileError) in try read(in: folder).record?.count() }
    return (count ?? nil) ?? 0
  }

  public func update<Result>(
    seeingHistory body: (inout StoreState, inout Wallet, _ history: HistoryLookup) throws -> Result
  ) throws -> Result {
    guard let folder = try openFolder(creating: true) else {
      throw DataFileError(path: path, problem: "the data folder vanished while being created")
    }
    defer { close(folder) }
    let lock = try FolderLock.acquire(folder, path: path, waiting: waiting)
    defer { lock.release() }
    var (store, wallet, record) = try read(in: folder, locked: true)
    TransactionNumbers.catchUp(&store, with: wallet)
    var newStore = store
    var newWallet = wallet
    let history = HistoryLookup(
      transaction: { id in try record?.transaction(id) },
      ofProducts: { products in try record?.transactions(ofProducts: products) ?? [] })
    let result = try body(&newStore, &newWallet, history)
    TransactionNumbers.remember(newStore, in: &newWallet)
    // The wallet first: it records the credit and the numbers given, so a crash before the store
    // is written leaves a transaction to deliver again (and recognise), never one credited twice.
    if newWallet != wallet { try file("wallet.json", in: folder).replace(with: encode(newWallet, for: walletPath)) }
    // Then the record, committed durably before the store stops listing what moved there.
    let leaving = newStore.leaving
    if !leaving.isEmpty {
      if record == nil { record = try self.record(in: folder, creating: true) }
      try record?.record(leaving)
    }
    newStore.leaving = []
    if let record {
      if let app = newStore.appTransactionID, try record.owner() == nil { try record.keep(owner: app) }
      newStore.recordRevision = try record.newestRevision()
    }
    if let signer {
      try signer.signUnsigned(&newStore) { environment in
        try fileSet(signer.keySet(for: environment), in: folder) { try signer.makeKeys(for: environment) }
      }
    }
    // The notifications this change made, signed and appended before the store commits them
    // (docs/notifications.md).
    try commitNotifications(&newStore, leaving: leaving, folder: folder)
    if newStore != store { try file("store.json", in: folder).replace(with: encode(newStore, for: storePath)) }
    return result
  }

  // MARK: Other files of the folder

  /// Runs `body` with the folder open (made if need be) and locked, as every change is.
  func locked<Result>(_ body: (Int32) throws -> Result) throws -> Result {
    guard let folder = try openFolder(creating: true) else {
      throw DataFileError(path: path, problem: "the data folder vanished while being created")
    }
    defer { close(folder) }
    let lock = try FolderLock.acquire(folder, path: path, waiting: waiting)
    defer { lock.release() }
    return try body(folder)
  }

  /// Runs `body` with the folder open, without the lock; nil when there is no folder.
  func opened<Result>(_ body: (Int32) throws(DataFileError) -> Result) throws(DataFileError) -> Result? {
    guard let folder = try openFolder(creating: false) else { return nil }
    defer { close(folder) }
    return try body(folder)
  }

  // MARK: The folder

  /// The folder's descriptor, checked: a folder (not a file), owned by this user or root, and
  /// writable by nobody else, as ssh checks its key files. Nil when it does not exist and
  /// `creating` is false.
  private func openFolder(creating: Bool) throws(DataFileError) -> Int32? {
    try checkWayIn()
    var fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd < 0, errno == ENOENT {
      guard creating else { return nil }
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw DataFileError(
          path: path, problem: "the data folder cannot be created (\(error.localizedDescription))",
          errorID: .cannotWriteDataFile)
      }
      fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    guard fd >= 0 else {
      let code = errno
      if code == ENOTDIR {
        throw DataFileError(path: path, problem: "is a file, expected the data folder (a directory)")
      }
      throw DataFileError(
        path: path, problem: "the data folder cannot be opened: \(String(cString: strerror(code)))",
        openingError: code)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      close(fd)
      throw DataFileError(path: path, problem: "the data folder cannot be examined")
    }
    if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
      close(fd)
      throw DataFileError(
        path: path,
        problem: String(
          format:
            "the data folder is writable by other users (mode %o): they could plant links in it; `chmod go-w %@` to use it",
          info.st_mode & 0o7777, path))
    }
    if info.st_uid != geteuid(), info.st_uid != 0 {
      close(fd)
      throw DataFileError(
        path: path, problem: "the data folder belongs to another user (uid \(info.st_uid)); use a folder of your own")
    }
    return fd
  }

  /// The way to the folder: a link in its place must be this user's or root's (a link planted by
  /// another user in a shared folder would send the files elsewhere), and the folder it is made in
  /// must not be writable by others unless sticky (where only owners may replace entries).
  private func checkWayIn() throws(DataFileError) {
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid != geteuid(), info.st_uid != 0 {
      throw DataFileError(
        path: path,
        problem: "is a symbolic link owned by another user (uid \(info.st_uid)); monkeyshop does not follow it")
    }
    let parent = PathText.folder(of: path)
    if stat(parent, &info) == 0, info.st_mode & (S_IWGRP | S_IWOTH) != 0, info.st_mode & S_ISVTX == 0 {
      throw DataFileError(
        path: path,
        problem: String(
          format:
            "is inside %@, which other users can write to (mode %o): they could swap the data folder; use a folder of your own",
          parent, info.st_mode & 0o7777))
    }
  }

  func file(_ name: String, in folder: Int32) -> DataFile {
    DataFile(folder: folder, name: name, path: path + "/" + name)
  }

  // MARK: Reading

  /// The store and the wallet, the store counting on from the highest number any of store, wallet
  /// or the App Store's record has seen (`TransactionNumbers`), and the record when there is one. A
  /// wallet older than the record (put back from a copy that lacks purchases the record says the
  /// app finished) is refused, named, not half-used; an absent wallet is a new one. A
  /// `history.jsonl` is first converted into the record, under the lock (`locked`: held already).
  func read(in folder: Int32, locked: Bool = false) throws(DataFileError) -> (
    store: StoreState, wallet: Wallet, record: TransactionRecord?
  ) {
    if HistoryFile.exists(in: folder) {
      if locked {
        try convertHistory(in: folder)
      } else {
        try convertHistoryLocking()
      }
    }
    let wallet = try file("wallet.json", in: folder).read().map { data throws(DataFileError) in
      try DataFileReader(path: walletPath, data: data).wallet()
    }
    let storeData = try file("store.json", in: folder).read()
    var store =
      try storeData.map { data throws(DataFileError) in try DataFileReader(path: storePath, data: data).store() }
      ?? StoreState()
    if storeData == nil {
      try takeNotificationFiles(&store.notifications, in: folder)
    } else {
      try checkNotificationFiles(store.notifications, in: folder)
    }
    let record = try self.record(in: folder, creating: false, migrating: locked)
    try record?.checkOwner(of: &store, storePath: storePath)
    let history = try record?.highestNumbers() ?? (highest: 0, highestFinishedPurchase: 0)
    // A record file there without a record in it (emptied, or a copy cut short) holds none of
    // what the store was written beside: told as an older record is. No file at all is the
    // record moved away, which the store outlives.
    if let written = store.recordRevision,
      let revision = try record?.newestRevision() ?? (hasEntry(named: TransactionRecord.name, in: folder) ? 0 : nil)
    {
      try TransactionNumbers.checkRecord(
        revision, recordPath: recordPath, storeWrittenAt: written, storePath: storePath)
    }
    if let wallet {
      try TransactionNumbers.checkWallet(
        wallet, walletPath: walletPath, store: store, storePath: storePath, history: history,
        historyPath: recordPath)
    }
    store.lastTransactionNumber = max(store.lastTransactionNumber, history.highest)
    return (store, wallet ?? Wallet(), record)
  }

  private func encode<Value: Encodable>(_ value: Value, for path: String) throws(DataFileError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    do {
      return try encoder.encode(value) + Data("\n".utf8)
    } catch {
      throw DataFileError(path: path, problem: "cannot be encoded (\(error))", errorID: .cannotWriteDataFile)
    }
  }
}
