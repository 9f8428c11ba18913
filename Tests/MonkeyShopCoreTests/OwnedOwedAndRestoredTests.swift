import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// What the storefront says of a product owned already, of a wallet that owes credits, of a
/// restored transaction, and of its keys in Japanese: each as a presenter would read it.
@Suite(.tags(.screen)) struct OwnedOwedAndRestoredTests {
  static func row(_ shop: ShopHarness, _ title: String) -> String {
    shop.screen().lines.first { $0.contains(title) } ?? ""
  }

  @Test(arguments: [Language.en, .ja])
  func anOwnedMapIsOfferedAgainWithoutACharge(language: Language) throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, language: language)
    shop.buyJungleMap()
    shop.wait(10)
    #expect(shop.storage.owned.owns("com.monkeyshop.jungle-map"))
    let title = language == .ja ? "ジャングルマップ" : "Jungle Map"
    let row = Self.row(shop, title)
    #expect(row.contains(language == .ja ? "[ 再入手 ]" : "[ Get again ]"), "\(shop.screen())")
    #expect(!row.contains("$2.99") && !row.contains(language == .ja ? "数量" : "qty"), "\(row)")
    shop.press(.enter)
    let sheet = shop.screen()
    let notCharged = language == .ja ? "購入済み: 再び請求されません" : "owned already: not charged again"
    #expect(
      sheet.lines.contains { $0.contains(language == .ja ? "合計" : "Total") && $0.contains(notCharged) }, "\(sheet)")
    // Its confirm button says what the row said: got again, not bought.
    let getAgain = language == .ja ? "[ 再入手 ]" : "[ Get again ]"
    let buy = language == .ja ? "[ 購入 ]" : "[ Buy ]"
    #expect(sheet.contains(getAgain) && !sheet.contains(buy), "\(sheet)")
    // A product not owned is still offered at its price.
    shop.press(.escape)
    shop.press(.up)
    #expect(Self.row(shop, language == .ja ? "モンキークレジット 10" : "10 Monkey Credits").contains("$"), "\(shop.screen())")
    shop.press(.enter)
    #expect(shop.screen().contains(buy) && !shop.screen().contains(getAgain), "\(shop.screen())")
  }

  /// "Owned" stands in the price column, where the other rows' prices start, in both languages
  /// and at any width: Japanese 購入済み stood four columns to their right.
  @Test(arguments: [Language.en, .ja], [(80, 24), (100, 30)])
  func ownedStandsInThePriceColumn(language: Language, size: (width: Int, height: Int)) throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, language: language)
    shop.buyJungleMap()
    shop.wait(10)
    let screen = shop.screen(size.width, size.height)
    let owned = language == .ja ? "購入済み" : "Owned"
    func column(_ title: String, _ text: String) throws -> Int {
      let row = try #require(screen.lines.first { $0.contains(title) && $0.contains(text) }, "\(screen)")
      return TextWidth.of(String(row[..<row.range(of: text)!.lowerBound]))
    }
    let map = try column(language == .ja ? "ジャングルマップ" : "Jungle Map", owned)
    let credits = try column(language == .ja ? "モンキークレジット 10" : "10 Monkey Credits", "$")
    #expect(map == credits, "\(screen)")
  }

  @Test func spendingFromAWalletThatOwesSaysWhy() throws {
    let shop = ShopHarness(conditions: {
      $0.latency = .instant
      $0.storeKit = .storeKit2
    })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("sss")
    #expect(shop.model.balance == 2)
    let now = shop.now
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: now) }
    shop.wait(2)
    #expect(shop.model.balance == -3, "\(shop.screen())")
    shop.press("s")
    let screen = shop.screen()
    #expect(screen.contains("3 monkey credits owed: refunds took back credits already spent"), "\(screen)")
    #expect(!screen.contains("no monkey credits to spend"), "\(screen)")
  }

  @Test func oneCreditIsSaidInTheSingular() {
    let shop = ShopHarness(conditions: { $0.latency = .instant })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("ssss")
    #expect(shop.model.balance == 1)
    let screen = shop.screen()
    #expect(screen.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "1 monkey credit" }, "\(screen)")
  }

  @Test func aRestoredTransactionsDetailSaysStoreKit2ListsThePurchase() throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant })
    shop.buyJungleMap()
    shop.wait(10)
    shop.press("o")
    shop.wait(10)
    shop.press(.tab)
    // Newest first: the restored copy is the first row.
    shop.press(.enter)
    let screen = shop.screen(100, 40)
    #expect(screen.contains("StoreKit 2: Transaction.all ✗"), "\(screen)")
    #expect(screen.contains("a restored transaction is StoreKit 1's copy"), "\(screen)")
    #expect(!screen.contains("a non-consumable stays in Transaction.all"), "\(screen)")
  }

  @Test func japaneseHelpAt80x24ShowsEveryKeyWhole() {
    let shop = ShopHarness(language: .ja)
    shop.press("?")
    let screen = shop.screen()
    let cut = screen.lines.filter { $0.contains("…") }
    #expect(cut.isEmpty, "help lines cut while room was left:\n\(screen)")
  }

  @Test func japaneseWordsForAskToBuyAndADownload() {
    let shop = ShopHarness(language: .ja)
    // a toggles Ask to Buy, which the conditions call 承認と購入; 承認 alone is the manager's approve.
    #expect(shop.screen(120, 40).contains("a 承認と購入"), "\(shop.screen(120, 40))")
    shop.buyJungleMap()
    shop.wait(1)
    let screen = shop.screen(120, 40)
    #expect(screen.contains("ジャングルマップを App Store からダウンロード中"), "\(screen)")
    #expect(!screen.contains("ジャングルマップ を"), "\(screen)")
  }

  @Test func columnsShareWhatIsLeftAfterTheNarrowOnes() {
    #expect(OverlayView.columnWidths([10, 20], fitting: 40, gap: 2) == [10, 20])
    #expect(OverlayView.columnWidths([10, 50], fitting: 40, gap: 2) == [10, 28])
    #expect(OverlayView.columnWidths([30, 30], fitting: 40, gap: 2) == [19, 19])
  }
}
