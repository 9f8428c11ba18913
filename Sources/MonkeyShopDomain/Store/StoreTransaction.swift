import Foundation

/// SKPaymentTransactionState, with Apple's raw values.
public enum TransactionState: Int, Codable, CaseIterable, Sendable, CustomStringConvertible {
  case purchasing = 0
  case purchased = 1
  case failed = 2
  /// A non-consumable restored (`restoreCompletedTransactions()`); consumables never are.
  case restored = 3
  case deferred = 4

  public var description: String {
    switch self {
    case .purchasing: "purchasing"
    case .purchased: "purchased"
    case .failed: "failed"
    case .restored: "restored"
    case .deferred: "deferred"
    }
  }

  public init?(name: String) {
    guard let state = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = state
  }

  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    guard let state = TransactionState(name: name) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "unknown transaction state '\(name)'"))
    }
    self = state
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// A payment the App Store is processing or has processed: one SKPaymentTransaction.
public struct StoreTransaction: Codable, Equatable, Sendable, Identifiable {
  public let id: String
  public let productIdentifier: String
  public let quantity: Int
  public var state: TransactionState
  /// Set by `finishTransaction`; until then the transaction stays in the queue and is redelivered.
  public var finished: Bool
  public var failure: StoreFailure?
  public let purchaseDate: Date
  /// While purchasing: when the App Store answers; nil until the payment sheet is answered.
  public var answerDate: Date?
  /// Chosen when the payment was added: the error this purchase is made to fail with.
  public var forcedError: StoreError?
  /// An interrupted purchase waiting for the user to resolve the issue.
  public var hasPurchaseIssue: Bool
  /// For the purchase that resolving an interruption delivers: the interrupted payment. (Not
  /// Apple's `originalTransactionIdentifier`, which only a restored transaction has.)
  public var resolvedFromTransactionID: String?
  /// Stamped when the App Store completes the purchase (docs/signing.md): the environment its signed
  /// transaction names, and whether it fails verification (the `verification` condition).
  public var environment: StoreEnvironment?
  public var failsVerification: Bool
  /// The storefront the purchase was charged in (its price and currency), stamped with the rest.
  public var storefront: String?
  /// Set by a refund (`store refund`, the transaction manager), as Xcode's Transaction Manager does.
  public var revocationDate: Date?
  public var revocationReason: RevocationReason?
  /// The reason a refunded transaction gives: the one the refund named, else `other`; nil when it
  /// was not refunded.
  public var refundReason: RevocationReason? { revocationDate == nil ? nil : revocationReason ?? .other }
  /// For a restored transaction: the purchase it restores (`SKPaymentTransaction.original`).
  public var restoredTransactionID: String?
  /// For a restored transaction: the purchase date of the purchase it restores, which its signed
  /// transaction gives as `originalPurchaseDate`.
  public var originalPurchaseDate: Date?
  // Apple's account fields of the signed transaction (`SignedTransactionPayload`):
  /// The UUID the app passed with the purchase: StoreKit 2's `.appAccountToken(_:)` purchase option,
  /// or StoreKit 1's `applicationUsername` when it is a UUID
  /// (https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken). Nil: none given.
  public var appAccountToken: UUID?
  /// The app download's `appTransactionId`, stamped when the App Store completes the purchase
  /// (`StoreState.appTransactionID`).
  public var appTransactionID: String?

  // MARK: The record, fixed when the App Store completes the transaction

  /// Price, currency, product type and credits due, recorded at purchase (and copied from the
  /// purchase by a restore); nil for a payment not completed, or one completed before transactions
  /// kept a record.
  public var record: PurchaseRecord?
  /// The signed transaction (JWS) as the App Store signed it when it completed the transaction,
  /// stored so that it reads byte for byte the same ever after.
  public var signedPurchase: String?
  /// The signed transaction as signed once more at its refund, with the revocation fields.
  public var signedRefund: String?

  /// The transaction's JWS as the App Store holds it now: the refund's once refunded, else the
  /// purchase's; nil while not signed.
  public var currentJWS: String? { isRevoked ? signedRefund : signedPurchase }

  public init(
    id: String, productIdentifier: String, quantity: Int, state: TransactionState,
    purchaseDate: Date, finished: Bool = false, failure: StoreFailure? = nil,
    answerDate: Date? = nil, forcedError: StoreError? = nil, hasPurchaseIssue: Bool = false,
    resolvedFromTransactionID: String? = nil, environment: StoreEnvironment? = nil, failsVerification: Bool = false,
    revocationDate: Date? = nil, revocationReason: RevocationReason? = nil, storefront: String? = nil,
    appAccountToken: UUID? = nil
  ) {
    self.id = id
    self.productIdentifier = productIdentifier
    self.quantity = quantity
    self.state = state
    self.purchaseDate = purchaseDate
    self.finished = finished
    self.failure = failure
    self.answerDate = answerDate
    self.forcedError = forcedError
    self.hasPurchaseIssue = hasPurchaseIssue
    self.resolvedFromTransactionID = resolvedFromTransactionID
    self.environment = environment
    self.failsVerification = failsVerification
    self.revocationDate = revocationDate
    self.revocationReason = revocationReason
    self.storefront = storefront
    self.appAccountToken = appAccountToken
  }

  /// `transactionIdentifier` as the app sees it: "undefined except when `transactionState` is set
  /// to `SKPaymentTransactionState.purchased` or `SKPaymentTransactionState.restored`"
  /// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier).
  /// StoreKit 2 likewise creates a `Transaction` only for a completed purchase. The App Store's
  /// own record (`id`, which `store approve`, `decline`, `resolve` and `refund` take) exists from
  /// the moment the payment is added; it becomes the identifier when the payment is purchased.
  public var transactionIdentifier: String? { Self.hasIdentifier(state) ? id : nil }

  /// Whether a transaction in this state has a `transactionIdentifier`.
  public static func hasIdentifier(_ state: TransactionState) -> Bool { state == .purchased || state == .restored }

  /// How the log names the transaction: `#3` once it has a `transactionIdentifier`, `payment 3`
  /// before that and when it failed.
  public var logName: String { Self.logName(id, identified: transactionIdentifier != nil) }

  public static func logName(_ id: String, identified: Bool) -> String { identified ? "#\(id)" : "payment \(id)" }

  /// Refunded: the App Store revoked it.
  public var isRevoked: Bool { revocationDate != nil }

  /// A purchase the App Store has not refunded: what it can still refund, and what entitles the app
  /// to a non-consumable (restore, `currentEntitlements` and ownership all ask this).
  public var isRefundable: Bool { state == .purchased && !isRevoked }

  /// Added to the queue, its payment sheet not yet answered: purchasing with no answer due.
  public var awaitsPaymentSheet: Bool { state == .purchasing && answerDate == nil }

  /// Purchased or failed and not yet finished: the observer gets it again at every launch.
  public var awaitsFinish: Bool { !finished && (state == .purchased || state == .failed || state == .restored) }

  mutating func fail(_ failure: StoreFailure) {
    state = .failed
    self.failure = failure
    answerDate = nil
  }
}
