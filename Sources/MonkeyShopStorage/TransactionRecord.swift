import Foundation
import GRDB
import MonkeyShopDomain
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `record.sqlite`: the App Store's record of every transaction that left `store.json`, one row per
/// transaction in an SQLite database (through GRDB), indexed by transaction ID (the row's key),
/// original transaction ID, purchase date, product and change, so a lookup, a refund or a page of
/// history costs the same at a million transactions as at ten (docs/data-folder.md).
///
/// - Each row keeps the transaction's JSON exactly as it was recorded (the signed JWS byte for
///   byte); the other columns are copies of its fields, for the indexes.
/// - Written only under the folder's lock, each change one SQLite transaction committed durably
///   (WAL, `synchronous = FULL`) before the store stops listing what moved here: a crash leaves
///   each transaction in the store, here, or both (the store's copy winning), as before.
/// - Read without the folder's lock: WAL gives every reader a snapshot, so a long listing never
///   holds up a purchase, and a purchase never waits for a listing.
struct TransactionRecord: Sendable {
  static let name = "record.sqlite"

  let database: DatabaseQueue
  /// For messages: the database file's path.
  let path: String
  /// The file opened (device and inode): a record deleted, or another put in its place, is a
  /// different file, opened anew.
  let identity: [UInt64]
  /// False for a record of an earlier version's schema, opened by a reader without the lock: it
  /// is brought up to date under the lock before anything reads it.
  var isCurrent = true

