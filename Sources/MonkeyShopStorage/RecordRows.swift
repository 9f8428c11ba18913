import Foundation
import GRDB
import MonkeyShopDomain

/// A place in one of the record's orders: a date in milliseconds (the purchase's, or the refund's)
/// and the transaction's number, which breaks ties.
public struct RecordKey: Comparable, Hashable, Sendable {
  public var date: Int64
  public var number: Int

  public init(date: Int64, number: Int) {
    self.date = date
    self.number = number
  }

  public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool { (lhs.date, lhs.number) < (rhs.date, rhs.number) }
}

/// Which of the record's transactions a page of history takes: each a condition the rows' columns
/// answer, so the database finds them by index.
public struct RecordFilter: Sendable {
  /// Purchased at or after (milliseconds).
  public var purchasedFrom: Int64?
  /// Purchased before (milliseconds).
  public var purchasedBefore: Int64?
  /// Of these products (any); all when empty.
  public var products: Set<String> = []
  /// Of these types recorded at purchase (`Consumable`, …; a transaction recorded before types
  /// were is a consumable); all when empty.
  public var types: Set<String> = []
  /// Refunded (true), not refunded (false), either (nil).
  public var revoked: Bool?
  /// Leaves out the consumables the app finished that are not refunded.
  public var leavesOutFinishedConsumables = false
  /// Numbers not taken from the record: the store lists them, and its copy wins.
  public var excluded: Set<Int> = []

  public init() {}
}

/// The App Store's record as the server reads it, a request at a time: one transaction by its key,
/// a page of an order after a key, an order's transactions, each found by an index
/// (`TransactionRecord`'s "serving" migration), so a request costs the same at a million
/// transactions as at ten and holds no more than a page. Only transactions the App Store signed
/// (with a transaction ID, so an order ID) are taken for pages and orders.
public struct RecordRows: Sendable {
  let record: TransactionRecord

  /// The rows Get Transaction History V1 shows among those not refunded: it leaves out "consumable
  /// in-app purchases that the app marks as finished" (get-transaction-history-v1). The condition
  /// of the partial index that query uses, written the same in both.
  static let shownByVersion1 = "NOT (coalesce(productType, 'Consumable') = 'Consumable' AND delivered)"

  /// The transaction numbered `id`; nil when the record does not hold it.
  public func transaction(_ id: String) throws(DataFileError) -> StoreTransaction? { try record.transaction(id) }

  /// The stored signed transaction of the signed transaction numbered `id`, read from its row
  /// without decoding the rest (Get Transaction Info): nil when the record holds no such signed
  /// transaction; `.some(nil)` when it holds one without a stored JWS (completed before
  /// transactions were signed and kept), which the caller signs from `transaction(_:)`.
  public func storedJWS(_ id: String) throws(DataFileError) -> String?? {
    guard let number = Int64(id), String(number) == id else { return nil }
    return try record.access {
      // One statement, which SQLite runs in a read transaction of its own ("An implicit
      // transaction … is committed automatically when the last active statement finishes",
      // https://www.sqlite.org/lang_transaction.html): GRDB's `read` would wrap it in BEGIN,
      // `PRAGMA query_only` and COMMIT, three more statements parsed and run for every request.
      try record.database.unsafeRead { db -> String?? in
        // Prepared once for each of the record's connections and kept (GRDB's statement cache):
        // this is every Get Transaction Info's query, which SQLite would otherwise parse each time.
        let statement = try db.cachedStatement(
          sql: """
            SELECT CASE WHEN revocationDate IS NULL THEN json_extract(json, '$.signedPurchase')
              ELSE json_extract(json, '$.signedRefund') END AS jws
            FROM storeTransaction WHERE number = ? AND orderID <> ''
            """)
        let row = try Row.fetchOne(statement, arguments: [number])
        guard let row else { return nil }
        return .some(row["jws"])
      }
    }
  }

  /// Up to `limit` transactions after `after`, in the history's order: by the date each was last
  /// changed (its refund, else its purchase), then number; descending from `after` when asked.
  /// Refunded and not refunded transactions are read from their own indexes (and, with products,
  /// each product from its own), each up to `limit`, and merged.
  public func historyPage(
    after: RecordKey?, descending: Bool, filter: RecordFilter, limit: Int
  ) throws(DataFileError) -> [(key: RecordKey, transaction: StoreTransaction)] {
    let rows = try record.access {
      try record.database.read { db in
        var found: [(RecordKey, RecordedTransaction)] = []
        if filter.revoked != true {
          let products: [String?] = filter.products.isEmpty ? [nil] : filter.products.sorted().map { $0 }
          for product in products {
            found += try Self.rows(
              db, refunds: false, product: product, after: after, descending: descending, filter: filter, limit: limit)
          }
        }
        if filter.revoked != false {
          found += try Self.rows(
            db, refunds: true, product: nil, after: after, descending: descending, filter: filter, limit: limit)
        }
        found.sort { descending ? $0.0 > $1.0 : $0.0 < $1.0 }
        return Array(found.prefix(limit))
      }
    }
    return try rows.map { key, row throws(DataFileError) in (key, try row.transaction(path: record.path)) }
  }

