import Foundation
import MonkeyShopDomain

/// What the transaction manager's detail says about one transaction (docs/signing.md): the payload the
/// App Store signs for it, what StoreKit 2's verification gives the app, and which of StoreKit 2's
/// transaction sequences hold it.
public struct TransactionInspection: Equatable, Sendable {
  public let transaction: StoreTransaction
  /// Nil where the App Store signs nothing: a payment purchasing, deferred or failed.
  public let payload: SignedTransactionPayload?
  /// Whether the signed transaction verifies (`VerificationResult.verified`). One completed under
  /// `verification fail` is signed with a key that is not the leaf's, so every verifier, StoreKit's
  /// and Apple's App Store Server Library alike, finds `invalidSignature`.
  public let verifies: Bool
  /// The StoreKit 2 sequences that emit it, as the app would read them now.
  public let sequences: Sequences
  /// A consumable, as far as the catalog knows: a product it no longer sells counts as one, since
  /// every product a signed transaction of this shop names was sold as a consumable or is still
  /// in the catalog.
  public let consumable: Bool

  public struct Sequences: Equatable, Sendable {
    /// `Transaction.all`: "Unfinished consumables; Finished consumables that are refunded or
    /// revoked; Non-consumables …", and with `SKIncludeConsumableInAppPurchaseHistory` every
    /// finished consumable too (https://developer.apple.com/documentation/storekit/transaction/all).
    public let all: Bool
    /// `Transaction.unfinished`: "A sequence that emits unfinished transactions for the customer. …
    /// A transaction is unfinished until you call `finish()`"
    /// (https://developer.apple.com/documentation/storekit/transaction/unfinished).
    public let unfinished: Bool
    /// `Transaction.currentEntitlements`: a non-consumable not refunded or revoked; "Consumable
    /// In-App Purchases also don't appear in the current entitlements"
    /// (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
    public let currentEntitlements: Bool
  }

  public init(
    _ transaction: StoreTransaction, catalog: Catalog, conditions: Conditions, appTransactionID: String? = nil
  ) {
    self.transaction = transaction
    let storefront = conditions.activeStorefront(default: catalog.defaultStorefront)
    payload = SignedTransactionPayload(
      transaction, catalog: catalog, storefront: storefront, appTransactionID: appTransactionID)
    verifies = !transaction.failsVerification
    // StoreKit 2 has a `Transaction` only for a purchase: StoreKit 1's restored transactions are
    // not in the Transaction API ("The restoreCompletedTransactions() function doesn't affect
    // transactions in the Transaction API", see `AppStore.restoreCompletedTransactions`).
    let inTransactionAPI = payload != nil && transaction.state == .purchased
    let consumable = !transaction.isNonConsumable(in: catalog)
    self.consumable = consumable
    let history = consumable ? conditions.includeConsumableHistory || transaction.isRevoked : true
    sequences = Sequences(
      all: inTransactionAPI && (!transaction.finished || history),
      unfinished: inTransactionAPI && !transaction.finished,
      currentEntitlements: inTransactionAPI && !consumable && transaction.isRefundable)
  }
}

extension ShopModel {
  /// The selected transaction, inspected: for the manager's detail.
  public var inspection: TransactionInspection? {
    selectedTransaction.map {
      TransactionInspection(
        $0, catalog: catalog, conditions: store.conditions, appTransactionID: store.appTransactionID)
    }
  }
}
