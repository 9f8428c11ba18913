import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `history.jsonl`: where earlier versions kept every transaction that left `store.json`, one JSON
/// object per line, appended and never rewritten; now read only to convert it into the App Store's
/// record (`TransactionRecord`), with the rules it was written by:
/// - a transaction listed twice reads once, the later line winning;
/// - a last line without its newline is either a whole transaction whose newline was lost (an
///   editor that drops the final newline does that): read like any other; or a torn append (a
///   writer killed mid-line): left out, and said (`onNotice`). Any other line that is not a
///   transaction is refused with the line's number.
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
          "\(path): its last line is cut short (\(bytes.count - start) bytes without a newline that are not a whole transaction: a write interrupted); it is left out"
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
    Self.wholeTransactions(lines.lazy.map { bytes[$0] }, count: lines.count, size: bytes.count)
  }

  /// The transactions `pieces` hold when each is one, whole, decoded together as one JSON array (one
  /// decoder and one pass, several times faster than one at a time); nil when any is not, and
  /// then each is read alone to say which one. `size`: about how many bytes they have.
  static func wholeTransactions(
    _ pieces: some Sequence<some Collection<UInt8>>, count: Int, size: Int
  ) -> [StoreTransaction]? {
    guard count > 0 else { return [] }
    var array = Data(capacity: size + count + 1)
    array.append(UInt8(ascii: "["))
    for (index, piece) in pieces.enumerated() {
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array.append(contentsOf: piece)
    }
    array.append(UInt8(ascii: "]"))
    guard String(validating: array, as: UTF8.self) != nil, !array.contains(0),
      (try? JSONShape.check(array)) != nil,
      let decoded = try? decoder.decode([StoreTransaction].self, from: array),
      decoded.count == count, decoded.allSatisfy({ $0.number != nil })
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
