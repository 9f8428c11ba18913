import Foundation
import MonkeyShopDomain

/// Where each part of the storefront goes on a screen of a size: the one rule of its layout, a pure
/// function of the size and what the model holds. The view draws where it says, and the model
/// pages the event log by the rows it gives the log, without drawing anything.
struct ShopLayout {
  /// Where the event log goes: its rule's row, the rows below it, its column and width.
  struct LogArea: Equatable {
    var x: Int
    var top: Int
    var bottom: Int
    var width: Int
    var rows: Int { max(0, bottom - top) }
  }

  /// One condition in the conditions bar: its name and value, and where they go.
  struct ConditionCell {
    var condition: Condition
    var label: String
    var value: String
    /// The condition is at its default.
    var isNormal: Bool
    var x: Int
    var y: Int
  }

  /// From this width the event log goes beside the products and conditions instead of below them.
  static let sideBySideWidth = 160

  let size: ScreenSize
  /// Rows between the sections: one on a whole screen, none above the walkthrough player's band.
  let gap: Int
  /// Rows the hint bar takes at the bottom.
  let hintRows: Int
  /// The left column's width: the whole screen, or on a wide one what products and conditions need.
  let mainWidth: Int
  /// The products shown, scrolled to keep the selection in view; two rows each.
  let shownProducts: Range<Int>
  /// Whether the product list has more products than it shows (then it shows a position).
  let productsScroll: Bool
  /// The row naming the identifiers the App Store did not know, when there are some.
  let invalidIdentifiersY: Int?
  /// The conditions' rule.
  let conditionsY: Int
  let conditions: [ConditionCell]
  let log: LogArea
  /// The status line's rows (one, or two for a long status; one blank one when an overlay shows
  /// the status inside itself).
  let status: [String]

  var balanceY: Int { 1 + gap }
  /// The products' rule.
  var productsY: Int { 2 + 2 * gap }
  /// The first product's row.
  var firstProductY: Int { productsY + 1 }
  var statusY: Int { size.height - hintRows - status.count }
  var hintY: Int? { hintRows > 0 ? size.height - 1 : nil }

  init(model: ShopModel, size: ScreenSize, room: ShopView.Room = .screen) {
    self.size = size
    gap = room == .screen ? 1 : 0
    hintRows = room == .aboveBand(hintBar: false) ? 0 : 1
    mainWidth =
      size.width >= Self.sideBySideWidth ? max(ScreenSize.minimum.width, size.width * 9 / 20) : size.width
    // An overlay that shows the status inside itself takes it from the bottom of the screen.
    status = OverlayView.showsStatus(model.overlay) ? [""] : Self.statusLines(model, width: size.width)

    // Rules, conditions, a few log lines, status and hints. Above the player's band, with no blank
    // rows between the sections: the three rules, two rows of conditions, four log lines, the
    // status and the hint bar if shown; the products take what is left.
    let productsY = 2 + 2 * gap
    let count = model.catalog.products.count
    let fixedRows = room == .screen ? 1 + 1 + 3 + 1 + 4 + 2 : 3 + 2 + 4 + 1 + hintRows
    let listRows = max(2, min(count * 2, (size.height - productsY - fixedRows) / 2 * 2, max(4, size.height / 3)))
    let visible = listRows / 2
    let first = min(max(0, model.selection - visible + 1), max(0, count - visible))
    shownProducts = first..<min(count, first + visible)
    productsScroll = count > visible
    var y = productsY + 1 + 2 * shownProducts.count
    if case .loaded(let response) = model.products, !response.invalidProductIdentifiers.isEmpty, y < size.height {
      invalidIdentifiersY = y
      y += 1
    } else {
      invalidIdentifiersY = nil
    }

    conditionsY = y + gap
    conditions = Self.conditionCells(model, top: conditionsY, width: mainWidth)
    let belowConditions = (conditions.last?.y ?? conditionsY + 1) + 1

    let bottom = size.height - hintRows - 1 - status.count
    log =
      mainWidth < size.width
      ? LogArea(x: mainWidth + 1, top: 1 + gap, bottom: bottom, width: size.width - mainWidth - 1)
      : LogArea(x: 0, top: belowConditions + gap, bottom: bottom, width: size.width)
  }

  /// Every condition and its state, wrapped to the width below the rule at `top`. The rarer
  /// switches show only when set away from their default (the conditions panel lists them all).
  private static func conditionCells(_ model: ShopModel, top: Int, width: Int) -> [ConditionCell] {
    var cells: [ConditionCell] = []
    var x = 2
    var y = top + 1
    let conditions = model.store.conditions
    let defaultStorefront = model.catalog.defaultStorefront
    let words = model.words
    for condition in Condition.allCases {
      let value = condition.value(in: conditions, defaultStorefront: defaultStorefront)
      let normal = condition.value(in: Conditions(), defaultStorefront: defaultStorefront)
      guard condition.isAlwaysShown || value != normal else { continue }
      let label = words.conditionName(condition) + " "
      let shown = words.conditionValue(condition, value)
      let labelWidth = TextWidth.of(label)
      let cellWidth = labelWidth + TextWidth.of(shown)
      if x + cellWidth + 3 > width {
        x = 2
        y += 1
      }
      cells.append(
        ConditionCell(condition: condition, label: label, value: shown, isNormal: value == normal, x: x, y: y))
      x += cellWidth + 3
    }
    return cells
  }

  /// The most rows the status takes: a crash's message with a two-digit transaction needs three
  /// at 80 columns.
  static let statusRowLimit = 3

  /// The status message, on one line or, when long, on as many as it needs up to
  /// `statusRowLimit`: an error's ID and a crash point's name must stay visible.
  private static func statusLines(_ model: ShopModel, width: Int) -> [String] {
    guard let status = model.status else { return [""] }
    var text = " " + model.words.notice(status, title: model.title(of:))
    if model.isPurchaseInFlight, let spinner = ShopView.spinner(model), status.tone == .info {
      text = " \(spinner.prefix(1))" + text
    }
    var lines: [String] = []
    while TextWidth.of(text) > width, lines.count < statusRowLimit - 1 {
      let first = TextWidth.truncate(text, to: width)
      let cut = first.lastIndex(of: " ").map { first[..<$0] }.map(String.init) ?? first
      lines.append(cut)
      text = "   " + text.dropFirst(cut.count).trimmingCharacters(in: .whitespaces)
    }
    return lines + [text]
  }
}
