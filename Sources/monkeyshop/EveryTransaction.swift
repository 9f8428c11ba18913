import MonkeyShopDomain
import MonkeyShopStorage

/// Every transaction ever made, oldest first, each once: the App Store's record streamed by
/// number, with the store's own transactions in their places, the store's copy winning (a crash
/// between the record's commit and the store's write leaves one in both; a refund brings an old
/// one back), as `StoreState.withHistory` orders them.
enum EveryTransaction {
  static func each(in folder: DataFolder, store: StoreState, _ body: (StoreTransaction) throws -> Void) throws {
    var pending = StoreState.latest(of: store.transactions)[...]
    let inStore = Set(pending.compactMap(\.number))
    try folder.forEachInHistory { transaction in
      let number = transaction.number ?? 0
      while let first = pending.first, (first.number ?? 0) < number {
        try body(first)
        pending = pending.dropFirst()
      }
      if !inStore.contains(number) { try body(transaction) }
    }
    for transaction in pending { try body(transaction) }
  }
}
