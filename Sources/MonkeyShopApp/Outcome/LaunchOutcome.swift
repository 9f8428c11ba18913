import MonkeyShopDomain

/// What a headless `launch` reports, from the facts the app recorded as it took delivery
/// (`ShopModel.settlements`): each transaction it took from the queue and finished, each refund it
/// took credits back for, the balance and what still waits. `--json` prints it as it is.
public struct LaunchOutcome: Encodable, Sendable {
  public let taken: [Taken]
  /// Refunds the app heard of at this launch (made while it was not running) and took back.
  public let tookBack: [TookBack]
  public let balance: Int
  public let deferred: Int
  public let purchasing: Int
  public let awaitingFinish: Int
  public var events: [LogRecord] = []
  public let error: ErrorReport?
  public var exitStatus: Int32 { error?.exitStatus ?? 0 }

  private enum CodingKeys: String, CodingKey {
    case taken, tookBack, balance, deferred, purchasing, awaitingFinish, events, error, exitStatus
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(taken, forKey: .taken)
    try container.encode(tookBack, forKey: .tookBack)
    try container.encode(balance, forKey: .balance)
    try container.encode(deferred, forKey: .deferred)
    try container.encode(purchasing, forKey: .purchasing)
    try container.encode(awaitingFinish, forKey: .awaitingFinish)
    try container.encode(events, forKey: .events)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(exitStatus, forKey: .exitStatus)
  }

  public init(_ model: ShopModel) {
    let settlements = model.settlements
    taken = settlements.finished.map { Taken($0, settlements) }
    tookBack = settlements.takenBack.map(TookBack.init)
    balance = model.balance
    let waiting = Waiting(model.store)
    deferred = waiting.deferred
    purchasing = waiting.purchasing
    awaitingFinish = waiting.awaitingFinish
    error = model.lastFailure == nil ? nil : model.failure("a delivery failed")
  }

  /// The text output after the event log: a line per transaction taken and per refund taken
  /// back, then the summary.
  public var lines: [String] {
    taken.map(\.line) + tookBack.map(\.line) + [summary]
  }

  var summary: String {
    let credited = taken.filter { $0.credits > 0 }.count
    let unlocked = taken.filter { $0.arrival == .unlocked }.count
    var done: [String] = []
    if !taken.isEmpty {
      done.append(
        "\(credited) credited, " + (unlocked > 0 ? "\(unlocked) unlocked, " : "")
          + "\(taken.count - credited - unlocked) only finished")
    }
    if !tookBack.isEmpty {
      let credits = tookBack.map(\.credits).reduce(0, +)
      done.append(
        "\(tookBack.count) refund\(tookBack.count == 1 ? "" : "s") taken back (-\(counted(credits, "credit")))")
    }
    var parts = [
      "balance \(counted(balance, "monkey credit"))",
      done.isEmpty ? "nothing was waiting" : done.joined(separator: ", "),
    ]
    parts.append(
      "still waiting: \(deferred) deferred (Ask to Buy), \(purchasing) purchasing, \(awaitingFinish) to finish")
    return parts.joined(separator: "; ")
  }

  /// One transaction this launch took from the queue and finished.
  public struct Taken: Encodable, Equatable, Sendable {
    /// The App Store's number for the payment.
    public let payment: String
    /// The app's `transactionIdentifier`: nil for a failed payment.
    public let transactionIdentifier: String?
    public let productIdentifier: String
    /// What this launch credited: 0 when it was credited already, refunded first, or failed.
    public let credits: Int
    public let arrival: Arrival
    /// For a resolution: the interrupted purchase it resolves.
    public let resolvedFromTransactionID: String?
    /// For a non-consumable: where this launch unpacked its content, if it did.
    public let content: String?

