import Foundation
import Testing

@testable import MonkeyShopCore

/// An overlay shows why a key did nothing inside itself, where the person is looking.
@Suite struct OverlayStatusTests {
  /// The rows of the screen between an overlay's side borders.
  static func insideBox(_ screen: TextGrid) -> [String] {
    screen.lines.filter { $0.contains("│") }
  }

  @Test func theTransactionManagerSaysWhyAFinishedRowCannotBeApproved() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.press(.tab)
    for (key, reason) in [
      ("a", "only a deferred transaction can be approved"), ("d", "only a deferred transaction can be declined"),
      ("v", "only an interrupted purchase can be resolved"),
    ] {
      shop.press(key)
      let screen = shop.screen()
      #expect(Self.insideBox(screen).contains { $0.contains("\(key): \(reason)") }, "\(screen)")
    }
  }

  @Test func thePaymentSheetSaysWhyAKeyDidNothing() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press("r")
    var screen = shop.screen()
    #expect(Self.insideBox(screen).contains { $0.contains("r: only the keys below act here") }, "\(screen)")
    #expect(shop.model.store.conditions.purchasesAllowed, "r did not toggle restrictions under the sheet")
    shop.press("+++++++++++")
    screen = shop.screen()
    #expect(Self.insideBox(screen).contains { $0.contains("a payment buys at most 10") }, "\(screen)")
    shop.press("-")
    #expect(!shop.screen().contains("at most 10"), "once it can act again the reason goes")
    shop.press(.escape)
    #expect(!shop.screen().contains("only the keys below"), "closed, the overlay's reason goes with it")
  }

  @Test func theConditionsPanelShowsTheStatusInside() {
    let shop = ShopHarness()
    shop.press("c")
    shop.press("s")
    let screen = shop.screen()
    #expect(Self.insideBox(screen).contains { $0.contains("s: only the keys below act here") }, "\(screen)")
  }

  @Test(arguments: ["5", "c", "\t", "?"])
  func nothingOfTheScreenBeneathShowsBesideAnOverlay(_ key: String) {
    let shop = ShopHarness()
    shop.press(key == "\t" ? "" : key)
    if key == "\t" { shop.press(.tab) }
    let screen = shop.screen()
    let rows = screen.lines.filter { $0.contains("│") || $0.contains("┌") || $0.contains("└") }
    #expect(rows.count >= 10, "\(screen)")
    for row in rows {
      let first = row.firstIndex { "│┌└".contains($0) }!
      let last = row.lastIndex { "│┐┘".contains($0) }!
      #expect(row[..<first].allSatisfy { $0 == " " }, "left of the box: \(row)")
      #expect(row[row.index(after: last)...].isEmpty, "right of the box: \(row)")
    }
  }
}
