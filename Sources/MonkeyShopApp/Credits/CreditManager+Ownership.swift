import MonkeyShopDomain

extension CreditManager {
  /// Delivers a non-consumable: the app records that it owns the product (`owned.json`), once,
  /// whatever delivers it and however often. Only what the App Store says was paid for (or
  /// restored) is unlocked.
  func unlock(_ transaction: StoreTransaction) throws -> Delivery {
    let product = transaction.productIdentifier
    return try storage.updateOwned { owned, store, wallet in
      if owned.owns(product) { return .alreadyOwned(productIdentifier: product, balance: wallet.balance) }
      guard let paid = store.transaction(transaction.id), paid.transactionIdentifier != nil else {
        throw CreditError.notPurchased(transaction.id)
      }
      // Refunded before the app finished it (a restored copy: its purchase refunded): no access.
      let purchase = paid.restoredTransactionID.flatMap(store.transaction) ?? paid
      if purchase.isRevoked { return .refunded(productIdentifier: product, balance: wallet.balance) }
      owned.unlock(product, by: transaction.id)
      return .unlocked(productIdentifier: product, balance: wallet.balance)
    }
  }

  /// StoreKit 2 after `AppStore.sync()`: every non-consumable `Transaction.currentEntitlements`
  /// emitted is the app's, as Apple's record says; those not owned yet are unlocked. Returns the
  /// products unlocked now.
  public func unlock(entitlements: [StoreTransaction]) throws -> [String] {
    try storage.updateOwned { owned, _, _ in
      entitlements.filter { owned.unlock($0.productIdentifier, by: $0.id) }.map(\.productIdentifier)
    }
  }
}

extension CreditManager {
  /// What became of a non-consumable whose purchase was refunded.
  public enum Revocation: Equatable, Sendable {
    /// Access removed now: no purchase of the product is left that is not refunded.
    case removed(productIdentifier: String)
    /// Another purchase of the product, not refunded, still entitles the app: it keeps the product.
    case stillEntitled(productIdentifier: String, by: String)
    /// The app did not own it (never delivered, or removed before).
    case notOwned(productIdentifier: String)
  }

  /// Removes access to a refunded non-consumable, as Apple asks of both APIs ("Remove access to the
  /// product identified by transaction.productID",
  /// https://developer.apple.com/documentation/storekit/transaction/updates; "check the receipt …
  /// and provide the correct level of access",
  /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)).
  /// The app is entitled to the product while any purchase of it is not refunded: a restored
  /// transaction is a copy of its purchase and entitles through it. Only a transaction the store
  /// (or its history) holds as refunded revokes anything. The refund is then recorded as heard
  /// (the wallet's `clawedBack`), so no launch acts on it again.
  public func revokeAccess(_ transaction: StoreTransaction) throws -> Revocation {
    let product = transaction.productIdentifier
    guard let number = transaction.number else { throw CreditError.notRefunded(transaction.id) }
    let history = try storage.readHistory(ofProducts: [product])
    let revocation = try storage.updateOwned { owned, store, _ in
      let every = store.withHistory(history)
      guard let refunded = every.last(where: { $0.id == transaction.id }), refunded.isRevoked else {
        throw CreditError.notRefunded(transaction.id)
      }
      if let other = every.first(where: { $0.productIdentifier == product && $0.isRefundable }) {
        return Revocation.stillEntitled(productIdentifier: product, by: other.id)
      }
      return owned.revoke(product) ? .removed(productIdentifier: product) : .notOwned(productIdentifier: product)
    }
    try storage.update { _, wallet in wallet.clawedBack.insert(number) }
    return revocation
  }
}
