import MonkeyShopDomain

/// What this session did with transactions, recorded by `update` as it happens: what a headless
/// command reports (`BuyOutcome`, `LaunchOutcome`, `RestoreOutcome`). The log says the same in words, but it is
/// capped and made for reading; these are the facts.
public struct Settlements: Equatable, Sendable {
  /// How the app took a transaction it was given.
  public enum Delivery: Equatable, Sendable {
    /// Credits added by this session.
    case credited(Int)
    /// Credited before (by an app that stopped before finishing it, or another monkeyshop).
    case alreadyCredited
    /// A non-consumable unlocked now.
    case unlocked
    /// A non-consumable the app owned already.
    case alreadyOwned
    /// Refunded before it was delivered: nothing credited or unlocked.
    case refundedBeforeDelivery
  }

  /// A refund whose credits the app took back.
  public struct TakeBack: Equatable, Sendable {
    public let transaction: StoreTransaction
    public let credits: Int
    public let balance: Int
  }

  /// How each transaction this session delivered was taken, by its ID.
  public internal(set) var deliveries: [String: Delivery] = [:]
  /// Where this session unpacked each non-consumable's content, by transaction ID.
  public internal(set) var content: [String: String] = [:]
  /// The transactions this session finished, in the order it finished them.
  public internal(set) var finished: [StoreTransaction] = []
  /// The refunds this session took credits back for, in order.
  public internal(set) var takenBack: [TakeBack] = []
  /// Payments of this session that another monkeyshop answered, delivered and finished, as the
  /// store (or its history) holds them now.
  public internal(set) var finishedElsewhere: [String: StoreTransaction] = [:]
  /// What Restore Purchases gave back: StoreKit 1's restored transactions, as the App Store
  /// delivered them; StoreKit 2's `currentEntitlements`.
  public internal(set) var restored: [StoreTransaction] = []
  /// Whether Restore Purchases ended: StoreKit 1's
  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)` came, or StoreKit 2's
  /// `currentEntitlements` were read.
  public internal(set) var restoreFinished = false

  public init() {}

  /// Whether this session credited (or unlocked) the transaction, rather than another monkeyshop.
  public func deliveredHere(_ id: String) -> Bool {
    switch deliveries[id] {
    case .credited, .unlocked: true
    default: false
    }
  }
}
