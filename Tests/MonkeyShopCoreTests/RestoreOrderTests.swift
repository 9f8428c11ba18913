import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// StoreKit 1's restore of the jungle map pack: the finished callback after the restored
/// transactions were handled, and one restored transaction per purchase in the queue however often
/// the restore is repeated.
@Suite(.tags(.pure)) struct RestoreOrderTests {
  static let map = "com.monkeyshop.jungle-map"

  /// The map bought and downloaded; `instant`: with no latency, else with the default one.
  static func bought(instant: Bool = true) -> ShopHarness {
    let shop = ShopHarness(conditions: { if instant { $0.latency = .instant } })
    shop.buyJungleMap()
    shop.wait(10)
    return shop
  }

  static func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  @Test func theFinishedCallbackComesAfterTheRestoredTransactionWasHandled() throws {
    let shop = Self.bought(instant: false)
    #expect(shop.storage.store.transaction("1")?.finished == true)
    shop.press("o")
    let lines = Self.lines(shop)
    let restored = try #require(lines.firstIndex(of: "paymentQueue(_:updatedTransactions:) .restored #2"))
    let delivered = try #require(lines.firstIndex(of: "deliver #2: \(Self.map) already owned, nothing to unlock"))
    let started = try #require(lines.firstIndex(of: "SKPaymentQueue.default().start(transaction.downloads) #2"))
    let finished = try #require(lines.firstIndex(of: "paymentQueueRestoreCompletedTransactionsFinished(_:)"))
    #expect(restored < delivered && delivered < started && started < finished, "\(lines.suffix(12))")
    // The download goes on after the restore finished; the transaction is finished once it is done.
    #expect(shop.storage.store.transaction("2")?.finished == false)
    shop.wait(10)
    #expect(shop.storage.store.transaction("2")?.finished == true)
  }

  @Test(
    "what restore reports: restored and finished, exit 0; content that cannot be unpacked leaves it unfinished, not 0")
  func restoreOutcome() throws {
    let shop = Self.bought()
    shop.press("o")
    shop.wait(10)
    let done = RestoreOutcome(shop.model)
    #expect(done.outcome == .restored && done.exitStatus == 0 && done.error == nil)
    #expect(done.restored.map(\.originalTransactionIdentifier) == ["1"])
    #expect(done.restored.map(\.productIdentifier) == [Self.map])
    #expect(done.restored.first?.finished == true && done.restored.first?.content != nil)
    #expect(done.line == "Restore finished: 1 purchase restored (consumables are never restored)")

    let stuck = Self.bought()
    stuck.disk.failContent = true
    stuck.press("o")
    stuck.wait(10)
    let left = RestoreOutcome(stuck.model)
    #expect(left.outcome == .unfinished && left.restored.first?.finished == false, "\(left)")
    #expect(left.exitStatus != 0 && left.error?.message.contains("stays unfinished") == true, "\(left)")
    #expect(left.line == nil)
  }

  @Test func repeatedRestoresLeaveOneUnfinishedRestoredTransactionPerPurchase() throws {
    let shop = Self.bought()
    shop.disk.failContent = true
    shop.press("o")
    shop.wait(1)
    #expect(shop.storage.store.transaction("2")?.state == .restored)
    #expect(shop.storage.store.transaction("2")?.finished == false)
    for _ in 0..<3 {
      // Each `monkeyshop restore` is a new launch of the app, then Restore Purchases.
      shop.launch()
      shop.press("o")
      shop.wait(1)
    }
    let restored = shop.storage.store.transactions.filter { $0.state == .restored }
    #expect(restored.map(\.id) == ["2"], "\(restored.map(\.id))")
    #expect(
      Self.lines(shop).contains {
        $0.contains("#2, restoring purchase #1, is still unfinished in the queue: no second restored transaction")
      })
    // The content folder can be written again: the next launch delivers #2 and finishes it.
    shop.disk.failContent = false
    shop.launch()
    shop.wait(1)
    #expect(shop.storage.store.transaction("2")?.finished == true)
    #expect(shop.storage.installed[Self.map] != nil)
    // A restore after that makes a new restored transaction again.
    shop.press("o")
    shop.wait(1)
    #expect(shop.storage.store.transactions.filter { $0.state == .restored }.count == 2)
  }

  @Test func theRestoredTransactionSignsThePurchaseDateAsItsOriginalPurchaseDate() throws {
    let shop = Self.bought()
    let purchase = try #require(shop.storage.store.transaction("1"))
    shop.wait(3600)
    shop.press("o")
    shop.wait(1)
    let restored = try #require(shop.storage.store.transaction("2"))
    let storefront = ShopHarness.catalog.defaultStorefront
    let payload = try #require(SignedTransactionPayload(restored, catalog: ShopHarness.catalog, storefront: storefront))
    let milliseconds = { (date: Date) in Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    #expect(payload.originalTransactionId == "1")
    #expect(payload.originalPurchaseDate == milliseconds(purchase.purchaseDate))
    #expect(payload.purchaseDate == milliseconds(restored.purchaseDate))
    #expect(payload.purchaseDate - payload.originalPurchaseDate >= 3_600_000)
    // The transaction manager's detail shows it.
    shop.press(.tab)
    shop.press(.enter)
    let iso = SignedTransactionPayload.Value.iso8601(milliseconds(purchase.purchaseDate))
    let detail = shop.screen(120, 40).text
    #expect(detail.contains("transactionId: 2"), "\(detail)")
    #expect(detail.contains("originalPurchaseDate: \(milliseconds(purchase.purchaseDate)) (\(iso))"), "\(detail)")
    // store.json keeps it.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-restored-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let folder = DataFolder(path: path)
    try folder.update { store, _ in store = shop.storage.store }
    #expect(try folder.readStore().transaction("2")?.originalPurchaseDate == purchase.purchaseDate)
  }
}
