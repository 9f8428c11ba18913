import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// The player's update: the one place its model changes. A message in, the effects the runtime
/// performs on the walkthrough's session out; their results come back as messages.
extension PlayerModel {
  mutating func update(_ message: PlayerMessage) -> [PlayerEffect] {
    switch message {
    case .started(let now):
      self.now = now
      scheduleAuto(now: now)
      return []
    case .resized(let size):
      let before = screenSize
      screenSize = size
      // Warned before the first step, and again when the terminal shrank below what it needs.
      if !isSmallerThanNeeded {
        sizeWarning = false
      } else if let before {
        if size.width < before.width || size.height < before.height { sizeWarning = true }
      } else {
        sizeWarning = next == 0
      }
      measurePanel()
      clampScrolls()
      dropAnsweredRefusal()
      return []
    case .key(let key, let now):
      self.now = now
      notice = nil
      refusedKey = nil
      defer { clampScrolls() }
      return press(key, now: now)
    case .tick(let now):
      self.now = now
      var effects = timedEffects(now: now, skip: false)
      if effects.isEmpty, let autoAt, now >= autoAt, timed == nil {
        self.autoAt = nil
        effects = step(now: now)
      }
      return effects
    case .performed(let record, let written, let scene):
      see(scene)
      return performed(record, written: written)
    case .replayed(let records, let scene):
      see(scene)
      let effects = replayed(records)
      // The narration the replay ended on sets the band's height, and so the panel's room.
      measurePanel()
      clampScrolls()
      return effects
    case .advanced(let scene):
      see(scene)
      return advanced()
    }
  }

  /// The session as it is now; a panel that changed is shown from its top.
  private mutating func see(_ scene: Scene) {
    if scene.shop?.overlay != self.scene.shop?.overlay { overlayScroll = 0 }
    self.scene = scene
    measurePanel()
    clampScrolls()
  }

  /// A notice that a key cannot act goes once it can: the band and the panel agree on what a
  /// scroll key would show.
  private mutating func dropAnsweredRefusal() {
    guard let key = refusedKey, let binding = PlayerKeys.binding(for: key, in: keyContext), binding.whyNot(self) == nil
    else { return }
    notice = nil
    refusedKey = nil
  }

  /// Neither the panel nor the narration scrolled past its last row (the band or the rows above
  /// it may have grown).
  private mutating func clampScrolls() {
    overlayScroll = min(overlayScroll, overlayHiddenRows)
    let shown = screenSize.map { band(for: $0) }
    narrationScroll = min(narrationScroll, shown.map { max(0, $0.narration.count - $0.narrationRows) } ?? 0)
  }

  // MARK: Keys

  private mutating func press(_ key: Key, now: Date) -> [PlayerEffect] {
    // Ctrl-C, Ctrl-L and Ctrl-Z act as everywhere (the storefront's global keys).
    let global = KeyMap.binding(for: key, in: .global)?.action
    if isScreenTooSmall {
      // Nothing is in sight below the minimum size: only quitting acts (q, Esc, Ctrl-C), as in the
      // storefront (`KeyBinding.actsOnATooSmallScreen`); in free play too, q ends the player.
      if global == .quitNow || key == .escape || PlayerKeys.binding(for: key, in: .stepping)?.action == .quit {
        quit = true
      }
      return []
    }
    switch global {
    case .quitNow:
      quit = true
      return []
    case .redraw: return [.screen(.redraw)]
    case .suspend: return [.screen(.suspend)]
    default: break
    }
    let context = keyContext
    guard let binding = PlayerKeys.binding(for: key, in: context) else {
      switch context {
      case .help:
        helpOpen = false
        scheduleAuto(now: now)
      case .freePlay: return storefrontKey(key, now: now)
      case .stepping where isStopped:
        // No step presses a key any more: the band's own rule.
        notice = Outcome(text: "\(PlayerKeyBinding.name(of: key)): \(words.stoppedAtFailure)", tone: .warning)
      case .stepping: notice = Outcome(text: words.stepsPressKeys(key: PlayerKeyBinding.name(of: key)), tone: .warning)
      case .entry: break
      }
      return []
    }
    if let why = binding.whyNot(self) {
      // In free play a player key that cannot act is the storefront's.
      if context == .freePlay { return storefrontKey(key, now: now) }
      notice = Outcome(text: "\(PlayerKeyBinding.name(of: key)): \(why.text(words.language))", tone: .warning)
      refusedKey = key
      return []
    }
    let effects = perform(binding.action, key: key, now: now)
    holdAuto(from: context, now: now)
    return effects
  }

