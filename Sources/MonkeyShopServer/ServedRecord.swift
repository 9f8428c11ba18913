import Foundation
import MonkeyShopDomain

/// The App Store's record as the server serves it: every transaction that has a transaction ID
/// (purchased or restored; Apple signs no other), each with its signed transaction as stored when
/// the App Store completed or refunded it, in the orders the endpoints page through.
struct ServedRecord: Sendable {
  struct Entry: Sendable {
    let transaction: StoreTransaction
    /// The stored JWS, served exactly as signed (never signed again for a read).
    let jws: String
    let number: Int
    let orderID: String
    /// Apple's `type`: "Consumable", "Non-Consumable", …
    let type: String
    /// The history's sort key: the transaction's "recently modified date", which "the App Store
    /// updates … if … the App Store revokes an in-app purchase"
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history): its
    /// refund, else its purchase, in milliseconds.
    let modified: Int64
    let purchased: Int64
    let revoked: Int64?
  }

  let entries: [Entry]
  let environment: StoreEnvironment
  /// The app download's transaction ID, when the record has one.
  let appTransactionID: String?
  private let indexByID: [String: Int]
  private let indexByOrder: [String: [Int]]
  /// Entry indices sorted by (`modified`, number): the history's order.
  let byModified: [Int]
  /// Refunded entries sorted by (revocation date, number): the refund history's order, "sorted in
  /// ascending order by revocationDate" (https://developer.apple.com/documentation/appstoreserverapi/refundhistoryresponse).
  let refunds: [Int]

  init(entries: [Entry], environment: StoreEnvironment, appTransactionID: String?) {
    self.entries = entries
    self.environment = environment
    self.appTransactionID = appTransactionID
    var indexByID: [String: Int] = [:]
    var indexByOrder: [String: [Int]] = [:]
    for (index, entry) in entries.enumerated() {
      indexByID[entry.transaction.id] = index
      indexByOrder[entry.orderID, default: []].append(index)
    }
    self.indexByID = indexByID
    self.indexByOrder = indexByOrder
    byModified = entries.indices.sorted {
      (entries[$0].modified, entries[$0].number) < (entries[$1].modified, entries[$1].number)
    }
    refunds = entries.indices.filter { entries[$0].revoked != nil }.sorted {
      (entries[$0].revoked!, entries[$0].number) < (entries[$1].revoked!, entries[$1].number)
    }
  }

  func entry(_ transactionID: String) -> Entry? { indexByID[transactionID].map { entries[$0] } }

  func entries(ofOrder orderID: String) -> [Entry] { (indexByOrder[orderID] ?? []).map { entries[$0] } }

  /// Whether `id` names something of this customer's: a transaction, or the app download
  /// (`anyTransactionId`: "Any originalTransactionId, transactionId or appTransactionId that
  /// belongs to the customer for your app",
  /// https://developer.apple.com/documentation/appstoreserverapi/anytransactionid).
  func belongsToCustomer(_ id: String) -> Bool {
    entry(id) != nil || (appTransactionID == id && !entries.isEmpty)
  }

  /// Transaction IDs are "an Apple-defined string" of digits
  /// (https://developer.apple.com/documentation/appstoreserverapi/transactionid; `2000000000000000`
  /// in Apple's examples): anything else is InvalidTransactionIdError. Apple does not say how long
  /// one may be; past 32 digits it is not one.
  static func isWellFormedID(_ id: String) -> Bool {
    !id.isEmpty && id.count <= 32 && id.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

extension ServedRecord.Entry {
  init?(_ transaction: StoreTransaction, jws: String?) {
    guard let jws, let number = transaction.number, let orderID = OrderID.of(transaction) else { return nil }
    self.transaction = transaction
    self.jws = jws
    self.number = number
    self.orderID = orderID
    type = transaction.record?.type ?? PurchaseRecord.consumable
    purchased = Self.milliseconds(transaction.purchaseDate)
    revoked = transaction.revocationDate.map(Self.milliseconds)
    modified = revoked ?? purchased
  }

  static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
