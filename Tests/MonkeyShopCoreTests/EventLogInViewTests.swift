import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage

/// What a trainer must read in the event log at 80×24 stays in view: a notification's type and
/// outcome however long the receiver's URL, and a failed purchase's lines whole in both languages.
@Suite(.tags(.screen)) struct EventLogInViewTests {
  static let size = ScreenSize(width: 80, height: 24)

  /// The log's rows as one text: each row trimmed, joined with a space (rows break at spaces).
  static func logText(_ screen: TextGrid) -> String {
    EventLogRowsTests.logLines(screen).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }

  /// `monkeyshop server` delivers a REFUND_DECLINED to a receiver with a long URL: the entry wraps
  /// as any other, and the type, the receiver's answer and the attempt are on screen; only the URL's
  /// end may be cut.
  @Test(arguments: [Language.en, .ja])
  func aNotificationToALongURLKeepsItsTypeAndOutcomeInView(language: Language) throws {
    let url =
      "http://127.0.0.1:9123/app-store/server-notifications/v2/sandbox/com.monkeyshop.app/receiver/"
      + "with/a/much/longer/path/for/routing/and/tenants/acme-corporation-production"
    let start = ShopModelUpdateTests.launch
    var store = StoreState()
    store.notifications.url = url
    let made = store.notifications.record(
      .refundDeclined, transactionID: "2", at: start, environment: .sandbox, bundleId: "com.example.shop")
    store.notifications.pending.append(PendingNotification(made))
    store.notifications.outgoing = []
    var model = ShopModel(
      catalog: ShopModelUpdateTests.catalog, language: language, launchDate: start, armedCrash: nil)
    _ = model.update(.launched(store, Wallet(), at: 0))
    let attempt = SendAttempt(date: start.addingTimeInterval(1), result: .success, url: url, httpStatus: 200)
    _ = store.notifications.recordAttempt(attempt, number: 1, retry: .fast)
    let ended = ServerActivityLogTests.commit(&store)
    ServerActivityLogTests.follow(&model, store, ended: ended, at: 600)
    model.screenSize = Self.size
    var screen = TextGrid(size: Self.size)
    ShopView(model: model).draw(on: &screen)
    let attemptWords = language == .ja ? "1 回目の送信" : "attempt 1"
    // Japanese breaks a row between any two of its characters: compared without spaces.
    let unspaced = { (text: String) in text.filter { $0 != " " } }
    #expect(
      unspaced(Self.logText(screen)).contains(
        unspaced("App Store Server Notification REFUND_DECLINED #2 · 200 · \(attemptWords) →")),
      "\(screen)")
    // Wrapped, not cut on its first row: the entry goes on to the URL.
    #expect(Self.logText(screen).contains("http://127.0.0.1:9123/"), "\(screen)")
  }

  /// The network is lost while the payment sheet waits for the App Store: the `.failed` line (or
  /// StoreKit 2's `purchase threw`) and the error line under it are both whole at 80×24, in
  /// English and in Japanese, with either StoreKit.
  @Test(arguments: [Language.en, .ja], [StoreKitAPI.storeKit1, .storeKit2])
  func aPurchaseLostToTheNetworkShowsEveryLineWhole(language: Language, storeKit: StoreKitAPI) {
    let shop = ShopHarness(conditions: { $0.storeKit = storeKit }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.press("n")
    shop.wait(2)
    let screen = shop.screen(80, 24)
    let rows = EventLogRowsTests.logLines(screen)
    #expect(!rows.contains { $0.contains("…") }, "cut:\n\(screen)")
    let text = Self.logText(screen)
    let failed =
      storeKit == .storeKit1
      ? "paymentQueue(_:updatedTransactions:) .failed payment 1 SKErrorDomain 0 unknown"
      : "purchase threw StoreKitError.networkError(URLError(.notConnectedToInternet))"
    #expect(text.contains(failed), "\(screen)")
    #expect(text.contains("MS-E0002 ✗"), "\(screen)")
    #expect(text.contains("SKErrorDomain 0 unknown"), "\(screen)")
  }
}