  /// Up to `limit` refunded transactions after `after`, by refund date, then number (the refund
  /// history's order).
  public func refundPage(
    after: RecordKey?, excluded: Set<Int>, limit: Int
  ) throws(DataFileError) -> [(key: RecordKey, transaction: StoreTransaction)] {
    var filter = RecordFilter()
    filter.excluded = excluded
    let rows = try record.access {
      try record.database.read { db in
        try Self.rows(db, refunds: true, product: nil, after: after, descending: false, filter: filter, limit: limit)
      }
    }
    return try rows.map { key, row throws(DataFileError) in (key, try row.transaction(path: record.path)) }
  }

  /// The signed transactions of the order `orderID`: its purchase, and the restores of it.
  public func transactions(ofOrder orderID: String) throws(DataFileError) -> [StoreTransaction] {
    let rows = try record.access {
      try record.database.read { db in
        try RecordedTransaction.fetchAll(
          db, sql: "SELECT * FROM storeTransaction WHERE orderID = ? ORDER BY number", arguments: [orderID])
      }
    }
    return try rows.map { row throws(DataFileError) in try row.transaction(path: record.path) }
  }

  /// Whether the record holds any transaction the App Store signed.
  public func hasSigned() throws(DataFileError) -> Bool {
    try record.access {
      try record.database.read { db in
        try Bool.fetchOne(db, sql: "SELECT 1 FROM storeTransaction WHERE orderID <> '' LIMIT 1") ?? false
      }
    }
  }

  /// The earliest purchase date (milliseconds) of a signed transaction; nil when there is none.
  public func firstSignedPurchase() throws(DataFileError) -> Int64? {
    try record.access {
      try record.database.read { db in
        try Int64.fetchOne(
          db,
          sql: """
            SELECT purchaseDate FROM storeTransaction INDEXED BY storeTransaction_on_purchaseDate
            WHERE orderID <> '' ORDER BY purchaseDate LIMIT 1
            """)
      }
    }
  }

  /// Up to `limit` rows of one index in key order after `after`: the refunded by refund date, or
  /// the others (of one product, when given) by purchase date, whose key that date is.
  private static func rows(
    _ db: Database, refunds: Bool, product: String?, after: RecordKey?, descending: Bool, filter: RecordFilter,
    limit: Int
  ) throws -> [(RecordKey, RecordedTransaction)] {
    let key = refunds ? "revocationDate" : "purchaseDate"
    var conditions = [refunds ? "revocationDate IS NOT NULL" : "revocationDate IS NULL", "orderID <> ''"]
    var arguments: [(any DatabaseValueConvertible)?] = []
    let index: String
    if refunds {
      index = "storeTransaction_on_refund"
    } else if product != nil {
      index = "storeTransaction_on_product_purchaseDate"
    } else if filter.leavesOutFinishedConsumables {
      index = "storeTransaction_on_version1"
    } else {
      index = "storeTransaction_on_purchaseDate"
    }
    if let product {
      conditions.append("productIdentifier = ?")
      arguments.append(product)
    } else if !filter.products.isEmpty {
      conditions.append("productIdentifier IN (\(Self.placeholders(filter.products.count)))")
      arguments += filter.products.sorted().map { $0 }
    }
    if let from = filter.purchasedFrom {
      conditions.append("purchaseDate >= ?")
      arguments.append(from)
    }
    if let before = filter.purchasedBefore {
      conditions.append("purchaseDate < ?")
      arguments.append(before)
    }
    if !filter.types.isEmpty {
      conditions.append("coalesce(productType, 'Consumable') IN (\(Self.placeholders(filter.types.count)))")
      arguments += filter.types.sorted().map { $0 }
    }
    if filter.leavesOutFinishedConsumables, !refunds { conditions.append(shownByVersion1) }
    if !filter.excluded.isEmpty {
      conditions.append("number NOT IN (\(Self.placeholders(filter.excluded.count)))")
      arguments += filter.excluded.sorted().map { Int64($0) }
    }
    if let after {
      conditions.append("(\(key), number) \(descending ? "<" : ">") (?, ?)")
      arguments += [after.date, Int64(after.number)]
    }
    let direction = descending ? "DESC" : "ASC"
    arguments.append(limit)
    let sql = """
      SELECT * FROM storeTransaction INDEXED BY \(index) WHERE \(conditions.joined(separator: " AND "))
      ORDER BY \(key) \(direction), number \(direction) LIMIT ?
      """
    let rows = try RecordedTransaction.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
    return rows.map { row in
      (RecordKey(date: refunds ? row.revocationDate ?? 0 : row.purchaseDate, number: Int(row.number)), row)
    }
  }

  private static func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
  }
}

extension DataFolder {
  /// The store, and the App Store's record to read a request's rows from (none yet: nil), without
  /// the lock, as every reader. `reusing`: the record opened for an earlier request, kept while it
  /// is the same file.
  public func readForServing(reusing: RecordRows?) throws(DataFileError) -> (store: StoreState, record: RecordRows?) {
    if let reusing { openedRecord = reusing.record }
    let result = try opened { folder throws(DataFileError) in
      var (store, wallet, record) = try read(in: folder)
      TransactionNumbers.catchUp(&store, with: wallet)
      return (store, record.map(RecordRows.init))
    }
    return result ?? (StoreState(), nil)
  }

  /// A record of an earlier version's schema brought up to this one's, for a reader, which holds
  /// no lock: it takes the lock for that, as a change would.
  func migrateRecordLocking() throws(DataFileError) {
    try bringUpLocking(recordPath, "brought up to this version", failing: "cannot be brought up to this version") {
      folder in
      _ = try TransactionRecord.open(folder: folder, folderPath: path, creating: false, migrating: true)
    }
  }
}
