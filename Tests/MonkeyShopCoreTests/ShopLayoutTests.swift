import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage

/// The storefront's layout is one rule: the rows the model pages the event log by (PgUp, Home)
/// are the rows the view draws it in, at every size, under every overlay, with a status of one row
/// or two.
@Suite(.tags(.screen)) struct ShopLayoutTests {
  /// Every put the view makes, in order.
  struct Puts: Canvas {
    let size: ScreenSize
    var puts: [(text: String, x: Int, y: Int)] = []
    mutating func put(_ text: String, x: Int, y: Int, style: Style) { puts.append((text, x, y)) }
  }

  /// The row of the log's rule, the rows the view draws the log's entries in, and the row of the
  /// first thing drawn after them (the status line).
  static func drawnLog(_ model: ShopModel, size: ScreenSize) -> (rule: Int, rows: [Int], next: Int?) {
    var canvas = Puts(size: size)
    ShopView(model: model).draw(on: &canvas)
    guard let rule = canvas.puts.firstIndex(where: { $0.text.hasPrefix("── StoreKit events") }) else {
      return (-1, [], nil)
    }
    let ruleY = canvas.puts[rule].y
    // After the rule come the log's rows; the status line, at the left edge, comes next.
    let after = canvas.puts[(rule + 1)...].drop { $0.y == ruleY }
    let log = after.prefix { $0.x != 0 }
    let next = after.dropFirst(log.count).first?.y
    return (ruleY, Array(Set(log.map(\.y))).sorted(), next)
  }

  static let overlays: [ShopModel.Overlay?] = [nil, .help(), .conditions(selection: 0), .transactions(selection: 0)]

  @Test(arguments: [
    ScreenSize(width: 80, height: 24), ScreenSize(width: 100, height: 30), ScreenSize(width: 200, height: 60),
  ])
  func theModelPagesTheLogByTheRowsTheViewDrawsItIn(size: ScreenSize) {
    // More entries than 80×24 and 100×30 show, and a failure whose status takes two rows at 80.
    let shop = ShopHarness(conditions: { $0.latency = .instant })
    for _ in 0..<15 {
      shop.press("5")
      shop.press(.escape)
    }
    let failing = ShopHarness(conditions: { $0.failNext = .server(.unknownError) })
    failing.press("5")
    failing.press(.enter)
    failing.wait(2)
    for base in [shop.model, failing.model] {
      for overlay in Self.overlays {
        var model = base
        model.screenSize = size
        model.overlay = overlay
        let drawn = Self.drawnLog(model, size: size)
        let context = "\(size), \(String(describing: overlay))"
        // The rows between the log's rule and the status line are the model's.
        #expect(drawn.next.map { $0 - drawn.rule - 1 } == model.logRows, "\(context)")
        // The entries fill them one after another from the top, all of them when there are enough.
        #expect(drawn.rows == Array((drawn.rule + 1)..<(drawn.rule + 1 + drawn.rows.count)), "\(context)")
        if size.height <= 30 { #expect(drawn.rows.count == model.logRows, "\(context)") }
      }
    }
  }

  @Test func aTwoRowStatusTakesARowFromTheLog() {
    let shop = ShopHarness(conditions: { $0.failNext = .server(.unknownError) })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    var model = shop.model
    model.screenSize = ScreenSize(width: 80, height: 24)
    let twoRows = ShopLayout(model: model, size: ScreenSize(width: 80, height: 24))
    #expect(twoRows.status.count == 2)
    // The conditions panel shows the status inside itself.
    model.overlay = .conditions(selection: 0)
    let oneRow = ShopLayout(model: model, size: ScreenSize(width: 80, height: 24))
    #expect(oneRow.status.count == 1)
    #expect(twoRows.log.rows == oneRow.log.rows - 1)
    #expect(model.logRows == oneRow.log.rows)
  }

  @Test func theLogGoesBesideTheProductsOnAWideScreenAndBelowThemOtherwise() {
    let model = ShopHarness().model
    let wide = ShopLayout(model: model, size: ScreenSize(width: 200, height: 60))
    #expect(wide.log.x > 0 && wide.log.top == wide.balanceY)
    let narrow = ShopLayout(model: model, size: ScreenSize(width: 100, height: 30))
    #expect(narrow.log.x == 0 && narrow.log.top > narrow.conditionsY)
  }
}
