import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// Draws the player: the storefront as the walkthrough drives it, in the rows above the band, and
/// the band (the narration, what the last step did, the keys that act). Pure: the same model gives
/// the same cells.
struct PlayerView {
  let model: PlayerModel
  var words: PlayerWords { model.words }

  /// The band's rows, unless a failure needs more.
  static let bandHeight = 6

  func draw(on canvas: inout some Canvas) {
    let size = canvas.size
    let band = model.band(for: size)
    let shopRows = size.height - band.height
    var region = RegionCanvas(
      base: canvas, size: ScreenSize(width: size.width, height: size.isLargeEnough ? shopRows : size.height))
    if size.isLargeEnough, shopRows < ScreenSize.minimum.height || model.overlayHiddenRows > 0,
      let shop = model.shownShop
    {
      if model.overlayHiddenRows > 0 {
        // A panel taller than the rows above the band: the storefront drawn whole, a window on it.
        drawScrolled(shop, on: &region)
      } else {
        // Fewer rows than a whole screen are left above the band: the storefront leaves out what a
        // person misses least, so the newest events stay in sight; the band lists the keys that act
        // except in free play, where the storefront's own hint bar stays.
        ShopView(model: shop, room: .aboveBand(hintBar: model.isFreePlay)).draw(on: &region)
      }
    } else {
      // Too small for the storefront at all: it says so on the whole screen, under the band.
      drawApp(on: &region)
    }
    canvas = region.base
    drawBand(on: &canvas, top: max(0, size.height - band.height), band: band)
    if model.helpOpen, size.isLargeEnough { drawHelp(on: &canvas) }
  }

  private func drawApp(on canvas: inout some Canvas) {
    if let shop = model.shownShop {
      ShopView(model: shop).draw(on: &canvas)
      return
    }
    let message: [String]
    switch model.scene.appState {
    case .crashed(let point): message = words.crashed(point.rawValue)
    case .quit: message = words.appQuit
    default: message = words.notRunning
    }
    let top = max(0, canvas.size.height / 2 - 2)
    for (offset, line) in message.enumerated() {
      let text = TextWidth.truncate(line, to: canvas.size.width)
      canvas.put(
        text, x: max(0, (canvas.size.width - TextWidth.of(text)) / 2), y: top + offset,
        style: offset == 0 ? .bold : .muted)
    }
  }

  /// The storefront drawn as tall as its open panel needs, the rows from `overlayScroll` on;
  /// `↑ more` and `↓ more` where rows are out of view.
  private func drawScrolled(_ shop: ShopModel, on canvas: inout some Canvas) {
    let rows = canvas.size.height
    let whole = Self.drawn(
      shop, width: canvas.size.width, height: rows + model.overlayHiddenRows, freePlay: model.isFreePlay)
    for y in 0..<rows {
      var x = 0
      var run = ""
      var runX = 0
      var style = Style.plain
      for cell in whole.cells[y + model.overlayScroll] {
        defer { x += 1 }
        if cell.text.isEmpty { continue }
        if cell.style != style, !run.isEmpty {
          canvas.put(run, x: runX, y: y, style: style)
          run = ""
        }
        if run.isEmpty {
          runX = x
          style = cell.style
        }
        run += cell.text
      }
      if !run.isEmpty { canvas.put(run, x: runX, y: y, style: style) }
    }
    let marker = Style(tint: .warning, bold: true, reverse: true)
    // The marker hides nothing it marks. Its row is the one in view nearest the edge the rows are
    // hidden beyond that belongs to the panel (not a row of the storefront around it). On the
    // panel's top or bottom edge (`┌──┐`, `└──┘`) it goes on the rule before the corner, as the
    // storefront's own detail puts its `PgDn` there. Otherwise that row is the window's first or
    // last (the panel's edge is out of view beyond it) and the marker has it to itself, between
    // the panel's sides: the row it takes is one of those out of view, which ↑ or ↓ brings.
    let cells = { (y: Int) in whole.cells[y + model.overlayScroll] }
    let side = { (y: Int) in cells(y).lastIndex { $0.text == "│" } }
    let corner = { (y: Int) in cells(y).lastIndex { ["┐", "┘", "┤"].contains($0.text) } }
    func put(_ text: String, nearest rowsFromEdge: some Sequence<Int>, else edge: Int) {
      let width = TextWidth.of(text)
      let y = rowsFromEdge.first { side($0) != nil || corner($0) != nil } ?? edge
      let row = cells(y)
      if let corner = corner(y), side(y) == nil, corner >= width,
        row[(corner - width)..<corner].allSatisfy({ $0.text == "─" })
      {
        canvas.put(text, x: corner - width, y: y, style: marker)
        return
      }
      let right = side(y) ?? corner(y) ?? canvas.size.width
      // The panel's left side: where its top edge, drawn whole, begins.
      let left =
        whole.cells.lazy.compactMap { edge -> Int? in
          guard right < edge.count, edge[right].text == "┐" else { return nil }
          return edge[..<right].lastIndex { $0.text == "┌" }
        }.first.map { $0 + 1 } ?? 0
      if right > left {
        canvas.put(String(repeating: " ", count: right - left), x: left, y: y, style: .plain)
      }
      canvas.put(text, x: max(left, right - width), y: y, style: marker)
    }
    if model.overlayScroll > 0 { put(" \(words.moreAbove) ", nearest: 0..<rows, else: 0) }
    if model.overlayRowsBelow > 0 {
      put(" \(words.moreBelow) ", nearest: (0..<rows).reversed(), else: rows - 1)
    }
  }

