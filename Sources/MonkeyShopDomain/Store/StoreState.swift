import Foundation

/// Apple's side of the simulation, kept in `store.json` beside the wallet: the conditions, the
/// transactions still in the payment queue and the newest finished ones, so unfinished ones survive
/// a relaunch. Older transactions move to the history (`history.jsonl`), so every transaction ever
/// made stays listed while this file, read and written by every purchase, stays small.
public struct StoreState: Codable, Equatable, Sendable {
  public static let schemaVersion = 1
  /// Finished transactions kept in the store file; older ones move to the history, so the cost of
  /// a purchase does not grow with the number of past transactions.
  public static let finishedHistoryLimit = 20

  public var schemaVersion = StoreState.schemaVersion
  public var conditions = Conditions()
  public var transactions: [StoreTransaction] = []
  public var lastTransactionNumber = 0
  /// App Store Server Notifications: the URL they go to, those waiting, the refund requests open.
  public var notifications = NotificationQueue()
  /// The app download's transaction ID, made at the first purchase the App Store completes and
  /// kept ever after (a reset keeps it): "The App Store generates a single, globally unique
  /// `appTransactionID` for each Apple Account that downloads your app … This value remains the
  /// same for the same Apple Account and app if the customer redownloads the app on any device,
  /// receives a refund, repurchases the app, or changes the storefront"
  /// (https://developer.apple.com/documentation/storekit/apptransaction/apptransactionid). A data
  /// folder is one account's one app.
  public var appTransactionID: String?
  /// The App Store's record's newest revision (`record.sqlite`, which counts every row written) when
  /// this store was last written beside it: a record holding less is older than this store (a copy
  /// put back from a backup), and lacks transactions that left the store for it since. Nil: written
  /// before the record was counted, or with no record yet.
  public var recordRevision: Int64?
  /// Transactions this change took out of the store (as they last were), for the storage to append
  /// to the history before it writes the store without them. Never written to `store.json`, and
  /// not part of what the store is (`==`): a store read back has none.
  public var leaving: [StoreTransaction] = []

  public init() {}

  public static func == (lhs: StoreState, rhs: StoreState) -> Bool {
    lhs.schemaVersion == rhs.schemaVersion && lhs.conditions == rhs.conditions
      && lhs.transactions == rhs.transactions && lhs.lastTransactionNumber == rhs.lastTransactionNumber
      && lhs.notifications == rhs.notifications
      && lhs.appTransactionID == rhs.appTransactionID && lhs.recordRevision == rhs.recordRevision
  }

  /// A new `appTransactionId`: a decimal string of 18 digits, the shape of Apple's (an "Apple-
  /// defined" string; Apple's test data has "71134"), from the bundle ID and the moment of the
  /// folder's first completed purchase (to the millisecond): folders differ, and a walkthrough or
  /// test on the virtual clock gets the same one every run.
  public static func newAppTransactionID(bundleIdentifier: String, firstPurchase: Date) -> String {
    let milliseconds = Int64((firstPurchase.timeIntervalSince1970 * 1000).rounded())
    return fnv1a18("appTransactionId \(bundleIdentifier) \(milliseconds)")
  }

  /// 18 decimal digits from FNV-1a of `text`.
  private static func fnv1a18(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(100_000_000_000_000_000 + hash % 900_000_000_000_000_000)
  }

  /// The `appTransactionId` of a data folder whose transactions were completed before this version
  /// stamped one: the same 18 digits for the same bundle ID every time (FNV-1a), so what a listing
  /// shows before the folder is next written and after it agree.
  public static func derivedAppTransactionID(bundleIdentifier: String) -> String {
    fnv1a18("appTransactionId " + bundleIdentifier)
  }

  public func transaction(_ id: String) -> StoreTransaction? {
    transactions.first { $0.id == id }
  }