  /// The record in `folder` (whose path is `folderPath`); nil when there is none and `creating` is
  /// false. A link in its place, a hard-linked file or anything but a regular file is refused,
  /// naming it, as every data file is.
  ///
  /// SQLite opens files by path, not relative to the folder's descriptor as the other data files
  /// are, and GRDB does not pass `SQLITE_OPEN_NOFOLLOW`: the file is checked through the
  /// descriptor first (never followed), and the folder is one only this user can write to
  /// (`DataFolder.openFolder`), so no one else can swap a link in between. SQLite's own companion
  /// files (`-wal`, `-shm`) are made by SQLite beside the database with its mode.
  ///
  /// `reusing`: the record a caller opened before, given back when it is still the same file (one
  /// connection for all of a command's reads and changes). `migrating`: the caller holds the
  /// folder's lock, so a record of an earlier version's schema is brought up to this one's; without
  /// it such a record is opened with `isCurrent` false (`DataFolder.record(in:creating:)` then takes
  /// the lock for that).
  static func open(
    folder: Int32, folderPath: String, creating: Bool, migrating: Bool = false, reusing: TransactionRecord? = nil
  ) throws(DataFileError) -> TransactionRecord? {
    let path = folderPath + "/" + name
    var info = stat()
    if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
      guard errno == ENOENT else { throw failure(path, "cannot be examined") }
      guard creating else { return nil }
      // Made here, owner-only, never through a link: SQLite then takes the empty file as a new
      // database (and gives its companion files the same mode).
      let fd = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw failure(path, "cannot be created", errorID: .cannotWriteDataFile) }
      close(fd)
      // Its name durable in the folder before anything is recorded in it (SQLite syncs the folder
      // for the journal it makes, not for a database file it did not make).
      guard fsync(folder) == 0 else {
        throw failure(path, "cannot be synced in its folder", errorID: .cannotWriteDataFile)
      }
      guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw failure(path, "cannot be examined") }
    }
    try check(info, path: path)
    let identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
    if var reusing, reusing.identity == identity {
      // Rows an earlier monkeyshop recorded since (without their order IDs) are given them first.
      if try reusing.access({ try reusing.database.read(Self.lacksOrderIDs) }) {
        guard creating || migrating else {
          reusing.isCurrent = false
          return reusing
        }
        try reusing.access(writing: true) { try reusing.database.write(Self.fillOrderIDs) }
      }
      return reusing
    }
    // The check reads the file through a descriptor of its own, and closing it would drop every
    // POSIX lock this process holds on the file, SQLite's too: another process closing its last
    // connection would then take this one's for gone, and delete the log it still reads from. A
    // record this process has open is checked already, and is left alone.
    if !OpenRecords.isOpen(identity) { try checkLog(folder: folder, path: path) }
    var configuration = Configuration()
    configuration.label = name
    // A writer holds the folder's lock, so SQLite waits only for a checkpoint or a reader's
    // recovery of a killed writer's journal: briefly.
    configuration.busyMode = .timeout(10)
    configuration.prepareDatabase { db in
      // FULL: every commit is on disk when it returns, as each data file is after its fsync
      // (https://www.sqlite.org/pragma.html#pragma_synchronous).
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    do {
      let database = try DatabaseQueue(path: path, configuration: configuration)
      // A reader never writes: a record without its schema yet (made by a writer killed before
      // its first commit) holds nothing. A writer (`creating`, under the folder's lock) makes it.
      let migrator = migrator
      // GRDB asks for the applied migrations, and when that fails, whether their table exists: a
      // record another process is making can gain the table between the two looks, and the
      // reading fails with "no such table: grdb_migrations". Read again: the table is there now.
      let applied =
        try (try? database.read { try migrator.appliedIdentifiers($0) })
        ?? database.read { try migrator.appliedIdentifiers($0) }
      if applied.isEmpty {
        guard creating else { return nil }
        // WAL, kept in the file: readers see a snapshot and never block the writer
        // (https://www.sqlite.org/wal.html).
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try migrator.migrate(database)
      } else if try !database.read({ try migrator.hasCompletedMigrations($0) }) || database.read(lacksOrderIDs) {
        // An earlier version's record, or rows an earlier version recorded without their order
        // IDs: each migration, and the filling in, is one SQLite transaction, so a crash leaves the
        // record before it or after it, and the next opening goes on from there.
        guard creating || migrating else {
          OpenRecords.add(database, identity: identity)
          return TransactionRecord(database: database, path: path, identity: identity, isCurrent: false)
        }
        try migrator.migrate(database)
        try database.write(fillOrderIDs)
      }
      OpenRecords.add(database, identity: identity)
      return TransactionRecord(database: database, path: path, identity: identity)
    } catch {
      // SQLite says only "unable to open database file", never why: when this process has no
      // descriptor left, that is the reason, and a wait for a long-running writer, not a record
      // to mend (and it is not told as a permission problem).
      if let shortage = DescriptorCount.shortage() {
        throw DataFileError(
          path: path, problem: "cannot be opened: \(String(cString: strerror(shortage)))", openingError: shortage)
      }
      throw DataFileError(
        path: path, problem: "is not a monkeyshop record that can be opened (\(describe(error)))",
        remedy: remedy(for: error) ?? damaged)
    }
  }

  private static func check(_ info: stat, path: String) throws(DataFileError) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFLNK:
      throw DataFileError(
        path: path, problem: "is a symbolic link: monkeyshop never follows links in its data folder; remove it")
    default:
      throw DataFileError(path: path, problem: "is not a regular file, expected the App Store's record (SQLite)")
    }
    guard info.st_nlink <= 1 else {
      throw DataFileError(
        path: path, problem: "has \(info.st_nlink) hard links: monkeyshop writes only files that are its own alone")
    }
  }

  /// The schema, in GRDB's migrations: one table of transactions and its indexes.
  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("transactions") { db in
      try db.create(table: RecordedTransaction.databaseTableName) { table in
        table.primaryKey("number", .integer)
        table.column("originalNumber", .integer).notNull().indexed()
        table.column("purchaseDate", .integer).notNull().indexed()
        table.column("productIdentifier", .text).notNull().indexed()
        table.column("productType", .text)
        table.column("revocationDate", .integer)
        table.column("delivered", .boolean).notNull()
        table.column("revision", .integer).notNull().indexed()
        table.column("json", .text).notNull()
      }
    }
    // What the server's reads find by index (`RecordRows`): each transaction's order ID, its
    // refund in refund order, and a product's purchases in date order. An earlier record gets the
    // order IDs of its rows here, in the same SQLite transaction as the column.
    migrator.registerMigration("serving") { db in
      try db.alter(table: RecordedTransaction.databaseTableName) { $0.add(column: "orderID", .text) }
      try fillOrderIDs(db)
      try db.execute(
        sql: """
          CREATE INDEX storeTransaction_on_orderID ON storeTransaction(orderID);
          CREATE INDEX storeTransaction_on_product_purchaseDate ON storeTransaction(productIdentifier, purchaseDate);
          CREATE INDEX storeTransaction_on_refund ON storeTransaction(revocationDate) WHERE revocationDate IS NOT NULL;
          CREATE INDEX storeTransaction_on_version1 ON storeTransaction(purchaseDate)
            WHERE \(RecordRows.shownByVersion1);
          """)
    }
    // A row's order ID is known for every row: '' for a transaction the App Store never signed,
    // so NULL means only "not yet filled in" (a row a monkeyshop older than "serving" inserted,
    // which knows no such column), found by its own small index at each opening.
    migrator.registerMigration("orderIDs") { db in
      try db.execute(
        sql: "CREATE INDEX storeTransaction_on_missingOrderID ON storeTransaction(number) WHERE orderID IS NULL")
      try fillOrderIDs(db)
    }
    return migrator
  }

  /// Whether any row lacks its order ID (found by the partial index, at no cost for a record
  /// without one). False for a record whose schema predates order IDs: its migration fills them.
  private static func lacksOrderIDs(_ db: Database) throws -> Bool {
    let indexed = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'storeTransaction_on_missingOrderID'"
    guard try Bool.fetchOne(db, sql: indexed) ?? false else { return false }
    return try Bool.fetchOne(
      db,
      sql: "SELECT 1 FROM storeTransaction INDEXED BY storeTransaction_on_missingOrderID WHERE orderID IS NULL LIMIT 1"
    ) ?? false
  }

  /// Gives every row without an order ID its own (`OrderID.of`), or '' for a transaction the App
  /// Store never signed, so no page of the server's leaves a row out for want of one. A row that
  /// is not a transaction is refused, naming it, as reading it would be.
  private static func fillOrderIDs(_ db: Database) throws {
    let rows = try Row.fetchCursor(db, sql: "SELECT number, json FROM storeTransaction WHERE orderID IS NULL")
    var orders: [(Int64, String)] = []
    var batch: [(number: Int64, json: String)] = []
    func fill() throws {
      guard let transactions = wholeTransactions(batch) else {
        let number = batch.first { HistoryLines.wholeTransaction(ArraySlice($0.json.utf8)) == nil }?.number
        throw DatabaseError(
          resultCode: .SQLITE_CORRUPT,
          message: "transaction #\(number ?? batch[0].number) is not a transaction monkeyshop can read")
      }
      for (row, transaction) in zip(batch, transactions) { orders.append((row.number, OrderID.of(transaction) ?? "")) }
      batch.removeAll(keepingCapacity: true)
    }
    while let row = try rows.next() {
      batch.append((row["number"], row["json"]))
      if batch.count == batchSize { try fill() }
    }
    if !batch.isEmpty { try fill() }
    let update = try db.makeStatement(sql: "UPDATE storeTransaction SET orderID = ? WHERE number = ?")
    for (number, orderID) in orders { try update.execute(arguments: [orderID, number]) }
  }

  /// How many rows are decoded together: enough that one decoder's start costs nothing per row,
  /// few enough that a batch's JSON stays small (about 0.7 MB).
  static let batchSize = 512

  /// The transactions the rows' JSON holds, decoded together, each the transaction its row's number
  /// says; nil when any is not.
  static func wholeTransactions(_ rows: [(number: Int64, json: String)]) -> [StoreTransaction]? {
    let size = rows.reduce(0) { $0 + $1.json.utf8.count }
    guard let transactions = HistoryLines.wholeTransactions(rows.lazy.map(\.json.utf8), count: rows.count, size: size),
      zip(rows, transactions).allSatisfy({ $0.number == $1.number.map(Int64.init) })
    else { return nil }
    return transactions
  }

  // MARK: Writing

  /// Records transactions (a later copy of one replaces it: a refund, a new token), in one SQLite
  /// transaction, durable when this returns. A number already recorded as another purchase (another
  /// product, quantity or date) is refused: numbers never repeat.
  func record(_ transactions: [StoreTransaction]) throws(DataFileError) {
    guard !transactions.isEmpty else { return }
    let rows = try transactions.map { transaction throws(DataFileError) in
      try RecordedTransaction(transaction, path: path)
    }
    try access(writing: true) {
      try database.write { db in
        var revision = try Int64.fetchOne(db, sql: "SELECT max(revision) FROM storeTransaction") ?? 0
        for var row in rows {
          if let earlier = try RecordedTransaction.fetchOne(db, key: row.number) {
            let before = try earlier.transaction(path: path)
            let after = try row.transaction(path: path)
            guard
              before.productIdentifier == after.productIdentifier && before.quantity == after.quantity
                && before.purchaseDate == after.purchaseDate
            else {
              throw DataFileError(
                path: path,
                problem:
                  "already records transaction #\(row.number) as another purchase (\(before.productIdentifier) ×\(before.quantity)); numbers never repeat, so nothing was written"
              )
            }
          }
          revision += 1
          row.revision = revision
          try row.save(db)
        }
        try Self.stamp(db, revision: revision)
      }
    }
  }

  // MARK: Reading

  /// The transaction numbered `id`; nil when the record does not hold it.
  func transaction(_ id: String) throws(DataFileError) -> StoreTransaction? {
    guard let number = Int64(id), String(number) == id else { return nil }
    let row = try access { try database.read { try RecordedTransaction.fetchOne($0, key: number) } }
    return try row?.transaction(path: path)
  }

  /// The highest number recorded, and the highest of a purchase the app finished (so credited or
  /// unlocked, which the wallet must have seen) (`TransactionNumbers`). Zeroes when empty.
  func highestNumbers() throws(DataFileError) -> (highest: Int, highestFinishedPurchase: Int) {
    try access {
      try database.read { db in
        let highest = try Int.fetchOne(db, sql: "SELECT max(number) FROM storeTransaction") ?? 0
        let delivered = try Int.fetchOne(db, sql: "SELECT max(number) FROM storeTransaction WHERE delivered") ?? 0
        return (highest, delivered)
      }
    }
  }

  /// The newest revision (every row written counts one): 0 when empty.
  func newestRevision() throws(DataFileError) -> Int64 {
    try access { try database.read { try Int64.fetchOne($0, sql: "SELECT max(revision) FROM storeTransaction") ?? 0 } }
  }

  /// How many transactions the record holds.
  func count() throws(DataFileError) -> Int {
    try access { try database.read { try RecordedTransaction.fetchCount($0) } }
  }

  /// Up to `limit` transactions in number order after `after` (keyset paging by the key: a page
  /// costs the same wherever it starts).
  func page(after: Int, limit: Int) throws(DataFileError) -> [StoreTransaction] {
    let rows = try access {
      try database.read {
        try RecordedTransaction.filter(Column("number") > after).order(Column("number")).limit(limit).fetchAll($0)
      }
    }
    return try rows.map { row throws(DataFileError) in try row.transaction(path: path) }
  }

  /// The transactions of these products, oldest first (a restore, the current entitlements).
  func transactions(ofProducts products: Set<String>) throws(DataFileError) -> [StoreTransaction] {
    guard !products.isEmpty else { return [] }
    let rows = try access {
      try database.read {
        try RecordedTransaction.filter(products.contains(Column("productIdentifier"))).order(Column("number"))
          .fetchAll($0)
      }
    }
    return try rows.map { row throws(DataFileError) in try row.transaction(path: path) }
  }

  /// The transactions recorded or changed after `revision`, and the revision reached: how a
  /// reader that keeps what it read learns only what changed since. Nil when the record's newest
  /// revision is below `revision`: not the record that reader read (a copy put in its place).
  func changes(since revision: Int64) throws(DataFileError) -> (transactions: [StoreTransaction], revision: Int64)? {
    let rows = try access {
      try database.read { db -> [RecordedTransaction]? in
        let newest = try Int64.fetchOne(db, sql: "SELECT max(revision) FROM storeTransaction") ?? 0
        guard newest >= revision else { return nil }
        return try RecordedTransaction.filter(Column("revision") > revision).order(Column("revision")).fetchAll(db)
      }
    }
    guard let rows else { return nil }
    let transactions = try rows.map { row throws(DataFileError) in try row.transaction(path: path) }
    return (transactions, rows.last?.revision ?? revision)
  }

  /// Every transaction, oldest first, each handed to `body` as it is read (a whole listing never
  /// holds all of them at once), in one snapshot of the record. What `body` throws is thrown as it
  /// is; the database's own errors as the record's.
  func eachTransaction(_ body: (StoreTransaction) throws -> Void) throws {
    do {
      try database.read { db in
        let rows = try RecordedTransaction.order(Column("number")).fetchCursor(db)
        var batch: [RecordedTransaction] = []
        func hand() throws {
          let transactions =
            try Self.wholeTransactions(batch.map { ($0.number, $0.json) })
            ?? batch.map { row throws(DataFileError) in try row.transaction(path: path) }
          for transaction in transactions { try body(transaction) }
          batch.removeAll(keepingCapacity: true)
        }
        while let row = try rows.next() {
          batch.append(row)
          if batch.count == Self.batchSize { try hand() }
        }
        if !batch.isEmpty { try hand() }
      }
    } catch let error as DatabaseError {
      throw DataFileError(
        path: path, problem: "cannot be used (\(Self.describe(error)))", remedy: Self.remedy(for: error))
    }
  }

  /// GRDB's errors, said as a data file's; `writing`: a failure is one of writing (a full disk).
  func access<Value>(writing: Bool = false, _ body: () throws -> Value) throws(DataFileError) -> Value {
    do {
      return try body()
    } catch let error as DataFileError {
      throw error
    } catch {
      throw DataFileError(
        path: path,
        problem: writing ? "cannot be written (\(Self.describe(error)))" : "cannot be used (\(Self.describe(error)))",
        errorID: writing ? .cannotWriteDataFile : .unreadableDataFile, remedy: Self.remedy(for: error))
    }
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    return "\(error)"
  }

  /// What to do when SQLite cannot use the record, by its result code
  /// (https://www.sqlite.org/rescode.html); nil when the code says nothing a user can act on.
  static func remedy(for error: any Error) -> String? {
    guard let error = error as? DatabaseError else { return nil }
    switch error.resultCode {
    case .SQLITE_FULL: return "free space on its disk and try again; nothing recorded was lost"
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return "another program (an sqlite3 shell?) is writing to it: close that program and try again"
    case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN, .SQLITE_AUTH:
      return "let your user read and write it, its record.sqlite-wal and -shm and the data folder, and try again"
    case .SQLITE_IOERR: return "its disk could not be read or written: check the disk, and try again"
    case .SQLITE_CORRUPT, .SQLITE_NOTADB: return damaged
    default: return nil
    }
  }

  /// A damaged record is not moved away as another data file is: that loses every transaction it
  /// holds from every listing, refund and page of the server.
  static let damaged =
    "with no monkeyshop running, put back a good copy of record.sqlite with the record.sqlite-wal and -shm copied with it (or none beside it, if the copy had none); only to go on without the transactions it holds, move all three away"

  private static func failure(_ path: String, _ what: String, errorID: ErrorID = .unreadableDataFile) -> DataFileError {
    DataFileError(path: path, problem: "\(what): \(String(cString: strerror(errno)))", errorID: errorID)
  }
}

