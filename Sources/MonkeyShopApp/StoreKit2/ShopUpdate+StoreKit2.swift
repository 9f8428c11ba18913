import Foundation
import MonkeyShopDomain

// The app written with StoreKit 2 (docs/fidelity.md): the same shop, the same store and the same credit
// manager, but what the app calls and receives is what Apple documents for StoreKit 2.
//
// - Launch: "Create a `Task` to iterate through the transactions from the listener as soon as your
//   app launches. If your app has unfinished transactions, the `updates` listener receives them
//   once, immediately after the app launches."
//   https://developer.apple.com/documentation/storekit/transaction/updates
//   The app also goes through `Transaction.unfinished` ("Use the `unfinished` sequence to find the
//   transactions your app needs to process to deliver purchased content",
//   https://developer.apple.com/documentation/storekit/transaction/unfinished), so it meets each
//   unfinished transaction twice: its delivery must be idempotent, as the credit manager's is.
// - A purchase: `purchase(options:)` shows the sheet and returns `.success(VerificationResult)`,
//   `.pending` or `.userCancelled`, or throws; "after a successful in-app purchase on the same
//   device, StoreKit returns the transaction through `Product.PurchaseResult.success(_:)`"; only a
//   success carries a transaction. Everything else (an approved Ask to Buy, a resolved
//   interruption, a purchase another monkeyshop made) arrives through `Transaction.updates`.
// - Apple's listener ignores unverified transactions ("guard case .verified(let transaction) =
//   verificationResult else { // Ignore unverified transactions."): the app credits nothing and
//   leaves them unfinished.
// - A declined Ask to Buy: Apple documents no result, callback or transaction; nothing reaches the
//   app.

extension ShopModel {
  /// Launch of the StoreKit 2 app: the listener starts, then the app goes through
  /// `Transaction.unfinished`, delivering and finishing each verified transaction.
  mutating func launchStoreKit2() -> [ShopEffect] {
    record(.observerAdded)
    var effects: [ShopEffect] = []
    // Failed payments are SKPaymentTransactions only: StoreKit 2 never shows them to the app, and
    // the App Store closes them.
    for transaction in store.unfinished where transaction.state == .failed {
      settling.insert(transaction.id)
      effects.append(.close(transaction))
    }
    let unfinished = store.unfinished.filter { $0.state == .purchased }
    if !unfinished.isEmpty {
      noteCrashBehind(unfinished)
      for transaction in unfinished {
        redelivered.insert(transaction.id)
        effects += receive(transaction, as: { .unfinished(transactionID: transaction.id, $0) })
      }
      note(.updatesRepeatUnfinished(count: unfinished.count))
    }
    return effects
  }

  /// What the StoreKit 2 app learns when the App Store changes a transaction: the result of its own
  /// `purchase(options:)` if it is waiting for one, else whatever `Transaction.updates` emits.
  mutating func observeStoreKit2(_ transaction: StoreTransaction, redelivered: Bool) -> [ShopEffect] {
    let ownPurchase = inFlight[transaction.id] != nil
    if transaction.state != .purchasing { inFlight[transaction.id] = nil }
    guard !transaction.finished, !settling.contains(transaction.id) else { return [] }
    if redelivered { self.redelivered.insert(transaction.id) }
    switch transaction.state {
    case .purchasing:
      // `purchase(options:)` is still awaiting its result: StoreKit 2 has no purchasing state. The
      // App Store's sheet is up until the person answers it ("Initiates a purchase for the product
      // with the App Store and displays the confirmation sheet",
      // https://developer.apple.com/documentation/storekit/product/purchase(options:)).
      if inFlight[transaction.id] == nil { inFlight[transaction.id] = now }
      if transaction.awaitsPaymentSheet {
        if requestsProducts, overlay == nil { overlay = .paymentSheet(PaymentSheet(transaction)) }
        return []
      }
      status = .purchasing(product: transaction.productIdentifier, quantity: transaction.quantity)
      return []
    case .purchased, .restored:
      guard ownPurchase else {
        return receive(transaction, as: { .update(transactionID: transaction.id, $0) })
      }
      return receive(transaction, as: { .purchaseResult(.success(transactionID: transaction.id, $0)) })
    case .deferred:
      // An Ask to Buy request: the app's `purchase(options:)` returns `.pending`, and no transaction.
      guard ownPurchase else { return [] }
      record(.storeKit2(.purchaseResult(.pending)))
      note(.pendingArrivesThroughUpdates)
      status = .storeKit2(.pending(product: transaction.productIdentifier))
      return []
    case .failed:
      // The App Store closes a failed payment; StoreKit 2 gives the app no transaction for it.
      settling.insert(transaction.id)
      let close: [ShopEffect] = [.close(transaction)]
      guard ownPurchase, let failure = transaction.failure else {
        if transaction.failure?.reason == .askToBuyDeclined { note(.declineDeliversNothing) }
        return close
      }
      let outcome = failure.storeKit2Outcome
      record(.storeKit2(.purchaseResult(outcome)))
      switch outcome {
      case .userCancelled:
        status = .cancelled(product: transaction.productIdentifier)
      case .pending:
        status = .storeKit2(.pending(product: transaction.productIdentifier))
      case .threw, .success:
        record(.error(ShopFailure(purchase: failure)))
        status = .purchaseFailed(failure)
      }
      return close
    }
  }

  /// A transaction as StoreKit 2 hands it over: verified, it is delivered and then finished;
  /// unverified, the app credits nothing and leaves it unfinished.
  private mutating func receive(
    _ transaction: StoreTransaction, as event: (StoreKit2Event.Verification) -> StoreKit2Event
  ) -> [ShopEffect] {
    settling.insert(transaction.id)
    guard !transaction.failsVerification else {
      record(.storeKit2(event(.unverified(reason: "invalidSignature"))))
      record(.storeKit2(.notCredited(transactionID: transaction.id)))
      // Nothing more happens to it in this run; the next launch finds it unfinished again.
      status = .storeKit2(.unverified(transactionID: transaction.id))
      return []
    }
    record(.storeKit2(event(.verified)))
    return deliverOrCrash(transaction)
  }

  /// The StoreKit 2 app's purchase: `purchase(options:)` is called, then the App Store shows its
  /// sheet (or, with `skipPaymentSheet`, takes the purchase as confirmed).
  mutating func callPurchase(productIdentifier: String, quantity: Int) {
    record(
      .storeKit2(
        .purchaseCalled(productIdentifier: productIdentifier, quantity: quantity, appAccountToken: appAccountToken)))
  }

  /// `AppStore.sync()` ("Call this function only in response to an explicit user action",
  /// https://developer.apple.com/documentation/storekit/appstore/sync()), then
  /// `Transaction.currentEntitlements`: consumables never appear there
  /// ("Consumable In-App Purchases also don't appear in the current entitlements",
  /// https://developer.apple.com/documentation/storekit/transaction/currententitlements).
  mutating func syncStoreKit2() -> [ShopEffect] {
    record(.storeKit2(.sync))
    // The entitlements are Apple's record, the history's included (`entitlementsReceived`).
    return [.syncEntitlements]
  }
}