  /// The transactions the app's observer receives at launch: paid or failed, not finished.
  public var unfinished: [StoreTransaction] { transactions.filter(\.awaitsFinish) }

  /// `store reset`: default conditions and an empty payment queue, except for transactions paid
  /// for and not yet finished. The app has not delivered them yet, and forgetting them would lose a
  /// paid purchase (docs/data-folder.md); its next launch delivers and finishes them. The others move to the
  /// history, where every transaction stays listed. Numbers keep counting up, so no new transaction
  /// takes an old one's id. Returns the transactions kept.
  @discardableResult
  public mutating func reset() -> [StoreTransaction] {
    let kept = transactions.filter { $0.state == .purchased && !$0.finished }
    let last = lastTransactionNumber
    let app = appTransactionID
    let revision = recordRevision
    let leaving = leaving + transactions.filter { !($0.state == .purchased && !$0.finished) }
    // Notifications are Apple's record, not a test condition: those waiting still go out.
    let notifications = notifications
    self = StoreState()
    lastTransactionNumber = last
    self.notifications = notifications
    appTransactionID = app
    recordRevision = revision
    transactions = kept
    self.leaving = leaving
    return kept
  }

  /// Moves the oldest finished transactions to the history, keeping `finishedHistoryLimit` of them
  /// in the store. An interrupted purchase waiting to be resolved stays, finished or not.
  mutating func archiveFinished() {
    // A refunded transaction stays: an app that has not heard of the refund yet (a StoreKit 2 app
    // not running when it was made) must still find it at its next launch. So does an interrupted
    // purchase waiting to be resolved, and a purchase with a refund request open, for Apple's
    // decision (`store refund-decide last` finds it here). Only the others count towards the limit:
    // refunds kept in the store never push out the purchase just finished.
    func movable(_ transaction: StoreTransaction) -> Bool {
      transaction.finished && !transaction.hasPurchaseIssue && !transaction.isRevoked
        && notifications.refundRequest(for: transaction.id) == nil
    }
    let finished = transactions.filter(movable).count
    guard finished > Self.finishedHistoryLimit else { return }
    var toMove = finished - Self.finishedHistoryLimit
    var kept: [StoreTransaction] = []
    for transaction in transactions {
      if toMove > 0, movable(transaction) {
        toMove -= 1
        leaving.append(transaction)
      } else {
        kept.append(transaction)
      }
    }
    transactions = kept
  }

  /// Puts a transaction from the history back in the store (a refund of an old one), in number
  /// order, so the app sees what changed.
  mutating func bringBack(_ transaction: StoreTransaction) {
    let number = transaction.number ?? 0
    let index = transactions.firstIndex { ($0.number ?? 0) > number } ?? transactions.endIndex
    transactions.insert(transaction, at: index)
  }

  /// The next transaction's id, counting up; nil once the counter has reached its limit.
  mutating func takeTransactionNumber() -> String? {
    guard lastTransactionNumber < Self.transactionNumberLimit else { return nil }
    lastTransactionNumber += 1
    return "\(lastTransactionNumber)"
  }

  /// Every transaction: these from the history, then the store's, oldest first, each once with the
  /// store's copy winning (a crash between the history's append and the store's write leaves one in
  /// both; a refund brings an old one back).
  public func withHistory(_ history: [StoreTransaction]) -> [StoreTransaction] {
    Self.latest(of: history + transactions)
  }

  /// Each transaction once, as the last of its copies, in number order.
  public static func latest(of transactions: [StoreTransaction]) -> [StoreTransaction] {
    var latest: [Int: StoreTransaction] = [:]
    for transaction in transactions { latest[transaction.number ?? 0] = transaction }
    return latest.keys.sorted().compactMap { latest[$0] }
  }

  /// When the App Store next answers a purchase in flight.
  public var nextAnswerDate: Date? {
    transactions.compactMap { $0.state == .purchasing ? $0.answerDate : nil }.min()
  }
}