/// Whether this process can open one more file now: `EMFILE` or `ENFILE` when it cannot, found by
/// opening `/dev/null` and closing it again. For failures that do not carry their errno (SQLite's
/// "unable to open database file").
enum DescriptorCount {
  static func shortage() -> Int32? {
    let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
    guard fd < 0 else {
      close(fd)
      return nil
    }
    return errno == EMFILE || errno == ENFILE ? errno : nil
  }
}

/// The records this process has open, by file (device and inode), each as long as a connection to
/// it lives: SQLite keeps POSIX locks on the database file that any close(2) of another descriptor
/// on it in this process would drop (https://www.sqlite.org/howtocorrupt.html, "Posix advisory
/// locks canceled by a separate thread doing close()").
enum OpenRecords {
  private struct Connection: @unchecked Sendable {
    weak var database: DatabaseQueue?
  }
  private static let open = Mutex<[[UInt64]: [Connection]]>([:])

  static func add(_ database: DatabaseQueue, identity: [UInt64]) {
    open.withLock { open in
      open[identity, default: []].removeAll { $0.database == nil }
      open[identity, default: []].append(Connection(database: database))
    }
  }

  static func isOpen(_ identity: [UInt64]) -> Bool {
    open.withLock { open in
      open[identity]?.removeAll { $0.database == nil }
      if open[identity]?.isEmpty == true { open[identity] = nil }
      return open[identity] != nil
    }
  }
}
