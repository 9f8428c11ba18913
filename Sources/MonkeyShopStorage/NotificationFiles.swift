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

  /// Decodes a line, naming the file and the line (its number, as an editor shows it, and the byte
  /// it starts at) when it is not what it should be.
  func decode<Value: Decodable>(_ type: Value.Type, _ line: Data, at offset: Int) throws -> Value {
    do {
      return try Self.decoder().decode(type, from: line)
    } catch let error as DecodingError {
      let number = (try? lineNumber(at: offset)).map { "line \($0) (byte \(offset))" } ?? "the line at byte \(offset)"
      throw DataFileError(path: file.path, problem: "\(number): \(DataFileReader.explain(error))")
    }
  }
}

/// What `store.json` says of the notification files, checked against them as the store is read:
/// a store written by monkeyshop counts whole lines, and only a change killed before its store was
/// written leaves lines past that count (docs/data-folder.md).
extension NotificationLog {
  /// The descriptor and size of the file; nil when there is none.
  private func open() throws(DataFileError) -> (fd: Int32, size: Int)? {
    let fd = openat(file.folder, file.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      throw file.problem(opening: errno)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let error = file.failure("cannot be examined")
      close(fd)
      throw error
    }
    do {
      try file.checkRegular(info)
    } catch {
      close(fd)
      throw error
    }
    return (fd, Int(info.st_size))
  }

  /// `count` bytes from `offset` (fewer at the end of the file).
  private func bytes(_ fd: Int32, from offset: Int, count: Int) throws(DataFileError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var read = 0
    while read < count {
      let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + read, count - read, off_t(offset + read)) }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else { throw file.failure("cannot be read") }
      if got == 0 { break }
      read += got
    }
    return Array(buffer.prefix(read))
  }

  /// The number of the line starting at `offset`, counting from 1: the newlines before it, counted
  /// only when a line is refused.
  func lineNumber(at offset: Int) throws(DataFileError) -> Int {
    guard let (fd, _) = try open() else { return 1 }
    defer { close(fd) }
    var newlines = 0
    var start = 0
    while start < offset {
      let chunk = try bytes(fd, from: start, count: min(64 << 10, offset - start))
      if chunk.isEmpty { break }
      newlines += chunk.count { $0 == UInt8(ascii: "\n") }
      start += chunk.count
    }
    return newlines + 1
  }

  /// Where the last newline before `end` is; nil when there is none.
  private func lastNewline(_ fd: Int32, before end: Int) throws(DataFileError) -> Int? {
    var end = end
    while end > 0 {
      let start = max(0, end - (64 << 10))
      if let index = try bytes(fd, from: start, count: end - start).lastIndex(of: UInt8(ascii: "\n")) {
        return start + index
      }
      end = start
    }
    return nil
  }

  /// The number of the notification a line is of; nil when the line is not one.
  private static func number(of line: [UInt8]) -> Int? {
    struct Numbered: Decodable { let number: Int }
    return try? decoder().decode(Numbered.self, from: Data(line)).number
  }

  /// What a store new to the file takes as written: the file up to its last whole line, and the
  /// number of the notification that line is of (nil when there is none, or it is not one). A torn
  /// last line (a change killed mid-append) is left past it, for the next writer to cut off.
  func wholeLines() throws(DataFileError) -> (length: Int, lastNumber: Int?) {
    guard let (fd, size) = try open() else { return (0, nil) }
    defer { close(fd) }
    guard let end = try lastNewline(fd, before: size) else { return (0, nil) }
    let start = try lastNewline(fd, before: end).map { $0 + 1 } ?? 0
    return (end + 1, Self.number(of: try bytes(fd, from: start, count: end - start)))
  }

  /// Refuses a `committed` length (`field` of `store.json` at `storePath`) that is not one
  /// monkeyshop wrote: longer than the file, ending inside a line, or short of a line of a
  /// notification the store counts as written (`written` says which numbers it counts): the next
  /// change would cut off what was already sent. Nothing is written.
  func check(
    committed: Int, field: String, storePath: String, written: (Int) -> Bool
  ) throws(DataFileError) {
    let remedy = "put back the store.json monkeyshop wrote, or move it away to go on with \(file.name) as it is"
    guard let (fd, size) = try open() else {
      guard committed == 0 else {
        throw DataFileError(
          path: file.path, problem: "is missing, while \(storePath) says \(committed) bytes of it were written",
          remedy: "put back the \(file.name) monkeyshop wrote, or move store.json away to go on without it")
      }
      return
    }
    defer { close(fd) }
    guard size >= committed else {
      throw DataFileError(
        path: file.path,
        problem: "is \(size) bytes, shorter than the \(committed) \(storePath) says were written: it was cut",
        remedy: "put back the \(file.name) monkeyshop wrote, or move store.json away to go on with it as it is")
    }
    if committed > 0, try bytes(fd, from: committed - 1, count: 1) != [UInt8(ascii: "\n")] {
      throw DataFileError(
        path: storePath,
        problem:
          "notifications.\(field) is \(committed), which ends inside a line of \(file.path), not after one: it was edited",
        remedy: remedy)
    }
    guard size > committed else { return }
    // The line after the count: one a killed change appended is of a notification the store does
    // not count as written yet.
    var line: [UInt8] = []
    var position = committed
    while position < size {
      let block = try bytes(fd, from: position, count: min(64 << 10, size - position))
      guard let end = block.firstIndex(of: UInt8(ascii: "\n")) else {
        line += block
        position += block.count
        continue
      }
      line += block[..<end]
      guard let number = Self.number(of: line), written(number) else { return }
      throw DataFileError(
        path: storePath,
        problem:
          "notifications.\(field) is \(committed), but \(file.path) goes on after it with notification #\(number), which this store counts as written: it was edited, and the next change would cut off what was already sent",
        remedy: remedy)
    }
  }
}
