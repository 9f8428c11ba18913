import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HistoryFile {
  /// How much of the history's end `tail()` reads: a few hundred lines, a fixed cost however long
  /// the history is.
  static let tailSize = 64 << 10

  /// What the newest lines say, read from the file's last `tailSize` bytes: the highest transaction
  /// number, and the highest number of a purchase the app finished (so credited or unlocked, which
  /// the wallet must have seen). Transactions move to the history in number order, so the highest
  /// number is among the newest lines. Zeroes when there is no history.
  func tail() throws(DataFileError) -> (highest: Int, highestFinishedPurchase: Int) {
    let fd = openat(file.folder, file.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return (0, 0) }
      throw file.problem(opening: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
    try file.checkRegular(info)
    let size = Int(info.st_size)
    let start = max(0, size - Self.tailSize)
    var bytes = [UInt8](repeating: 0, count: size - start)
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw file.failure("cannot be read") }
      done += count
    }
    // A first line cut by the window's start is not read.
    var lineStart = 0
    if start > 0 {
      guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (0, 0) }
      lineStart = newline + 1
    }
    var highest = 0
    var highestFinished = 0
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    var index = lineStart
    while index < bytes.count {
      let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      // A line that does not read as a transaction (a torn one) says nothing here; the full read
      // refuses or cuts it.
      if let transaction = try? decoder.decode(StoreTransaction.self, from: Data(bytes[index..<end])),
        let number = transaction.number
      {
        highest = max(highest, number)
        if transaction.finished, transaction.transactionIdentifier != nil {
          highestFinished = max(highestFinished, number)
        }
      }
      index = end + 1
    }
    return (highest, highestFinished)
  }
}
