import Foundation
import MonkeyShopDomain

// MARK: Restore Purchases

extension ShopModel {
  /// Restore Purchases (the `o` key, `monkeyshop restore`). Non-consumables come back (restored
  /// transactions in StoreKit 1, `currentEntitlements` in StoreKit 2); consumables never do, and
  /// the person is told so.
  ///
  /// StoreKit 1: "The payment queue delivers a new transaction for each previously completed
  /// transaction that can be restored. … After the transactions are delivered, the payment queue
  /// calls the observer's `paymentQueueRestoreCompletedTransactionsFinished(_:)` method. If an error
  /// occurred while restoring transactions, the observer will be notified through its
  /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)` method. This method has no effect
  /// in the following situations: … You tried to restore items that are not restorable, such as a
  /// non-renewing subscription or a consumable product."
  /// https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()
  /// With nothing to restore the observer is still told the restore finished: "verify that StoreKit
  /// notifies your observer that the restore is complete by calling
  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`. Note that StoreKit doesn't notify the
  /// queue of any restored transactions."
  /// https://developer.apple.com/documentation/storekit/testing-in-app-purchases-in-xcode
  ///
  /// StoreKit 2: `AppStore.sync()`, then `Transaction.currentEntitlements` (`syncStoreKit2`).
  mutating func restorePurchases() -> [ShopEffect] {
    guard store.conditions.networkUp else {
      // Apple documents the failure callback, not which error a lost network gives it.
      if storeKit == .storeKit1 {
        record(.restoreCompletedTransactions)
        record(.restoreCompletedTransactionsFailed(.networkDown))
      } else {
        record(.storeKit2(.sync))
        record(.storeKit2(.syncThrew(StoreKit2Event.networkError)))
      }
      fail(ShopFailure(ProductRequestError.networkDown))
      return []
    }
    guard storeKit == .storeKit1 else { return syncStoreKit2() }
    // The App Store delivers a `.restored` transaction for each completed non-consumable
    // purchase, then the finished callback (`restoredTransactions`).
    record(.restoreCompletedTransactions)
    return [.restoreCompletedTransactions(at: date(at: now))]
  }
}