    init(_ transaction: StoreTransaction, _ settlements: Settlements) {
      let id = transaction.id
      let delivery = settlements.deliveries[id]
      payment = id
      transactionIdentifier = transaction.transactionIdentifier
      productIdentifier = transaction.productIdentifier
      if case .credited(let credits) = delivery { self.credits = credits } else { credits = 0 }
      resolvedFromTransactionID = transaction.resolvedFromTransactionID
      content = settlements.content[id]
      arrival =
        switch delivery {
        case _ where transaction.state == .failed: .failed
        case .unlocked: .unlocked
        case .alreadyOwned: .alreadyOwned
        case .refundedBeforeDelivery: .refundedBeforeDelivery
        case _ where transaction.resolvedFromTransactionID != nil: .resolution
        case .credited: .awaitingDelivery
        case .alreadyCredited, nil: .alreadyCredited
        }
    }

    var name: String { StoreTransaction.logName(payment, identified: transactionIdentifier != nil) }

    var line: String {
      let what: String
      switch arrival {
      case .failed, .alreadyCredited, .alreadyOwned, .refundedBeforeDelivery: what = "finished \(name)"
      case .resolution, .awaitingDelivery, .unlocked: what = "delivered \(name)"
      }
      let credit = credits > 0 ? "  +\(counted(credits, "credit"))" : ""
      var how = resolvedFromTransactionID.map { "resolves interrupted payment \($0)" } ?? arrival.text
      if let content { how += "; content downloaded to \(TerminalText.escaped(content))" }
      return "\(what)  \(productIdentifier)\(credit)  (\(how))"
    }
  }

  public enum Arrival: String, Encodable, Sendable {
    /// The purchase resolving an interrupted one.
    case resolution
    /// Paid for and not delivered: an Ask to Buy approved, or a purchase whose app stopped
    /// before delivering it (the store keeps no mark of which).
    case awaitingDelivery
    /// Credited before, by an app that stopped before finishing it or by another monkeyshop.
    case alreadyCredited
    /// A failed transaction (a declined Ask to Buy, a cancel, an error) left unfinished.
    case failed
    /// A non-consumable unlocked now: paid for (or restored) and not delivered before.
    case unlocked
    /// A non-consumable the app owned already (an app stopped before finishing it): only its
    /// content downloaded again and the transaction finished.
    case alreadyOwned
    /// Refunded before it was delivered: nothing credited or unlocked, only finished.
    case refundedBeforeDelivery

    var text: String {
      switch self {
      case .resolution: "resolution"
      case .awaitingDelivery: "an approved Ask to Buy, or a purchase an app stopped before delivering"
      case .alreadyCredited: "credited before an app stopped, or by another monkeyshop: only finished now"
      case .failed: "failed, only finished now"
      case .unlocked: "a non-consumable unlocked now, no credits"
      case .alreadyOwned: "a non-consumable unlocked before an app stopped, no credits: finished now"
      case .refundedBeforeDelivery: "refunded before it was delivered: nothing given, only finished now"
      }
    }
  }

  /// A refund whose credits this launch took back.
  public struct TookBack: Encodable, Equatable, Sendable {
    public let payment: String
    public let transactionIdentifier: String?
    public let productIdentifier: String
    /// The credits taken back: 0 for a purchase never credited.
    public let credits: Int
    /// The balance after, below zero when the credits were spent (owed).
    public let balance: Int
    public let revocationReason: String?

    init(_ takeBack: Settlements.TakeBack) {
      payment = takeBack.transaction.id
      transactionIdentifier = takeBack.transaction.transactionIdentifier
      productIdentifier = takeBack.transaction.productIdentifier
      credits = takeBack.credits
      balance = takeBack.balance
      revocationReason = takeBack.transaction.refundReason?.description
    }

    var line: String {
      "took back #\(payment)  \(productIdentifier)  -\(counted(credits, "credit"))  (refunded"
        + (revocationReason.map { ", revocationReason \($0)" } ?? "") + "; balance \(balance))"
    }
  }
}
