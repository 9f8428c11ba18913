import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How far a reader has read the App Store's record: the database file (its inode) and the last
/// revision read. Every row written takes the next revision (`TransactionRecord.record`), so a
/// reader that kept its place reads only what was recorded or changed since.
public struct HistoryPlace: Equatable, Sendable {
  let inode: UInt64
  let revision: Int64
}

extension DataFolder {
  /// The store, and the transactions the record holds written after `place`, with the place
  /// reached. `whole` when the record was read from its start (no place given, or the database was
  /// replaced since): then the transactions are all of it. Read without the lock, as
  /// `readHistory()`.
  public func readHistory(since place: HistoryPlace?) throws(DataFileError) -> (
    store: StoreState, transactions: [StoreTransaction], place: HistoryPlace?, whole: Bool
  ) {
    let result = try opened { folder throws(DataFileError) in
      var (store, wallet, record) = try read(in: folder)
      TransactionNumbers.catchUp(&store, with: wallet)
      guard let record else { return (store, [StoreTransaction](), HistoryPlace?.none, true) }
      var info = stat()
      guard fstatat(folder, TransactionRecord.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
        throw DataFileError(path: recordPath, problem: "cannot be examined: \(String(cString: strerror(errno)))")
      }
      let inode = UInt64(info.st_ino)
      if let place, place.inode == inode, let changes = try record.changes(since: place.revision) {
        return (store, changes.transactions, HistoryPlace(inode: inode, revision: changes.revision), false)
      }
      let whole = try record.changes(since: 0) ?? ([], 0)
      return (store, whole.transactions, HistoryPlace(inode: inode, revision: whole.revision), true)
    }
    return result ?? (StoreState(), [], nil, true)
  }
}
