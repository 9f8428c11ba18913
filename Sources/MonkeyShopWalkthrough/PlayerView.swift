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
    let band = model.bandHeight(for: size)
    let shopRows = size.height - band
    var region = RegionCanvas(
      base: canvas, size: ScreenSize(width: size.width, height: size.isLargeEnough ? shopRows : size.height))
    if size.isLargeEnough, shopRows < ScreenSize.minimum.height, let shop = model.shownShop {
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
    drawBand(on: &canvas, top: max(0, size.height - band), height: band)
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

  /// The storefront at its minimum height, the rows from `overlayScroll` on; `↑ more` and
  /// `↓ more` where rows are out of view.
  private func drawScrolled(_ shop: ShopModel, on canvas: inout some Canvas) {
    let rows = canvas.size.height
    var whole = TextGrid(size: ScreenSize(width: canvas.size.width, height: rows + model.overlayHiddenRows))
    ShopView(model: shop).draw(on: &whole)
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
    if model.overlayScroll > 0 {
      let text = " \(words.moreAbove) "
      canvas.put(text, x: canvas.size.width - TextWidth.of(text) - 2, y: 0, style: marker)
    }
    if model.overlayRowsBelow > 0 {
      let text = " \(words.moreBelow) "
      canvas.put(text, x: canvas.size.width - TextWidth.of(text) - 2, y: rows - 1, style: marker)
    }
  }

  /// The player's keys, from its key table, over the storefront.
  private func drawHelp(on canvas: inout some Canvas) {
    let size = canvas.size
    let rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
    canvas.box(rect, title: words.helpTitle)
    var lines: [(String, Style)] = []
    for context in PlayerKeyContext.allCases where context != .help {
      lines.append((context.title.text(words.language), Style(tint: .accent, bold: true)))
      for binding in PlayerKeys.bindings(in: context) {
        lines.append((TextWidth.fit(binding.keyLabel, to: 12) + binding.help.text(words.language), .plain))
      }
      // The storefront's keys that act everywhere close the list of the player's own.
      guard context == .stepping else { continue }
      for binding in KeyMap.bindings(in: .global) where [.quitNow, .redraw, .suspend].contains(binding.action) {
        lines.append((TextWidth.fit(binding.keyLabel, to: 12) + binding.help.text(words.language), .plain))
      }
    }
    let rows = max(1, rect.height - 2)
    let columns = (lines.count + rows - 1) / rows
    let columnWidth = (rect.width - 4) / max(1, columns)
    for (index, (text, style)) in lines.enumerated() {
      canvas.put(
        text, x: rect.x + 2 + index / rows * columnWidth, y: rect.y + 1 + index % rows, width: columnWidth - 1,
        style: style)
    }
    let close =
      " "
      + PlayerKeys.bindings(in: .help).map { "\($0.keyLabel) \($0.hint.text(words.language))" }
      .joined(separator: " · ") + " "
    canvas.put(close, x: 2, y: rect.height - 1, style: .muted)
  }

  // MARK: The band

  private func drawBand(on canvas: inout some Canvas, top: Int, height: Int) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: top, width: width, height: height))
    let total = model.walkthrough.steps.count
    let title = "── \(words.title(model.walkthrough.name)) "
    let progress = " \(words.progress(done: model.next, of: total)) ──"
    let titleWidth = max(0, width - TextWidth.of(progress))
    let rule = TextWidth.truncate(title, to: titleWidth)
    canvas.put(
      rule + String(repeating: "─", count: max(0, titleWidth - TextWidth.of(rule))) + progress, x: 0, y: top,
      style: Style(tint: .accent, bold: true))
    if model.isStopped, let outcome = model.outcome {
      // A failure takes the narration's place, whole: what was expected and what was found.
      for (offset, line) in model.failureLines(width: width).prefix(height - 2).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: outcome.tone.style)
      }
      if let notice = model.notice {
        canvas.put("  " + notice.text, x: 0, y: top + height - 2, width: width, style: notice.tone.style)
      }
    } else {
      // In free play the last two rows say the walkthrough is over.
      for (offset, line) in Self.wrap(model.narration ?? "", width: width - 4, lines: model.isFreePlay ? 2 : 3)
        .enumerated()
      {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: Style(bold: true))
      }
      if let status = statusLine {
        canvas.put("  " + status.text, x: 0, y: top + 4, width: width, style: status.tone.style)
      }
      if model.isFreePlay {
        // What a key said (the step keys step no more) in place of the line saying it is over.
        let over = model.notice ?? PlayerModel.Outcome(text: words.over, tone: .success)
        canvas.put("  " + over.text, x: 0, y: top + 3, width: width, style: over.tone.style)
        canvas.put("  " + words.freePlay, x: 0, y: top + 4, width: width, style: Style(bold: true))
      }
    }
    canvas.put(keysLine(width: width), x: 0, y: top + height - 1, width: width, style: Style(reverse: true))
  }

  /// The band's fifth row: the countdown of a wait, else what the last step did, else a warning
  /// that the terminal is smaller than the walkthrough's screen and the band.
  private var statusLine: PlayerModel.Outcome? {
    if let notice = model.notice { return notice }
    if let timed = model.timed, case .time(let target) = timed.until {
      let virtual = model.now.map { min(target, timed.virtual(at: $0)) } ?? timed.virtualStart
      let countdown = words.waiting(timed.label, left: target.timeIntervalSince(virtual))
      let last =
        model.scene.logCount > timed.logStart ? model.scene.lastLog.map { " → " + $0.text(words.language) } : nil
      return PlayerModel.Outcome(text: countdown + (last ?? ""), tone: .info)
    }
    if let outcome = model.outcome { return outcome }
    if model.isSmallerThanNeeded, let size = model.screenSize {
      return PlayerModel.Outcome(text: words.smallerThanNeeded(has: size, needs: model.neededSize), tone: .warning)
    }
    return nil
  }

  /// The keys that act now, most important first, as many as fit; then what comes next.
  func keysLine(width: Int) -> String {
    var items: [String] = []
    var upNext: String?
    let active = model.activeBindings
    switch model.keyContext {
    case .entry:
      items.append(words.goToPrompt(model.entry ?? "", of: model.walkthrough.steps.count))
    case .help, .freePlay:
      break
    case .stepping:
      if model.phase == .ready, model.autoAdvance != nil {
        if let autoAt = model.autoAt, let now = model.now {
          items.append(words.autoNext(in: autoAt.timeIntervalSince(now)))
        } else if model.autoPaused {
          items.append(words.autoPaused)
        }
      }
      if model.phase == .ready, !model.isOver {
        upNext = words.upNext(words.step(model.walkthrough.steps[model.next]))
      }
    }
    /// Help's key only where what comes next still fits.
    var helpItem: String?
    for binding in active where binding.action != .pauseAuto {
      let label = binding.bandLabel ?? binding.keyLabel
      switch binding.action {
      case .storefrontQuit: items.append(words.freePlayQuit)
      case .next where model.isWaiting: items.append("\(label) \(words.skipWait)")
      case .openHelp: helpItem = "\(label) \(binding.hint.text(words.language))"
      default: items.append("\(label) \(binding.hint.text(words.language))")
      }
    }
    // The last item (quit, cancel) always shows; the others while they fit, in order.
    let separator = " · "
    var line = " "
    guard let last = items.popLast() else { return line }
    for item in items where TextWidth.of(line + item + separator + last) <= width {
      line += item + separator
    }
    let after = upNext.map { "   " + $0 } ?? ""
    if let helpItem, TextWidth.of(line + helpItem + separator + last + after) <= width {
      line += helpItem + separator
    }
    line += last
    // Last, so the canvas cuts only it when the row is full.
    if let upNext { line += "   " + upNext }
    return line
  }

  /// Words to at most `lines` lines of `width` cells, the last cut with `…`.
  static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
    guard width > 0 else { return [] }
    var result: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if TextWidth.of(candidate) <= width || current.isEmpty {
        current = candidate
      } else {
        result.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { result.append(current) }
    guard result.count > lines else { return result.map { TextWidth.truncate($0, to: width) } }
    var kept = Array(result.prefix(lines))
    kept[lines - 1] = TextWidth.fit(kept[lines - 1] + " " + result[lines...].joined(separator: " "), to: width)
    return kept.map { TextWidth.truncate($0, to: width) }
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
  var shownShop: ShopModel? { scene.shop.map { $0.language == shopLanguage ? $0 : $0.speaking(shopLanguage) } }

  /// The failure's rows in the band, its spaces as written.
  func failureLines(width: Int) -> [String] {
    guard isStopped, let outcome else { return [] }
    return PlayerView.wrapKeepingSpaces(outcome.text, width: width - 4) + (notice == nil ? [] : [""])
  }

  /// The band's rows on a screen of this size: six, or as many as a failure needs, leaving the
  /// storefront half the screen.
  func bandHeight(for size: ScreenSize) -> Int {
    let failure = failureLines(width: size.width).count + 2
    return max(PlayerView.bandHeight, min(failure, size.height / 2))
  }

  /// Rows above the band.
  var shopRows: Int? { screenSize.map { $0.height - bandHeight(for: $0) } }

  /// Rows of the open panel out of view: a panel as tall as the screen (the transaction's detail,
  /// the conditions, help) is drawn at the storefront's minimum height and scrolls in the rows
  /// above the band.
  var overlayHiddenRows: Int {
    guard let size = screenSize, size.isLargeEnough, let rows = shopRows, rows < ScreenSize.minimum.height,
      let overlay = scene.shop?.overlay
    else { return 0 }
    switch overlay {
    case .transactionDetail, .conditions, .help: return ScreenSize.minimum.height - rows
    case .paymentSheet, .transactions, .confirmQuit: return 0
    }
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
