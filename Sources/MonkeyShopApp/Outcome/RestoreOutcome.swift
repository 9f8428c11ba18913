import MonkeyShopDomain

/// What a headless `restore` reports, from the facts the app recorded (`ShopModel.settlements`):
/// what Restore Purchases gave back, whether each restored transaction was finished, the balance,
/// and so the exit status. `--json` prints it as it is.
public struct RestoreOutcome: Encodable, Sendable {
  public enum Kind: String, Encodable, Sendable {
    /// The restore ended and every transaction it gave back was taken and finished (none, for
    /// consumables: they are never restored).
    case restored
    /// A restored transaction is left unfinished (its hosted content did not download): the
    /// next launch or restore takes it again.
    case unfinished
    /// The restore failed (StoreKit 1's `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`,
    /// StoreKit 2's `AppStore.sync()` threw), or never ended.
    case failed
  }

  /// One transaction Restore Purchases gave back.
  public struct Restored: Encodable, Equatable, Sendable {
    /// StoreKit 1: the restored transaction's own identifier; StoreKit 2: the entitlement's.
    public let transactionIdentifier: String
    /// StoreKit 1: the purchase it restores (`original`); StoreKit 2: nil, the entitlement is the
    /// purchase.
    public let originalTransactionIdentifier: String?
    public let productIdentifier: String
    /// Whether the app finished it: a StoreKit 1 restored transaction stays unfinished until its
    /// hosted content has downloaded; a StoreKit 2 entitlement was finished when it was bought.
    public let finished: Bool
    /// Where this run unpacked its content, if it did.
    public let content: String?
  }

  public let outcome: Kind
  public let storeKit: StoreKitAPI
  public let restored: [Restored]
  public let balance: Int
  /// Every event of the run.
  public var events: [LogRecord] = []
  public let error: ErrorReport?
  /// 0 when the restore ended with everything finished, else the error's.
  public var exitStatus: Int32 { error?.exitStatus ?? 0 }

  private enum CodingKeys: String, CodingKey {
    case outcome, storeKit, restored, balance, events, error, exitStatus
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(storeKit == .storeKit1 ? 1 : 2, forKey: .storeKit)
    try container.encode(restored, forKey: .restored)
    try container.encode(balance, forKey: .balance)
    try container.encode(events, forKey: .events)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(exitStatus, forKey: .exitStatus)
  }

  public init(_ model: ShopModel) {
    let settlements = model.settlements
    storeKit = model.storeKit
    balance = model.balance
    let finishedHere = Set(settlements.finished.map(\.id))
    restored = settlements.restored.map { transaction in
      let sk1 = transaction.state == .restored
      return Restored(
        transactionIdentifier: transaction.transactionIdentifier ?? transaction.id,
        originalTransactionIdentifier: sk1 ? transaction.restoredTransactionID : nil,
        productIdentifier: transaction.productIdentifier,
        finished: !sk1 || finishedHere.contains(transaction.id)
          || model.store.transaction(transaction.id)?.finished == true,
        content: settlements.content[transaction.id])
    }
    if !settlements.restoreFinished {
      outcome = .failed
      error = model.failure(model.lastFailure != nil ? "the restore failed" : "the restore did not end")
    } else if let left = restored.first(where: { !$0.finished }) {
      // The content's failure, when the app recorded one, says why and gives the exit status.
      outcome = .unfinished
      error = model.failure(
        "transaction #\(left.transactionIdentifier): \(left.productIdentifier) was restored but its content did not download; it stays unfinished and `monkeyshop launch` downloads it again"
      )
    } else if model.lastFailure != nil {
      outcome = .failed
      error = model.failure("the restore failed")
    } else {
      outcome = .restored
      error = nil
    }
  }

  /// The text output after the event log when the restore ended: the storefront's status.
  public var line: String? {
    guard outcome == .restored else { return nil }
    return Words(.en).notice(.restoreFinished(restored: restored.count), title: { $0 })
  }
}
