import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// A walkthrough played in the live storefront for training (`monkeyshop walkthrough --play`):
/// the storefront as the walkthrough drives it, with a narration band showing the current `say`
/// line, what the last step did, and the player's keys. Space or Enter performs the next step; b,
/// Backspace or Left goes back a step; r starts again; q, Esc or Ctrl-C stops. With `autoAdvance`
/// the next step comes by itself that long after the last one ended (p pauses). After the last
/// step the storefront takes its own keys (free play) until the person quits.
///
/// Waits (and the launch's product request) run on the wall clock, so the audience sees the
/// buttons read `loading...`, the spinner turn and the log fill in at the store's pace, with a
/// countdown in the band; Space during a wait skips to its end. Going back replays the walkthrough
/// from the start to the step before, in virtual time: the store is deterministic, so the
/// storefront is exactly as it was. Everything else runs exactly as `monkeyshop walkthrough` runs it.
public final class WalkthroughPlayer {
  public private(set) var session: WalkthroughSession?
  public let walkthrough: Walkthrough
  private let catalog: Catalog
  private let words: PlayerWords
  /// How long after a step the next one comes by itself; nil: a step per key.
  public let autoAdvance: TimeInterval?
  private var autoPaused = false
  /// When the next step comes by itself.
  private var autoAt: Date?
  /// The steps performed so far; the next step's index.
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
  /// The terminal's size, once the event loop has told it.
  private var screenSize: ScreenSize?
  /// The time the loop last gave the player: countdowns are drawn from it.
  private var now: Date?

  /// Virtual time following the wall clock from where it began: a wait, a launch's product
  /// request, or free play.
  private struct Timed {
    enum Until: Equatable {
      case time(Date)
      case settled
      /// Free play: until the person quits.
      case never
    }
    let until: Until
    /// The step as the band names it.
    let label: String
    /// Where the step's events start in the session's log.
    let logStart: Int
    let realStart: Date
    let virtualStart: Date

    func virtual(at now: Date) -> Date { virtualStart.addingTimeInterval(max(0, now.timeIntervalSince(realStart))) }
    func real(at virtual: Date) -> Date { realStart.addingTimeInterval(virtual.timeIntervalSince(virtualStart)) }
  }

  /// `language` is the band's (`--lang`, else the environment's); the storefront speaks the
  /// walkthrough's own, which its `screen` checks are written in.
  public init(walkthrough: Walkthrough, catalog: Catalog, language: Language? = nil, autoAdvance: TimeInterval? = nil) {
    self.walkthrough = walkthrough
    self.catalog = catalog
    words = PlayerWords(language ?? walkthrough.language)
    self.autoAdvance = autoAdvance
    replay(to: 0, now: nil)
  }

  /// Whether the walkthrough is over and the storefront takes its own keys.
  public var isFreePlay: Bool { timed?.until == .never }

  // MARK: TerminalApp

  public var isFinished: Bool { quit }
  public var watchedFolder: String? { nil }

  public func start(now: Date) {
    self.now = now
    scheduleAuto(now: now)
  }

  public func folderChanged(now: Date) {}

  /// How often a countdown on the band is redrawn.
  static let countdownInterval: TimeInterval = 0.1

  public var nextDeadline: Date? {
    var deadlines: [Date] = []
    if let timed, let session {
      switch timed.until {
      case .time(let target):
        let appDeadline = session.app?.nextDeadline.map { min($0, target) } ?? target
        deadlines.append(timed.real(at: max(appDeadline, session.clock)))
      case .settled, .never:
        if let deadline = session.app?.nextDeadline { deadlines.append(timed.real(at: max(deadline, session.clock))) }
      }
    }
    if let autoAt { deadlines.append(autoAt) }
    if let now, autoAt != nil || timed.map({ if case .time = $0.until { true } else { false } }) == true {
      deadlines.append(now.addingTimeInterval(Self.countdownInterval))
    }
    return deadlines.min()
  }

  /// What a key does in the player.
  enum Action: Equatable {
    /// The next step, or the end of the wait in progress.
    case next
    /// Back to the state before the last step performed.
    case back
    case restart
    case pauseAuto
    case quit
    case screen(ScreenRequest)
  }

  /// The player's own keys; Ctrl-C, Ctrl-L and Ctrl-Z act as everywhere (`KeyMap`'s global scope).
  static let keys: [(keys: [Key], action: Action)] = [
    ([.character(" "), .enter], .next),
    ([.character("b"), .backspace, .left], .back),
    ([.character("r")], .restart),
    ([.character("p")], .pauseAuto),
    ([.character("q"), .escape], .quit),
  ]

  /// In free play the storefront takes every key but these.
  static let freePlayKeys: [(keys: [Key], action: Action)] = [([.backspace], .back)]

  static func action(for key: Key, freePlay: Bool) -> Action? {
    switch KeyMap.binding(for: key, in: .global)?.action {
    case .quitNow: return .quit
    case .redraw: return .screen(.redraw)
    case .suspend: return .screen(.suspend)
    default: break
    }
    return (freePlay ? freePlayKeys : keys).first { $0.keys.contains(key) }?.action
  }

