import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

/// The query of Get Transaction History (v2 `GET /inApps/v2/history/{anyTransactionId}`,
/// https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history, and V1
/// `GET /inApps/v1/history/{anyTransactionId}`,
/// https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history-v1): its
/// filters, its sort and where the page starts. "If you provide multiple filters in the query, the
/// transactions that return match all the filters"; a parameter given several times matches "any
/// of the values".
struct HistoryQuery: Equatable, Sendable {
  enum Sort: String, Sendable {
    case ascending = "ASCENDING"
    case descending = "DESCENDING"
  }

  var sort = Sort.ascending
  var revision: Revision?
  /// "The results include a transaction if its purchaseDate is equal to or greater than the startDate."
  var startDate: Int64?
  /// "… if its purchaseDate is less than the endDate."
  var endDate: Int64?
  var productIDs: Set<String> = []
  /// Apple's `type` values the `productType` values name.
  var types: Set<String> = []
  var ownership: String?
  var revoked: Bool?
  /// Subscription groups asked for: this shop has no subscriptions, so such a query matches none.
  var subscriptionGroups: Set<String> = []
  /// V1: "The results don't include consumable in-app purchases that the app marks as finished"
  /// unless refunded or revoked (get-transaction-history-v1).
  var excludesFinishedConsumables = false

  /// The `productType` values (https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history)
  /// and the `type` each names (https://developer.apple.com/documentation/appstoreserverapi/type).
  static let productTypes = [
    "AUTO_RENEWABLE": "Auto-Renewable Subscription", "NON_RENEWABLE": "Non-Renewing Subscription",
    "CONSUMABLE": "Consumable", "NON_CONSUMABLE": "Non-Consumable",
  ]

  /// The query from its parameters (each name with every value given), or the error Apple answers
  /// for the first bad one.
  init(parameters: [String: [String]], version1: Bool = false) throws(APIError) {
    excludesFinishedConsumables = version1
    if let values = parameters["sort"] {
      guard values.count == 1, let sort = Sort(rawValue: values[0]) else { throw .invalidSort }
      self.sort = sort
    }
    startDate = try Self.date(parameters["startDate"], error: .invalidStartDate)
    endDate = try Self.date(parameters["endDate"], error: .invalidEndDate)
    // "Choose an endDate that's later than the startDate if you specify both dates." Apple does not
    // say which error an earlier one gets; the end date is the one its page asks to be later.
    if let startDate, let endDate, endDate <= startDate { throw .invalidEndDate }
    for id in parameters["productId"] ?? [] {
      // Apple's product IDs are at most 100 characters; Apple does not say what else it refuses.
      guard !id.isEmpty, id.count <= 100 else { throw .invalidProductId }
      productIDs.insert(id)
    }
    for value in parameters["productType"] ?? [] {
      guard let type = Self.productTypes[value] else { throw .invalidProductType }
      types.insert(type)
    }
    if let values = parameters["inAppOwnershipType"] {
      // `FAMILY_SHARED` or `PURCHASED` (https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype).
      guard values.count == 1, ["FAMILY_SHARED", "PURCHASED"].contains(values[0]) else {
        throw .invalidInAppOwnershipType
      }
      ownership = values[0]
    }
    revoked = try Self.boolean(parameters["revoked"], error: .invalidRevoked)
    // Deprecated: "Set revoked to false to exclude revoked transactions instead."
    if try Self.boolean(parameters["excludeRevoked"], error: .invalidExcludeRevoked) == true {
      if revoked == true { revoked = nil } else { revoked = false }
    }
    for group in parameters["subscriptionGroupIdentifier"] ?? [] {
      guard !group.isEmpty else { throw .invalidSubscriptionGroupIdentifier }
      subscriptionGroups.insert(group)
    }
    if let values = parameters["revision"] {
      guard values.count == 1, let revision = Revision(token: values[0]), revision.kind == sort.revisionKind else {
        throw .invalidRequestRevision
      }
      self.revision = revision
    }
  }

  /// UNIX time in milliseconds, as Apple's dates; Apple's Python client sends them as decimal text.
  private static func date(_ values: [String]?, error: APIError) throws(APIError) -> Int64? {
    guard let values else { return nil }
    guard values.count == 1, let value = Int64(values[0]), value >= 0 else { throw error }
    return value
  }

  /// `true` or `false`. Apple's Python client sends `str(bool)`, `True` or `False`
  /// (`api_client.py`, `get_transaction_history`, app-store-server-library 3.1.2), so case is not
  /// minded.
  private static func boolean(_ values: [String]?, error: APIError) throws(APIError) -> Bool? {
    guard let values else { return nil }
    guard values.count == 1 else { throw error }
    switch values[0].lowercased() {
    case "true": return true
    case "false": return false
    default: throw error
    }
  }