  /// Sections (a heading, then its lines) in columns of `rows`: a section that does not fit under
  /// the one before starts a column of its own, and one taller than a column goes on in the next
  /// under its heading again, so each column says whose keys it lists.
  static func columns<Line>(_ sections: [[Line]], rows: Int) -> [[Line]] {
    var columns: [[Line]] = [[]]
    for section in sections {
      guard let heading = section.first else { continue }
      let current = columns[columns.count - 1]
      if !current.isEmpty, current.count + section.count > rows { columns.append([]) }
      columns[columns.count - 1].append(heading)
      for line in section.dropFirst() {
        if columns[columns.count - 1].count >= rows { columns.append([heading]) }
        columns[columns.count - 1].append(line)
      }
    }
    return columns
  }

  /// The storefront drawn at a height: whole from the minimum up, else as above the band.
  static func drawn(_ shop: ShopModel, width: Int, height: Int, freePlay: Bool) -> TextGrid {
    var grid = TextGrid(size: ScreenSize(width: width, height: height))
    let room: ShopView.Room = height >= ScreenSize.minimum.height ? .screen : .aboveBand(hintBar: freePlay)
    ShopView(model: shop, room: room).draw(on: &grid)
    return grid
  }

  /// The open panel's rows that show something, drawn at a height: from its top edge (`┌`) to its
  /// bottom edge (`└` under it), its empty rows left out.
  static func panelRows(_ shop: ShopModel, width: Int, height: Int, freePlay: Bool) -> [String] {
    let lines = drawn(shop, width: width, height: height, freePlay: freePlay).lines
    guard let top = lines.firstIndex(where: { $0.contains("┌") }),
      let column = lines[top].firstIndex(of: "┌").map({ lines[top].distance(from: lines[top].startIndex, to: $0) })
    else { return lines }
    let bottom =
      lines.indices.dropFirst(top + 1).first {
        Array(lines[$0]).indices.contains(column) && Array(lines[$0])[column] == "└"
      } ?? lines.count - 1
    return lines[top...bottom].filter { $0.contains { $0 != " " && $0 != "│" } }
  }

  /// The player's keys, from its key table, over the storefront.
  private func drawHelp(on canvas: inout some Canvas) {
    let size = canvas.size
    let rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
    canvas.box(rect, title: words.helpTitle)
    var sections: [[(String, Style)]] = []
    for context in PlayerKeyContext.allCases where context != .help {
      var lines = [(context.title.text(words.language), Style(tint: .accent, bold: true))]
      for binding in PlayerKeys.bindings(in: context) {
        lines.append((TextWidth.fit(binding.keyLabel, to: 12) + binding.help.text(words.language), .plain))
      }
      // The storefront's keys that act everywhere close the list of the player's own.
      if context == .stepping {
        for binding in KeyMap.bindings(in: .global) where [.quitNow, .redraw, .suspend].contains(binding.action) {
          lines.append((TextWidth.fit(binding.keyLabel, to: 12) + binding.help.text(words.language), .plain))
        }
      }
      sections.append(lines)
    }
    let columns = Self.columns(sections, rows: max(2, rect.height - 2))
    let columnWidth = (rect.width - 4) / max(1, columns.count)
    for (column, lines) in columns.enumerated() {
      for (row, (text, style)) in lines.enumerated() {
        canvas.put(
          text, x: rect.x + 2 + column * columnWidth, y: rect.y + 1 + row, width: columnWidth - 1, style: style)
      }
    }
    let close =
      " "
      + PlayerKeys.bindings(in: .help).map { "\($0.keyLabel) \($0.hint.text(words.language))" }
      .joined(separator: " · ") + " "
    canvas.put(close, x: 2, y: rect.height - 1, style: .muted)
  }

