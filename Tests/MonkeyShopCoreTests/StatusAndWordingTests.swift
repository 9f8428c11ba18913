import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The status line says what is true now and what the app saw, in the words the rest of the
/// storefront uses; the transaction manager shows a failed payment's note whole.
@Suite(.tags(.pure)) struct StatusAndWordingTests {
  static func statusLines(_ screen: TextGrid) -> String {
    screen.lines.suffix(3).dropLast().joined(separator: "\n")
  }

  @Test(arguments: [Language.en, .ja])
  func restrictingPurchasesClearsTheLastPurchasesOutcome(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("5")
    shop.press(.escape)
    let cancelled = language == .ja ? "の購入をキャンセルしました" : "cancelled"
    #expect(Self.statusLines(shop.screen()).contains(cancelled))
    shop.press("r")
    shop.wait(0.1)
    let screen = shop.screen()
    #expect(screen.contains(language == .ja ? "AppStore 無効" : "AppStore disabled"), "\(screen)")
    #expect(!screen.contains(cancelled), "a stale status beside the disabled buttons:\n\(screen)")
  }

  @Test func openingAnotherTransactionsDetailClearsTheDeclinesStatus() {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab)
    shop.press("d")
    #expect(shop.screen().contains("Purchase of 5 Monkey Credits cancelled"), "\(shop.screen())")
    shop.press(.down)
    shop.press(.enter)
    let screen = shop.screen()
    #expect(screen.contains("Transaction payment 1"), "\(screen)")
    #expect(!screen.contains("Purchase of 5 Monkey Credits cancelled"), "\(screen)")
  }

  @Test(arguments: [Language.en, .ja])
  func aDeclinedAskToBuySaysWhatTheAppSawAndPointsAtTheLog(language: Language) {
    let shop = ShopHarness(conditions: { $0.askToBuy = true }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab)
    shop.press("d")
    shop.press(.escape)
    let status = shop.model.statusText ?? ""
    #expect(status.contains(".failed") && status.contains("SKErrorDomain 2"), "\(status)")
    #expect(status.contains(language == .ja ? "ログの ↳ 注記" : "see the log's ↳ note"), "\(status)")
    // Whole on the screen, at 80 columns.
    let screen = shop.screen()
    #expect(screen.contains(language == .ja ? "注記)" : "note)"), "\(screen)")
  }

  @Test(arguments: [Language.en, .ja])
  func aFailedProductRequestMarksApplesWordsAsAFailedPurchaseDoes(language: Language) {
    let shop = ShopHarness(conditions: { $0.networkUp = false }, language: language)
    let status = shop.model.statusText ?? ""
    let label =
      language == .ja ? "Appleのメッセージ: \"Cannot connect to iTunes Store\"" : "Apple: \"Cannot connect to iTunes Store\""
    #expect(status.contains(label), "\(status)")
    #expect(status.contains("SKErrorDomain 0 unknown") && status.contains("MS-E0001"), "\(status)")
  }

  @Test func aRequestForOneProductSaysOneID() {
    #expect(LogEvent.productsRequested(["a"]).text(.storeKit1, .en) == "SKProductsRequest(1 id).start()")
    #expect(LogEvent.productsRequested(["a"]).text(.storeKit2, .en) == "Product.products(for: 1 id)")
    #expect(LogEvent.productsRequested(["a", "b"]).text(.storeKit1, .en) == "SKProductsRequest(2 ids).start()")
  }

  @Test func theTransactionManagerShowsACancelsNoteWholeAt100Columns() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.press(.tab)
    let screen = shop.screen(100, 30)
    #expect(screen.contains("MS-E0004 SKErrorDomain 2 paymentCancelled"), "\(screen)")
    #expect(screen.contains("com.monkeyshop.credits.5"), "\(screen)")
  }
}