  /// While help or the step number being typed covers the walkthrough, no step comes by itself
  /// (the audience would not see it); when it closes, the countdown starts again.
  private mutating func holdAuto(from before: PlayerKeyContext, now: Date) {
    guard keyContext != before, before == .stepping || keyContext == .stepping else { return }
    if keyContext == .stepping { scheduleAuto(now: now) } else { autoAt = nil }
  }

  private mutating func perform(_ action: PlayerAction, key: Key, now: Date) -> [PlayerEffect] {
    switch action {
    case .next:
      autoAt = nil
      sizeWarning = false
      return timed != nil ? timedEffects(now: now, skip: true) : step(now: now)
    case .back:
      // Going back is to look at the step before: --auto pauses (the band says so) rather than
      // running on into the same steps, or the same failure, a moment later.
      if autoAdvance != nil { autoPaused = true }
      autoAt = nil
      return [.replay(to: max(0, next - 1))]
    case .restart:
      return [.replay(to: 0)]
    case .goTo:
      entry = ""
    case .digit:
      if case .character(let digit) = key, (entry?.count ?? 0) < 4 { entry = (entry ?? "") + String(digit) }
    case .deleteDigit:
      entry = entry.map { String($0.dropLast()) }
    case .cancelEntry:
      entry = nil
    case .confirmEntry:
      let target = entryTarget ?? next
      entry = nil
      return [.replay(to: target)]
    case .pauseAuto:
      autoPaused.toggle()
      autoAt = nil
      scheduleAuto(now: now)
    case .openHelp:
      helpOpen.toggle()
    case .quit:
      quit = true
    case .scrollDown where overlayRowsBelow > 0:
      overlayScroll = min(overlayHiddenRows, overlayScroll + (key == .pageDown ? overlayHiddenRows : 1))
    case .scrollDown:
      // No panel rows below: the narration's.
      narrationScroll += min(narrationRowsBelow, key == .pageDown ? narrationPage : 1)
    case .scrollUp where overlayScroll > 0:
      overlayScroll = max(0, overlayScroll - (key == .pageUp ? overlayHiddenRows : 1))
    case .scrollUp:
      narrationScroll = max(0, narrationScroll - (key == .pageUp ? narrationPage : 1))
    case .walkthroughOver:
      notice = Outcome(
        text: words.overNotice(key: PlayerKeyBinding.name(of: key), instead: storefrontAlternative),
        tone: .warning)
    case .storefrontQuit:
      return storefrontKey(key, now: now)
    }
    return []
  }

  /// The rows of narration the band shows at once: what PgDn and PgUp scroll it by.
  private var narrationPage: Int { screenSize.map { max(1, band(for: $0).narrationRows) } ?? 1 }

  /// The storefront's other key for what Enter does where the storefront is now (b for its buy, y
  /// on the payment sheet): Enter and Space step no more in free play, the other key does what
  /// the storefront says.
  private var storefrontAlternative: String? {
    guard let shop = scene.shop, let binding = KeyMap.binding(for: .enter, in: shop.keyContext),
      let other = binding.keys.first(where: { $0 != .enter && $0 != .character(" ") })
    else { return nil }
    return "\(other.description) \(binding.hint.text(words.language))"
  }

  /// A key for the storefront in free play, at the virtual time the wall clock has reached.
  private func storefrontKey(_ key: Key, now: Date) -> [PlayerEffect] {
    guard let timed, isFreePlay, scene.shop != nil else { return [] }
    return [.press(key, at: timed.virtual(at: now))]
  }

  // MARK: Steps

  private mutating func step(now: Date) -> [PlayerEffect] {
    guard scene.setupError == nil, !isStopped, next < walkthrough.steps.count else { return [] }
    let index = next
    next += 1
    let step = walkthrough.steps[index]
    switch step.action {
    case .wait:
      return [.perform(index: index, .noWait)]
    case .launch, .relaunch:
      return [.perform(index: index, .notWaitingForProducts)]
    case .say(let text):
      narration = text
      narrationScroll = 0
      return [.perform(index: index, .asWritten)]
    default:
      return [.perform(index: index, .asWritten)]
    }
  }

