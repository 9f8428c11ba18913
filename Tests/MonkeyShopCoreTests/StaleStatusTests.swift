import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The status line says what is true now: a reason or a failure that no longer holds is cleared.
@Suite(.tags(.screen)) struct StaleStatusTests {
  /// The status line: the row above the hint bar.
  static func statusLine(_ shop: ShopHarness) -> String {
    let screen = shop.screen()
    return screen.line(screen.size.height - 2)
  }

  @Test func restrictedIsForgottenOnceProductsReloadAfterRestrictionsLift() {
    let shop = ShopHarness()
    shop.press("r")
    shop.press("5")
    #expect(Self.statusLine(shop).contains("purchases are restricted"))
    shop.press("r")
    shop.wait(1)
    #expect(shop.screen().contains("Buy $0.99"))
    #expect(!shop.screen().contains("restricted"), "\(shop.screen())")
  }

  @Test func networkDownIsForgottenAfterAGoodReload() {
    let shop = ShopHarness()
    shop.press("n")
    shop.press("R")
    shop.wait(1)
    #expect(Self.statusLine(shop).contains("R to retry"))
    shop.press("5")
    #expect(Self.statusLine(shop).contains("network down?"))
    shop.press("n")
    shop.press("R")
    shop.wait(1)
    #expect(shop.screen().contains("Buy $0.99"))
    let line = Self.statusLine(shop)
    #expect(!line.contains("network down?") && !line.contains("R to retry"), "\(line)")
  }

  @Test func productsLoadingIsForgottenOnceTheyLoad() {
    let shop = ShopHarness(conditions: { $0.latency = .slow }, launch: false)
    shop.launch(settle: false)
    shop.press("5")
    #expect(Self.statusLine(shop).contains("products are loading"))
    shop.wait(5)
    #expect(!shop.screen().contains("products are loading"), "\(shop.screen())")
  }

  @Test func aReasonThatStillHoldsStays() {
    let shop = ShopHarness(conditions: { $0.purchasesAllowed = false })
    shop.press("5")
    shop.wait(1)
    #expect(Self.statusLine(shop).contains("purchases are restricted"))
  }

  @Test func aNewlyOpenedOverlayDoesNotShowTheLastPurchasesStatus() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(5)
    #expect(Self.statusLine(shop).contains("Purchased 5 Monkey Credits"))
    shop.press("5")
    let screen = shop.screen()
    #expect(screen.contains("Total"), "\(screen)")
    #expect(!screen.contains("Purchased"), "the new payment sheet repeats the last purchase: \(screen)")
  }

  @Test(arguments: ["c", "\t"])
  func aNewlyOpenedOverlayDoesNotShowAnEarlierCancel(_ key: String) {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.wait(5)
    #expect(Self.statusLine(shop).contains("cancelled"))
    shop.press(key == "\t" ? .tab : .character(Character(key)))
    let screen = shop.screen()
    #expect(screen.contains("┌"), "\(screen)")
    #expect(!screen.contains("Purchase of 5 Monkey Credits cancelled"), "\(screen)")
  }

  @Test func aStatusGivenInsideTheOverlayStays() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.press("c")
    shop.press("x")
    #expect(OverlayStatusTests.insideBox(shop.screen()).contains { $0.contains("x: only the keys below act here") })
  }
}
