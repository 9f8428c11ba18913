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
