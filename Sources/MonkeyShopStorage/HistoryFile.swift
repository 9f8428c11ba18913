import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `history.jsonl`: every transaction that left `store.json`, one JSON object per line, appended
/// and never rewritten. A purchase appends at most a line or two however long the history is, so
/// its durable cost stays flat; only listings and refunds read the file.
///
/// - An append holds the folder's lock and is durable (fsync) before the store stops listing the
///   transaction, so a crash at any instant leaves each transaction in one file or both (a
///   transaction in both reads once, the store's copy winning; listed twice here, the later line).
/// - A last line without its newline is either a whole transaction whose newline was lost (an
///   editor that drops the final newline does that): read like any other, and the next writer ends
///   it with its newline before appending; or a torn append (a writer killed mid-line): readers
///   leave it out, and the next writer (under the lock) cuts it off, saying so (`onNotice`). Any
///   other line that is not a transaction is refused with the line's number.
/// - Opened relative to the folder's descriptor and never through a link, like every data file.
struct HistoryFile {
  static let name = "history.jsonl"
  let file: DataFile

  /// Told what a writer did to the file besides appending (a torn last line cut off).
  var onNotice: ((String) -> Void)?

  init(folder: Int32, path: String, onNotice: ((String) -> Void)? = nil) {
    file = DataFile(folder: folder, name: Self.name, path: path + "/" + Self.name)
    self.onNotice = onNotice
  }

  var path: String { file.path }

  /// Far beyond a million transactions: a file larger than this is not monkeyshop's history.
  static let sizeLimit = 1 << 30

  /// Every transaction listed, oldest first, each once (its last line wins); none when the file
  /// does not exist. `counter`: the highest number the store has given; a line above it is not
  /// one this store wrote.
  /// `noticesTornLine`: a torn last line, left out, is also said (`onNotice`) — for a reader that
  /// lists the history to someone; a writer cuts it off and says that instead.
  func read(counter: Int, noticesTornLine: Bool = false) throws(DataFileError) -> [StoreTransaction] {
    let fd = openat(file.folder, file.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return [] }
      throw file.problem(opening: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
    try file.checkRegular(info)
    guard Int(info.st_size) <= Self.sizeLimit else {
      throw DataFileError(path: path, problem: "is \(info.st_size) bytes, far more than a monkeyshop history holds")
    }
    var data = Data(capacity: Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw file.failure("cannot be read")
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
      guard data.count <= Self.sizeLimit else {
        throw DataFileError(path: path, problem: "is larger than a monkeyshop history can be")
      }
    }
    return try HistoryLines(path: path, data: data, onNotice: noticesTornLine ? onNotice : nil)
      .transactions(counter: counter)
  }

  /// Appends transactions, one line each, and makes them durable. First ends a whole last line that
  /// lost its newline, or cuts off a torn one (a writer killed mid-append); a file made now is made
  /// durable in the folder too.
  func append(_ transactions: [StoreTransaction]) throws(DataFileError) {
    guard !transactions.isEmpty else { return }
    let bytes = try HistoryLines.encode(transactions, path: path)
    var created = false
    var fd = openat(file.folder, file.name, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
    if fd < 0, errno == ENOENT {
      fd = openat(file.folder, file.name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      created = true
    }
    guard fd >= 0 else {
      let code = errno
      if code == ELOOP { throw file.problem(opening: code) }
      throw file.failure("cannot be opened to append", errorID: .cannotWriteDataFile)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
    try file.checkRegular(info)
    let ending = try endLastLine(fd, size: Int(info.st_size))
    let written = writeAll(fd, ending + bytes)
    guard written, fsync(fd) == 0 else {
      throw file.failure("appending failed", errorID: .cannotWriteDataFile)
    }
    if created, fsync(file.folder) != 0 {
      throw file.failure("syncing the folder failed", errorID: .cannotWriteDataFile)
    }
  }

  /// When the file does not end with a newline: the newline to write first if its last line is a
  /// whole transaction, else (a torn line) none, the file truncated after its last newline.
  private func endLastLine(_ fd: Int32, size: Int) throws(DataFileError) -> Data {
    guard size > 0 else { return Data() }
    var byte: UInt8 = 0
    guard pread(fd, &byte, 1, off_t(size - 1)) == 1 else { throw file.failure("cannot be read") }
    if byte == UInt8(ascii: "\n") { return Data() }
    // Back from the end, a block at a time, to the last newline.
    var end = size
    var keep = 0
    var block = [UInt8](repeating: 0, count: 4096)
    search: while end > 0 {
      let start = max(0, end - block.count)
      let count = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, end - start, off_t(start)) }
      guard count == end - start else { throw file.failure("cannot be read") }
      for index in stride(from: count - 1, through: 0, by: -1) where block[index] == UInt8(ascii: "\n") {
        keep = start + index + 1
        break search
      }
      end = start
    }
    if size - keep <= Self.tailSize {
      var line = [UInt8](repeating: 0, count: size - keep)
      let count = line.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(keep)) }
      guard count == line.count else { throw file.failure("cannot be read") }
      if HistoryLines.wholeTransaction(line[...]) != nil { return Data("\n".utf8) }
    }
    guard ftruncate(fd, off_t(keep)) == 0 else {
      throw file.failure("its torn last line cannot be cut off", errorID: .cannotWriteDataFile)
    }
    onNotice?(
      "\(path): its last line was cut short (\(size - keep) bytes without a newline that are not a whole transaction: a write interrupted), and is removed"
    )
    return Data()
  }
}

