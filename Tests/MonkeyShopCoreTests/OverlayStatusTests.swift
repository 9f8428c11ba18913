import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// An overlay shows why a key did nothing inside itself, where the person is looking.
@Suite(.tags(.screen)) struct OverlayStatusTests {
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
    shop.press("+")
    screen = shop.screen()
    #expect(
      Self.insideBox(screen).contains { $0.contains("+: only the keys below act here") },
      "the sheet shows the app's quantity, it does not change it: \(screen)")
    #expect(Self.insideBox(screen).contains { $0.contains("Quantity        1") }, "\(screen)")
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

  /// The rows from an overlay's top border to its bottom border, and the rows below it.
  static func box(_ screen: TextGrid) -> (inside: [String], below: [String]) {
    let lines = screen.lines
    guard let top = lines.firstIndex(where: { $0.contains("┌") }),
      let bottom = lines.lastIndex(where: { $0.contains("└") })
    else { return ([], lines) }
    return (Array(lines[top...bottom]), Array(lines[(bottom + 1)...]))
  }

  /// A declined Ask to Buy, declined from the transaction manager, which stays open on its row.
  static func declinedInTheManager() -> ShopHarness {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("0")
    shop.press(.enter)
    shop.wait(5)
    shop.press(.tab)
    shop.press("d")
    shop.wait(5)
    return shop
  }

  @Test("at 80×24 a declined row's note keeps MS-E0005 inside the box; the app's status reads a cancel")
  func theManagerShowsTheDeclinesErrorID() {
    let shop = Self.declinedInTheManager()
    let screen = shop.screen(80, 24)
    let (inside, below) = Self.box(screen)
    let row = inside.first { $0.contains("com.monkeyshop.credits.10") }
    #expect(row?.contains("MS-E0005") == true, "the row's note: \(screen)")
    #expect(inside.contains { $0.contains("Purchase of 10 Monkey Credits cancelled") }, "\(screen)")
    #expect(!below.joined().contains("MS-E0005"), "\(screen)")
  }

  @Test("above the walkthrough's band (18 rows) the wrapped status stays inside the manager's box")
  func theWrappedStatusStaysInsideTheBoxAboveTheBand() {
    let shop = Self.declinedInTheManager()
    var grid = TextGrid(size: ScreenSize(width: 80, height: 18))
    ShopView(model: shop.model, room: .aboveBand(hintBar: false)).draw(on: &grid)
    let (inside, below) = Self.box(grid)
    #expect(inside.contains { $0.contains("MS-E0005") && $0.hasPrefix("│") && $0.hasSuffix("│") }, "\(grid)")
    #expect(!below.joined().contains("SKErrorDomain"), "\(grid)")
  }

  @Test(
    "on the payment sheet and the conditions panel a failure answered meanwhile wraps inside the box, its ID in sight",
    arguments: ["5", "c"])
  func aLongStatusWrapsInsideTheSheetAndThePanel(_ key: String) throws {
    let shop = ShopHarness(conditions: { $0.failNext = .server(.forgotPassword) })
    shop.press("0")
    shop.press(.enter)
    shop.press(key)
    shop.wait(5)
    let screen = shop.screen(80, 24)
    let (inside, below) = Self.box(screen)
    #expect(inside.contains { $0.contains("SSServerErrorDomain 5020") }, "\(screen)")
    #expect(inside.contains { $0.contains("MS-E0007") && $0.contains("│") }, "\(screen)")
    #expect(!below.joined().contains("Purchase failed"), "the status is not drawn below the box: \(screen)")
  }
}