  /// The screen is this size: before the first frame and after every resize.
  public func resized(_ size: ScreenSize, now: Date) { screenSize = size }

  public func handle(_ key: Key, now: Date) {
    self.now = now
    if screenSize?.isLargeEnough == false {
      // Nothing is in sight below the minimum size: only quitting acts (q, Esc, Ctrl-C), as in the
      // storefront (`KeyBinding.actsOnATooSmallScreen`); in free play too, q ends the player.
      if Self.action(for: key, freePlay: false) == .quit { quit = true }
      return
    }
    guard let action = Self.action(for: key, freePlay: isFreePlay) else {
      if isFreePlay { press(key, now: now) }
      return
    }
    switch action {
    case .next:
      autoAt = nil
      if timed != nil {
        finishTimed(now: now, skip: true)
      } else {
        step(now: now)
      }
    case .back:
      replay(to: max(0, next - 1), now: now)
    case .restart:
      replay(to: 0, now: now)
    case .pauseAuto:
      guard autoAdvance != nil else { return }
      autoPaused.toggle()
      autoAt = nil
      scheduleAuto(now: now)
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
    self.now = now
    finishTimed(now: now, skip: false)
    if let autoAt, now >= autoAt, timed == nil {
      self.autoAt = nil
      step(now: now)
    }
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
        until: .time(session.clock.addingTimeInterval(seconds)), label: words.step(step),
        logStart: session.log.count, realStart: now, virtualStart: session.clock)
      outcome = nil
    case .launch(let waits), .relaunch(let waits):
      let action: WalkthroughStep.Action =
        if case .launch = step.action { .launch(waitForProducts: false) } else { .relaunch(waitForProducts: false) }
      show(session.perform(WalkthroughStep(line: step.line, action)), as: step)
      if waits, !session.isSettled {
        timed = Timed(
          until: .settled, label: words.step(step), logStart: session.log.count, realStart: now,
          virtualStart: session.clock)
      }
    case .say(let text):
      narration = text
      show(session.perform(step))
    default:
      show(session.perform(step))
    }
    if timed == nil { stepEnded(now: now) }
  }

  /// Starts the walkthrough again and performs its first `count` steps in virtual time, as the
  /// headless run does: the storefront is as it was after them.
  private func replay(to count: Int, now: Date?) {
    timed = nil
    autoAt = nil
    stopped = false
    next = 0
    narration = walkthrough.summary
    outcome = nil
    do {
      session = try WalkthroughSession(walkthrough: walkthrough, catalog: catalog)
    } catch {
      session = nil
      stopped = true
      failure = "setup: \(error)"
      outcome = (words.setupFailed("\(error)"), .failure)
      return
    }
    guard let session else { return }
    for step in walkthrough.steps.prefix(count) {
      if case .say(let text) = step.action { narration = text }
      next += 1
      show(session.perform(step))
      if stopped { return }
    }
    if let now {
      outcome = (count == 0 ? words.restarted : words.backTo(count, of: walkthrough.steps.count), .info)
      stepEnded(now: now)
    }
  }

  /// A step is over: the next one comes by itself (`autoAdvance`), or, after the last, free play.
  private func stepEnded(now: Date) {
    guard let session, !stopped else { return }
    if next >= walkthrough.steps.count {
      timed = Timed(
        until: .never, label: "", logStart: session.log.count, realStart: now, virtualStart: session.clock)
      outcome = nil
    } else {
      scheduleAuto(now: now)
    }
  }

  private func scheduleAuto(now: Date) {
    guard let autoAdvance, !autoPaused, !stopped, timed == nil, next < walkthrough.steps.count else { return }
    autoAt = now.addingTimeInterval(autoAdvance)
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
    case .never:
      session.advance(to: current.virtual(at: now))
      if session.appState == .quit { quit = true }
      return
    }
    if let last = session.log.dropFirst(current.logStart).last {
      outcome = ("\(current.label) → \(last.text(words.language))", .info)
    } else if timed == nil {
      outcome = (words.done(current.label), .info)
    }
    if timed == nil { stepEnded(now: now) }
  }

  /// A key for the storefront in free play, at the virtual time the wall clock has reached.
  private func press(_ key: Key, now: Date) {
    guard let session, let current = timed else { return }
    session.advance(to: current.virtual(at: now))
    session.press(key)
    if session.appState == .quit { quit = true }
  }

  /// Shows what a step did; `as` names the step as written when the player ran a variant of it.
  private func show(_ record: StepRecord, as written: WalkthroughStep? = nil) {
    if let failure = record.failureSummary {
      stopped = true
      self.failure = failure
      outcome = (words.failed(words.failure(record)), .failure)
      return
    }
    switch record.step.action {
    case .expect:
      outcome = ("✓ " + words.step(record.step), .success)
    case .say:
      outcome = nil
    default:
      let last = record.events.last.map { " → " + $0.text(words.language) } ?? ""
      outcome = ("\(words.step(written ?? record.step))\(last)", .info)
    }
  }

  // MARK: Drawing

  static let bandHeight = 6

  public func draw(on canvas: inout some Canvas) {
    let size = canvas.size
    let shopRows = size.height - Self.bandHeight
    var region = RegionCanvas(
      base: canvas, size: ScreenSize(width: size.width, height: size.isLargeEnough ? shopRows : size.height))
    if size.isLargeEnough, shopRows < ScreenSize.minimum.height, let app = session?.app {
      // Fewer rows than a whole screen are left above the band: the storefront leaves out what a
      // person misses least, so the newest events stay in sight; the band lists the keys that act
      // except in free play, where the storefront's own hint bar stays.
      ShopView(model: app.model, room: .aboveBand(hintBar: isFreePlay)).draw(on: &region)
    } else {
      // Too small for the storefront at all: it says so on the whole screen, under the band.
      drawApp(on: &region)
    }
    canvas = region.base
    drawBand(on: &canvas, top: max(0, size.height - Self.bandHeight))
  }

  private func drawApp(on canvas: inout some Canvas) {
    if let app = session?.app {
      app.draw(on: &canvas)
      return
    }
    let message: [String]
    switch session?.appState {
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

  private func drawBand(on canvas: inout some Canvas, top: Int) {
    let width = canvas.size.width
    canvas.fill(Rect(x: 0, y: top, width: width, height: Self.bandHeight))
    let total = walkthrough.steps.count
    let title = "── \(words.title(walkthrough.name)) "
    let progress = " \(words.progress(done: next, of: total)) ──"
    let titleWidth = max(0, width - TextWidth.of(progress))
    let rule = TextWidth.truncate(title, to: titleWidth)
    canvas.put(
      rule + String(repeating: "─", count: max(0, titleWidth - TextWidth.of(rule))) + progress, x: 0, y: top,
      style: Style(tint: .accent, bold: true))
    if stopped, let outcome {
      // A failure takes the narration's place: what was expected and found must be readable.
      for (offset, line) in Self.wrap(outcome.text, width: width - 4, lines: 4).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: outcome.tone.style)
      }
    } else {
      // In free play the last two rows say the walkthrough is over.
      for (offset, line) in Self.wrap(narration ?? "", width: width - 4, lines: isFreePlay ? 2 : 3).enumerated() {
        canvas.put("  " + line, x: 0, y: top + 1 + offset, style: Style(bold: true))
      }
      if let status = statusLine {
        canvas.put("  " + status.text, x: 0, y: top + 4, width: width, style: status.tone.style)
      }
      if isFreePlay {
        canvas.put("  " + words.over, x: 0, y: top + 3, width: width, style: Notice.Tone.success.style)
        canvas.put("  " + words.freePlay, x: 0, y: top + 4, width: width, style: Style(bold: true))
      }
    }
    canvas.put(keysLine(width: width), x: 0, y: top + 5, width: width, style: Style(reverse: true))
  }

  /// The band's fifth row: the countdown of a wait, else what the last step did.
  private var statusLine: (text: String, tone: Notice.Tone)? {
    guard let timed, case .time(let target) = timed.until else { return outcome }
    let virtual = now.map { min(target, timed.virtual(at: $0)) } ?? timed.virtualStart
    let countdown = words.waiting(timed.label, left: target.timeIntervalSince(virtual))
    let last = session?.log.dropFirst(timed.logStart).last.map { " → " + $0.text(words.language) }
    return (countdown + (last ?? ""), .info)
  }

  /// The keys that act now, most important first, as many as fit; then what comes next.
  func keysLine(width: Int) -> String {
    var items: [String] = []
    var upNext: String?
    let back = "\(words.backKeys) \(words.back)"
    let restart = "\(words.restartKey) \(words.restart)"
    let quit = "\(words.quitKeys) \(words.quit)"
    if isFreePlay {
      items = ["\(words.freePlayBackKey) \(words.backIntoWalkthrough)", words.freePlayQuit]
    } else if stopped {
      items = [back, restart, quit]
    } else if timed != nil {
      items = ["\(words.nextKeys) \(words.skipWait)", back, restart, quit]
    } else {
      if autoAdvance != nil {
        if let autoAt, let now {
          items.append(words.autoNext(in: autoAt.timeIntervalSince(now)))
        } else if autoPaused {
          items.append(words.autoPaused)
        }
      }
      items += ["\(words.nextKeys) \(words.next)", back, restart, quit]
      if next < walkthrough.steps.count { upNext = words.upNext(words.step(walkthrough.steps[next])) }
    }
    // Quit always shows; the others while they fit, in order.
    let separator = " · "
    var line = " "
    let last = items.removeLast()
    for item in items where TextWidth.of(line + item + separator + last) <= width {
      line += item + separator
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

extension WalkthroughPlayer: TerminalApp {}
