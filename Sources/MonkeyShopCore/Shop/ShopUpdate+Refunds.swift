import Foundation

// A refund, as each app meets it (SPEC §9).
//
// - StoreKit 2: "Your app receives a `Transaction` with refund information in the `revocationDate`
//   and `revocationReason` properties" (https://developer.apple.com/documentation/storekit/testing-refund-requests),
//   through `Transaction.updates`, whose handler Apple writes as "if let revocationDate =
//   transaction.revocationDate { // Remove access to the product"
//   (https://developer.apple.com/documentation/storekit/transaction/updates). The app takes the
//   credits back, once per transaction (the wallet's `clawedBack`).
// - StoreKit 1: for a consumable Apple documents nothing that reaches the app: "When the App Store
//   processes a refund, the App Store server sends a `REFUND` notification to your server"
//   (https://developer.apple.com/documentation/storekit/handling-refund-notifications);
//   `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)` is for non-consumables. The app
//   keeps the credits, and the log says why.

extension ShopModel {
  /// Refunds in the store the model has not seen yet.
  mutating func refundsNoticed(before old: StoreState, now new: StoreState) -> [ShopEffect] {
    let known = Dictionary(old.transactions.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    var effects: [ShopEffect] = []
    for transaction in new.transactions where transaction.isRevoked && known[transaction.id]?.isRevoked != true {
      effects += refunded(transaction)
    }
    return effects
  }

  /// The App Store refunded a transaction: what the app hears of it.
  mutating func refunded(_ transaction: StoreTransaction) -> [ShopEffect] {
    let reason = transaction.revocationReason ?? .other
    record(.refunded(transactionID: transaction.id, reason: reason))
    guard storeKit == .storeKit2 else {
      note(.refundNotToldToStoreKit1(transactionID: transaction.id))
      status = .refundNotTold(transactionID: transaction.id)
      return []
    }
    return revocationArrives(transaction)
  }

  /// StoreKit 2: the refunded transaction arrives through `Transaction.updates`.
  private mutating func revocationArrives(_ transaction: StoreTransaction) -> [ShopEffect] {
    record(
      .storeKit2(.revoked(transactionID: transaction.id, reason: (transaction.revocationReason ?? .other).description)))
    return [.clawBack(transaction)]
  }

  /// At a StoreKit 2 launch: refunds the app has not taken back yet reach the listener.
  mutating func refundsAtLaunch(wallet: Wallet) -> [ShopEffect] {
    var effects: [ShopEffect] = []
    for transaction in store.transactions
    where transaction.isRevoked && transaction.number.map(wallet.clawedBack.contains) == false {
      effects += revocationArrives(transaction)
    }
    return effects
  }

  mutating func clawedBack(_ transaction: StoreTransaction, _ clawback: CreditManager.Clawback) -> [ShopEffect] {
    balance = clawback.balance
    switch clawback {
    case .takenBack(let credits, let balance):
      record(.tookBack(transactionID: transaction.id, credits: credits, balance: balance))
      status = .refundTakenBack(transactionID: transaction.id, credits: credits, balance: balance)
    case .alreadyTakenBack:
      note(.alreadyTakenBack(transactionID: transaction.id))
    }
    return []
  }
}
