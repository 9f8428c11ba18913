import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data folder on disk: `wallet.json`, `store.json` and `history.jsonl`. Every read-modify-write holds an
/// exclusive lock on the folder, so monkeyshop processes on one wallet never lose an update.
public final class DataFolder: ShopStorage {
  public let path: String
  public var walletPath: String { path + "/wallet.json" }
  public var storePath: String { path + "/store.json" }
  public var historyPath: String { path + "/" + HistoryFile.name }
  /// How a change waits for another monkeyshop's lock.
  public var waiting = LockWaiting()
  /// Signs each transaction a change completes or refunds, as the change is written; nil: none is
  /// signed then (walkthroughs, tests of the files alone).
  public var signer: (any TransactionSigner)?
  /// Told what a change did to a file besides its own write (a torn last history line cut off).
  public var onNotice: ((String) -> Void)?

  public init(path: String) {
    self.path = path
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
    return try read(in: folder)
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
    guard let folder = try openFolder(creating: false) else { return [] }
    defer { close(folder) }
    var (store, wallet) = try read(in: folder)
    TransactionNumbers.catchUp(&store, with: wallet)
    return try HistoryFile(folder: folder, path: path, onNotice: onNotice).read(
      counter: store.lastTransactionNumber, noticesTornLine: true)
  }

  public func update<Result>(
    seeingHistory body: (inout StoreState, inout Wallet, _ history: () throws -> [StoreTransaction]) throws -> Result
  ) throws -> Result {
    guard let folder = try openFolder(creating: true) else {
      throw DataFileError(path: path, problem: "the data folder vanished while being created")
    }
    defer { close(folder) }
    let lock = try FolderLock.acquire(folder, path: path, waiting: waiting)
    defer { lock.release() }
    var (store, wallet) = try read(in: folder)
    TransactionNumbers.catchUp(&store, with: wallet)
    var newStore = store
    var newWallet = wallet
    let history = HistoryFile(folder: folder, path: path, onNotice: onNotice)
    let result = try body(&newStore, &newWallet, { try history.read(counter: store.lastTransactionNumber) })
    TransactionNumbers.remember(newStore, in: &newWallet)
    // The wallet first: it records the credit and the numbers given, so a crash before the store
    // is written leaves a transaction to deliver again (and recognise), never one credited twice.
    if newWallet != wallet { try file("wallet.json", in: folder).replace(with: encode(newWallet, for: walletPath)) }
    // Then the history, durable before the store stops listing what moved there.
    let leaving = newStore.leaving
    try history.append(leaving)
    newStore.leaving = []
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
      throw DataFileError(path: path, problem: "the data folder cannot be opened: \(String(cString: strerror(code)))")
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
  /// or history has seen (`TransactionNumbers`). A wallet older than the App Store's record (put
  /// back from a copy that lacks purchases the record says the app finished) is refused, named, not
  /// half-used; an absent wallet is a new one.
  func read(in folder: Int32) throws(DataFileError) -> (store: StoreState, wallet: Wallet) {
    let wallet = try file("wallet.json", in: folder).read().map { data throws(DataFileError) in
      try DataFileReader(path: walletPath, data: data).wallet()
    }
    var store =
      try file("store.json", in: folder).read().map { data throws(DataFileError) in
        try DataFileReader(path: storePath, data: data).store()
      } ?? StoreState()
    let history = try HistoryFile(folder: folder, path: path).tail()
    if let wallet {
      try TransactionNumbers.checkWallet(
        wallet, walletPath: walletPath, store: store, storePath: storePath, history: history,
        historyPath: historyPath)
    }
    store.lastTransactionNumber = max(store.lastTransactionNumber, history.highest)
    return (store, wallet ?? Wallet())
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
