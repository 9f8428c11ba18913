import Foundation
import GRDB
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The record's database file against the write-ahead log beside it (`record.sqlite-wal`).
///
/// SQLite pairs a database file with whatever log it finds beside it: the log holds the pages
/// changed since it was last started anew, when the database file held everything before them
/// (https://www.sqlite.org/walformat.html). An older copy of the file put back beside a newer log
/// lacks the pages changed in between, and SQLite reads the two together without a word: rows
/// vanish, or the record reads as damaged. SQLite keeps nothing in either file that ties them
/// together, so the record does, in the two numbers of the database header an application may set
/// (https://www.sqlite.org/fileformat2.html#database_header): every change that records
/// transactions sets `user_version` to the record's newest revision and `application_id` to the
/// `user_version` it found. The first change in a log started anew found the database file as the
/// log's pages build on; a database file whose own `user_version` is below that change's
/// `application_id` is older than the log, and is refused before SQLite opens it: nothing is read
/// or written. A record written by an earlier version has both at 0 until its next change: never
/// refused for them.
extension TransactionRecord {
  /// Sets the header's numbers in the change being written, whose newest revision is `revision`.
  static func stamp(_ db: Database, revision: Int64) throws {
    let found = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    try db.execute(sql: "PRAGMA application_id = \(found)")
    try db.execute(sql: "PRAGMA user_version = \(max(found, Int32(clamping: revision)))")
  }

  /// Refuses a database file (`name` in `folder`, `path` for messages) older than the log beside
  /// it. The log is read first: the database file only moves on (a checkpoint copies the log's
  /// pages into it), so a change meanwhile never makes a good pair look mismatched.
  static func checkLog(folder: Int32, path: String) throws(DataFileError) {
    guard let expected = firstChangeFound(folder: folder) else { return }
    let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let header = bytes(fd, at: 0, count: 100)
    guard header.count == 100 else { return }
    let own = Int32(bitPattern: bigEndian(header, at: 60))
    guard own < expected else { return }
    throw DataFileError(
      path: path,
      problem:
        "is older than the \(name)-wal beside it: the log holds changes made after this copy (its header says revision \(own), the log builds on \(expected)), and SQLite would read the two together as a record missing transactions (a record.sqlite put back without the -wal copied with it?)",
      remedy:
        "with no monkeyshop running, put back the \(name)-wal and -shm copied with this record.sqlite (or, if the copy had none, move the \(name)-wal and -shm beside it away), or put back the newest record.sqlite; nothing was read or written"
    )
  }

  /// The `application_id` of the first change in the log that wrote the database header, when the
  /// log is one SQLite would read (its magic number, and frames of its own salts); nil otherwise.
  private static func firstChangeFound(folder: Int32) -> Int32? {
    let fd = openat(folder, name + "-wal", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let header = bytes(fd, at: 0, count: 32)
    guard header.count == 32, [0x377f_0682, 0x377f_0683].contains(bigEndian(header, at: 0)) else { return nil }
    let pageSize = Int(bigEndian(header, at: 8))
    guard pageSize >= 512 else { return nil }
    let salts = Array(header[16..<24])
    var offset = 32
    // Each frame: 24 bytes (its page number, the size after a commit, the salts, a checksum), then
    // the page. Frames of an earlier log round (other salts) end this one's.
    for _ in 0..<100_000 {
      let frame = bytes(fd, at: offset, count: 24)
      guard frame.count == 24, Array(frame[8..<16]) == salts else { return nil }
      if bigEndian(frame, at: 0) == 1 {
        let page = bytes(fd, at: offset + 24, count: 72)
        return page.count == 72 ? Int32(bitPattern: bigEndian(page, at: 68)) : nil
      }
      offset += 24 + pageSize
    }
    return nil
  }

  private static func bytes(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) }
    return Array(buffer.prefix(max(0, read)))
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
