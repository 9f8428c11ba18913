import Foundation

extension AppStore {
  /// `restoreCompletedTransactions()`: "The payment queue delivers a new transaction for each
  /// previously completed transaction that can be restored. Each transaction includes a copy of the
  /// original transaction." It "has no effect" for "items that are not restorable, such as a
  /// non-renewing subscription or a consumable product"
  /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()).
  /// A restored transaction "holds a new transaction identifier" and its `original` is the
  /// purchase (https://developer.apple.com/documentation/storekit/skpaymenttransaction/original);
  /// "Restoring multiple times creates multiple restored transactions for each completed
  /// transaction" (https://developer.apple.com/documentation/storekit/restoring-purchased-products).
  /// Completed: purchased, finished and not refunded. The history counts: restores reach back to
  /// every purchase ever made.
  ///
  /// A purchase whose earlier restored transaction the app has not finished yet gets no second one:
  /// that one is still in the queue, and the queue delivers it again ("those transactions are not
  /// lost. The next time the application launches, the payment queue resumes processing the
  /// transactions", https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-5ciz2).
  /// Apple does not say what a restore does while an earlier restored copy is unfinished; repeated
  /// restores that cannot complete (a content folder that cannot be written) must not fill the
  /// queue with copies of one purchase.
  public mutating func restoreCompletedTransactions(at now: Date) throws(TransactionError) -> [StoreTransaction] {
    let inQueue = Set(unfinishedRestores.compactMap(\.restoredTransactionID))
    let restorable = state.withHistory(history).filter {
      $0.isRefundable && $0.finished && !inQueue.contains($0.id) && catalog.isNonConsumable($0.productIdentifier)
    }
    var restored: [StoreTransaction] = []
    for original in restorable {
      guard let id = state.takeTransactionNumber() else { throw .outOfTransactionNumbers }
      var transaction = StoreTransaction(
        id: id, productIdentifier: original.productIdentifier, quantity: original.quantity, state: .restored,
        purchaseDate: now, environment: state.conditions.environment,
        failsVerification: !state.conditions.verificationPasses, storefront: storefront.code)
      transaction.restoredTransactionID = original.id
      transaction.originalPurchaseDate = original.purchaseDate
      // The purchase's record: what it cost and what it is, as charged then.
      transaction.record =
        original.record
        ?? catalog.product(original.productIdentifier).flatMap {
          PurchaseRecord(
            product: $0, quantity: original.quantity, storefront: storefront, bundleId: catalog.bundleIdentifier)
        }
      transaction.appAccountToken = original.appAccountToken
      transaction.appTransactionID = appTransactionID(firstPurchase: transaction.purchaseDate)
      state.transactions.append(transaction)
      restored.append(transaction)
    }
    return restored
  }

  /// Restored transactions still in the queue, not finished by the app.
  public var unfinishedRestores: [StoreTransaction] {
    state.transactions.filter { $0.state == .restored && !$0.finished }
  }

  /// `Transaction.currentEntitlements` of every transaction ever made: "A transaction for each
  /// non-consumable In-App Purchase … Products that the App Store has refunded or revoked don't
  /// appear in the current entitlements. Consumable In-App Purchases also don't appear"
  /// (https://developer.apple.com/documentation/storekit/transaction/currententitlements). The
  /// first purchase of each product; StoreKit 1's restored transactions are not StoreKit 2's ("The
  /// restoreCompletedTransactions() function doesn't affect transactions in the Transaction API",
  /// restoreCompletedTransactions() above).
  public static func currentEntitlements(of transactions: [StoreTransaction], in catalog: Catalog)
    -> [StoreTransaction]
  {
    var seen: Set<String> = []
    return transactions.filter {
      $0.isRefundable && catalog.isNonConsumable($0.productIdentifier) && seen.insert($0.productIdentifier).inserted
    }
  }
}
