import Foundation
import GRDB
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopServer
@testable import MonkeyShopStorage

/// The server's reading of the data folder: what other commands write is served at the next
/// request, the history read again only from where the last reading stopped.
@Suite("App Store Server API: reading the record", .tags(.pure))
struct RecordSourceTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  static func transaction(_ number: Int, refunded: Bool = false) -> StoreTransaction {
    var transaction = StoreTransaction(
      id: "\(number)", productIdentifier: "com.monkeyshop.credits.5", quantity: 1, state: .purchased,
      purchaseDate: start.addingTimeInterval(Double(number)), finished: true)
    transaction.record = PurchaseRecord(
      price: 990, currency: "USD", type: PurchaseRecord.consumable, bundleId: "com.monkeyshop.app", credits: 5)
    transaction.storefront = "USA"
    transaction.environment = .sandbox
    transaction.signedPurchase = "purchase.\(number).jws"
    if refunded {
      transaction.revocationDate = start.addingTimeInterval(10_000)
      transaction.revocationReason = .other
      transaction.signedRefund = "refund.\(number).jws"
    }
    return transaction
  }

  /// Writes the store (holding `inStore`) and the wallet, numbered up to `last`.
  static func write(store inStore: [StoreTransaction], last: Int, in folder: String) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    var store = StoreState()
    store.transactions = inStore
    store.lastTransactionNumber = last
    var wallet = Wallet()
    wallet.lastTransactionNumber = last
    try encoder.encode(store).write(to: URL(fileURLWithPath: folder + "/store.json"))
    try encoder.encode(wallet).write(to: URL(fileURLWithPath: folder + "/wallet.json"))
  }

  static func lines(_ transactions: [StoreTransaction]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.sortedKeys]
    var data = Data()
    for transaction in transactions { data += try encoder.encode(transaction) + Data("\n".utf8) }
    return data
  }

  @Test(
    "A converted history, transactions recorded, a refund and a replaced record are each served at the next request")
  func followsTheFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-record-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let history = URL(fileURLWithPath: folder + "/history.jsonl")
    try Self.lines((1...30).map { Self.transaction($0) }).write(to: history)
    try Self.write(store: [Self.transaction(31)], last: 31, in: folder)
    let source = RecordSource(folderPath: folder, catalog: Catalog(products: []))
    #expect(try Self.numbers(source.current()) == Array(1...31))
    #expect(!FileManager.default.fileExists(atPath: history.path), "converted into the record")

    // Another command moves #31 to the record, refunds #7 (its row written again) and buys #32.
    try DataFolder(path: folder).update { store, _ in
      store.transactions = []
      store.leaving = [Self.transaction(31), Self.transaction(7, refunded: true)]
    }
    try Self.write(store: [Self.transaction(32)], last: 32, in: folder)
    let after = try source.current()
    // #7's refund is its latest change: it comes last.
    #expect(try Self.numbers(after) == Array(1...6) + Array(8...32) + [7])
    #expect(try after.entry("7")?.jws == "refund.7.jws")
    #expect(try after.refundPage(after: nil).entries.map(\.number) == [7])

    // A record replaced whole (another file in its place) is read whole.
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: folder + "/record.sqlite" + suffix)
    }
    try Self.lines((1...5).map { Self.transaction($0) }).write(to: history)
    try Self.write(store: [], last: 32, in: folder)
    #expect(try Self.numbers(source.current()) == Array(1...5))
  }

  @Test("A record of the previous schema gains its order IDs and indexes at the server's first reading")
  func convertsAnEarlierRecord() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-record-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(store: [], last: 30, in: folder)
    do {
      let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
      defer { close(descriptor) }
      let record = try #require(try TransactionRecord.open(folder: descriptor, folderPath: folder, creating: true))
      try record.record((1...30).map { Self.transaction($0, refunded: $0 == 7) })
      // What the previous version wrote: no order IDs, none of the serving indexes.
      try record.database.write { db in
        for index in ["orderID", "product_purchaseDate", "refund", "version1", "missingOrderID"] {
          try db.execute(sql: "DROP INDEX storeTransaction_on_\(index)")
        }
        try db.execute(sql: "ALTER TABLE storeTransaction DROP COLUMN orderID")
        try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('serving', 'orderIDs')")
      }
    }
    let record = try RecordSource(folderPath: folder, catalog: Catalog(products: [])).current()
    let order = try #require(OrderID.of(Self.transaction(12)))
    #expect(try record.entries(ofOrder: order).map(\.number) == [12])
    #expect(try record.refundPage(after: nil).entries.map(\.number) == [7])
    #expect(try Self.numbers(record).count == 30)
  }

  @Test(
    "Rows an earlier monkeyshop recorded without their order IDs are served in every page, given them at the next reading"
  )
  func fillsMissingOrderIDs() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-record-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(store: [], last: 31, in: folder)
    // A payment still waiting for a parent's approval when `store reset` took it out of the queue.
    let unsigned = StoreTransaction(
      id: "31", productIdentifier: "com.monkeyshop.credits.5", quantity: 1, state: .deferred,
      purchaseDate: Self.start.addingTimeInterval(31))
    let writer: TransactionRecord
    do {
      let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
      defer { close(descriptor) }
      writer = try #require(try TransactionRecord.open(folder: descriptor, folderPath: folder, creating: true))
    }
    try writer.record((1...30).map { Self.transaction($0, refunded: $0 == 7) } + [unsigned])
    /// What a monkeyshop older than the order IDs leaves: it inserts rows without the column.
    func forgetOrderIDs() throws {
      try writer.database.write { db in
        try db.execute(sql: "UPDATE storeTransaction SET orderID = NULL WHERE number IN (3, 7, 12, 31)")
      }
    }
    func missing() throws -> Int {
      try writer.database.read {
        try Int.fetchOne($0, sql: "SELECT count(*) FROM storeTransaction WHERE orderID IS NULL") ?? -1
      }
    }
    let order = try #require(OrderID.of(Self.transaction(12)))
    // #7's refund is its latest change: it comes last.
    let every = Array(1...6) + Array(8...30) + [7]
    // The server already reading the record (its connection kept), and a server starting on it.
    let running = RecordSource(folderPath: folder, catalog: Catalog(products: []))
    #expect(try Self.numbers(running.current()) == every)
    for source in [running, RecordSource(folderPath: folder, catalog: Catalog(products: []))] {
      try forgetOrderIDs()
      #expect(try missing() == 4)
      let record = try source.current()
      #expect(try Self.numbers(record) == every)
      #expect(try record.refundPage(after: nil).entries.map(\.number) == [7])
      #expect(try record.entries(ofOrder: order).map(\.number) == [12])
      #expect(try record.jws("12") == "purchase.12.jws")
      #expect(try missing() == 0)
    }
    // The deferred payment was never signed: no order, and in no page.
    let none = try writer.database.read {
      try String.fetchOne($0, sql: "SELECT orderID FROM storeTransaction WHERE number = 31")
    }
    #expect(none == "")
  }

  /// Every transaction of the history, page after page, in its order.
  static func numbers(_ record: ServedRecord) throws -> [Int] {
    var numbers: [Int] = []
    var parameters: [String: [String]] = [:]
    while true {
      let page = try record.historyPage(HistoryQuery(parameters: parameters))
      numbers += page.entries.map(\.number)
      guard page.hasMore else { return numbers }
      parameters["revision"] = [page.revision.token]
    }
  }
}
