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

  /// A key the storefront has no use for says so, and where it acts, rather than leave the last
  /// key's reason on the status line as if it answered this one.
  @Test(arguments: [Language.en, .ja])
  func aKeyThatDoesNothingSaysSo(language: Language) {
    let shop = ShopHarness(language: language)
    shop.wait(1)
    shop.press("-")
    #expect(Self.statusLine(shop).contains("-/−:"), "\(shop.screen())")
    shop.press("z")
    var line = Self.statusLine(shop)
    #expect(!line.contains("-/−:"), "\(shop.screen())")
    #expect(
      line.contains(language == .ja ? "z: ストアのキーではありません。? でキー一覧" : "z: not a storefront key; ? lists the keys"),
      "\(shop.screen())")
    shop.press("d")
    line = Self.statusLine(shop)
    #expect(
      line.contains(
        language == .ja
          ? "d: 取引マネージャのキーで、ストアでは使えません" : "d: a key of the transaction manager, not of the storefront"),
      "\(shop.screen())")
    // Opening an overlay leaves it behind.
    shop.press(.tab)
    #expect(!shop.screen().contains(language == .ja ? "ストアでは使えません" : "not of the storefront"), "\(shop.screen())")
  }

  /// "Fed the monkey: … 9 left" is gone once another monkeyshop changes the balance: the header
  /// and the log say the new one.
  @Test(arguments: [Language.en, .ja])
  func aBalanceChangedElsewhereClearsTheStatusThatGaveTheOldOne(language: Language) throws {
    let shop = ShopHarness(balance: 10, language: language)
    shop.press("s")
    let spent = language == .ja ? "残り 9" : "1 credit spent, 9 left"
    #expect(Self.statusLine(shop).contains(spent), "\(shop.screen())")
    // Another terminal's purchase credits 5.
    _ = try shop.storage.update(seeingHistory: { _, wallet, _ in wallet.balance += 5 })
    shop.runtime.folderChanged(now: shop.now)
    let screen = shop.screen()
    #expect(shop.model.balance == 14, "\(screen)")
    #expect(!Self.statusLine(shop).contains(spent), "\(screen)")
  }

  /// A store reset drops an Ask to Buy request: the storefront stops saying it waits for approval,
  /// and the transaction manager says why its a/d no longer act, instead of offering them.
  @Test(arguments: [Language.en, .ja])
  func anAskToBuyRequestDroppedByAResetIsNoLongerOffered(language: Language) throws {
    let shop = ShopHarness(language: language)
    shop.press("a")
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    let waiting = language == .ja ? "承認待ち" : "Waiting for approval"
    #expect(Self.statusLine(shop).contains(waiting), "\(shop.screen())")
    try shop.changeStore { store in _ = store.reset(at: shop.now) }
    #expect(!Self.statusLine(shop).contains(waiting), "\(shop.screen())")
    shop.press(.tab)
    shop.wait(1)
    var screen = shop.screen()
    let row = try #require(screen.lines.first { $0.contains("com.monkeyshop.credits.5") }, "\(screen)")
    #expect(row.contains(language == .ja ? "リセットで破棄" : "dropped by store reset"), "\(screen)")
    shop.press("a")
    screen = shop.screen()
    #expect(
      screen.contains(
        language == .ja
          ? "ストアのリセットでこの承認と購入のリクエストは破棄されました" : "a store reset dropped this Ask to Buy request"),
      "\(screen)")
    #expect(!screen.contains("MS-E0013"), "\(screen)")
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
    // The key the status names is in the hint bar, first, even at 80 columns.
    let hints = shop.screen().line(shop.screen().size.height - 1)
    #expect(hints.hasPrefix(" R reload"), "\(shop.screen())")
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

  /// A buy key pressed before the App Store answered the product request does nothing, as a buy
  /// button that is not there yet; once the products arrive the status does not just go (the key
  /// would seem to have done nothing): it says the key came too early and to press it again.
  @Test(arguments: [
    (Language.en, "5: pressed before the products arrived; nothing happened: press it again"),
    (Language.ja, "5: 商品が届く前に押されたため何も起きませんでした: もう一度押してください"),
  ])
  func aBuyKeyBeforeTheProductsIsExplainedOnceTheyArrive(_ language: Language, _ explained: String) {
    let shop = ShopHarness(language: language, launch: false)
    shop.launch(settle: false)
    shop.press("5")
    shop.wait(1)
    let screen = shop.screen()
    #expect(!screen.contains("loading..."), "the products arrived: \(screen)")
    #expect(Self.statusLine(shop).contains(explained), "\(screen)")
    #expect(!screen.contains("App Store"), "nothing was bought by itself: \(screen)")
    #expect(!shop.eventNames.contains("paymentAdded"), "\(shop.eventNames)")
    // Pressed again, the key acts, and the explanation has done its work.
    shop.press("5")
    let sheet = shop.screen()
    #expect(sheet.contains("App Store"), "\(sheet)")
    #expect(!sheet.contains(explained), "\(sheet)")
  }

  @Test func enterOnARowBeforeTheProductsIsExplainedToo() {
    let shop = ShopHarness(launch: false)
    shop.launch(settle: false)
    shop.press(.enter)
    #expect(Self.statusLine(shop).contains("Enter/b: products are loading"))
    shop.wait(1)
    #expect(Self.statusLine(shop).contains("Enter/b: pressed before the products arrived; nothing happened"))
  }

  /// When the request fails instead, the failure is what the status says: no key can act.
  @Test func aFailedRequestIsSaidInstead() {
    let shop = ShopHarness(conditions: { $0.networkUp = false }, launch: false)
    shop.launch(settle: false)
    shop.press("5")
    shop.wait(1)
    let line = Self.statusLine(shop)
    #expect(!line.contains("pressed before the products arrived"), "\(line)")
    #expect(shop.screen().contains("R to retry"), "\(shop.screen())")
  }
}
