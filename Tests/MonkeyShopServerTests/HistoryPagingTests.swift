import Foundation
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopServer

/// Get Transaction History and Get Refund History a page at a time: Apple's 20 per page, its sort,
/// its filters and the revision that carries a client from one page to the next.
@Suite("App Store Server API: history pages and filters", .tags(.pure))
struct HistoryPagingTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  /// A record of `count` purchases, one a minute: every third a non-consumable, every fifth refunded
  /// (an hour after the last purchase, in purchase order), all finished.
  static func record(_ count: Int, finished: Bool = true) -> ServedRecord {
    let entries = (1...max(count, 1)).prefix(count).map { number -> ServedRecord.Entry in
      let nonConsumable = number % 3 == 0
      var transaction = StoreTransaction(
        id: "\(number)", productIdentifier: nonConsumable ? "com.monkeyshop.golden" : "com.monkeyshop.credits.5",
        quantity: 1, state: .purchased, purchaseDate: start.addingTimeInterval(Double(number) * 60), finished: finished)
      transaction.record = PurchaseRecord(
        price: 990, currency: "USD", type: nonConsumable ? PurchaseRecord.nonConsumable : PurchaseRecord.consumable,
        bundleId: "com.monkeyshop.app", credits: nonConsumable ? nil : 5)
      if number % 5 == 0 {
        transaction.revocationDate = start.addingTimeInterval(Double(count) * 60 + 3600 + Double(number))
        transaction.revocationReason = .other
      }
      return ServedRecord.Entry(transaction, jws: "jws-\(number)")!
    }
    return ServedRecord(entries: entries, environment: .sandbox, appTransactionID: nil)
  }

  /// Every page of a query, following `revision` while `hasMore`: the transaction numbers of each.
  static func pages(_ parameters: [String: [String]], in record: ServedRecord, version1: Bool = false) throws
    -> [[Int]]
  {
    var parameters = parameters
    var pages: [[Int]] = []
    while true {
      let page = try HistoryQuery(parameters: parameters, version1: version1).page(of: record)
      pages.append(page.entries.map(\.number))
      guard page.hasMore else { return pages }
      parameters["revision"] = [page.revision.token]
      #expect(pages.count < 1000, "paging does not end")
    }
  }

  @Test("45 transactions come 20, 20 and 5, oldest first, each once")
  func ascendingPages() throws {
    let record = Self.record(45)
    let pages = try Self.pages([:], in: record)
    #expect(pages.map(\.count) == [20, 20, 5])
    let order = record.byModified.map { record.entries[$0].number }
    #expect(pages.flatMap { $0 } == order)
    // Refunded ones come last: their refund is their latest change.
    #expect(Array(order.suffix(9)) == [5, 10, 15, 20, 25, 30, 35, 40, 45])
  }

  @Test("DESCENDING gives the same transactions newest first")
  func descendingPages() throws {
    let record = Self.record(45)
    let ascending = try Self.pages([:], in: record).flatMap { $0 }
    let descending = try Self.pages(["sort": ["DESCENDING"]], in: record)
    #expect(descending.map(\.count) == [20, 20, 5])
    #expect(descending.flatMap { $0 } == ascending.reversed())
  }

  @Test("Exactly 20 is one page with no more; none is an empty page")
  func edges() throws {
    #expect(try Self.pages([:], in: Self.record(20)).map(\.count) == [20])
    let empty = try HistoryQuery(parameters: [:]).page(of: Self.record(0))
    #expect(empty.entries.isEmpty && !empty.hasMore)
  }

  @Test("The last page's revision brings only what happened after it")
  func revisionAfterLastPage() throws {
    let before = Self.record(30)
    var last = try HistoryQuery(parameters: [:]).page(of: before)
    while last.hasMore {
      last = try HistoryQuery(parameters: ["revision": [last.revision.token]]).page(of: before)
    }
    // Five more purchases, after the refunds.
    var entries = before.entries
    for number in 31...35 {
      var transaction = StoreTransaction(
        id: "\(number)", productIdentifier: "com.monkeyshop.credits.5", quantity: 1, state: .purchased,
        purchaseDate: Self.start.addingTimeInterval(100_000 + Double(number)), finished: true)
      transaction.record = PurchaseRecord(
        price: 990, currency: "USD", type: PurchaseRecord.consumable, bundleId: "com.monkeyshop.app", credits: 5)
      entries.append(ServedRecord.Entry(transaction, jws: "jws")!)
    }
    let after = ServedRecord(entries: entries, environment: .sandbox, appTransactionID: nil)
    let next = try HistoryQuery(parameters: ["revision": [last.revision.token]]).page(of: after)
    #expect(next.entries.map(\.number) == [31, 32, 33, 34, 35])
  }

  @Test("Filters: product ID, product type, revoked, dates, ownership; all must match")
  func filters() throws {
    let record = Self.record(45)
    let all = record.entries
    func numbers(_ parameters: [String: [String]]) throws -> Set<Int> {
      Set(try Self.pages(parameters, in: record).flatMap { $0 })
    }
    let nonConsumables = Set(all.filter { $0.number % 3 == 0 }.map(\.number))
    #expect(try numbers(["productId": ["com.monkeyshop.golden"]]) == nonConsumables)
    #expect(try numbers(["productType": ["NON_CONSUMABLE"]]) == nonConsumables)
    #expect(try numbers(["productType": ["NON_CONSUMABLE", "CONSUMABLE"]]) == Set(1...45))
    #expect(try numbers(["productType": ["AUTO_RENEWABLE"]]).isEmpty)
    let refunded = Set(all.filter { $0.number % 5 == 0 }.map(\.number))
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
    let record = Self.record(45)
    let v1 = Set(try Self.pages([:], in: record, version1: true).flatMap { $0 })
    let expected = Set(record.entries.filter { $0.number % 3 == 0 || $0.number % 5 == 0 }.map(\.number))
    #expect(v1 == expected)
    let unfinished = Self.record(10, finished: false)
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
    let page = try HistoryQuery(parameters: [:]).page(of: Self.record(30))
    #expect(throws: APIError.invalidRequestRevision) {
      try HistoryQuery(parameters: ["revision": [page.revision.token], "sort": ["DESCENDING"]])
    }
  }

  @Test("Refund history: refunds only, by refund date, 20 a page")
  func refunds() {
    let record = Self.record(150)
    var revision: Revision?
    var pages: [[Int]] = []
    repeat {
      let page = Page.take(
        from: record.refunds, of: record, descending: false, after: revision, kind: .refunds,
        key: { ($0.revoked ?? 0, $0.number) }, matching: { _ in true })
      pages.append(page.entries.map(\.number))
      revision = page.hasMore ? page.revision : nil
    } while revision != nil
    #expect(pages.map(\.count) == [20, 10])
    #expect(pages.flatMap { $0 } == Array(stride(from: 5, through: 150, by: 5)))
  }
}
