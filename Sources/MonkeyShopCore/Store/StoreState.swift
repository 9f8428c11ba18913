import Foundation

/// Apple's side of the simulation, kept in `store.json` beside the wallet: the conditions and every
/// transaction the App Store knows, so unfinished ones survive a relaunch.
public struct StoreState: Codable, Equatable, Sendable {
  public static let schemaVersion = 1
  /// Finished transactions kept for the transaction manager; older ones are dropped, as
  /// StoreKit drops finished consumables, so the file does not grow without bound.
  public static let finishedHistoryLimit = 20

  public var schemaVersion = StoreState.schemaVersion
  public var conditions = Conditions()
  public var transactions: [StoreTransaction] = []
  public var lastTransactionNumber = 0

  public init() {}

  public func transaction(_ id: String) -> StoreTransaction? {
    transactions.first { $0.id == id }
  }

  /// The transactions the app's observer receives at launch: paid or failed, not finished.
  public var unfinished: [StoreTransaction] { transactions.filter(\.awaitsFinish) }

  /// `store reset`: default conditions and no transactions, except those paid for and not yet
  /// finished. The app has not delivered them yet, and forgetting them would lose a paid purchase
  /// (SPEC §12); its next launch delivers and finishes them. Numbers keep counting up, so no new
  /// transaction takes an old one's id. Returns the transactions kept.
  @discardableResult
  public mutating func reset() -> [StoreTransaction] {
    let kept = transactions.filter { $0.state == .purchased && !$0.finished }
    let last = lastTransactionNumber
    self = StoreState()
    lastTransactionNumber = last
    transactions = kept
    return kept
  }

  /// The next transaction's id, counting up; nil once the counter has reached its limit.
  mutating func takeTransactionNumber() -> String? {
    guard lastTransactionNumber < Self.transactionNumberLimit else { return nil }
    lastTransactionNumber += 1
    return "\(lastTransactionNumber)"
  }

  /// When the App Store next answers a purchase in flight.
  public var nextAnswerDate: Date? {
    transactions.compactMap { $0.state == .purchasing ? $0.answerDate : nil }.min()
  }
}
