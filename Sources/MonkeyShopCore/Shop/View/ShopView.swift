import Foundation

/// Draws the storefront: header, balance, products, conditions, the StoreKit event log, the status
/// line and the hint bar, then whichever overlay is open. Pure: the same model gives the same cells.
public struct ShopView {
  let model: ShopModel
  var words: Words { model.words }

  public init(model: ShopModel) { self.model = model }

  public func draw(on canvas: inout some Canvas) {
    let size = canvas.size
    guard size.isLargeEnough else { return drawTooSmall(on: &canvas) }
    var y = 0
    drawHeader(on: &canvas)
    y += 2
    drawBalance(on: &canvas, y: y)
    y += 2
    y = drawProducts(on: &canvas, y: y)
    y = drawConditions(on: &canvas, y: y + 1)
    // An overlay that shows the status inside itself takes it from the bottom of the screen.
    let status = OverlayView.showsStatus(model.overlay) ? [""] : statusLines(width: size.width)
    drawLog(on: &canvas, from: y + 1, to: size.height - 2 - status.count)
    for (index, line) in status.enumerated() {
      canvas.put(
        line, x: 0, y: size.height - 1 - status.count + index, width: size.width,
        style: model.status?.tone.style ?? .plain)
    }
    drawHints(on: &canvas, y: size.height - 1)
    OverlayView(model: model).draw(on: &canvas)
  }

