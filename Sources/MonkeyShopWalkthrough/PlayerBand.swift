import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// The band's rows as laid out for a screen: the narration (all of it, wrapped; the band shows
/// `narrationRows` of them from the model's `narrationScroll`), the status rows above the keys line,
/// and the band's height. The model scrolls by it, the view draws it.
struct PlayerBand {
  var narration: [String] = []
  var narrationRows = 0
  var status: [PlayerModel.Outcome] = []
  var height = PlayerView.bandHeight

  /// The narration's rows below those in view, from a scroll position.
  func rowsBelow(scroll: Int) -> Int { max(0, narration.count - narrationRows - scroll) }
}

extension PlayerModel {
  /// The band on a screen of this size. A failure takes the narration's place, whole, the band
  /// growing up to half the screen. Otherwise the narration has three rows, and more as it needs
  /// them: up to five beside a running storefront, half the screen in free play (the last
  /// narration, whole), the screen but a few rows before the app runs (the description, shown
  /// first); past that it scrolls (↓ ↑) with `↓ more` on its last row. What the last step did,
  /// or what a key said, takes one or two rows under it; in free play two rows say the walkthrough
  /// is over.
  func band(for size: ScreenSize) -> PlayerBand {
    if isStopped {
      let failure = failureLines(width: size.width).count + 2
      return PlayerBand(height: max(PlayerView.bandHeight, min(failure, size.height / 2)))
    }
    let width = size.width - 4
    var band = PlayerBand()
    band.status = statusRows(width: width)
    let least = (isFreePlay ? 5 : 4) - band.status.count
    let room: Int
    if !size.isLargeEnough {
      room = least
    } else if isFreePlay {
      room = max(least, size.height / 2 - 2 - band.status.count)
    } else if scene.shop == nil {
      room = max(least, size.height - 6 - band.status.count)
    } else {
      room = max(least, 5)
    }
    band.narration = PlayerView.wrap(narration ?? "", width: width)
    if band.narration.count > room {
      // Cut: the rows leave room at their end for the marker saying so.
      band.narration = PlayerView.wrap(narration ?? "", width: width - narrationMarkerWidth - 1)
    }
    band.narrationRows = min(band.narration.count, room)
    band.height = 2 + max(least + band.status.count, band.narrationRows + band.status.count)
    return band
  }

  /// The widest of the markers on a cut narration's rows (`↓ more`, `↑ more`).
  var narrationMarkerWidth: Int {
    max(TextWidth.of(" \(words.moreBelow) "), TextWidth.of(" \(words.moreAbove) "))
  }

  /// Rows of the narration below those in view on the screen now.
  var narrationRowsBelow: Int {
    guard let screenSize else { return 0 }
    return band(for: screenSize).rowsBelow(scroll: narrationScroll)
  }

  /// The rows over the keys line: in free play that the walkthrough is over (or what a key said
  /// instead) and that the storefront takes its keys; otherwise the countdown of a wait, what a key
  /// said, the size warning or what the last step did, on two rows at most.
  private func statusRows(width: Int) -> [Outcome] {
    if isFreePlay {
      guard let notice else {
        return [Outcome(text: words.over, tone: .success), Outcome(text: words.freePlay, tone: .info)]
      }
      let rows = Self.rows(of: notice, width: width)
      return rows.count > 1 ? rows : rows + [Outcome(text: words.freePlay, tone: .info)]
    }
    return status.map { Self.rows(of: $0, width: width) } ?? []
  }

  /// Text on two rows at most, the second cut with `…` when even two do not hold it.
  private static func rows(of outcome: Outcome, width: Int) -> [Outcome] {
    var rows = PlayerView.wrap(outcome.text, width: width)
    if rows.count > 2 { rows = [rows[0], TextWidth.fit(rows[1...].joined(separator: " "), to: width)] }
    return rows.map { Outcome(text: $0, tone: outcome.tone) }
  }

  /// The status the band shows (stepping): the countdown of a wait, else what a key said, else a
  /// warning that the terminal is smaller than the walkthrough's screen and the band, else what
  /// the last step did.
  var status: Outcome? {
    if let notice { return notice }
    if let timed, case .time(let target) = timed.until {
      let virtual = now.map { min(target, timed.virtual(at: $0)) } ?? timed.virtualStart
      let countdown = words.waiting(timed.label, left: target.timeIntervalSince(virtual))
      let last = scene.logCount > timed.logStart ? scene.lastLog.map { " → " + $0.text(words.language) } : nil
      return Outcome(text: countdown + (last ?? ""), tone: .info)
    }
    if sizeWarning, isSmallerThanNeeded, let screenSize {
      return Outcome(text: words.smallerThanNeeded(has: screenSize, needs: neededSize), tone: .warning)
    }
    return outcome
  }
}

