import Foundation
import MonkeyShopDomain

/// Draws the storefront: header, balance, products, conditions, the StoreKit event log, the status
/// line and the hint bar, then whichever overlay is open. Pure: the same model gives the same cells.
public struct ShopView {
  let model: ShopModel
  let room: Room
  /// The model's words, kept: read on nearly every row.
  let words: Words

  /// The rows the storefront is drawn in.
  public enum Room: Equatable, Sendable {
    /// The whole terminal, at least `ScreenSize.minimum`.
    case screen
    /// The rows above the walkthrough player's band, fewer than the minimum: the storefront leaves
    /// out its blank rows and, when the band lists the keys that act, its hint bar, so the balance,
    /// the status and the newest events stay in sight.
    case aboveBand(hintBar: Bool)
  }

  public init(model: ShopModel, room: Room = .screen) {
    self.model = model
    self.room = room
    self.words = model.words
  }

  public func draw(on canvas: inout some Canvas) {
    let size = canvas.size
    guard size.isLargeEnough || room != .screen else { return drawTooSmall(on: &canvas) }
    let layout = ShopLayout(model: model, size: size, room: room)
    drawHeader(on: &canvas)
    drawBalance(on: &canvas, y: layout.balanceY, width: layout.mainWidth)
    drawProducts(on: &canvas, layout)
    drawConditions(on: &canvas, layout)
    drawLog(on: &canvas, layout.log)
    for (index, line) in layout.status.enumerated() {
      canvas.put(line, x: 0, y: layout.statusY + index, width: size.width, style: model.status?.tone.style ?? .plain)
    }
    if let y = layout.hintY { drawHints(on: &canvas, y: y) }
    OverlayView(model: model).draw(on: &canvas)
  }

  private func drawTooSmall(on canvas: inout some Canvas) {
    let size = canvas.size
    // Only quitting acts here; the quit question, when asked, is the one thing to answer.
    let asked = if case .confirmQuit = model.overlay { true } else { false }
    let last =
      asked
      ? words.quitQuestion(purchaseInFlight: model.isMidPurchase) : words.onlyQuitActs
    let lines = [words.terminalTooSmall, words.needs(.minimum, has: size), last]
    for (index, line) in lines.enumerated() {
      let text = TextWidth.truncate(line, to: size.width)
      let x = max(0, (size.width - TextWidth.of(text)) / 2)
      canvas.put(text, x: x, y: max(0, size.height / 2 - 1) + index, style: index == 0 ? .bold : .plain)
    }
  }

  private func drawHeader(on canvas: inout some Canvas) {
    let width = canvas.size.width
    let bar = Style(tint: .accent, bold: true, reverse: true)
    canvas.put(" " + words.shopTitle, x: 0, y: 0, width: width, style: bar)
    let storefront = model.storefront
    let right = words.storefront(storefront.code, locale: storefront.localeIdentifier) + " "
    canvas.put(right, x: width - TextWidth.of(right), y: 0, style: bar)
  }

  private func drawBalance(on canvas: inout some Canvas, y: Int, width: Int) {
    canvas.put("  " + words.balance(model.balance), x: 0, y: y, style: Style(tint: .success, bold: true))
    var right: [String] = []
    if model.unfinishedCount > 0 { right.append(words.unfinished(model.unfinishedCount)) }
    if let spinner = Self.spinner(model) { right.append(spinner) }
    let text = right.joined(separator: "  ") + " "
    canvas.put(text, x: width - TextWidth.of(text), y: y, style: Style(tint: .warning, bold: true))
  }

  /// A braille spinner whose frame follows the time since the purchase started.
  static func spinner(_ model: ShopModel) -> String? {
    guard let started = model.inFlight.values.min() else { return nil }
    let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    let index = max(0, model.now - started) / ShopModel.spinnerInterval % frames.count
    return "\(frames[index]) \(model.words.purchasing)"
  }

