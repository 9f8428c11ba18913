import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// A refund of the jungle map pack takes the product away, in either app, once; a restore never
/// brings a refunded purchase back.
@Suite(.tags(.pure)) struct NonConsumableRefundTests {
  static let map = "com.monkeyshop.jungle-map"

  /// The jungle map pack bought on the storefront, downloaded and finished.
  static func bought(_ api: StoreKitAPI) -> ShopHarness {
    let shop = ShopHarness(conditions: {
      $0.storeKit = api
      $0.latency = .instant
    })
    shop.buyJungleMap()
    shop.wait(1)
    return shop
  }

  static func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  /// The jungle map's row on the storefront.
  static func mapRow(_ shop: ShopHarness) -> String {
    shop.screen().text.split(separator: "\n").first { $0.contains("Jungle Map") }.map(String.init) ?? ""
  }

  @Test func storeKit1IsToldOfTheRefundAndNoLongerOwnsTheMap() throws {
    let shop = Self.bought(.storeKit1)
    #expect(shop.storage.owned.owns(Self.map))
    #expect(Self.mapRow(shop).contains("Owned"))
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    let lines = Self.lines(shop)
    #expect(lines.contains("paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:) [\(Self.map)]"))
    #expect(lines.contains("refund of #1: \(Self.map) no longer owned (removed from owned.json)"))
    #expect(!lines.contains { $0.contains("StoreKit 1 tells the app nothing") })
    #expect(!shop.storage.owned.owns(Self.map))
    #expect(!Self.mapRow(shop).contains("Owned"), "\(Self.mapRow(shop))")
    #expect(shop.screen().text.contains("Jungle Map Pack was refunded: the app no longer owns it"))
    // Heard once: a relaunch does not act on it again.
    shop.launch()
    #expect(!Self.lines(shop).contains { $0.contains("no longer owned") || $0.contains("refunded while") })
  }

  @Test func storeKit1FindsARefundMadeWhileItWasNotRunningAtItsNextLaunch() throws {
    let shop = Self.bought(.storeKit1)
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) {
      _ = try $0.refund("1", reason: .other, at: ShopHarness.start)
    }
    shop.launch()
    let lines = Self.lines(shop)
    #expect(lines.contains { $0.contains("#1 was refunded while the app was not running") })
    #expect(lines.contains("refund of #1: \(Self.map) no longer owned (removed from owned.json)"))
    #expect(!shop.storage.owned.owns(Self.map))
    #expect(!Self.mapRow(shop).contains("Owned"))
  }

  @Test func storeKit2RemovesTheMapWhenTransactionUpdatesDeliversTheRevocationOnce() throws {
    let shop = Self.bought(.storeKit2)
    #expect(shop.storage.owned.owns(Self.map))
    try shop.changeStore { _ = try $0.refund("1", reason: .developerIssue, at: ShopHarness.start) }
    let lines = Self.lines(shop)
    #expect(lines.contains("Transaction.updates → .verified #1, revocationDate set (developerIssue)"))
    #expect(lines.contains("refund of #1: \(Self.map) no longer owned (removed from owned.json)"))
    #expect(!lines.contains { $0.hasPrefix("take back") })
    #expect(!shop.storage.owned.owns(Self.map))
    #expect(!Self.mapRow(shop).contains("Owned"))
    shop.launch()
    #expect(!Self.lines(shop).contains { $0.contains("revocationDate set") })
  }

  @Test func storeKit2HearsOfARefundMadeWhileItWasNotRunningAtItsNextLaunch() throws {
    let shop = Self.bought(.storeKit2)
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) {
      _ = try $0.refund("1", reason: .other, at: ShopHarness.start)
    }
    shop.launch()
    #expect(Self.lines(shop).contains("Transaction.updates → .verified #1, revocationDate set (other)"))
    #expect(!shop.storage.owned.owns(Self.map))
    // currentEntitlements no longer holds it: a sync unlocks nothing.
    shop.press("o")
    #expect(Self.lines(shop).contains { $0.contains("Transaction.currentEntitlements → 0 transactions") })
    #expect(!shop.storage.owned.owns(Self.map))
  }

  @Test func aRestoreNeverBringsARefundedPurchaseBack() throws {
    let shop = Self.bought(.storeKit1)
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    shop.press("o")
    shop.wait(1)
    #expect(!shop.storage.store.transactions.contains { $0.state == .restored })
    #expect(shop.model.status == .restoreFinished(restored: 0))
    #expect(!shop.storage.owned.owns(Self.map))
  }

  @Test func aRestoredTransactionIsNotRefundedItself_thePurchaseIs() throws {
    let shop = Self.bought(.storeKit1)
    shop.press("o")
    shop.wait(1)
    let restored = try #require(shop.storage.store.transactions.last { $0.state == .restored })
    let error = #expect(throws: TransactionError.self) {
      try shop.changeStore { _ = try $0.refund(restored.id, reason: .other, at: ShopHarness.start) }
    }
    #expect(
      error?.message
        == "transaction \(restored.id) is restored, a copy of purchase #1: the App Store refunds the purchase (refund 1)"
    )
    #expect(shop.storage.owned.owns(Self.map))
    // Refunding the purchase takes the product away, whichever transaction unlocked it.
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    #expect(!shop.storage.owned.owns(Self.map))
    shop.press("o")
    shop.wait(1)
    #expect(shop.storage.store.transactions.filter { $0.state == .restored }.count == 1, "no new restored copy")
    #expect(!shop.storage.owned.owns(Self.map))
  }
}

/// A refund of the map while its purchase is still unfinished (downloading): neither the download
/// ending nor the redelivery at the next launch gives the product back.
@Suite(.tags(.pure)) struct UnfinishedRefundTests {
  static let map = NonConsumableRefundTests.map

  static func downloading() -> ShopHarness {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(2)
    return shop
  }

  @Test func theDownloadEndingDoesNotGiveTheMapBack() throws {
    let shop = Self.downloading()
    #expect(shop.storage.store.transaction("1")?.finished == false)
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    #expect(!shop.storage.owned.owns(Self.map))
    shop.wait(10)
    #expect(shop.storage.store.transaction("1")?.finished == true)
    #expect(!shop.storage.owned.owns(Self.map))
    #expect(!NonConsumableRefundTests.mapRow(shop).contains("Owned"))
  }

  @Test func theRedeliveryAtLaunchFinishesItWithoutUnlockingIt() throws {
    let shop = Self.downloading()
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    shop.launch()
    shop.wait(10)
    let lines = NonConsumableRefundTests.lines(shop)
    #expect(lines.contains("deliver #1: \(Self.map) was refunded, nothing to unlock"), "\(lines)")
    #expect(!shop.storage.owned.owns(Self.map))
    #expect(shop.storage.store.transaction("1")?.finished == true)
  }
}