  private mutating func performed(_ record: StepRecord, written: WalkthroughStep) -> [PlayerEffect] {
    sizeWarning = false
    if case .wait(let seconds) = written.action {
      // The wait runs on the wall clock from here.
      phase = .timed(
        Timed(
          until: .time(scene.clock.addingTimeInterval(seconds)), label: words.step(written),
          logStart: scene.logCount, realStart: now ?? scene.clock, virtualStart: scene.clock))
      outcome = nil
      return []
    }
    show(record, as: written)
    if !isStopped, case .launch(let waits) = written.action, waits, !scene.isSettled {
      startSettling(written)
    } else if !isStopped, case .relaunch(let waits) = written.action, waits, !scene.isSettled {
      startSettling(written)
    }
    if timed == nil, let now { stepEnded(now: now) }
    return []
  }

  private mutating func startSettling(_ step: WalkthroughStep) {
    phase = .timed(
      Timed(
        until: .settled, label: words.step(step), logStart: scene.logCount, realStart: now ?? scene.clock,
        virtualStart: scene.clock))
  }

  /// The walkthrough started again with its first steps performed: the band says what they did.
  private mutating func replayed(_ records: [StepRecord]) -> [PlayerEffect] {
    phase = .ready
    autoAt = nil
    next = 0
    narration = walkthrough.summary
    // What the replay shows is new: its panel and narration from their tops, the warning said.
    overlayScroll = 0
    narrationScroll = 0
    sizeWarning = false
    outcome = nil
    failure = nil
    entry = nil
    if let error = scene.setupError {
      phase = .stopped
      failure = "setup: \(error)"
      outcome = Outcome(text: words.setupFailed(error), tone: .failure)
      return []
    }
    for record in records {
      if case .say(let text) = record.step.action { narration = text }
      next += 1
      show(record)
      if isStopped { return [] }
    }
    if let now {
      let count = records.count
      outcome = Outcome(
        text: count == 0 ? words.restarted : words.backTo(count, of: walkthrough.steps.count), tone: .info)
      stepEnded(now: now)
    }
    return []
  }

  /// Shows what a step did; `written` names the step as the walkthrough has it.
  private mutating func show(_ record: StepRecord, as written: WalkthroughStep? = nil) {
    if let summary = record.failureSummary {
      phase = .stopped
      failure = summary
      outcome = Outcome(text: words.failed(words.failure(record)), tone: .failure)
      return
    }
    switch record.step.action {
    case .expect:
      outcome = Outcome(text: "✓ " + words.step(record.step), tone: .success)
    case .say:
      outcome = nil
    default:
      let last = record.events.last.map { " → " + $0.text(words.language) } ?? ""
      outcome = Outcome(text: "\(words.step(written ?? record.step))\(last)", tone: .info)
    }
  }

  /// A step is over: the next one comes by itself (`autoAdvance`), or, after the last, free play.
  private mutating func stepEnded(now: Date) {
    guard scene.setupError == nil, !isStopped else { return }
    if isOver {
      phase = .freePlay(
        Timed(until: .never, label: "", logStart: scene.logCount, realStart: now, virtualStart: scene.clock))
      outcome = nil
    } else {
      phase = .ready
      scheduleAuto(now: now)
    }
  }

  private mutating func scheduleAuto(now: Date) {
    guard let autoAdvance, !autoPaused, !isStopped, timed == nil, !isOver, keyContext == .stepping else { return }
    autoAt = now.addingTimeInterval(autoAdvance)
  }

  // MARK: Time

  /// How far virtual time runs now for the wait or launch in progress (all the way, with `skip`).
  private func timedEffects(now: Date, skip: Bool) -> [PlayerEffect] {
    guard let current = timed else { return [] }
    switch current.until {
    case .time(let target):
      return [.advance(to: skip ? target : min(target, current.virtual(at: now)))]
    case .settled:
      if skip { return [.settle] }
      // Up to the app's deadline, not past it: the log keeps the store's own timing.
      let virtual = current.virtual(at: now)
      return [.advance(to: min(virtual, scene.appDeadline ?? virtual))]
    case .never:
      return [.advance(to: current.virtual(at: now))]
    }
  }

  /// Virtual time moved: the wait or launch in progress may be over.
  private mutating func advanced() -> [PlayerEffect] {
    guard let current = timed else { return [] }
    var ended = false
    switch current.until {
    case .time(let target):
      ended = scene.clock >= target
    case .settled:
      ended = scene.isSettled || scene.appDeadline == nil
    case .never:
      if scene.appState == .quit { quit = true }
      return []
    }
    if ended { phase = .ready }
    if scene.logCount > current.logStart, let last = scene.lastLog {
      outcome = Outcome(text: "\(current.label) → \(last.text(words.language))", tone: .info)
    } else if ended {
      outcome = Outcome(text: words.done(current.label), tone: .info)
    }
    if ended, let now { stepEnded(now: now) }
    return []
  }
}