  // MARK: Products

  /// Rows of the product list: two per product, scrolled to keep the selection in view.
  private func drawProducts(on canvas: inout some Canvas, _ layout: ShopLayout) {
    let width = layout.mainWidth
    canvas.rule(words.products, y: layout.productsY, width: width)
    let products = model.catalog.products
    var y = layout.firstProductY
    // One price column for every row: the widest button decides it, so a row's price and another's
    // "Owned" (購入済み, wider than its button is narrower) start in the same column.
    let buttonWidth = ButtonColumn.width(in: model) { button($0).width }
    for index in layout.shownProducts {
      drawProduct(
        products[index], button: button(products[index]), selected: index == model.selection, on: &canvas, y: y,
        width: width, buttonWidth: buttonWidth)
      y += 2
    }
    if layout.productsScroll {
      let position = " \(model.selection + 1)/\(products.count) "
      canvas.put(position, x: width - TextWidth.of(position) - 1, y: layout.productsY, style: .muted)
    }
    if let y = layout.invalidIdentifiersY, case .loaded(let response) = model.products {
      canvas.put(
        "  " + words.invalidIdentifiers(response.invalidProductIdentifiers), x: 0, y: y, width: width, style: .muted)
    }
  }

  /// A product row's button, worked out once a frame: what it offers, whether the product is
  /// owned, its text and its width.
  private struct RowButton {
    var buyButton: BuyButton
    var owned: Bool
    var text: String
    var width: Int
  }

  /// A product's button: `[ Buy $0.99 ]`. An owned non-consumable can be bought again, as in the
  /// App Store, and is not charged again.
  private func button(_ product: Product) -> RowButton {
    let buyButton = model.buyButton(product)
    let owned = model.owned.owns(product.productIdentifier)
    let text = "[ \(owned && buyButton.isBuy ? words.getAgain : words.buyButton(buyButton)) ]"
    return RowButton(buyButton: buyButton, owned: owned, text: text, width: TextWidth.of(text))
  }

  private func drawProduct(
    _ product: Product, button rowButton: RowButton, selected: Bool, on canvas: inout some Canvas, y: Int,
    width: Int, buttonWidth: Int
  ) {
    let text = product.localization(words.language.rawValue)
    let buyButton = rowButton.buyButton
    let owned = rowButton.owned
    let button = rowButton.text
    // Each row keeps its own quantity: shown on the selected row, and on any other set above 1,
    // since that row's buy key pays for it. A non-consumable is bought one at a time: none shown.
    let rowQuantity = model.quantity(for: product)
    let quantity =
      !product.isNonConsumable && (selected || rowQuantity > 1) ? words.quantity(rowQuantity) : ""
    let right = TextWidth.fit(quantity, to: 7) + " " + button + " "
    let rightWidth = TextWidth.of(right)
    // As with SKProduct, the app knows a price only once the App Store has answered for it.
    let price: String
    if owned {
      price = words.owned
    } else if case .buy(let shown) = buyButton {
      price = shown
    } else {
      price =
        model.response?.contains(product.productIdentifier) == true
        ? product.displayPrice(in: model.storefront) ?? "—" : ""
    }
    let priceWidth = 12
    let titleWidth = max(8, width - (rightWidth - rowButton.width + buttonWidth) - priceWidth - 4)
    let marker = selected ? "▶ " : "  "
    let lineStyle = selected ? Style.focus : Style(bold: true)
    canvas.put(marker + TextWidth.fit(text.title, to: titleWidth), x: 0, y: y, style: lineStyle)
    canvas.put(
      TextWidth.fit(price, to: priceWidth), x: titleWidth + 3, y: y,
      style: Style(tint: owned ? .success : .price, bold: true))
    canvas.put(right, x: width - rightWidth, y: y, style: buttonStyle(buyButton, selected: selected))
    if let download = model.download(forProduct: product.productIdentifier), download.installedAt == nil {
      drawDownload(download, on: &canvas, y: y + 1, width: width)
    } else {
      canvas.put("    " + text.description, x: 0, y: y + 1, width: width, style: .muted)
    }
  }

