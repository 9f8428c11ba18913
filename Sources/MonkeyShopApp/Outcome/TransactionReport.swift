import MonkeyShopDomain

/// A transaction as the commands print it for scripts (`store transactions --json`, and the
/// `transaction` of `buy --json`): the App Store's record, dates in ISO 8601, and the signed
/// transaction (JWS) where the app has one.
public struct TransactionReport: Encodable, Equatable, Sendable {
  /// The App Store's number for the payment.
  public let id: String
  /// The app's `transactionIdentifier`: only a purchased or restored transaction has one.
  public let transactionIdentifier: String?
  public let productIdentifier: String
  public let quantity: Int
  public let state: String
  public let finished: Bool
  public let purchaseDate: String
  public let errorDomain: String?
  public let errorCode: Int?
  public let errorMessage: String?
  public let errorID: ErrorID?
  /// Present, and true, only for an interrupted purchase.
  public let hasPurchaseIssue: Bool?
  public let resolvedFromTransactionID: String?
  /// The UUID the app passed with the purchase (lowercase, as Apple writes it), where it passed one.
  public let appAccountToken: String?
  public let revocationDate: String?
  public let revocationReason: String?
  /// The signed transaction, where it is purchased or restored.
  public var jws: String?

  public init(_ transaction: StoreTransaction, jws: String? = nil) {
    id = transaction.id
    transactionIdentifier = transaction.transactionIdentifier
    productIdentifier = transaction.productIdentifier
    quantity = transaction.quantity
    state = transaction.state.description
    finished = transaction.finished
    purchaseDate = ISO8601.string(from: transaction.purchaseDate)
    errorDomain = transaction.failure?.code.domain.rawValue
    errorCode = transaction.failure?.code.code
    errorMessage = transaction.failure?.message
    errorID = transaction.failure?.errorID
    hasPurchaseIssue = transaction.hasPurchaseIssue ? true : nil
    resolvedFromTransactionID = transaction.resolvedFromTransactionID
    appAccountToken = transaction.appAccountToken?.uuidString.lowercased()
    let refunded = transaction.revocationDate != nil && transaction.revocationReason != nil
    revocationDate = refunded ? transaction.revocationDate.map(ISO8601.string(from:)) : nil
    revocationReason = refunded ? transaction.revocationReason?.description : nil
    self.jws = jws
  }
}

/// The error a command ended with, in its `--json` output.
public struct ErrorReport: Encodable, Equatable, Sendable {
  public let message: String
  public let errorID: ErrorID
  public let exitStatus: Int32

  public init(message: String, errorID: ErrorID) {
    self.message = message
    self.errorID = errorID
    exitStatus = errorID.exitStatus.rawValue
  }
}

/// What the store holds for the app and has not ended: after a launch, and in `store show`.
public struct Waiting: Encodable, Equatable, Sendable {
  public let deferred: Int
  public let purchasing: Int
  /// Purchased or failed and not finished: what a delivery failure left behind.
  public let awaitingFinish: Int

  public init(_ store: StoreState) {
    deferred = store.transactions.filter { $0.state == .deferred }.count
    purchasing = store.transactions.filter { $0.state == .purchasing }.count
    awaitingFinish = store.unfinished.count
  }
}