/// The history's text: one transaction per line, as JSON with sorted keys and dates in seconds
/// since 1970 (as `store.json` keeps them).
struct HistoryLines {
  let path: String
  let data: Data
  /// Told of a torn last line left out.
  var onNotice: ((String) -> Void)? = nil

  static func encode(_ transactions: [StoreTransaction], path: String) throws(DataFileError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .secondsSince1970
    var bytes = Data()
    do {
      for transaction in transactions {
        bytes += try encoder.encode(transaction)
        bytes.append(UInt8(ascii: "\n"))
      }
    } catch {
      throw DataFileError(path: path, problem: "cannot be encoded (\(error))", errorID: .cannotWriteDataFile)
    }
    return bytes
  }

  /// The complete lines' transactions, each once (the later line wins), oldest first. A last line
  /// without its newline is kept when it is a whole transaction (its newline lost), else left out
  /// as a torn append.
  func transactions(counter: Int) throws(DataFileError) -> [StoreTransaction] {
    let bytes = [UInt8](data)
    var lines: [Range<Int>] = []
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
      lines.append(start..<index)
      start = index + 1
    }
    if start < bytes.count {
      if Self.wholeTransaction(bytes[start...]) != nil {
        lines.append(start..<bytes.count)
      } else {
        onNotice?(
          "\(path): its last line is cut short (\(bytes.count - start) bytes without a newline that are not a whole transaction: a write interrupted); it is left out, and the next change to the store removes it"
        )
      }
    }
    var listed: [StoreTransaction]
    if let all = try fastRead(bytes, lines) {
      listed = all
    } else {
      listed = []
      for (index, line) in lines.enumerated() { listed.append(try read(bytes[line], number: index + 1)) }
    }
    try check(listed, counter: counter)
    return StoreState.latest(of: listed)
  }

  /// What no line of this store's history can say: a number above the store's counter, or a number
  /// written again as another purchase (a later copy of the same purchase, finished or refunded,
  /// is how the history records a change).
  private func check(_ listed: [StoreTransaction], counter: Int) throws(DataFileError) {
    var first: [Int: (line: Int, transaction: StoreTransaction)] = [:]
    for (index, transaction) in listed.enumerated() {
      let line = index + 1
      let number = transaction.number ?? 0
      guard number <= counter else {
        throw DataFileError(
          path: path,
          problem:
            "line \(line): transaction \(transaction.id) is above the store's last transaction number (\(counter))")
      }
      if let earlier = first[number] {
        let same =
          earlier.transaction.productIdentifier == transaction.productIdentifier
          && earlier.transaction.quantity == transaction.quantity
          && earlier.transaction.purchaseDate == transaction.purchaseDate
        guard same else {
          throw DataFileError(
            path: path,
            problem:
              "line \(line): transaction \(transaction.id) is listed again as another purchase (line \(earlier.line) has its product, quantity and date)"
          )
        }
      } else {
        first[number] = (line, transaction)
      }
    }
  }

  /// All lines decoded at once as one JSON array: nil when anything is out of place, and then each
  /// line is read alone to say which one.
  private func fastRead(_ bytes: [UInt8], _ lines: [Range<Int>]) throws(DataFileError) -> [StoreTransaction]? {
    guard !lines.isEmpty else { return [] }
    var array = Data(capacity: bytes.count + 2)
    array.append(UInt8(ascii: "["))
    for (index, line) in lines.enumerated() {
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array.append(contentsOf: bytes[line])
    }
    array.append(UInt8(ascii: "]"))
    guard String(validating: array, as: UTF8.self) != nil, !array.contains(0),
      (try? JSONShape.check(array)) != nil,
      let decoded = try? Self.decoder.decode([StoreTransaction].self, from: array),
      decoded.count == lines.count, decoded.allSatisfy({ $0.number != nil })
    else { return nil }
    return decoded
  }

  /// The transaction a line holds when it is one, whole; nil otherwise.
  static func wholeTransaction(_ line: ArraySlice<UInt8>) -> StoreTransaction? {
    let text = Data(line)
    guard String(validating: text, as: UTF8.self) != nil, (try? JSONShape.check(text)) != nil,
      let transaction = try? decoder.decode(StoreTransaction.self, from: text), transaction.number != nil
    else { return nil }
    return transaction
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }

  private func read(_ line: ArraySlice<UInt8>, number: Int) throws(DataFileError) -> StoreTransaction {
    func refuse(_ what: String) -> DataFileError {
      DataFileError(path: path, problem: "line \(number): \(what) (expected one transaction as a JSON object per line)")
    }
    let text = Data(line)
    guard !text.isEmpty else { throw refuse("is empty") }
    guard String(validating: text, as: UTF8.self) != nil, !text.contains(0), !text.starts(with: [0xEF, 0xBB, 0xBF])
    else { throw refuse("is not UTF-8 text") }
    do {
      try JSONShape.check(text)
    } catch {
      switch error {
      case .duplicateKey(let key, let place): throw refuse("the key \"\(key)\" appears twice in \(place)")
      case .tooDeep(let place): throw refuse("nests too deep at \(place)")
      }
    }
    let transaction: StoreTransaction
    do {
      transaction = try Self.decoder.decode(StoreTransaction.self, from: text)
    } catch let error as DecodingError {
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
        throw refuse("is not a JSON object")
      }
      throw refuse(DataFileReader.explain(error))
    } catch {
      throw refuse("\(error)")
    }
    guard transaction.number != nil else {
      throw refuse("id is '\(transaction.id)', not a transaction number")
    }
    return transaction
  }
}