  private func drawTooSmall(on canvas: inout some Canvas) {
    let size = canvas.size
    // Only quitting acts here; the quit question, when asked, is the one thing to answer.
    let last = model.overlay == .confirmQuit ? words.quitWhileInFlight : words.onlyQuitActs
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

  private func drawBalance(on canvas: inout some Canvas, y: Int) {
    canvas.put("  " + words.balance(model.balance), x: 0, y: y, style: Style(tint: .success, bold: true))
    var right: [String] = []
    if model.unfinishedCount > 0 { right.append(words.unfinished(model.unfinishedCount)) }
    if let spinner = spinner { right.append(spinner) }
    let text = right.joined(separator: "  ") + " "
    canvas.put(text, x: canvas.size.width - TextWidth.of(text), y: y, style: Style(tint: .warning, bold: true))
  }

  /// A braille spinner whose frame follows the time since the purchase started.
  var spinner: String? {
    guard let started = model.inFlight.values.min() else { return nil }
    let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    let index = max(0, model.now - started) / ShopModel.spinnerInterval % frames.count
    return "\(frames[index]) purchasing"
  }

  // MARK: Products

  /// Rows of the product list: two per product, scrolled to keep the selection in view.
  private func drawProducts(on canvas: inout some Canvas, y top: Int) -> Int {
    let size = canvas.size
    canvas.rule(words.products, y: top, width: size.width)
    let products = model.catalog.products
    let fixedRows = 1 + 1 + 3 + 1 + 4 + 2  // rules, conditions, a few log lines, status and hints
    let room = max(2, min(products.count * 2, (size.height - top - fixedRows) / 2 * 2, max(4, size.height / 3)))
    let visible = room / 2
    let first = min(max(0, model.selection - visible + 1), max(0, products.count - visible))
    var y = top + 1
    for index in first..<min(products.count, first + visible) {
      drawProduct(products[index], selected: index == model.selection, on: &canvas, y: y)
      y += 2
    }
    if products.count > visible {
      let position = " \(model.selection + 1)/\(products.count) "
      canvas.put(position, x: size.width - TextWidth.of(position) - 1, y: top, style: .muted)
    }
    if case .loaded(let response) = model.products, !response.invalidProductIdentifiers.isEmpty, y < size.height {
      canvas.put("  " + words.invalidIdentifiers(response.invalidProductIdentifiers), x: 0, y: y, style: .muted)
      y += 1
    }
    return y
  }

  private func drawProduct(_ product: Product, selected: Bool, on canvas: inout some Canvas, y: Int) {
    let width = canvas.size.width
    let text = product.localization(words.language.rawValue)
    let button = "[ \(words.buyButton(model.buyButton(product))) ]"
    let quantity = selected ? words.quantity(model.quantity) : ""
    let right = TextWidth.fit(quantity, to: 7) + " " + button + " "
    let rightWidth = TextWidth.of(right)
    // As with SKProduct, the app knows a price only once the App Store has answered for it.
    let price =
      model.response?.contains(product.productIdentifier) == true
      ? product.displayPrice(in: model.storefront) ?? "—" : ""
    let priceWidth = 12
    let titleWidth = max(8, width - rightWidth - priceWidth - 4)
    let marker = selected ? "▶ " : "  "
    let lineStyle = selected ? Style.focus : Style(bold: true)
    canvas.put(marker + TextWidth.fit(text.title, to: titleWidth), x: 0, y: y, style: lineStyle)
    canvas.put(TextWidth.fit(price, to: priceWidth), x: titleWidth + 3, y: y, style: Style(tint: .price, bold: true))
    canvas.put(right, x: width - rightWidth, y: y, style: buttonStyle(product, selected: selected))
    canvas.put("    " + text.description, x: 0, y: y + 1, width: width, style: .muted)
  }

  private func buttonStyle(_ product: Product, selected: Bool) -> Style {
    switch model.buyButton(product) {
    case .networkDown, .appStoreDisabled: Style(tint: .danger, bold: true)
    case .loading, .notAvailable: Style(tint: .warning)
    case .buy: Style(tint: .success, bold: true, reverse: selected)
    }
  }

  // MARK: Conditions

  /// Every condition and its state, wrapped to the width.
  private func drawConditions(on canvas: inout some Canvas, y top: Int) -> Int {
    let width = canvas.size.width
    canvas.rule(words.conditions, y: top, width: width)
    var x = 2
    var y = top + 1
    let conditions = model.store.conditions
    let defaultStorefront = model.catalog.defaultStorefront
    for condition in Condition.allCases {
      let value = condition.value(in: conditions, defaultStorefront: defaultStorefront)
      let normal = condition.value(in: Conditions(), defaultStorefront: defaultStorefront)
      let label = words.conditionName(condition) + " "
      let shown = words.conditionValue(condition, value)
      let cell = label + shown
      if x + TextWidth.of(cell) + 3 > width {
        x = 2
        y += 1
      }
      canvas.put(label, x: x, y: y, style: .muted)
      canvas.put(shown, x: x + TextWidth.of(label), y: y, style: conditionStyle(condition, isNormal: value == normal))
      x += TextWidth.of(cell) + 3
    }
    return y + 1
  }

  /// A fault away from its default stands out; storefront and latency are choices, not faults.
  private func conditionStyle(_ condition: Condition, isNormal: Bool) -> Style {
    guard condition.isFault else { return Style(bold: true) }
    return isNormal ? Style(tint: .success) : Style(tint: .danger, bold: true)
  }

  // MARK: Event log

  private func drawLog(on canvas: inout some Canvas, from top: Int, to bottom: Int) {
    let width = canvas.size.width
    guard bottom > top else { return }
    canvas.rule(words.eventLog(model.vocabulary), y: top, width: width)
    let rows = bottom - top
    let entries = model.log.suffix(rows)
    for (offset, entry) in entries.enumerated() {
      let time = LogClock.format(entry.time.timeIntervalSince(model.launchDate))
      canvas.put(time, x: 1, y: top + 1 + offset, style: .muted)
      canvas.put(
        entry.event.text(model.vocabulary, words.language), x: 12, y: top + 1 + offset, width: width - 12,
        style: Self.style(of: entry.event))
    }
  }

  static func style(of event: LogEvent) -> Style {
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

  /// The status message, on one line or, when long, two: an error's ID must stay visible.
  private func statusLines(width: Int) -> [String] {
    guard let status = model.status else { return [""] }
    var text = " " + words.notice(status, title: model.title(of:))
    if model.isPurchaseInFlight, let spinner, status.tone == .info { text = " \(spinner.prefix(1))" + text }
    guard TextWidth.of(text) > width else { return [text] }
    let first = TextWidth.truncate(text, to: width)
    let cut = first.lastIndex(of: " ").map { first[..<$0] }.map(String.init) ?? first
    let rest = "   " + text.dropFirst(cut.count).trimmingCharacters(in: .whitespaces)
    return [cut, rest]
  }

  private func drawHints(on canvas: inout some Canvas, y: Int) {
    HintBar.draw(model.activeBindings, language: words.language, on: &canvas, y: y)
  }
}

/// The hint bar: the keys that can act now, from the key map, as many as fit.
enum HintBar {
  static func draw(_ bindings: [KeyBinding], language: Language, on canvas: inout some Canvas, y: Int) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: Style(reverse: true))
    var x = 1
    let help = bindings.first { $0.action == .openHelp }
    let reserve = help.map { TextWidth.of($0.keys[0].description + " " + $0.hint.text(language)) + 2 } ?? 0
    for binding in bindings where binding.action != .openHelp {
      let key = binding.keys[0].description
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
