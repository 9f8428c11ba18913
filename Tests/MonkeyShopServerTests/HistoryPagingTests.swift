import Foundation
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopServer
@testable import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Get Transaction History and Get Refund History a page at a time: Apple's 20 per page, its sort,
/// its filters and the revision that carries a client from one page to the next.
@Suite("App Store Server API: history pages and filters", .tags(.pure))
struct HistoryPagingTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  /// A record of `count` purchases, one a minute: every third a non-consumable, every fifth refunded
  /// (an hour after the last purchase, in purchase order), all finished. The last `inStore` are the
  /// store's, the others rows of a `record.sqlite`, so every page merges the two.
  static func record(_ count: Int, finished: Bool = true, inStore: Int = 3) throws -> ServedRecord {
    let transactions = (1...max(count, 1)).prefix(count).map { number -> StoreTransaction in
      let nonConsumable = number % 3 == 0
      var transaction = StoreTransaction(
        id: "\(number)", productIdentifier: nonConsumable ? "com.monkeyshop.golden" : "com.monkeyshop.credits.5",
        quantity: 1, state: .purchased, purchaseDate: start.addingTimeInterval(Double(number) * 60), finished: finished)
      transaction.record = PurchaseRecord(
        price: 990, currency: "USD", type: nonConsumable ? PurchaseRecord.nonConsumable : PurchaseRecord.consumable,
        bundleId: "com.monkeyshop.app", credits: nonConsumable ? nil : 5)
      transaction.signedPurchase = "purchase.\(number).jws"
      if number % 5 == 0 {
        transaction.revocationDate = start.addingTimeInterval(Double(count) * 60 + 3600 + Double(number))
        transaction.revocationReason = .other
        transaction.signedRefund = "refund.\(number).jws"
      }
      return transaction
    }
    var store = StoreState()
    store.transactions = Array(transactions.suffix(min(inStore, count)))
    return try served(store: store, recording: Array(transactions.dropLast(min(inStore, count))))
  }

  /// A record whose store is `store` and whose `record.sqlite` (in a new folder) holds `recording`.
  static func served(store: StoreState, recording: [StoreTransaction]) throws -> ServedRecord {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-paging-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let folder = open(path, O_RDONLY | O_DIRECTORY)
    defer { close(folder) }
    let record = try TransactionRecord.open(folder: folder, folderPath: path, creating: true)!
    try record.record(recording)
    return try served(store: store, rows: RecordRows(record: record))
  }

  static func served(store: StoreState, rows: RecordRows?) throws -> ServedRecord {
    let signing = ServedRecord.Signing(catalog: Catalog(products: []), folder: { DataFolder(path: "/nonexistent") })
    return try ServedRecord(stamp: [], store: store, rows: rows, signing: signing)
  }

  /// The transaction numbers in the history's order: by refund, else purchase, then number.
  static func order(_ count: Int) -> [Int] {
    let refunded = Array(stride(from: 5, through: count, by: 5))
    return (1...max(count, 1)).prefix(count).filter { $0 % 5 != 0 } + refunded
  }

  /// Every page of a query, following `revision` while `hasMore`: the transaction numbers of each.
  static func pages(_ parameters: [String: [String]], in record: ServedRecord, version1: Bool = false) throws
    -> [[Int]]
  {
    var parameters = parameters
    var pages: [[Int]] = []
    while true {
      let page = try record.historyPage(HistoryQuery(parameters: parameters, version1: version1))
      pages.append(page.entries.map(\.number))
      guard page.hasMore else { return pages }
      parameters["revision"] = [page.revision.token]
      #expect(pages.count < 1000, "paging does not end")
    }
  }

  @Test("45 transactions come 20, 20 and 5, oldest first, each once")
  func ascendingPages() throws {
    let record = try Self.record(45)
    let pages = try Self.pages([:], in: record)
    #expect(pages.map(\.count) == [20, 20, 5])
    let order = Self.order(45)
    #expect(pages.flatMap { $0 } == order)
    // Refunded ones come last: their refund is their latest change.
    #expect(Array(order.suffix(9)) == [5, 10, 15, 20, 25, 30, 35, 40, 45])
  }

  @Test("DESCENDING gives the same transactions newest first")
  func descendingPages() throws {
    let record = try Self.record(45)
    let ascending = try Self.pages([:], in: record).flatMap { $0 }
    let descending = try Self.pages(["sort": ["DESCENDING"]], in: record)
    #expect(descending.map(\.count) == [20, 20, 5])
    #expect(descending.flatMap { $0 } == ascending.reversed())
  }

  @Test("Exactly 20 is one page with no more; none is an empty page")
  func edges() throws {
    #expect(try Self.pages([:], in: Self.record(20)).map(\.count) == [20])
    #expect(try Self.pages([:], in: Self.record(20, inStore: 0)).map(\.count) == [20])
    #expect(try Self.pages([:], in: Self.record(21, inStore: 0)).map(\.count) == [20, 1])
    let empty = try Self.record(0).historyPage(HistoryQuery(parameters: [:]))
    #expect(empty.entries.isEmpty && !empty.hasMore)
  }

  @Test("The last page's revision brings only what happened after it")
  func revisionAfterLastPage() throws {
    let before = try Self.record(30)
    var last = try before.historyPage(HistoryQuery(parameters: [:]))
    while last.hasMore {
      last = try before.historyPage(HistoryQuery(parameters: ["revision": [last.revision.token]]))
    }
    // Five more purchases, after the refunds.
    var store = before.store
    for number in 31...35 {
      var transaction = StoreTransaction(
        id: "\(number)", productIdentifier: "com.monkeyshop.credits.5", quantity: 1, state: .purchased,
        purchaseDate: Self.start.addingTimeInterval(100_000 + Double(number)), finished: true)
      transaction.record = PurchaseRecord(
        price: 990, currency: "USD", type: PurchaseRecord.consumable, bundleId: "com.monkeyshop.app", credits: 5)
      transaction.signedPurchase = "purchase.\(number).jws"
      store.transactions.append(transaction)
    }
    let after = try Self.served(store: store, rows: before.rows)
    let next = try after.historyPage(HistoryQuery(parameters: ["revision": [last.revision.token]]))
    #expect(next.entries.map(\.number) == [31, 32, 33, 34, 35])
  }

  @Test("Filters: product ID, product type, revoked, dates, ownership; all must match")
  func filters() throws {
    let record = try Self.record(45)
    let all = Array(1...45)
    func numbers(_ parameters: [String: [String]]) throws -> Set<Int> {
      Set(try Self.pages(parameters, in: record).flatMap { $0 })
    }
    let nonConsumables = Set(all.filter { $0 % 3 == 0 })
    #expect(try numbers(["productId": ["com.monkeyshop.golden"]]) == nonConsumables)
    #expect(try numbers(["productType": ["NON_CONSUMABLE"]]) == nonConsumables)
    #expect(try numbers(["productType": ["NON_CONSUMABLE", "CONSUMABLE"]]) == Set(1...45))
    #expect(try numbers(["productType": ["AUTO_RENEWABLE"]]).isEmpty)
    let refunded = Set(all.filter { $0 % 5 == 0 })
    #expect(try numbers(["revoked": ["true"]]) == refunded)
    // Apple's Python client writes booleans as Python does.
    #expect(try numbers(["revoked": ["False"]]) == Set(1...45).subtracting(refunded))
    #expect(try numbers(["revoked": ["true"], "productType": ["NON_CONSUMABLE"]]) == [15, 30, 45])
    // purchaseDate >= startDate and < endDate: purchases 10 to 19.
    let startDate = Int64(Self.start.addingTimeInterval(600).timeIntervalSince1970 * 1000)
    let endDate = Int64(Self.start.addingTimeInterval(1200).timeIntervalSince1970 * 1000)
    #expect(try numbers(["startDate": ["\(startDate)"], "endDate": ["\(endDate)"]]) == Set(10...19))
    #expect(try numbers(["inAppOwnershipType": ["FAMILY_SHARED"]]).isEmpty)
    #expect(try numbers(["inAppOwnershipType": ["PURCHASED"]]) == Set(1...45))
    #expect(try numbers(["subscriptionGroupIdentifier": ["group"]]).isEmpty)
  }

  @Test("V1 leaves out finished consumables that were not refunded; V2 lists them")
  func version1() throws {
    let record = try Self.record(45)
    let v1 = Set(try Self.pages([:], in: record, version1: true).flatMap { $0 })
    let expected = Set((1...45).filter { $0 % 3 == 0 || $0 % 5 == 0 })
    #expect(v1 == expected)
    let unfinished = try Self.record(10, finished: false)
    #expect(Set(try Self.pages([:], in: unfinished, version1: true).flatMap { $0 }) == Set(1...10))
  }

  @Test("Bad parameters get Apple's error codes")
  func badParameters() {
    let cases: [([String: [String]], Int)] = [
      (["sort": ["UPWARDS"]], 4_000_021),
      (["startDate": ["yesterday"]], 4_000_015),
      (["endDate": ["-5"]], 4_000_016),
      (["startDate": ["2000"], "endDate": ["1000"]], 4_000_016),
      (["productType": ["SUBSCRIPTION"]], 4_000_022),
      (["productId": [""]], 4_000_023),
      (["inAppOwnershipType": ["SHARED"]], 4_000_026),
      (["revoked": ["maybe"]], 4_000_030),
      (["excludeRevoked": ["1"]], 4_000_025),
      (["subscriptionGroupIdentifier": [""]], 4_000_024),
      (["revision": ["not a revision"]], 4_000_005),
    ]
    for (parameters, code) in cases {
      #expect(throws: APIError.self, "\(parameters)") { try HistoryQuery(parameters: parameters) }
      do {
        _ = try HistoryQuery(parameters: parameters)
      } catch {
        #expect(error.code == code, "\(parameters)")
        #expect(error.status.code == code / 10_000)
      }
    }
  }

  @Test("A revision from one sort is refused by the other")
  func revisionOfAnotherSort() throws {
    let page = try Self.record(30).historyPage(HistoryQuery(parameters: [:]))
    #expect(throws: APIError.invalidRequestRevision) {
      try HistoryQuery(parameters: ["revision": [page.revision.token], "sort": ["DESCENDING"]])
    }
  }

  @Test("Refund history: refunds only, by refund date, 20 a page")
  func refunds() throws {
    let record = try Self.record(150)
    var revision: Revision?
    var pages: [[Int]] = []
    repeat {
      let page = try record.refundPage(after: revision)
      pages.append(page.entries.map(\.number))
      revision = page.hasMore ? page.revision : nil
    } while revision != nil
    #expect(pages.map(\.count) == [20, 10])
    #expect(pages.flatMap { $0 } == Array(stride(from: 5, through: 150, by: 5)))
  }
}
