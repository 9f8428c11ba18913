import MonkeyShopDomain

/// The one rule that keeps transaction IDs from ever repeating (docs/data-folder.md). The store numbers transactions,
/// but its file can be deleted, reset or replaced by an older copy, and so can the wallet: the store
/// counts on from the highest number any of the store, the wallet and the history has seen (the
/// history's newest lines are read for it when the folder is read).
enum TransactionNumbers {
  /// Refuses a wallet older than the App Store's record: a purchase the app finished (so credited
  /// or unlocked, after which the wallet had seen its number) above the highest number the wallet
  /// has seen. Such a wallet lacks what the app was given since; used as it is, it would be half
  /// right. Nothing is written.
  static func checkWallet(
    _ wallet: Wallet, walletPath: String, store: StoreState, storePath: String,
    history: (highest: Int, highestFinishedPurchase: Int), historyPath: String
  ) throws(DataFileError) {
    let inStore =
      store.transactions.filter { $0.finished && $0.transactionIdentifier != nil }.compactMap(\.number).max() ?? 0
    let (newest, place) =
      inStore >= history.highestFinishedPurchase ? (inStore, storePath) : (history.highestFinishedPurchase, historyPath)
    guard newest > wallet.lastTransactionNumber else { return }
    throw DataFileError(
      path: walletPath,
      problem:
        "is older than the App Store's record: \(place) has transaction #\(newest) delivered and finished, and this wallet has seen transactions only up to #\(wallet.lastTransactionNumber), so it lacks what the app was given since (a copy put back from a backup?)",
      remedy: "put back the newest wallet.json, or move this one away to start a new, empty wallet")
  }

  /// Refuses a record older than the store: the store was written beside the record when it held
  /// `written` revisions, and this one holds fewer (a copy put back from a backup). The
  /// transactions that left the store for the record since are in neither: used as it is, the
  /// record would be half right, and its history, refunds and the server's pages would silently
  /// lack them. Nothing is written. A record deleted outright is not refused: the store counts on
  /// from the wallet's numbers, as for a deleted store.
  static func checkRecord(
    _ revision: Int64, recordPath: String, storeWrittenAt written: Int64, storePath: String
  ) throws(DataFileError) {
    guard revision < written else { return }
    throw DataFileError(
      path: recordPath,
      problem:
        "is older than \(storePath): the store was written beside a record of \(written) changes, and this one holds only \(revision), so it lacks transactions that moved there since (a copy put back from a backup?)",
      remedy:
        "with no monkeyshop running, put back the newest record.sqlite with the record.sqlite-wal and -shm copied with it (or none beside it, if the copy had none), or move store.json away to go on with this record without them"
    )
  }

  /// Before a change: the store counts on from the highest number the wallet has seen.
  static func catchUp(_ store: inout StoreState, with wallet: Wallet) {
    store.lastTransactionNumber = max(store.lastTransactionNumber, wallet.lastTransactionNumber)
  }

  /// After a change: the wallet remembers the numbers the store has given. It is written before
  /// the store, so no number reaches the store file that the wallet does not already know.
  static func remember(_ store: StoreState, in wallet: inout Wallet) {
    wallet.lastTransactionNumber = max(wallet.lastTransactionNumber, store.lastTransactionNumber)
  }
}
