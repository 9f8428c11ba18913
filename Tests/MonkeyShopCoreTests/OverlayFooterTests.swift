import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// An overlay's footer says what its keys do now, and that help is there: the payment sheet of a
/// product owned already gets it again with Enter, and `?` opens help from every overlay.
@Suite(.tags(.screen)) struct OverlayFooterTests {
  /// The overlay's bottom edge, where its keys are.
  static func footer(_ screen: TextGrid) -> String { screen.lines.last { $0.contains("└") } ?? "" }

  /// The jungle map bought and delivered, then its row's Buy pressed again: the sheet to get it again.
  static func mapSheetOwned(_ language: Language) -> ShopHarness {
    let shop = ShopHarness(language: language)
    shop.press(.down, .down)
    shop.press(.enter)
    shop.press(.enter)
    shop.wait(5)
    shop.press(.enter)
    return shop
  }

  @Test(arguments: [Language.en, .ja])
  func theSheetOfAnOwnedProductSaysEnterGetsItAgain(language: Language) throws {
    let shop = Self.mapSheetOwned(language)
    let screen = shop.screen()
    #expect(shop.model.paymentSheetGetsAgain, "\(screen)")
    #expect(screen.contains(language == .ja ? "[ 再入手 ]" : "[ Get again ]"), "\(screen)")
    let footer = Self.footer(screen)
    #expect(footer.contains(language == .ja ? "Enter 再入手" : "Enter get again"), "\(screen)")
    #expect(!footer.contains(language == .ja ? "Enter 購入" : "Enter buy"), "\(screen)")
    // The storefront's hint bar beneath names it the same way.
    let bar = try #require(screen.lines.last)
    #expect(bar.contains(language == .ja ? "Enter 再入手" : "Enter get again"), "\(screen)")
  }

  @Test(arguments: [Language.en, .ja])
  func theSheetOfAProductNotOwnedSaysEnterBuys(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press(.down, .down)
    shop.press(.enter)
    let screen = shop.screen()
    #expect(!shop.model.paymentSheetGetsAgain, "\(screen)")
    #expect(Self.footer(screen).contains(language == .ja ? "Enter 購入" : "Enter buy"), "\(screen)")
  }

  /// Every overlay with a footer names help at 80×24, and `?` there opens it.
  @Test(arguments: [Language.en, .ja])
  func everyOverlaysFooterNamesHelp(language: Language) {
    let help = language == .ja ? "? ヘルプ" : "? help"
    let shop = ShopHarness(language: language)
    var seen: [String] = []
    func check(_ name: String) {
      let screen = shop.screen()
      #expect(Self.footer(screen).contains(help), "\(name):\n\(screen)")
      shop.press("?")
      #expect(
        { if case .help = shop.model.overlay { true } else { false } }(), "\(name): ? did not open help")
      shop.press(.escape)
      seen.append(name)
    }
    shop.press("5")
    check("payment sheet")
    shop.press(.enter)
    shop.wait(5)
    shop.press("c")
    check("conditions panel")
    shop.press(.escape)
    shop.press(.tab)
    check("transaction manager")
    shop.press(.enter)
    check("transaction detail")
    #expect(seen.count == 4)
  }
}
