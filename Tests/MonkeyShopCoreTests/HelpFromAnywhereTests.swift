import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// `?` opens help from every overlay, and help closes back to the overlay it was opened over, as
/// the person left it.
@Suite(.tags(.screen)) struct HelpFromAnywhereTests {
  static func showsHelp(_ shop: ShopHarness) -> Bool {
    let title = shop.language == .ja ? "┌─ キー ─" : "┌─ Keys ─"
    return shop.screen().lines.first?.hasPrefix(title) == true
  }

  /// Opens `?` in the overlay open now, then closes help with `key`: back where it was.
  static func helpAndBack(_ shop: ShopHarness, closingWith key: Key, sourceLocation: SourceLocation = #_sourceLocation)
  {
    let before = shop.model.overlay
    let screen = shop.screen()
    shop.press("?")
    #expect(Self.showsHelp(shop), "\(shop.screen())", sourceLocation: sourceLocation)
    shop.press(key)
    #expect(shop.model.overlay == before, sourceLocation: sourceLocation)
    #expect(shop.screen().lines == screen.lines, "\(shop.screen())", sourceLocation: sourceLocation)
  }

  @Test(arguments: [Language.en, .ja])
  func helpOpensFromEveryOverlayAndClosesBackToIt(language: Language) {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    shop.press("0")
    // The payment sheet: help, then back to the sheet, which still waits for its answer.
    #expect(shop.model.keyContext == .paymentSheet)
    Self.helpAndBack(shop, closingWith: .escape)
    shop.press(.escape)
    // The transaction manager, on its second row, and a transaction's detail.
    shop.press(.tab)
    shop.press(.down)
    Self.helpAndBack(shop, closingWith: .character("?"))
    shop.press(.enter)
    #expect(shop.model.overlay == .transactionDetail(selection: 1))
    Self.helpAndBack(shop, closingWith: .character("x"))
    shop.press(.escape)
    shop.press(.escape)
    // The conditions panel, on its third row.
    shop.press("c")
    shop.press(.down)
    shop.press(.down)
    Self.helpAndBack(shop, closingWith: .pageDown)
    shop.press(.escape)
    // And the storefront, as before.
    Self.helpAndBack(shop, closingWith: .escape)
  }

  @Test func aSheetAnsweredWhileHelpWasOpenIsNotShownAgain() throws {
    let shop = ShopHarness()
    shop.press("5")
    let waiting = shop.model.store.transactions.first { $0.awaitsPaymentSheet }
    let sheet = try #require(waiting)
    shop.press("?")
    // Another monkeyshop answers it meanwhile (a walkthrough cancelling it): its sheet is gone.
    let now = shop.now
    try shop.changeStore { _ = try $0.answerPaymentSheet(sheet.id, confirmed: false, at: now) }
    #expect(Self.showsHelp(shop))
    shop.press(.escape)
    #expect(shop.model.overlay == nil, "\(shop.screen())")
  }
}