  /// A download in place of the description: a bar, the percent and the state.
  private func drawDownload(_ download: Download, on canvas: inout some Canvas, y: Int, width: Int) {
    let cells = 20
    let filled = Int((download.progress * Double(cells)).rounded(.down))
    let bar = "[" + TextWidth.repeated(.bar, filled) + TextWidth.repeated(.track, cells - filled) + "]"
    let percent = String(format: "%3d%%", Int((download.progress * 100).rounded()))
    let line = "    \(bar) \(percent) \(words.downloadState(download.state))"
    let style: Style =
      switch download.state {
      case .failed, .cancelled: Style(tint: .danger, bold: true)
      case .paused: Style(tint: .warning, bold: true)
      default: Style(tint: .accent, bold: true)
      }
    canvas.put(line, x: 0, y: y, width: width, style: style)
  }

  private func buttonStyle(_ button: BuyButton, selected: Bool) -> Style {
    switch button {
    case .networkDown, .appStoreDisabled: Style(tint: .danger, bold: true)
    case .loading, .notAvailable: Style(tint: .warning)
    case .buy: Style(tint: .success, bold: true, reverse: selected)
    }
  }

  // MARK: Conditions

  /// Every condition and its state, where the layout puts them.
  private func drawConditions(on canvas: inout some Canvas, _ layout: ShopLayout) {
    canvas.rule(words.conditions, y: layout.conditionsY, width: layout.mainWidth)
    for cell in layout.conditions {
      canvas.put(cell.label, x: cell.x, y: cell.y, style: .muted)
      canvas.put(
        cell.value, x: cell.x + TextWidth.of(cell.label), y: cell.y,
        style: conditionStyle(cell.condition, isNormal: cell.isNormal))
    }
  }

  /// A fault away from its default stands out; storefront and latency are choices, not faults.
  private func conditionStyle(_ condition: Condition, isNormal: Bool) -> Style {
    guard condition.isFault else { return Style(bold: true) }
    return isNormal ? Style(tint: .success) : Style(tint: .danger, bold: true)
  }

  // MARK: Event log

  private func drawLog(on canvas: inout some Canvas, _ area: ShopLayout.LogArea) {
    guard area.rows > 0 else { return }
    var title = words.eventLog(model.storeKit)
    if model.logScroll > 0 { title += " · " + words.scrolledBack(model.logScroll) }
    canvas.rule(title, x: area.x, y: area.top, width: area.width)
    let textX = area.x + Self.logTextX
    for (offset, row) in Self.logRows(model, rows: area.rows, width: area.width - Self.logTextX).enumerated() {
      let y = area.top + 1 + offset
      if let time = row.time { canvas.put(time, x: area.x + 1, y: y, style: .muted) }
      canvas.put(row.text, x: textX, y: y, width: area.width - Self.logTextX, style: Self.style(of: row.event))
    }
  }

  /// Where an entry's text begins in the log's area: after its time.
  static let logTextX = 12

  /// One row of the event log: an entry's first row carries its time.
  struct LogRow {
    var time: String?
    var text: String
    var event: LogEvent
  }