extension PlayerView {
  func drawBand(on canvas: inout some Canvas, top: Int, band: PlayerBand) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: top, width: width, height: band.height))
    let total = model.walkthrough.steps.count
    let title = "── \(words.title(model.walkthrough.name)) "
    let progress = " \(words.progress(done: model.next, of: total)) ──"
    let titleWidth = max(0, width - TextWidth.of(progress))
    let rule = TextWidth.truncate(title, to: titleWidth)
    canvas.put(
      rule + String(repeating: "─", count: max(0, titleWidth - TextWidth.of(rule))) + progress, x: 0, y: top,
      style: Style(tint: .accent, bold: true))
    let keysY = top + band.height - 1
    if model.isStopped, let outcome = model.outcome {
      // A failure takes the narration's place, whole: what was expected and what was found.
      for (offset, line) in model.failureLines(width: width).prefix(band.height - 2).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: outcome.tone.style)
      }
      if let notice = model.notice {
        canvas.put("  " + notice.text, x: 0, y: keysY - 1, width: width, style: notice.tone.style)
      }
    } else {
      let scroll = min(model.narrationScroll, max(0, band.narration.count - band.narrationRows))
      for (offset, line) in band.narration.dropFirst(scroll).prefix(band.narrationRows).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: Style(bold: true))
      }
      // A cut narration says so where it is cut, and which key brings the rest.
      let marker = Style(tint: .warning, bold: true, reverse: true)
      if scroll > 0 {
        let text = " \(words.moreAbove) "
        canvas.put(text, x: width - TextWidth.of(text), y: top + 1, style: marker)
      }
      if band.rowsBelow(scroll: scroll) > 0 {
        let text = " \(words.moreBelow) "
        canvas.put(text, x: width - TextWidth.of(text), y: top + band.narrationRows, style: marker)
      }
      for (offset, row) in band.status.enumerated() {
        let style = model.isFreePlay && row.text == words.freePlay ? Style(bold: true) : row.tone.style
        canvas.put("  " + row.text, x: 0, y: keysY - band.status.count + offset, width: width, style: style)
      }
    }
    canvas.put(keysLine(width: width), x: 0, y: keysY, width: width, style: Style(reverse: true))
  }

  /// The keys that act now, most important first, then what comes next. The next step and the
  /// first and last keys (Space/Enter, quit) always show; the others while they fit, in order,
  /// help's key last.
  func keysLine(width: Int) -> String {
    var items: [String] = []
    var upNext: String?
    let active = model.activeBindings
    switch model.keyContext {
    case _ where model.isScreenTooSmall:
      // Nothing but quitting acts: no step, no --auto to resume.
      break
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
    var helpItem: String?
    // ↓ and ↑ act only while something is out of view: then they come right after the first key.
    var scrolls: [String] = []
    for binding in active where binding.action != .pauseAuto {
      let label = binding.keyLabel
      switch binding.action {
      case .scrollDown, .scrollUp: scrolls.append("\(label) \(binding.hint.text(words.language))")
      case .storefrontQuit: items.append(words.freePlayQuit)
      case .next where model.isWaiting: items.append("\(label) \(words.skipWait)")
      case .openHelp: helpItem = "\(label) \(binding.hint.text(words.language))"
      default: items.append("\(label) \(binding.hint.text(words.language))")
      }
    }
    let separator = " · "
    guard let last = items.popLast() else { return " " }
    let first = items.isEmpty ? nil : items.removeFirst()
    items.insert(contentsOf: scrolls, at: 0)
    // The next step keeps up to half the row (a long check's details may be cut, never what it
    // is); the keys that always show come first.
    let whole = upNext.map { TextWidth.of("   " + $0) } ?? 0
    let reserved = min(whole, 3 + width / 2)
    var used = TextWidth.of(" " + (first.map { $0 + separator } ?? "") + last) + reserved
    var kept: [String] = first.map { [$0] } ?? []
    for item in items where used + TextWidth.of(item + separator) <= width {
      kept.append(item)
      used += TextWidth.of(item + separator)
    }
    // Help's key only where the next step still shows whole.
    if let helpItem, used - reserved + whole + TextWidth.of(helpItem + separator) <= width { kept.append(helpItem) }
    let keys = " " + (kept + [last]).joined(separator: separator)
    guard let upNext else { return keys }
    let room = max(0, width - TextWidth.of(keys) - 3)
    return keys + "   " + (TextWidth.of(upNext) <= room ? upNext : TextWidth.truncate(upNext, to: room - 1) + "…")
  }

  /// Text in rows of at most `width` cells. A row breaks at a space, or between two characters
  /// either of which is wide (Japanese breaks between any two of its characters), never before a
  /// mark that closes what comes before it; a word wider than a row is cut where the row is full.
  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var rows: [String] = []
    var row = ""
    for (word, spaced) in breakable(text) {
      let candidate = row.isEmpty ? word : row + (spaced ? " " : "") + word
      if TextWidth.of(candidate) <= width {
        row = candidate
        continue
      }
      if !row.isEmpty { rows.append(row) }
      var rest = word
      while TextWidth.of(rest) > width {
        let head = TextWidth.truncate(rest, to: width)
        if head.isEmpty { break }
        rows.append(head)
        rest = String(rest.dropFirst(head.count))
      }
      row = rest
    }
    if !row.isEmpty { rows.append(row) }
    return rows
  }

  /// The pieces a row may break between, each with whether a space comes before it: words, and
  /// each wide character on its own with the closing marks after it.
  private static func breakable(_ text: String) -> [(String, Bool)] {
    var pieces: [(String, Bool)] = []
    var piece = ""
    var spaced = false
    var lastWide = false
    let closes: Set<Character> = [":", ";", ",", ".", ")", "」", "』", "）", "、", "。", "：", "！", "？"]
    for character in text {
      if character == " " {
        if !piece.isEmpty { pieces.append((piece, spaced)) }
        piece = ""
        spaced = true
        continue
      }
      let wide = TextWidth.of(character) > 1
      if !piece.isEmpty, !closes.contains(character), wide || lastWide {
        pieces.append((piece, spaced))
        piece = ""
        spaced = false
      }
      piece.append(character)
      lastWide = wide
    }
    if !piece.isEmpty { pieces.append((piece, spaced)) }
    return pieces
  }
}