  func matches(_ entry: ServedRecord.Entry) -> Bool {
    if let startDate, entry.purchased < startDate { return false }
    if let endDate, entry.purchased >= endDate { return false }
    if !productIDs.isEmpty, !productIDs.contains(entry.transaction.productIdentifier) { return false }
    if !types.isEmpty, !types.contains(entry.type) { return false }
    // Every transaction here is the purchaser's own: this shop shares nothing through Family Sharing.
    if let ownership, ownership != "PURCHASED" { return false }
    if let revoked, revoked != (entry.revoked != nil) { return false }
    if !subscriptionGroups.isEmpty { return false }
    if excludesFinishedConsumables, entry.type == PurchaseRecord.consumable, entry.transaction.finished,
      entry.revoked == nil
    {
      return false
    }
    return true
  }

  /// The same filters as the record's rows answer them (`RecordRows.historyPage`), leaving out
  /// `excluded` (the store's); nil when no transaction can match (another family member's
  /// purchases, a subscription group).
  func recordFilter(excluding excluded: Set<Int>) -> RecordFilter? {
    guard ownership == nil || ownership == "PURCHASED", subscriptionGroups.isEmpty else { return nil }
    var filter = RecordFilter()
    filter.purchasedFrom = startDate
    filter.purchasedBefore = endDate
    filter.products = productIDs
    filter.types = types
    filter.revoked = revoked
    filter.leavesOutFinishedConsumables = excludesFinishedConsumables
    filter.excluded = excluded
    return filter
  }
}

extension HistoryQuery.Sort {
  var revisionKind: Revision.Kind { self == .ascending ? .ascending : .descending }
}

/// Where a page ends: the `revision` of Apple's responses, "a token you provide to get the next
/// set of up to 20 transactions" (get-transaction-history). Apple's tokens are opaque; this one
/// holds the sort key of the last transaction sent (its date and number), so the next page starts
/// after it, and a transaction changed since (a refund moves it later) comes again, as Apple says:
/// "If a transaction updates while you're receiving transaction history and the response is sorted
/// in ASCENDING order, you may receive the transaction again with updated data."
struct Revision: Equatable, Sendable {
  enum Kind: String, Sendable {
    case ascending = "A"
    case descending = "D"
    case refunds = "R"
  }

  var kind: Kind
  /// The last key sent; nil before the first transaction.
  var after: (date: Int64, number: Int)?

  static func == (lhs: Revision, rhs: Revision) -> Bool {
    lhs.kind == rhs.kind && lhs.after?.date == rhs.after?.date && lhs.after?.number == rhs.after?.number
  }

  init(kind: Kind, after: (date: Int64, number: Int)?) {
    self.kind = kind
    self.after = after
  }

  /// The token's text: base64url of `monkeyshop-revision:KIND:DATE:NUMBER` (`-:-` before the first).
  var token: String {
    let place = after.map { "\($0.date):\($0.number)" } ?? "-:-"
    return Self.base64url(Data("\(Self.prefix)\(kind.rawValue):\(place)".utf8))
  }

  private static let prefix = "monkeyshop-revision:"

  /// Nil for anything this server did not hand out.
  init?(token: String) {
    guard token.count <= 200, let data = Self.decodeBase64url(token), let text = String(data: data, encoding: .utf8),
      text.hasPrefix(Self.prefix)
    else { return nil }
    let parts = text.dropFirst(Self.prefix.count).split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])) else { return nil }
    self.kind = kind
    if parts[1] == "-", parts[2] == "-" {
      after = nil
    } else {
      guard let date = Int64(parts[1]), let number = Int(parts[2]), number >= 0 else { return nil }
      after = (date, number)
    }
  }

  static func base64url(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func decodeBase64url(_ text: String) -> Data? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
      return nil
    }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}

/// A page of transactions and the revision that follows it.
struct Page: Sendable {
  /// "The history response returns a maximum of 20 transactions per response"
  /// (https://developer.apple.com/documentation/appstoreserverapi/historyresponse); the refund
  /// history likewise "contains a maximum of 20 refunded transactions"
  /// (https://developer.apple.com/documentation/appstoreserverapi/get-refund-history).
  static let size = 20

  var entries: [ServedRecord.Entry]
  var hasMore: Bool
  var revision: Revision

  /// The first `size` of `candidates` past the revision's key in the direction of the sort;
  /// `hasMore` when another follows. Each source of candidates gives at most `size + 1` past the
  /// key, in order, so the first `size + 1` of all of them merged are the page's and the next.
  init(
    _ candidates: [(key: RecordKey, entry: ServedRecord.Entry)], descending: Bool, after revision: Revision?,
    kind: Revision.Kind
  ) {
    let last = revision?.after.map { RecordKey(date: $0.date, number: $0.number) }
    let sorted = candidates.filter { candidate in
      guard let last else { return true }
      return descending ? candidate.key < last : last < candidate.key
    }
    .sorted { descending ? $1.key < $0.key : $0.key < $1.key }
    let taken = sorted.prefix(Self.size)
    entries = taken.map(\.entry)
    hasMore = sorted.count > Self.size
    let after = taken.last.map { (date: $0.key.date, number: $0.key.number) }
    self.revision = Revision(kind: kind, after: after ?? revision?.after)
  }
}
