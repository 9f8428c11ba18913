import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// A failure the storefront meets is shown in the storefront's language, on the status line and in
/// the event log, with its error ID.
@Suite(.tags(.screen)) struct FailureLanguageTests {
  @Test(arguments: [Language.en, .ja])
  func aFailedWriteIsShownInTheStorefrontsLanguage(language: Language) {
    let shop = ShopHarness(conditions: { $0.latency = .normal }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.disk.failWrites = true
    shop.wait(2)
    #expect(shop.model.lastFailure?.errorID == .cannotWriteDataFile)
    let screen = shop.screen(100, 30)
    let kind = language == .ja ? "データファイルに書き込めません: " : ""
    // The status line, and the log's line that leads with the ID.
    #expect(screen.contains("\(kind)/data/store.json: writing failed"), "\(screen)")
    #expect(screen.contains("MS-E0015 ✗ \(kind)/data/"), "\(screen)")
    // Headless output and the exit keep the English message.
    #expect(shop.model.lastFailure?.message.hasPrefix("/data/store.json: writing failed") == true)
  }

  /// The store refuses an answer the screen still offered: Ask to Buy declined by another
  /// monkeyshop before the app read the folder, then approved here. The store's refusal is the
  /// shop's own words, so it is shown whole in Japanese.
  @Test(arguments: [Language.en, .ja])
  func theStoresRefusalIsShownInTheStorefrontsLanguage(language: Language) throws {
    let shop = ShopHarness(conditions: { $0.askToBuy = true }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.wait(5)
    let deferred = try #require(shop.model.store.transactions.last)
    #expect(deferred.state == .deferred)
    shop.press(.tab)
    // Declined elsewhere; the app has not read the folder yet.
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) { try $0.decline(deferred.id) }
    shop.press("a")
    shop.wait(1)
    let screen = shop.screen(100, 30)
    #expect(shop.model.lastFailure?.errorID == .unknownTransaction, "\(screen)")
    let refusal =
      language == .ja
      ? "取引 \(deferred.id) は approve できません: 状態は failed" : "cannot approve transaction \(deferred.id): it is failed"
    #expect(screen.contains(refusal), "\(screen)")
    #expect(!screen.contains(language == .ja ? "cannot approve" : "できません"), "\(screen)")
  }
}
