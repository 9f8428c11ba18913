import Foundation

/// A walkthrough played in the live storefront for training (`monkeyshop walkthrough --play`):
/// the storefront as the walkthrough drives it, with a narration band showing the current `say`
/// line. Space or Enter performs the next step; q, Esc or Ctrl-C stops.
///
/// Waits (and the launch's product request) run on the wall clock, so the audience sees the
/// buttons read `loading...`, the spinner turn and the log fill in at the store's pace; Space
/// during a wait skips to its end. Everything else runs exactly as `monkeyshop walkthrough` runs it.
public final class WalkthroughPlayer {
  public let session: WalkthroughSession?
  public let walkthrough: Walkthrough
  private var next = 0
  private var narration: String?
  /// What the last step did, shown under the narration.
  private var outcome: (text: String, tone: Notice.Tone)?
  private var timed: Timed?
  private var stopped = false
  /// Why the walkthrough failed (a check that did not hold, a step the app or store refused), as
  /// the headless run says it; nil while every step has held.
  public private(set) var failure: String?
  private var quit = false
  private var screenRequests: [ScreenRequest] = []

  /// A step running on the wall clock: virtual time follows real time from where it began.
  private struct Timed {
    enum Until {
      case time(Date)
      case settled
    }
    let until: Until
    /// The step as written, for the band.
    let label: String
    /// Where the step's events start in the session's log.
    let logStart: Int
    let realStart: Date
    let virtualStart: Date

    func virtual(at now: Date) -> Date { virtualStart.addingTimeInterval(max(0, now.timeIntervalSince(realStart))) }
    func real(at virtual: Date) -> Date { realStart.addingTimeInterval(virtual.timeIntervalSince(virtualStart)) }
  }

  public init(walkthrough: Walkthrough, catalog: Catalog) {
    self.walkthrough = walkthrough
    do {
      session = try WalkthroughSession(walkthrough: walkthrough, catalog: catalog)
      narration = walkthrough.summary
    } catch {
      session = nil
      stopped = true
      failure = "setup: \(error)"
      outcome = ("setup: \(error)", .failure)
    }
  }

  // MARK: TerminalApp

  public var isFinished: Bool { quit }
  public var watchedFolder: String? { nil }

  public func start(now: Date) {}

  public func folderChanged(now: Date) {}

  public var nextDeadline: Date? {
    guard let timed, let session else { return nil }
    switch timed.until {
    case .time(let target):
      let appDeadline = session.app?.nextDeadline.map { min($0, target) } ?? target
      return timed.real(at: max(appDeadline, session.clock))
    case .settled:
      return session.app?.nextDeadline.map { timed.real(at: max($0, session.clock)) }
    }
  }

  /// What a key does in the player.
  enum Action {
    /// The next step, or the end of the wait in progress.
    case next
    case quit
    case screen(ScreenRequest)
  }

  /// The player's own keys; Ctrl-C, Ctrl-L and Ctrl-Z act as everywhere (`KeyMap`'s global scope).
  static let keys: [(keys: [Key], action: Action)] = [
    ([.character(" "), .enter], .next),
    ([.character("q"), .escape], .quit),
  ]

  static func action(for key: Key) -> Action? {
    if let own = keys.first(where: { $0.keys.contains(key) }) { return own.action }
    switch KeyMap.binding(for: key, in: .global)?.action {
    case .quitNow: return .quit
    case .redraw: return .screen(.redraw)
    case .suspend: return .screen(.suspend)
    default: return nil
    }
  }

  public func handle(_ key: Key, now: Date) {
    guard let action = Self.action(for: key) else { return }
    switch action {
    case .next:
      if timed != nil {
        finishTimed(now: now, skip: true)
      } else {
        step(now: now)
      }
    case .quit:
      quit = true
    case .screen(let request):
      screenRequests.append(request)
    }
  }

  /// What the player asked of the terminal since the last call (Ctrl-L, Ctrl-Z).
  public func takeScreenRequests() -> [ScreenRequest] {
    defer { screenRequests = [] }
    return screenRequests
  }

  public func tick(now: Date) {
    finishTimed(now: now, skip: false)
  }

  // MARK: Steps

  private func step(now: Date) {
    guard let session, !stopped, next < walkthrough.steps.count else { return }
    let step = walkthrough.steps[next]
    next += 1
    switch step.action {
    case .wait(let seconds):
      _ = session.perform(WalkthroughStep(line: step.line, .wait(0)))
      timed = Timed(
        until: .time(session.clock.addingTimeInterval(seconds)), label: step.description,
        logStart: session.log.count, realStart: now, virtualStart: session.clock)
      outcome = ("\(step.description)…", .info)
    case .launch(let waits), .relaunch(let waits):
      let action: WalkthroughStep.Action =
        if case .launch = step.action { .launch(waitForProducts: false) } else { .relaunch(waitForProducts: false) }
      show(session.perform(WalkthroughStep(line: step.line, action)), as: step)
      if waits, !session.isSettled {
        timed = Timed(
          until: .settled, label: step.description, logStart: session.log.count, realStart: now,
          virtualStart: session.clock)
      }
    case .say(let text):
      narration = text
      show(session.perform(step))
    default:
      show(session.perform(step))
    }
  }

