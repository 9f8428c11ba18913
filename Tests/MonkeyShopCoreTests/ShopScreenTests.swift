import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// Golden screens: the storefront rendered into the in-memory grid at 80×24 and 120×40, compared
/// with the text files under Tests/MonkeyShopCoreTests/Golden. To regenerate them deliberately:
/// `MONKEYSHOP_UPDATE_GOLDEN=1 swift test --filter ShopScreenTests`, then review the diff.
@Suite(.tags(.screen)) struct ShopScreenTests {
  static let sizes = [(80, 24), (120, 40)]

  static let scenarios: [(String, @Sendable () -> ShopHarness)] = [
    ("main", { ShopHarness() }),
    (
      "loading",
      {
        let shop = ShopHarness(conditions: { $0.latency = .slow }, launch: false)
        shop.launch(settle: false)
        shop.wait(1)
        return shop
      }
    ),
    (
      "payment-sheet",
      {
        let shop = ShopHarness()
        shop.press("j++0")
        return shop
      }
    ),
    (
      "purchasing",
      {
        let shop = ShopHarness()
        shop.press("0")
        shop.press(.enter)
        shop.wait(0.3)
        return shop
      }
    ),
    (
      "purchased",
      {
        let shop = ShopHarness()
        shop.press("j++0")
        shop.press(.enter)
        shop.wait(2)
        return shop
      }
    ),
    (
      "cancelled",
      {
        let shop = ShopHarness()
        shop.press("5")
        shop.press(.escape)
        return shop
      }
    ),
    ("network-down", { ShopHarness(conditions: { $0.networkUp = false }) }),
    ("restricted", { ShopHarness(conditions: { $0.purchasesAllowed = false }) }),
    (
      "deferred",
      {
        let shop = ShopHarness(conditions: { $0.askToBuy = true })
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        return shop
      }
    ),
    (
      "transactions",
      {
        let shop = ShopHarness(conditions: { $0.askToBuy = true })
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        shop.press(.tab)
        return shop
      }
    ),
    (
      "transaction-detail",
      {
        let shop = ShopHarness(conditions: { $0.storefront = "JPN" })
        shop.press("j++0")
        shop.press(.enter)
        shop.wait(2)
        shop.press(.tab, .enter)
        return shop
      }
    ),
    (
      "japanese-transaction-detail",
      {
        let shop = ShopHarness(conditions: { $0.verificationPasses = false }, language: .ja)
        shop.press("l")
        shop.wait(1)
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        shop.press(.tab, .enter)
        return shop
      }
    ),
    (
      "conditions",
      {
        let shop = ShopHarness()
        shop.press("c")
        shop.press(.down, .right)
        return shop
      }
    ),
    (
      "help",
      {
        let shop = ShopHarness()
        shop.press("?")
        return shop
      }
    ),
    (
      "forced-error",
      {
        let shop = ShopHarness(conditions: { $0.failNext = .server(.unknownError) })
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        return shop
      }
    ),
    (
      "quit-while-purchasing",
      {
        let shop = ShopHarness(conditions: { $0.latency = .slow })
        shop.press("5")
        shop.press(.enter)
        shop.press("q")
        return shop
      }
    ),
    (
      "storekit2-log",
      {
        let shop = ShopHarness()
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        shop.press("l")
        return shop
      }
    ),
    (
      "japanese-help",
      {
        let shop = ShopHarness(language: .ja)
        shop.press("?")
        return shop
      }
    ),
    (
      "japanese-conditions",
      {
        let shop = ShopHarness(language: .ja)
        shop.press("c")
        return shop
      }
    ),
    (
      "japanese-transactions",
      {
        let shop = ShopHarness(conditions: { $0.askToBuy = true }, language: .ja)
        shop.press("5")
        shop.press(.enter)
        shop.wait(2)
        shop.press(.tab)
        return shop
      }
    ),
    (
      "japanese-purchasing",
      {
        let shop = ShopHarness(language: .ja)
        shop.press("0")
        shop.press(.enter)
        shop.wait(0.3)
        return shop
      }
    ),
    (
      "japanese-network-lost",
      {
        let shop = ShopHarness(language: .ja)
        shop.press("5")
        shop.press(.enter)
        shop.press("n")
        shop.wait(2)
        return shop
      }
    ),
    (
      "japanese",
      {
        let shop = ShopHarness(conditions: { $0.storefront = "JPN" }, balance: 15, language: .ja)
        return shop
      }
    ),
  ]

  @Test(arguments: scenarios.map(\.0))
  func golden(_ name: String) throws {
    let make = try #require(Self.scenarios.first { $0.0 == name }?.1)
    for (width, height) in Self.sizes {
      let screen = make().screen(width, height).text
      try Golden.check(screen, named: "\(name)-\(width)x\(height)")
    }
  }

  @Test func tooSmallSaysWhatItNeedsAndComesBack() throws {
    let shop = ShopHarness()
    let small = shop.screen(50, 12)
    #expect(small.contains("terminal too small"))
    #expect(small.contains("needs 80×24, has 50×12"))
    try Golden.check(small.text, named: "too-small-50x12")
    #expect(shop.screen(80, 24).contains("0 monkey credits"))
  }

  @Test func theHintBarAtEightyColumnsShowsConditionsSpendAndTheLogsStoreKit() {
    let shop = ShopHarness(balance: 5)
    let bar = shop.screen().line(23)
    for hint in ["c conditions", "s spend", "l SK1/SK2", "5 buy-5", "0 buy-10", "? help"] {
      #expect(bar.contains(hint), "\(bar)")
    }
  }

  @Test func japaneseScreensSpeakJapaneseAndLabelApplesMessage() {
    let conditions = ShopHarness(language: .ja)
    conditions.press("c")
    let panel = conditions.screen()
    for english in ["true", " up", " off", "normal"] { #expect(!panel.text.contains(english), "\(english)\n\(panel)") }
    #expect(conditions.screen().contains("遅延") && conditions.screen().contains("通常"))
    let lost = ShopHarness(language: .ja)
    lost.press("5")
    lost.press(.enter)
    #expect(lost.screen().contains("購入中"), "the spinner speaks Japanese")
    lost.press("n")
    lost.wait(2)
    #expect(lost.screen(120, 40).contains("Appleのメッセージ: \"Cannot connect to iTunes Store\""), "\(lost.screen(120, 40))")
    let english = ShopHarness()
    english.press("5")
    english.press(.enter)
    english.press("n")
    english.wait(2)
    #expect(english.screen(120, 40).contains("Purchase failed: Apple: \"Cannot connect to iTunes Store\""))
    let manager = ShopHarness(conditions: { $0.askToBuy = true }, language: .ja)
    manager.press("5")
    manager.press(.enter)
    manager.wait(2)
    manager.press(.tab)
    let rows = manager.screen()
    #expect(rows.contains("状態") && rows.contains("保留中"), "\(rows)")
    #expect(!rows.contains("deferred   "), "\(rows)")
  }

  @Test func focusShowsWithoutColour() {
    let shop = ShopHarness()
    let screen = shop.screen()
    let row = try! #require(screen.lines.firstIndex { $0.hasPrefix("▶ 5 Monkey Credits") })
    #expect(screen.style(at: 2, row).reverse)
  }

  @Test func japaneseTitlesLineUp() {
    let shop = ShopHarness(conditions: { $0.storefront = "JPN" }, language: .ja)
    let screen = shop.screen()
    let rows = screen.lines.filter { $0.contains("モンキークレジット 5") || $0.contains("モンキークレジット 10") }
    #expect(rows.count == 2)
    // Prices start in the same column whatever the title's width.
    let columns = rows.map { row in TextWidth.of(String(row[..<row.range(of: "￥")!.lowerBound])) }
    #expect(Set(columns).count == 1)
    #expect(screen.contains("￥160"))
  }
}

enum Golden {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

  static func check(_ screen: String, named name: String) throws {
    let file = folder.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["MONKEYSHOP_UPDATE_GOLDEN"] == "1" {
      try (screen + "\n").write(to: file, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(
      expected == screen + "\n",
      "screen \(name) differs from Golden/\(name).txt:\n\(screen)")
  }
}
