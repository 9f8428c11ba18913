import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `notifications.jsonl` and `notification-attempts.jsonl`: one JSON object per line, appended under
/// the folder's lock and never rewritten, so recording a notification costs one short append however
/// many came before (docs/data-folder.md).
///
/// `store.json` says how many bytes of each file its changes wrote (`NotificationQueue`); the
/// store's write is the commit. Bytes past that length are what a change killed before its store
/// was written appended: readers never read them and the next writer cuts them off first, so a
/// notification exists exactly when the change that caused it does.
struct NotificationLog {
  static let notificationsName = "notifications.jsonl"
  static let attemptsName = "notification-attempts.jsonl"
  let file: DataFile

  init(folder: Int32, path: String, name: String) {
    file = DataFile(folder: folder, name: name, path: path + "/" + name)
  }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }

  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }

  /// Appends values, one line each, after the `committed` bytes (cutting off any beyond them), and
  /// makes them durable. Returns where each line starts and the file's new length.
  func append<Value: Encodable>(_ values: [Value], committed: Int) throws(DataFileError) -> (
    offsets: [Int], length: Int
  ) {
    let encoder = Self.encoder()
    var lines: [Data] = []
    do {
      for value in values { lines.append(try encoder.encode(value) + Data("\n".utf8)) }
    } catch {
      throw DataFileError(path: file.path, problem: "cannot be encoded (\(error))", errorID: .cannotWriteDataFile)
    }
    var created = false
    var fd = openat(file.folder, file.name, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    if fd < 0, errno == ENOENT {
      fd = openat(file.folder, file.name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      created = true
    }
    guard fd >= 0 else { throw file.problem(opening: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
    try file.checkRegular(info)
    let size = Int(info.st_size)
    guard size >= committed else {
      throw DataFileError(
        path: file.path,
        problem: "is \(size) bytes, shorter than the \(committed) store.json says were written: it was cut; put it back"
      )
    }
    if size > committed, ftruncate(fd, off_t(committed)) != 0 {
      throw file.failure("what a change never committed cannot be cut off", errorID: .cannotWriteDataFile)
    }
    var offsets: [Int] = []
    var position = committed
    for line in lines {
      offsets.append(position)
      position += line.count
    }
    guard lseek(fd, off_t(committed), SEEK_SET) >= 0, writeAll(fd, lines.reduce(Data(), +)), fsync(fd) == 0 else {
      throw file.failure("appending failed", errorID: .cannotWriteDataFile)
    }
    if created, fsync(file.folder) != 0 {
      throw file.failure("syncing the folder failed", errorID: .cannotWriteDataFile)
    }
    return (offsets, position)
  }

  /// The committed bytes from `offset`, read in blocks, handed over a line at a time with where it
  /// starts; `body` answers false to stop.
  func lines(from offset: Int, committed: Int, _ body: (Int, Data) throws -> Bool) throws {
    guard offset < committed else { return }
    let fd = openat(file.folder, file.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT {
        throw DataFileError(
          path: file.path, problem: "is missing, while store.json says \(committed) bytes were written")
      }
      throw file.problem(opening: errno)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
    try file.checkRegular(info)
    var position = offset
    var pending = Data()
    var lineStart = offset
    var buffer = [UInt8](repeating: 0, count: 256 << 10)
    while position < committed {
      let want = min(buffer.count, committed - position)
      let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, off_t(position)) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        if count < 0 { throw file.failure("cannot be read") }
        throw DataFileError(
          path: file.path, problem: "ends before the \(committed) bytes store.json says were written: it was cut")
      }
      position += count
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        pending.append(contentsOf: buffer[start..<index])
        if try !body(lineStart, pending) { return }
        lineStart += pending.count + 1
        pending = Data()
        start = index + 1
      }
      pending.append(contentsOf: buffer[start..<count])
    }
  }

  /// The line starting at `offset`.
  func line(at offset: Int, committed: Int) throws -> Data? {
    var found: Data?
    try lines(from: offset, committed: committed) { _, line in
      found = line
      return false
    }
    return found
  }

  /// Decodes a line, naming the file and where the line starts when it is not what it should be.
  func decode<Value: Decodable>(_ type: Value.Type, _ line: Data, at offset: Int) throws -> Value {
    do {
      return try Self.decoder().decode(type, from: line)
    } catch let error as DecodingError {
      throw DataFileError(path: file.path, problem: "the line at byte \(offset): \(DataFileReader.explain(error))")
    }
  }
}