  private func finishTimed(now: Date, skip: Bool) {
    guard let session, let current = timed else { return }
    switch current.until {
    case .time(let target):
      session.advance(to: skip ? target : min(target, current.virtual(at: now)))
      if session.clock >= target { timed = nil }
    case .settled:
      if skip {
        session.settle()
      } else {
        // Up to the app's deadline, not past it: the log keeps the store's own timing.
        let virtual = current.virtual(at: now)
        session.advance(to: min(virtual, session.app?.nextDeadline ?? virtual))
      }
      if session.isSettled || session.app?.nextDeadline == nil { timed = nil }
    }
    if let last = session.log.dropFirst(current.logStart).last {
      outcome = ("\(current.label) → \(last.event.text(.storeKit1, walkthrough.language))", .info)
    } else if timed == nil {
      outcome = ("\(current.label): done", .info)
    }
  }

  /// Shows what a step did; `as` names the step as written when the player ran a variant of it.
  private func show(_ record: StepRecord, as written: WalkthroughStep? = nil) {
    if let failure = record.failureSummary {
      stopped = true
      self.failure = failure
      outcome = ("✗ \(failure) — the walkthrough stops here", .failure)
      return
    }
    switch record.step.action {
    case .expect:
      outcome = ("✓ " + record.step.description, .success)
    case .say:
      outcome = nil
    default:
      let last = record.events.last.map { " → " + $0.event.text(.storeKit1, walkthrough.language) } ?? ""
      outcome = ("\((written ?? record.step).description)\(last)", .info)
    }
  }

  // MARK: Drawing

  static let bandHeight = 6

  public func draw(on canvas: inout some Canvas) {
    let size = canvas.size
    let shopRows = size.height - Self.bandHeight
    if size.isLargeEnough, shopRows < ScreenSize.minimum.height, let app = session?.app {
      // The storefront needs more rows than are left above the band: it gives up the rows a
      // person misses least, so the newest events stay in sight (`ShopRows`).
      ShopRows.draw(app.model, on: &canvas, rows: shopRows, keepsHintBar: false)
    } else {
      // Too small for the storefront at all: it says so on the whole screen, under the band.
      var region = RegionCanvas(
        base: canvas, size: ScreenSize(width: size.width, height: size.isLargeEnough ? shopRows : size.height))
      drawApp(on: &region)
      canvas = region.base
    }
    drawBand(on: &canvas, top: max(0, size.height - Self.bandHeight))
  }

  private func drawApp(on canvas: inout some Canvas) {
    if let app = session?.app {
      app.draw(on: &canvas)
      return
    }
    let message: [String]
    switch session?.appState {
    case .crashed(let point):
      message = ["The app crashed (\(point.rawValue)).", "It is down until the walkthrough relaunches it."]
    case .quit:
      message = ["The app has quit."]
    default:
      message = ["The app is not running yet.", "Space: next step"]
    }
    let top = max(0, canvas.size.height / 2 - 2)
    for (offset, line) in message.enumerated() {
      let text = TextWidth.truncate(line, to: canvas.size.width)
      canvas.put(
        text, x: max(0, (canvas.size.width - TextWidth.of(text)) / 2), y: top + offset,
        style: offset == 0 ? .bold : .muted)
    }
  }

  private func drawBand(on canvas: inout some Canvas, top: Int) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: top, width: width, height: Self.bandHeight))
    let total = walkthrough.steps.count
    let title = "── Walkthrough: \(walkthrough.name) "
    canvas.put(
      TextWidth.truncate(title + String(repeating: "─", count: max(0, width - TextWidth.of(title))), to: width), x: 0,
      y: top, style: Style(tint: .accent, bold: true))
    if stopped, let outcome {
      // A failure takes the narration's place: what was expected and found must be readable.
      for (offset, line) in Self.wrap(outcome.text, width: width - 4, lines: 4).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: outcome.tone.style)
      }
    } else {
      for (offset, line) in Self.wrap(narration ?? "", width: width - 4, lines: 3).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: Style(bold: true))
      }
      if let outcome {
        canvas.put("  " + outcome.text, x: 0, y: top + 4, width: width, style: outcome.tone.style)
      }
    }
    let keys: String
    if stopped {
      keys = "q: quit"
    } else if timed != nil {
      keys = "Space/Enter: skip the wait — step \(next)/\(total) · q: quit"
    } else if next >= total {
      keys = "The walkthrough is over: every step held — q: quit"
    } else {
      let coming = walkthrough.steps[next]
      let preview = if case .say = coming.action { "narration" } else { coming.description }
      keys = "Space/Enter: next step — step \(next + 1)/\(total): \(preview) · q: quit"
    }
    canvas.put(" " + keys, x: 0, y: top + 5, width: width, style: Style(reverse: true))
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
