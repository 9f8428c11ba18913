import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The quit question asks, and says so once the purchase it asked about has ended; the conditions panel says
/// why ↑ or ↓ did nothing, lists ↑↓ in its footer, and help names ← for what it does.
@Suite(.tags(.screen)) struct QuitQuestionAndConditionsPanelTests {
  static func insideBox(_ screen: TextGrid) -> [String] { screen.lines.filter { $0.contains("│") } }

  /// Enter buys and confirms the payment sheet: pressed out of habit at a question, it neither quits
  /// nor restarts the app, and says that only the question's keys act.
  @Test(arguments: [Language.en, .ja])
  func enterAnswersNoQuestion(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("5")
    shop.press("q")
    let asking: (ShopModel.Overlay?) -> Bool = {
      if case .confirmQuit = $0 { true } else if case .confirmSwitch = $0 { true } else { false }
    }
    #expect(asking(shop.model.overlay))
    shop.press(.enter)
    var screen = shop.screen()
    #expect(!shop.model.isFinished, "\(screen)")
    #expect(asking(shop.model.overlay), "\(screen)")
    let onlyThese = language == .ja ? "ここでは下のキーだけが使えます" : "only the keys below act here"
    #expect(screen.contains(onlyThese), "\(screen)")
    shop.press("n")
    shop.press(.enter)
    #expect(shop.model.isPurchaseInFlight)
    shop.press("l")
    #expect(asking(shop.model.overlay))
    shop.press(.enter)
    screen = shop.screen()
    #expect(shop.model.storeKit == .storeKit1 && asking(shop.model.overlay), "\(screen)")
    #expect(screen.contains(onlyThese), "\(screen)")
    #expect(!shop.eventNames.contains("appRestarted"), "\(shop.eventNames)")
  }

  @Test(arguments: [Language.en, .ja])
  func theQuitQuestionAsksAndSaysWhenThePurchaseHasEnded(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("5")
    shop.press(.enter)
    shop.press("q")
    let question = language == .ja ? "購入処理中です。終了しますか?" : "Quit while a purchase is in flight?"
    #expect(shop.screen().contains(question), "\(shop.screen())")
    shop.wait(2)
    // The person asked to quit: the question stays, now saying that nothing is in flight.
    var screen = shop.screen()
    let ended = language == .ja ? "購入処理は終わりました。終了しますか?" : "The purchase has ended. Quit now?"
    #expect(shop.model.overlay == .confirmQuit(), "\(screen)")
    #expect(screen.contains(ended), "the question does not say the purchase ended:\n\(screen)")
    #expect(!screen.contains(question), "the question still says a purchase is in flight:\n\(screen)")
    #expect(screen.contains(language == .ja ? "を購入しました" : "Purchased 5 Monkey Credits"), "\(screen)")
    // n stays, with the storefront as it was; q then quits without asking.
    shop.press("n")
    screen = shop.screen()
    #expect(!shop.model.isFinished && shop.model.overlay == nil, "\(screen)")
    shop.press("q")
    #expect(shop.model.isFinished)
  }

  /// q on the payment sheet asks whether to quit, as help says; n comes back to the sheet, whose y
  /// still buys.
  @Test(arguments: [Language.en, .ja])
  func qOnThePaymentSheetAsksAndNComesBack(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("?")
    let help = shop.screen()
    #expect(help.contains(language == .ja ? "終了 (確認あり)" : "quit (asks first)"), "\(help)")
    shop.press(.escape)
    shop.press("5")
    shop.press("q")
    let question = language == .ja ? "購入処理中です。終了しますか?" : "Quit while a purchase is in flight?"
    #expect(shop.screen().contains(question), "\(shop.screen())")
    #expect(!shop.model.isFinished)
    shop.press("n")
    guard case .paymentSheet = shop.model.overlay else {
      Issue.record("the sheet is not back: \(shop.screen())")
      return
    }
    shop.press("y")
    shop.wait(2)
    #expect(shop.model.balance == 5, "\(shop.screen())")
    // Asked again and answered y: it quits.
    shop.press("5")
    shop.press("q")
    shop.press("y")
    #expect(shop.model.isFinished)
  }

  @Test(arguments: [Language.en, .ja])
  func upOnTheFirstConditionAndDownOnTheLastSayWhy(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("c")
    shop.press(.up)
    var box = Self.insideBox(shop.screen())
    let first = language == .ja ? "↑/k: 先頭の条件です" : "↑/k: the first condition is selected"
    #expect(box.contains { $0.contains(first) }, "\(shop.screen())")
    for _ in Condition.allCases { shop.press(.down) }
    box = Self.insideBox(shop.screen())
    let last = language == .ja ? "↓/j: 最後の条件です" : "↓/j: the last condition is selected"
    #expect(box.contains { $0.contains(last) }, "\(shop.screen())")
  }

  /// A value changed in the panel: its status says what changed, not why an earlier key did nothing.
  @Test(arguments: [Language.en, .ja])
  func changingAValueSaysWhatChanged(language: Language) {
    let shop = ShopHarness(language: language)
    shop.press("c")
    shop.press(.up)
    shop.press(.right)
    let box = Self.insideBox(shop.screen())
    let first = language == .ja ? "先頭の条件です" : "the first condition is selected"
    let changed = language == .ja ? "購入を「制限中」にしました" : "purchases is now RESTRICTED"
    #expect(!box.contains { $0.contains(first) }, "\(shop.screen())")
    #expect(box.contains { $0.contains(changed) }, "\(shop.screen())")
    // Changed back: the status follows.
    shop.press(.left)
    let back = Self.insideBox(shop.screen())
    let allowed = language == .ja ? "購入を「許可」にしました" : "purchases is now allowed"
    #expect(back.contains { $0.contains(allowed) } && !back.contains { $0.contains(changed) }, "\(shop.screen())")
  }

  @Test func thePanelsFooterListsTheArrowKeys() {
    let shop = ShopHarness()
    shop.press("c")
    let footer = { shop.screen().lines.first { $0.contains("Esc close") } ?? "" }
    #expect(footer().contains("↓ select"), "\(shop.screen())")
    shop.press(.down)
    #expect(footer().contains("↑↓ select"), "\(shop.screen())")
    #expect(footer().contains("← previous") && footer().contains("→ next"), "\(shop.screen())")
  }

  @Test func leftGoesToThePreviousValueAsHelpSays() throws {
    let shop = ShopHarness()
    shop.press("?")
    #expect(shop.screen().contains("←         previous value"), "\(shop.screen())")
    shop.press(.escape)
    shop.press("c")
    let latency = try #require(Condition.allCases.firstIndex(of: .latency))
    for _ in 0..<latency { shop.press(.down) }
    let values = Condition.latency.choices(ShopHarness.catalog)
    let before = try #require(values.firstIndex(of: shop.model.store.conditions.latency.rawValue))
    shop.press(.left)
    #expect(shop.model.store.conditions.latency.rawValue == values[(before + values.count - 1) % values.count])
    shop.press(.right)
    #expect(shop.model.store.conditions.latency.rawValue == values[before])
  }
}
