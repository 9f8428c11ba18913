import MonkeyShopDomain

/// What a headless `buy` reports, from the facts the app recorded (`ShopModel.settlements`) and the
/// store's record of the transaction: the outcome, the line to print or the error to end with, and
/// so the exit status. `--json` prints it as it is.
public struct BuyOutcome: Encodable, Sendable {
  public enum Kind: String, Encodable, Sendable {
    /// Delivered and finished by this command.
    case purchased
    /// Paid for, then credited and finished by another monkeyshop on the same data folder (an
    /// open storefront, another command) before this one could.
    case creditedElsewhere
    /// Waits for a parent's approval (Ask to Buy).
    case deferred
    /// A StoreKit 2 purchase the App Store interrupted: the app saw `.pending`, not a failure.
    case pending
    case failed
    /// Paid for and not delivered and finished: the next launch takes it.
    case unfinished
    /// The payment never reached the store.
    case notAdded
  }

  public let outcome: Kind
  /// The transaction as `store transactions --json` gives it (the signed transaction included).
  public var transaction: TransactionReport?
  public let balance: Int
  /// Who credited a purchase: `this command` or `another monkeyshop`.
  public let creditedBy: String?
  /// Every event of the run.
  public var events: [LogRecord] = []
  public let error: ErrorReport?
  /// 0 when the purchase went through or waits for approval, else the error's.
  public var exitStatus: Int32 { error?.exitStatus ?? 0 }
  /// The line the text output ends with when the purchase went through.
  public let line: String?

  private enum CodingKeys: String, CodingKey {
    case outcome, transaction, balance, creditedBy, events, error, exitStatus
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(outcome, forKey: .outcome)
    try container.encodeIfPresent(transaction, forKey: .transaction)
    try container.encode(balance, forKey: .balance)
    try container.encodeIfPresent(creditedBy, forKey: .creditedBy)
    try container.encode(events, forKey: .events)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(exitStatus, forKey: .exitStatus)
  }

  /// The transaction the run's payment became, as the store holds it, or as another monkeyshop
  /// left it in the history.
  public static func transaction(of model: ShopModel) -> StoreTransaction? {
    guard let id = model.lastAddedTransactionID else { return nil }
    return model.store.transaction(id) ?? model.settlements.finishedElsewhere[id]
  }

  public init(_ model: ShopModel) {
    balance = model.balance
    let id = model.lastAddedTransactionID
    guard let id, let transaction = Self.transaction(of: model) else {
      outcome = .notAdded
      transaction = nil
      creditedBy = nil
      line = nil
      error = model.failure(id == nil ? "the payment was not added" : "the purchase did not end")
      return
    }
    self.transaction = TransactionReport(transaction)
    let product = transaction.productIdentifier
    let download = model.download(forProduct: product)
    var creditedBy: String?
    var line: String?
    var error: ErrorReport?
    var outcome = Kind.purchased
    switch transaction.state {
    case .purchased where transaction.finished && model.owned.owns(product):
      let content = download?.installedAt
      line = "purchased: transaction #\(id), \(product) owned" + (content.map { ", content in \($0)" } ?? "")
      creditedBy = model.settlements.deliveredHere(id) ? Self.thisCommand : Self.anotherMonkeyshop
    case .purchased where !transaction.finished && download != nil:
      outcome = .unfinished
      error = ErrorReport(
        message:
          "transaction #\(id): \(product) is owned but its download \(download?.state.description ?? "stopped")"
          + (download?.error.map { " (\($0))" } ?? "")
          + "; the transaction stays unfinished and `monkeyshop launch` downloads it again",
        errorID: .deliveryIncomplete)
    case .purchased where transaction.finished:
      // Another monkeyshop on the same data folder may have answered, credited or finished it first.
      let here = model.settlements.deliveredHere(id)
      outcome = here ? .purchased : .creditedElsewhere
      creditedBy = here ? Self.thisCommand : Self.anotherMonkeyshop
      let how = here ? "" : ", credited by \(Words(.en).anotherMonkeyshop)"
      line = "purchased: transaction #\(id)\(how), balance \(counted(model.balance, "monkey credit"))"
    case .purchased where model.storeKit == .storeKit2 && transaction.failsVerification:
      outcome = .unfinished
      error = ErrorReport(
        message:
          "transaction #\(id) failed verification (.unverified(invalidSignature)): the app credits nothing and leaves it unfinished",
        errorID: .deliveryIncomplete)
    case .purchased:
      outcome = .unfinished
      error = model.failure(
        model.settlements.deliveredHere(id)
          ? "transaction #\(id) was credited but not finished; it stays unfinished and `monkeyshop launch` finishes it without crediting again"
          : "transaction #\(id) was paid for but not delivered; it stays unfinished and `monkeyshop launch` delivers it"
      )
    case .deferred where model.storeKit == .storeKit2:
      outcome = .deferred
      line =
        "pending: Ask to Buy waits for a parent; the app has no transaction yet (the store's payment \(id): monkeyshop store approve \(id))"
    case .deferred:
      outcome = .deferred
      line = "deferred: payment \(id) waits for approval (monkeyshop store approve \(id))"
    case .failed where model.storeKit == .storeKit2 && transaction.failure?.storeKit2Outcome == .pending:
      // What the StoreKit 2 app was given: `.pending`, "The purchase is pending, and requires action
      // from the customer. … If a pending purchase succeeds, StoreKit delivers the resulting
      // Transaction in the transaction updates"
      // (https://developer.apple.com/documentation/storekit/product/purchaseresult/pending). Not a
      // failure: the app was told to wait, as for Ask to Buy.
      outcome = .pending
      line =
        "pending: the App Store interrupted the purchase and it requires action from the customer; the app has no transaction yet (the store's payment \(id): monkeyshop store resolve \(id))"
    case .failed:
      outcome = .failed
      let failure = transaction.failure ?? .networkLost
      error = ErrorReport(message: "purchase failed: \(failure.error) (payment \(id))", errorID: failure.errorID)
    case .purchasing, .restored:
      outcome = .unfinished
      error = model.failure("\(transaction.logName) is still \(transaction.state)")
    }
    self.outcome = outcome
    self.creditedBy = creditedBy
    self.line = line
    self.error = error
  }

  static let thisCommand = "this command"
  static let anotherMonkeyshop = "another monkeyshop"
}

extension ShopModel {
  /// How a headless run of the app ended badly: what happened (`what`), then the app's last error,
  /// with that error's ID; without one, the delivery did not complete.
  public func failure(_ what: String) -> ErrorReport {
    guard let failure = lastFailure else { return ErrorReport(message: what, errorID: .deliveryIncomplete) }
    return ErrorReport(message: "\(what): \(failure)", errorID: failure.errorID)
  }
}
