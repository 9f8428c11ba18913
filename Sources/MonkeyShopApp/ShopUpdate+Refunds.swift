import Foundation
import MonkeyShopDomain

// A refund, as each app meets it (docs/commands.md, docs/hosted-content.md).
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
// - A non-consumable (the jungle map pack): the app removes access to it, in either API. StoreKit 2
//   hears of it through `Transaction.updates` as above. StoreKit 1 through
//   `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: "The system calls this delegate
//   method whenever App Store revokes in-app purchases for a family member based on changes in
//   Family Sharing, or when the purchaser gets a refund for an in-app purchase" (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)).
//   Apple does not say the callback reaches an app that was not running when the refund was made;
//   the StoreKit 1 app finds such a refund at its next launch, as the receipt's `cancellation_date`.
//   Either way a refund is acted on once (the wallet's `clawedBack`), and a restore never brings a
//   refunded purchase back (`AppStore.restoreCompletedTransactions`).

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
    let reason = transaction.refundReason ?? .other
    record(.refunded(transactionID: transaction.id, reason: reason))
    if storeKit == .storeKit1, transaction.isNonConsumable(in: catalog) {
      record(.download(.entitlementsRevoked(productIdentifiers: [transaction.productIdentifier])))
      return [.revokeAccess(transaction)]
    }
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
      .storeKit2(.revoked(transactionID: transaction.id, reason: (transaction.refundReason ?? .other).description)))
    return [
      transaction.isNonConsumable(in: catalog) ? .revokeAccess(transaction) : .clawBack(transaction)
    ]
  }

  /// At launch, refunds the app has not acted on yet: StoreKit 2's listener receives them; the
  /// StoreKit 1 app finds those of non-consumables in the receipt (it is told nothing of a
  /// consumable's).
  mutating func refundsAtLaunch(wallet: Wallet) -> [ShopEffect] {
    var effects: [ShopEffect] = []
    for transaction in store.transactions
    where transaction.isRevoked && transaction.number.map(wallet.clawedBack.contains) == false {
      // A StoreKit 2 purchase refunded before it was ever delivered arrives unfinished: the app
      // reads its revocationDate as it takes it, credits nothing and finishes it.
      if storeKit == .storeKit2, settling.contains(transaction.id),
        transaction.number.map(wallet.credited.contains) == false
      {
        continue
      }
      if storeKit == .storeKit2 {
        effects += revocationArrives(transaction)
      } else if transaction.isNonConsumable(in: catalog) {
        record(.download(.note(.refundFoundAtLaunch(transactionID: transaction.id))))
        effects.append(.revokeAccess(transaction))
      }
    }
    return effects
  }

  /// The app removed a refunded non-consumable from what it owns, or kept it (another purchase
  /// still entitles it, or it never owned it).
  mutating func accessRevoked(_ transaction: StoreTransaction, _ revocation: CreditManager.Revocation) {
    switch revocation {
    case .removed(let product):
      owned.revoke(product)
      record(.download(.accessRemoved(transactionID: transaction.id, productIdentifier: product)))
      status = .download(.accessRemoved(product: product))
    case .stillEntitled(_, let other):
      record(.download(.note(.stillEntitled(transactionID: transaction.id, by: other))))
    case .notOwned:
      record(.download(.note(.refundedNotOwned(transactionID: transaction.id))))
    }
  }

  mutating func clawedBack(_ transaction: StoreTransaction, _ clawback: CreditManager.Clawback) -> [ShopEffect] {
    balance = clawback.balance
    switch clawback {
    case .takenBack(let credits, let balance):
      settlements.takenBack.append(.init(transaction: transaction, credits: credits, balance: balance))
      record(.tookBack(transactionID: transaction.id, credits: credits, balance: balance))
      status = .refundTakenBack(transactionID: transaction.id, credits: credits, balance: balance)
    case .alreadyTakenBack:
      note(.alreadyTakenBack(transactionID: transaction.id))
    }
    return []
  }
}