  /// The rows the log shows: the entries up to the scrolled-back one, newest at the bottom, a long
  /// entry wrapped onto a second or third row rather than cut (an error's code and ID stay in view).
  /// The top row always begins an entry, with its time, never an entry's second half alone. Scrolled
  /// back, the top entry is whole and the rows left below go to the newer entries, the last shown
  /// from its start (its rest is below, as the rule says); following the end, the newest entry is
  /// whole at the bottom, and an older one with too few rows above it shows its first rows, the
  /// last of them ending in "…".
  static func logRows(_ model: ShopModel, rows: Int, width: Int) -> [LogRow] {
    guard rows > 0, width > 0 else { return [] }
    let end = max(0, model.log.count - model.logScroll)
    let whole = wholeEntries(model, end: end, rows: rows, width: width)
    let index = whole.first
    var shown = whole.rows
    guard shown.count < rows else { return shown }
    if end == model.log.count, index > 0 {
      var top = Array(logRows(of: model.log[index - 1], model, width: width).prefix(rows - shown.count))
      top[top.count - 1].text = TextWidth.truncate(top[top.count - 1].text, to: max(0, width - 1)) + "…"
      return top + shown
    }
    var next = end
    while shown.count < rows, next < model.log.count {
      shown += logRows(of: model.log[next], model, width: width)
      next += 1
    }
    return Array(shown.prefix(rows))
  }

  /// The entries before `end` that fit whole in `rows` rows, newest at the bottom: the first one's
  /// index, and their rows.
  static func wholeEntries(_ model: ShopModel, end: Int, rows: Int, width: Int) -> (first: Int, rows: [LogRow]) {
    var shown: [LogRow] = []
    var index = end
    while index > 0 {
      let entry = logRows(of: model.log[index - 1], model, width: width)
      guard shown.count + entry.count <= rows else { break }
      shown.insert(contentsOf: entry, at: 0)
      index -= 1
    }
    return (index, shown)
  }

  /// The first entry shown whole when the log's bottom is entry `end - 1`.
  static func firstEntryShown(_ model: ShopModel, end: Int, rows: Int, width: Int) -> Int {
    guard rows > 0, width > 0 else { return end }
    return wholeEntries(model, end: end, rows: rows, width: width).first
  }

  /// An entry's rows in a log `width` cells wide: its first row carries its time.
  static func logRows(of entry: LogEntry, _ model: ShopModel, width: Int) -> [LogRow] {
    let time = LogClock.format(from: model.launchDate, to: entry.time)
    let lines = wrap(entry.text(model.words.language), width: width)
    return lines.enumerated().map { LogRow(time: $0.offset == 0 ? time : nil, text: $0.element, event: entry.event) }
  }

  /// How many entries from the log's first fit whole in `rows` rows `width` cells wide: scrolled
  /// back as far as it goes, the log shows them from its first entry at the top.
  static func entriesFittingFromTheStart(_ model: ShopModel, rows: Int, width: Int) -> Int {
    var used = 0
    for (index, entry) in model.log.enumerated() {
      used += logRows(of: entry, model, width: width).count
      if used > rows { return index }
    }
    return model.log.count
  }

  /// Text in rows of `width` cells, continued with an indent; three rows at most. A row breaks at
  /// its last space, or between two characters either of which is wide (Japanese has no spaces
  /// between words and breaks between any two of its characters); never so that a row holds only
  /// its indent, and mid-word only where a word is wider than the row.
  static func wrap(_ text: String, width: Int, lines maximum: Int = 3) -> [String] {
    var rest = text
    var lines: [String] = []
    while TextWidth.of(rest) > width, lines.count < maximum - 1 {
      let head = TextWidth.truncate(rest, to: width)
      let cut = breakPoint(in: head, before: rest.dropFirst(head.count).first)
      lines.append(String(head[..<cut]))
      rest = "  " + rest[cut...].drop { $0 == " " }
    }
    return lines + [rest]
  }

  /// Where a row of `head` (followed by `next`) ends: after its last space or wide character with
  /// something other than spaces before it, else where it is full.
  private static func breakPoint(in head: String, before next: Character?) -> String.Index {
    let characters = Array(head)
    var index = head.endIndex
    var position = characters.count
    let isWide = { (character: Character) in TextWidth.of(character) > 1 }
    while position > 0 {
      let before = characters[position - 1]
      let after = position < characters.count ? characters[position] : next
      // No row starts with a mark that closes what comes before it (Japanese line-breaking rules).
      let closes = after.map { ":;,.)」』）、。：".contains($0) } == true
      let breaks = before == " " || after == " " || (!closes && (isWide(before) || after.map(isWide) == true))
      if breaks, characters[..<position].contains(where: { $0 != " " }), position < characters.count || after != nil {
        return index
      }
      position -= 1
      index = head.index(before: index)
    }
    return head.endIndex
  }

