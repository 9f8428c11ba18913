import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage

/// The App Store's record as the server serves it: every transaction that has a transaction ID
/// (purchased or restored; Apple signs no other), each with its signed transaction as stored when
/// the App Store completed or refunded it. The store's transactions (few: the unfinished and the
/// newest) are held here; the record's are read from `record.sqlite` by index as each request
/// needs them (`RecordRows`), so a request costs the same and the server holds the same at a
/// million transactions as at ten. A transaction the store lists is served as the store has it.
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

  /// The files' state this was read at (`DataFolder.recordStamp`).
  let stamp: [Int64]
  let store: StoreState
  let rows: RecordRows?
  let environment: StoreEnvironment
  /// The app download's transaction ID, once the folder has any signed transaction.
  let appTransactionID: String?
  /// The store's signed transactions, and the numbers of all it lists (whose record copy is not
  /// served).
  private let storeEntries: [Entry]
  private let storeNumbers: Set<Int>
  private let signing: Signing

  init(stamp: [Int64], store: StoreState, rows: RecordRows?, signing: Signing) throws {
    self.stamp = stamp
    self.store = store
    self.rows = rows
    self.signing = signing
    environment = store.conditions.environment
    storeEntries = try store.transactions.compactMap { try signing.entry($0, store: store) }
    storeNumbers = Set(store.transactions.compactMap(\.number))
    // The folder's app transaction ID; one made before this version stamped one is derived as the
    // signed transactions derive it (`StoreState.derivedAppTransactionID`).
    let hasSigned = try !storeEntries.isEmpty || rows?.hasSigned() == true
    appTransactionID =
      hasSigned
      ? store.appTransactionID ?? StoreState.derivedAppTransactionID(bundleIdentifier: signing.catalog.bundleIdentifier)
      : nil
  }

  /// The signed transaction `transactionID`: the store's copy, else the record's row.
  func entry(_ transactionID: String) throws -> Entry? {
    if let transaction = store.transaction(transactionID) {
      return storeEntries.first { $0.transaction.id == transaction.id }
    }
    guard let transaction = try rows?.transaction(transactionID) else { return nil }
    return try signing.entry(transaction, store: store)
  }

  /// The signed transaction `transactionID`'s JWS (Get Transaction Info): the store's, else the one
  /// stored in its row of the record, read without decoding the transaction.
  func jws(_ transactionID: String) throws -> String? {
    if store.transaction(transactionID) == nil, let stored = try rows?.storedJWS(transactionID) {
      if let jws = stored { return jws }
    }
    return try entry(transactionID)?.jws
  }

  /// The signed transactions of an order, in number order.
  func entries(ofOrder orderID: String) throws -> [Entry] {
    var found = storeEntries.filter { $0.orderID == orderID }
    for transaction in try rows?.transactions(ofOrder: orderID) ?? []
    where !storeNumbers.contains(transaction.number ?? 0) {
      if let entry = try signing.entry(transaction, store: store) { found.append(entry) }
    }
    return found.sorted { $0.number < $1.number }
  }

  /// The earliest purchase of a signed transaction (milliseconds).
  func firstPurchase() throws -> Int64? {
    let stored = storeEntries.map(\.purchased).min()
    guard let recorded = try rows?.firstSignedPurchase() else { return stored }
    return min(stored ?? recorded, recorded)
  }

  /// Whether `id` names something of this customer's: a transaction, or the app download
  /// (`anyTransactionId`: "Any originalTransactionId, transactionId or appTransactionId that
  /// belongs to the customer for your app",
  /// https://developer.apple.com/documentation/appstoreserverapi/anytransactionid).
  func belongsToCustomer(_ id: String) throws -> Bool {
    try appTransactionID == id || entry(id) != nil
  }

  /// One page of the history: the store's matching transactions and up to a page of the record's
  /// after the revision, merged in the sort's order.
  func historyPage(_ query: HistoryQuery) throws -> Page {
    let descending = query.sort == .descending
    let after = query.revision?.after.map { RecordKey(date: $0.date, number: $0.number) }
    var candidates = storeEntries.filter(query.matches).map {
      (key: RecordKey(date: $0.modified, number: $0.number), entry: $0)
    }
    if let rows, let filter = query.recordFilter(excluding: storeNumbers) {
      for (key, transaction) in try rows.historyPage(
        after: after, descending: descending, filter: filter, limit: Page.size + 1)
      {
        if let entry = try signing.entry(transaction, store: store), query.matches(entry) {
          candidates.append((key, entry))
        }
      }
    }
    return Page(candidates, descending: descending, after: query.revision, kind: query.sort.revisionKind)
  }

  /// One page of the refund history, "sorted in ascending order by revocationDate"
  /// (https://developer.apple.com/documentation/appstoreserverapi/refundhistoryresponse).
  func refundPage(after revision: Revision?) throws -> Page {
    let after = revision?.after.map { RecordKey(date: $0.date, number: $0.number) }
    var candidates = storeEntries.compactMap { entry in
      entry.revoked.map { (key: RecordKey(date: $0, number: entry.number), entry: entry) }
    }
    for (key, transaction) in try rows?.refundPage(after: after, excluded: storeNumbers, limit: Page.size + 1) ?? [] {
      if let entry = try signing.entry(transaction, store: store) { candidates.append((key, entry)) }
    }
    return Page(candidates, descending: false, after: revision, kind: .refunds)
  }

  /// Transaction IDs are "an Apple-defined string" of digits
  /// (https://developer.apple.com/documentation/appstoreserverapi/transactionid; `2000000000000000`
  /// in Apple's examples): anything else is InvalidTransactionIdError. Apple does not say how long
  /// one may be; past 32 digits it is not one.
  static func isWellFormedID(_ id: String) -> Bool {
    !id.isEmpty && id.count <= 32 && id.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// How an entry gets its JWS: the stored one, or, for a transaction completed before
  /// transactions were signed and kept, one signed from its record, as `store transactions
  /// --json` shows it (docs/signing.md).
  struct Signing: Sendable {
    let catalog: Catalog
    let folder: @Sendable () -> DataFolder

    func entry(_ transaction: StoreTransaction, store: StoreState) throws -> Entry? {
      guard SignedTransactionPayload.isSigned(transaction) else { return nil }
      var jws = transaction.storedJWS
      if jws == nil {
        let signer = try EnvironmentSigner.of(folder(), environment: transaction.environment ?? .sandbox)
        let storefront = store.conditions.activeStorefront(default: catalog.defaultStorefront)
        jws = try signer.signedTransaction(
          transaction, catalog: catalog, storefront: storefront, appTransactionID: store.appTransactionID)
      }
      return Entry(transaction, jws: jws)
    }
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