  /// Text in rows of at most `width` cells, every space kept (a quoted `"Quantity        1"` reads
  /// as written): a row breaks after the last space that fits, or inside a word longer than a row.
  static func wrapKeepingSpaces(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var rows: [String] = []
    var rest = Substring(text)
    while TextWidth.of(String(rest)) > width {
      let head = TextWidth.truncate(String(rest), to: width)
      // A lone space between words, not one of a run (the spaces inside a quoted text).
      let characters = Array(String(rest).prefix(head.count + 1))
      let lone = (1..<max(1, head.count)).last {
        characters[$0] == " " && characters[$0 - 1] != " " && characters[$0 + 1] != " "
      }
      let space = lone.map { head.index(head.startIndex, offsetBy: $0) } ?? head.lastIndex(of: " ")
      let cut = space.map { head.index(after: $0) } ?? head.endIndex
      let row = head[..<cut]
      rows.append(String(row.hasSuffix(" ") ? row.dropLast() : row))
      rest = rest.dropFirst(row.count)
      if row.isEmpty { break }
    }
    rows.append(String(rest))
    return rows
  }
}

extension PlayerModel {
  /// The storefront as the screen shows it: in `--lang`'s language.
  var shownShop: ShopModel? {
    guard var shop = scene.shop.map({ $0.language == shopLanguage ? $0 : $0.speaking(shopLanguage) }) else {
      return nil
    }
    shop.keysTaken = keysTakenFromShop
    return shop
  }

  /// The storefront's keys the player takes now, by the part of the storefront: in free play,
  /// Enter and Space where they would buy or confirm a payment (they step no more), so the
  /// storefront's hint bar, footers and help name its other key there.
  var keysTakenFromShop: [KeyContext: Set<Key>] {
    guard keyContext == .freePlay else { return [:] }
    let over = Set(PlayerKeys.bindings(in: .freePlay).filter { $0.action == .walkthroughOver }.flatMap(\.keys))
    return Dictionary(uniqueKeysWithValues: PlayerKeys.stepKeysOverIn.map { ($0, over) })
  }

  /// The failure's rows in the band, its spaces as written.
  func failureLines(width: Int) -> [String] {
    guard isStopped, let outcome else { return [] }
    return PlayerView.wrapKeepingSpaces(outcome.text, width: width - 4) + (notice == nil ? [] : [""])
  }

  /// Rows above the band.
  var shopRows: Int? { screenSize.map { $0.height - band(for: $0).height } }

  /// Rows of the open panel out of view: a panel taller than the rows above the band (the
  /// transaction's detail, the conditions, help at 80×24) is drawn at the height it needs and
  /// scrolls in the rows above the band. The storefront's minimum holds the conditions and help;
  /// a transaction's detail as tall as it needs to show every row, which the storefront itself
  /// would scroll.
  var overlayHiddenRows: Int {
    guard let size = screenSize, size.isLargeEnough, let rows = shopRows, let panelHeight else { return 0 }
    return max(0, panelHeight - rows)
  }

  /// Measures the open panel: the fewest rows, from those above the band up to the height that
  /// holds it whole, in which it shows all it shows there (nothing left out, nothing cut).
  mutating func measurePanel() {
    panelHeight = nil
    guard let size = screenSize, size.isLargeEnough, let rows = shopRows, let shop = shownShop,
      let overlay = shop.overlay
    else { return }
    let tallest: Int
    switch overlay {
    case .transactionDetail: tallest = shop.transactionDetailHeight(width: size.width) ?? ScreenSize.minimum.height
    case .conditions, .help: tallest = ScreenSize.minimum.height
    case .paymentSheet, .transactions, .confirmQuit, .confirmSwitch: return
    }
    guard rows < tallest else { return }
    let whole = PlayerView.panelRows(shop, width: size.width, height: tallest, freePlay: isFreePlay)
    // A panel given more rows leaves out no more: the fewest that hold it, found by halving.
    var low = max(1, rows)
    var high = tallest
    while low < high {
      let middle = (low + high) / 2
      if PlayerView.panelRows(shop, width: size.width, height: middle, freePlay: isFreePlay) == whole {
        high = middle
      } else {
        low = middle + 1
      }
    }
    panelHeight = low
  }

  var overlayRowsBelow: Int { max(0, overlayHiddenRows - overlayScroll) }
}

/// The top part of a canvas, as a canvas of its own: what is drawn below it is dropped.
struct RegionCanvas<Base: Canvas>: Canvas {
  var base: Base
  let size: ScreenSize

  mutating func put(_ text: String, x: Int, y: Int, style: Style) {
    guard y >= 0, y < size.height, let clipped = ClippedText(text, x: x, columns: size.width) else { return }
    base.put(clipped.text, x: clipped.x, y: y, style: style)
  }
}