  public static func style(of event: LogEvent) -> Style {
    switch event {
    case .error, .productsRequestFailed, .crashed: Style(tint: .danger, bold: true)
    case .delivered: Style(tint: .success, bold: true)
    case .finished: Style(tint: .success)
    case .note, .conditionChanged: .muted
    case .updated(let transaction, _):
      switch transaction.state {
      case .purchased: Style(tint: .success)
      case .failed: Style(tint: .danger)
      case .deferred: Style(tint: .warning)
      default: .plain
      }
    default: .plain
    }
  }

  // MARK: Status and hints

  private func drawHints(on canvas: inout some Canvas, y: Int) {
    // A failed product request leaves nothing to buy: the key that asks again comes first, as the
    // status line's "R to retry" says.
    var first: [ShopAction] = []
    if case .failed = model.products { first = [.requestProducts] }
    HintBar.draw(model.activeBindings, first: first, language: words.language, on: &canvas, y: y)
  }
}

/// The hint bar: the keys that can act now, from the key map, as many as fit.
enum HintBar {
  /// The storefront's keys by how much a person needs them in the bar: buying, the conditions
  /// panel, spending and the log's StoreKit before the switches the conditions bar already shows.
  static let importance: [ShopAction] = [
    // Only while a download can use them, and then what the person needs first.
    .pauseDownload, .cancelDownload,
    .buyFive, .buyTen, .openConditions, .spend, .switchStoreKit, .openTransactions, .toggleNetwork,
    .toggleRestrictions, .toggleAskToBuy, .toggleInterrupted, .requestProducts, .restorePurchases, .buySelected,
    .quit,
  ]

  /// `first`: actions that come before the usual order now (the key a status line names).
  static func draw(
    _ bindings: [KeyBinding], first: [ShopAction] = [], language: Language, on canvas: inout some Canvas, y: Int
  ) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: Style(reverse: true))
    var x = 1
    let help = bindings.first { $0.action == .openHelp }
    let reserve = help.map { TextWidth.of($0.keys[0].description + " " + $0.hint.text(language)) + 2 } ?? 0
    // The most useful keys first, so a narrow bar still shows them; help lists every key.
    let rank = bindings.map { binding in
      first.contains(binding.action) ? -1 : importance.firstIndex(of: binding.action) ?? importance.count
    }
    let ranked = bindings.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }.map { bindings[$0] }
    // ↑ and ↓ share one cell: "↑↓ select".
    let next = bindings.first { $0.action == .selectNext }
    let paired = next != nil && bindings.contains { $0.action == .selectPrevious }
    for binding in ranked where binding.action != .openHelp && !(paired && binding.action == .selectNext) {
      var key = binding.keys[0].description
      if paired, binding.action == .selectPrevious, let next { key += next.keys[0].description }
      let hint = binding.hint.text(language)
      let cell = TextWidth.of(key) + 1 + TextWidth.of(hint) + 2
      guard x + cell <= width - reserve else { continue }
      canvas.put(key, x: x, y: y, style: Style(bold: true, reverse: true))
      canvas.put(hint, x: x + TextWidth.of(key) + 1, y: y, style: Style(reverse: true))
      x += cell
    }
    if let help {
      let key = help.keys[0].description
      canvas.put(key, x: width - reserve + 1, y: y, style: Style(bold: true, reverse: true))
      canvas.put(
        help.hint.text(language), x: width - reserve + 1 + TextWidth.of(key) + 1, y: y, style: Style(reverse: true))
    }
  }
}
