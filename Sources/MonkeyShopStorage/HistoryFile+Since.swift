import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How far a reader has read the history: the file (its inode) and the bytes up to its last whole
/// line. The history is only appended to, so a reader that kept its place reads only what was
/// appended since (`DataFolder.readHistory(since:)`).
public struct HistoryPlace: Equatable, Sendable {
  let inode: UInt64
  let offset: Int
}

extension DataFolder {
  /// The store, and the transactions the history holds past `place`, each once (its last line
  /// wins), oldest first, with the place reached. `whole` when the history was read from its start
  /// (no place given, or the file was replaced or cut since): then the transactions are all of it.
  /// Read without the lock, as `readHistory()`: a line still being appended is left for the next
  /// reading.
  public func readHistory(since place: HistoryPlace?) throws(DataFileError) -> (
    store: StoreState, transactions: [StoreTransaction], place: HistoryPlace?, whole: Bool
  ) {
    let result = try opened { folder throws(DataFileError) in
      var (store, wallet) = try read(in: folder)
      TransactionNumbers.catchUp(&store, with: wallet)
      let file = HistoryFile(folder: folder, path: path).file
      let fd = openat(folder, file.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard fd >= 0 else {
        let code = errno
        if code == ENOENT { return (store, [StoreTransaction](), HistoryPlace?.none, true) }
        throw file.problem(opening: code)
      }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0 else { throw file.failure("cannot be examined") }
      try file.checkRegular(info)
      let size = Int(info.st_size)
      guard size <= HistoryFile.sizeLimit else {
        throw DataFileError(path: file.path, problem: "is \(size) bytes, far more than a monkeyshop history holds")
      }
      let inode = UInt64(info.st_ino)
      var start = 0
      var whole = true
      if let place, place.inode == inode, place.offset <= size {
        start = place.offset
        whole = false
      }
      var bytes = [UInt8](repeating: 0, count: size - start)
      var done = 0
      while done < bytes.count {
        let count = bytes.withUnsafeMutableBytes {
          pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        done += count
      }
      bytes.removeLast(bytes.count - done)
      // The place is the last newline: a last line without one (a whole transaction whose newline
      // was lost is read now too, as `readHistory()` reads it) is read again next time.
      let end = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
      let transactions = try HistoryLines(path: file.path, data: Data(bytes))
        .transactions(counter: store.lastTransactionNumber)
      return (store, transactions, HistoryPlace(inode: inode, offset: start + end), whole)
    }
    return result ?? (StoreState(), [], nil, true)
  }
}
