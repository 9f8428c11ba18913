import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Earlier versions kept the record in `history.jsonl`, one transaction per line. A folder that
/// still has one is converted into `record.sqlite` at its first reading, under the folder's lock:
///
/// 1. the file is read with its rules (each transaction once, its last line winning; a whole last
///    line that lost its newline kept; a torn one left out, said);
/// 2. its transactions the record does not hold yet are added, in one SQLite transaction committed
///    durably (the record's own copy of a transaction, newer, wins);
/// 3. only then is `history.jsonl` removed, and the folder synced.
///
/// A crash at any instant leaves `history.jsonl` whole, with a record that lacks some of it or
/// none: the next reading does step 2 again, which adds what is missing. A `history.jsonl` put back
/// beside the record (from a backup) is merged the same way. Nothing is ever read from both.
extension DataFolder {
  func convertHistory(in folder: Int32) throws(DataFileError) {
    let history = HistoryFile(folder: folder, path: path, onNotice: onNotice)
    // Every number is accepted here: the record's own check refuses one given twice.
    let transactions = try history.read(counter: .max, noticesTornLine: true)
    if !transactions.isEmpty {
      guard let record = try self.record(in: folder, creating: true) else { return }
      try record.recordMissing(transactions)
    }
    guard unlinkat(folder, HistoryFile.name, 0) == 0 || errno == ENOENT, fsync(folder) == 0 else {
      throw DataFileError(
        path: historyPath,
        problem:
          "was converted into \(recordPath) but cannot be removed: \(String(cString: strerror(errno))); remove it",
        errorID: .cannotWriteDataFile)
    }
    let count = transactions.count == 1 ? "1 transaction" : "\(transactions.count) transactions"
    onNotice?("\(historyPath): converted into \(recordPath) (\(count)), and removed")
  }

  /// The conversion for a reader, which holds no lock: it takes the lock for the conversion, as a
  /// change would, and says so when it gives up waiting.
  func convertHistoryLocking() throws(DataFileError) {
    try bringUpLocking(historyPath, "converted into \(recordPath)", failing: "cannot be converted") { folder in
      // Another monkeyshop may have converted it while this one waited.
      if HistoryFile.exists(in: folder) { try convertHistory(in: folder) }
    }
  }

  /// A file of an earlier version brought up to this one for a reader, which holds no lock: `body`
  /// runs under the folder's lock, as a change would. Giving up on the lock is said, naming the
  /// file and what was to happen to it; nothing was changed.
  func bringUpLocking(_ file: String, _ what: String, failing: String, _ body: (Int32) throws -> Void)
    throws(DataFileError)
  {
    do {
      try locked { folder in try body(folder) }
    } catch let error as DataFileError {
      throw error
    } catch let busy as DataFolderBusy {
      throw DataFileError(
        path: file,
        problem:
          "is to be \(what), but another monkeyshop holds the lock (\(busy.holder)); nothing was changed, try again",
        errorID: .dataFolderBusy)
    } catch {
      throw DataFileError(
        path: file, problem: "\(failing) (\(TransactionRecord.describe(error)))",
        remedy: TransactionRecord.remedy(for: error))
    }
  }
}

extension TransactionRecord {
  /// Adds the transactions whose numbers the record does not hold, in one SQLite transaction,
  /// durable when this returns.
  func recordMissing(_ transactions: [StoreTransaction]) throws(DataFileError) {
    let rows = try transactions.map { transaction throws(DataFileError) in
      try RecordedTransaction(transaction, path: path)
    }
    try access(writing: true) {
      try database.write { db in
        var revision = try Int64.fetchOne(db, sql: "SELECT max(revision) FROM storeTransaction") ?? 0
        for var row in rows where try !RecordedTransaction.exists(db, key: row.number) {
          revision += 1
          row.revision = revision
          try row.insert(db)
        }
        try TransactionRecord.stamp(db, revision: revision)
      }
    }
  }
}

extension HistoryFile {
  /// Whether the folder has a `history.jsonl` (of any kind: what it is, the reading says).
  static func exists(in folder: Int32) -> Bool { hasEntry(named: name, in: folder) }
}

/// Whether something has `name` in the folder open as `folder`, of any kind (a link is not
/// followed: what it is, the reading says).
func hasEntry(named name: String, in folder: Int32) -> Bool {
  var info = stat()
  return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
}
