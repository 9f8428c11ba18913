import Foundation
import MonkeyShopDomain

// Payments of this session that another monkeyshop on the same data folder answered, delivered or
// finished: the app still hears how each ended.

extension ShopModel {
  /// Any monkeyshop on the data folder may answer a due payment, and deliver and finish it: a
  /// payment of this session that left `purchasing` elsewhere must still reach the observer, or the
  /// app would wait for it forever.
  mutating func answeredElsewhere() -> [ShopEffect] {
    // A payment the store no longer holds moved to its history (another monkeyshop answered,
    // delivered and finished it), or was lost (a `store reset`, a store file moved away): Apple's
    // record says which.
    var effects: [ShopEffect] = []
    for id in inFlight.keys.sorted() where store.transaction(id) == nil {
      inFlight[id] = nil
      effects.append(.lookUp(transactionID: id))
    }
    let answered = inFlight.keys.sorted().compactMap(store.transaction).filter { $0.state != .purchasing }
    for transaction in answered {
      if transaction.finished {
        inFlight[transaction.id] = nil
        settlements.finishedElsewhere[transaction.id] = transaction
        note(.finishedElsewhere(transactionID: transaction.id, transaction.state))
        status = .finishedElsewhere(transactionID: transaction.id, transaction.state)
        effects.append(.readWallet)
      } else {
        effects += observe(transaction, redelivered: false)
      }
    }
    return effects
  }

  /// A payment of this session that left the store: finished by another monkeyshop, or lost
  /// (it will never be answered: say so rather than wait for it forever).
  mutating func lookedUp(_ id: String, _ transaction: StoreTransaction?) -> [ShopEffect] {
    guard let transaction, transaction.finished else {
      fail(.vanished(id))
      status = .vanished(transactionID: id)
      return []
    }
    settlements.finishedElsewhere[id] = transaction
    note(.finishedElsewhere(transactionID: id, transaction.state))
    status = .finishedElsewhere(transactionID: id, transaction.state)
    return [.readWallet]
  }
}
