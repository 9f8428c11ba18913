import MonkeyShopDomain

/// The one rule that keeps transaction IDs from ever repeating (docs/data-folder.md). The store numbers
/// transactions, but its file can be deleted, reset or replaced by an older copy; the wallet keeps
/// the highest number either side has seen, so the store always counts on from above it.
enum TransactionNumbers {
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
