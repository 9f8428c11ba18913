import Foundation
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
    #expect(try source.current().entries.map(\.number) == Array(1...31))
    #expect(!FileManager.default.fileExists(atPath: history.path), "converted into the record")

    // Another command moves #31 to the record, refunds #7 (its row written again) and buys #32.
    try DataFolder(path: folder).update { store, _ in
      store.transactions = []
      store.leaving = [Self.transaction(31), Self.transaction(7, refunded: true)]
    }
    try Self.write(store: [Self.transaction(32)], last: 32, in: folder)
    let after = try source.current()
    #expect(after.entries.map(\.number) == Array(1...32))
    #expect(after.entry("7")?.jws == "refund.7.jws")
    #expect(after.refunds.map { after.entries[$0].number } == [7])

    // A record replaced whole (another file in its place) is read whole.
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: folder + "/record.sqlite" + suffix)
    }
    try Self.lines((1...5).map { Self.transaction($0) }).write(to: history)
    try Self.write(store: [], last: 32, in: folder)
    #expect(try source.current().entries.map(\.number) == Array(1...5))
  }
}
