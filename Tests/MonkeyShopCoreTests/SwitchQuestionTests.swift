import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// `l` restarts the app in the other StoreKit: mid-purchase it asks first, as `q` does, and an
/// answer of no says the app stayed as it was.
@Suite(.tags(.screen)) struct SwitchQuestionTests {
  @Test(arguments: [Language.en, .ja])
  func switchingMidPurchaseAsksFirst(language: Language) throws {
    let shop = ShopHarness(language: language)
    shop.press("5")
    shop.press(.enter)
    #expect(shop.model.isPurchaseInFlight)
    shop.press("l")
    var screen = shop.screen()
    let question =
      language == .ja
      ? "購入処理中です。StoreKit 2 に切り替えて再起動しますか? (y/n)" : "Switch to StoreKit 2 mid-purchase? The app restarts (y/n)"
    #expect(shop.model.storeKit == .storeKit1, "\(screen)")
    // The whole question in its box at 80×24, the purchase's status still beneath it.
    let line = try #require(screen.lines.first { $0.contains(question) }, "\(screen)")
    #expect(line.filter { $0 == "│" }.count == 2, "\(screen)")
    #expect(screen.contains(language == .ja ? "を購入中" : "Purchasing 5 Monkey Credits"), "\(screen)")
    // No: nothing switched, and the status says so.
    shop.press("n")
    screen = shop.screen()
    #expect(shop.model.overlay == nil && shop.model.storeKit == .storeKit1, "\(screen)")
    let kept = language == .ja ? "StoreKit 1 のまま: 切り替えませんでした" : "Still StoreKit 1: the app was not switched"
    #expect(screen.contains(kept), "\(screen)")
    #expect(!shop.eventNames.contains("appRestarted"), "\(shop.eventNames)")
    // Yes: the app restarts in StoreKit 2.
    shop.press("l")
    shop.press("y")
    shop.wait(2)
    #expect(shop.model.overlay == nil && shop.model.storeKit == .storeKit2, "\(shop.screen())")
  }

  @Test func theQuestionSaysWhenThePurchaseHasEnded() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.press("l")
    shop.wait(2)
    #expect(!shop.model.isPurchaseInFlight)
    let screen = shop.screen()
    #expect(screen.contains("The purchase has ended. Switch to StoreKit 2 now? (y/n)"), "\(screen)")
    #expect(!screen.contains("mid-purchase"), "\(screen)")
    shop.press(.escape)
    #expect(shop.model.storeKit == .storeKit1 && shop.model.overlay == nil)
  }

  /// The conditions panel's StoreKit row switches by the same rule as `l`: mid-purchase it asks,
  /// and the answer goes back to the panel.
  @Test(arguments: [Language.en, .ja])
  func thePanelsStoreKitRowAsksMidPurchase(language: Language) throws {
    let shop = ShopHarness(language: language)
    shop.press("5")
    shop.press(.enter)
    shop.press("c")
    let row = try #require(Condition.allCases.firstIndex(of: .storeKit))
    for _ in 0..<row { shop.press(.down) }
    shop.press(.right)
    var screen = shop.screen()
    let question =
      language == .ja
      ? "購入処理中です。StoreKit 2 に切り替えて再起動しますか? (y/n)" : "Switch to StoreKit 2 mid-purchase? The app restarts (y/n)"
    #expect(screen.contains(question), "\(screen)")
    #expect(shop.model.storeKit == .storeKit1, "\(screen)")
    // No: back in the panel on its StoreKit row, nothing switched.
    shop.press("n")
    screen = shop.screen()
    #expect(shop.model.overlay == .conditions(selection: row) && shop.model.storeKit == .storeKit1, "\(screen)")
    let kept = language == .ja ? "StoreKit 1 のまま: 切り替えませんでした" : "Still StoreKit 1: the app was not switched"
    #expect(screen.contains(kept), "\(screen)")
    #expect(!shop.eventNames.contains("appRestarted"), "\(shop.eventNames)")
    // ← asks too; yes switches, and the panel is still open.
    shop.press(.left)
    #expect(shop.screen().contains(question), "\(shop.screen())")
    shop.press("y")
    shop.wait(2)
    #expect(shop.model.storeKit == .storeKit2 && shop.model.overlay == .conditions(selection: row), "\(shop.screen())")
    // With nothing under way the row switches at once.
    shop.press(.right)
    shop.wait(2)
    #expect(shop.model.storeKit == .storeKit1 && shop.model.overlay == .conditions(selection: row), "\(shop.screen())")
  }

  @Test func withNothingUnderWayItSwitchesAtOnce() {
    let shop = ShopHarness()
    shop.press("l")
    shop.wait(2)
    #expect(shop.model.storeKit == .storeKit2 && shop.model.overlay == nil, "\(shop.screen())")
  }
}
