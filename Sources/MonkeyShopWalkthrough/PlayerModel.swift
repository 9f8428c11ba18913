import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// Everything the walkthrough player knows, as plain values: `update` changes it, `PlayerView`
/// draws it. What the walkthrough's session did reaches it as a `Scene` in a message; the session
/// itself is the runtime's (`WalkthroughPlayer`), as the store is `ShopRuntime`'s.
struct PlayerModel: Sendable {
  let walkthrough: Walkthrough
  let words: PlayerWords
  /// The storefront's language on the screen (`--lang`); its checks read the walkthrough's.
  let shopLanguage: Language
  /// How long after a step the next one comes by itself; nil: a step per key.
  let autoAdvance: TimeInterval?

  var phase = Phase.ready
  /// The steps performed so far; the next step's index.
  var next = 0
  var narration: String?
  /// What the last step did, shown under the narration.
  var outcome: Outcome?
  /// Why the last key did nothing, or what it said instead; until the next key.
  var notice: Outcome?
  /// The key the notice says cannot act, while it says so: the notice goes once the key can act
  /// (a resize left the panel rows below, or above).
  var refusedKey: Key?
  /// Why the walkthrough failed, as the headless run says it; nil while every step has held.
  var failure: String?
  var autoPaused = false
  /// When the next step comes by itself.
  var autoAt: Date?
  var quit = false
  /// The terminal's size, once the event loop has told it.
  var screenSize: ScreenSize?
  /// The time the loop last gave the player: countdowns are drawn from it.
  var now: Date?
  /// What the session looks like now.
  var scene = Scene()
  /// The digits typed after `g` (go to step), while typing.
  var entry: String?
  var helpOpen = false
  /// Rows of an overlay scrolled out of view above (the overlay is taller than the rows above
  /// the band).
  var overlayScroll = 0
  /// The rows the open panel needs to show everything it shows on a whole screen, measured when
  /// the storefront or the terminal changed; nil with no panel that can be taller than the rows
  /// above the band.
  var panelHeight: Int?
  /// Rows of the narration scrolled out of view above (it is longer than the band holds).
  var narrationScroll = 0
  /// Whether the band warns that the terminal is smaller than the walkthrough's screen and the
  /// band: before the first step, and after the terminal shrank, until the next step.
  var sizeWarning = false

  init(walkthrough: Walkthrough, language: Language?, shopLanguage: Language?, autoAdvance: TimeInterval?) {
    self.walkthrough = walkthrough
    words = PlayerWords(language ?? walkthrough.language)
    self.shopLanguage = shopLanguage ?? walkthrough.language
    self.autoAdvance = autoAdvance
    narration = walkthrough.summary
  }

  struct Outcome: Equatable, Sendable {
    var text: String
    var tone: Notice.Tone
  }

  enum Phase: Equatable, Sendable {
    /// Waiting for the next step's key (or `autoAt`).
    case ready
    /// A wait or a launch's product request running on the wall clock.
    case timed(Timed)
    /// A step failed: the walkthrough goes no further.
    case stopped
    /// After the last step: the storefront takes its own keys until the person quits.
    case freePlay(Timed)
  }

  /// Virtual time following the wall clock from where it began.
  struct Timed: Equatable, Sendable {
    enum Until: Equatable, Sendable {
      case time(Date)
      case settled
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

  /// What the session looks like after an effect: the facts update and the view read.
  struct Scene: Sendable {
    /// The running app's model; nil while it is not running.
    var shop: ShopModel?
    var appState = WalkthroughSession.AppState.notLaunched
    var clock = WalkthroughSession.epoch
    var logCount = 0
    var lastLog: LogEntry?
    /// The app's next deadline in virtual time.
    var appDeadline: Date?
    var isSettled = true
    /// Whether the session could be set up; the error otherwise.
    var setupError: String?
  }

  var isFreePlay: Bool { if case .freePlay = phase { true } else { false } }
  var isStopped: Bool { phase == .stopped }
  var timed: Timed? {
    switch phase {
    case .timed(let timed), .freePlay(let timed): timed
    case .ready, .stopped: nil
    }
  }
  var isWaiting: Bool { if case .timed = phase { true } else { false } }
  var isOver: Bool { next >= walkthrough.steps.count }
  var isScreenTooSmall: Bool { screenSize?.isLargeEnough == false }

  /// How often a countdown on the band is redrawn.
  static let countdownInterval: TimeInterval = 0.1

  /// When the player next needs a tick, on the wall clock.
  var nextDeadline: Date? {
    var deadlines: [Date] = []
    if let timed {
      switch timed.until {
      case .time(let target):
        let appDeadline = scene.appDeadline.map { min($0, target) } ?? target
        deadlines.append(timed.real(at: max(appDeadline, scene.clock)))
      case .settled, .never:
        if let deadline = scene.appDeadline { deadlines.append(timed.real(at: max(deadline, scene.clock))) }
      }
    }
    if let autoAt { deadlines.append(autoAt) }
    if let now, autoAt != nil || timed.map({ if case .time = $0.until { true } else { false } }) == true {
      deadlines.append(now.addingTimeInterval(Self.countdownInterval))
    }
    return deadlines.min()
  }

  /// The terminal's size this walkthrough needs for its screen whole above the band.
  var neededSize: ScreenSize {
    let screen = walkthrough.size.isLargeEnough ? walkthrough.size : .minimum
    return ScreenSize(width: screen.width, height: screen.height + PlayerView.bandHeight)
  }

  /// Whether the terminal is smaller than the walkthrough's screen and the band together.
  var isSmallerThanNeeded: Bool {
    guard let screenSize, screenSize.isLargeEnough else { return false }
    return screenSize.width < neededSize.width || screenSize.height < neededSize.height
  }
}

/// What reaches `update`.
enum PlayerMessage: Sendable {
  case started(at: Date)
  case key(Key, at: Date)
  case tick(at: Date)
  case resized(ScreenSize)
  /// A step performed; `written` is the step as the walkthrough has it when a variant ran.
  case performed(StepRecord, written: WalkthroughStep, scene: PlayerModel.Scene)
  /// The session started again and the first steps performed in virtual time.
  case replayed([StepRecord], scene: PlayerModel.Scene)
  /// Virtual time moved, or the storefront took a key.
  case advanced(PlayerModel.Scene)
}

/// How the player runs a step: a wait and a launch's product request run on the wall clock.
enum StepVariant: Equatable, Sendable {
  case asWritten
  /// A wait of no time: the player lets time run afterwards.
  case noWait
  /// A launch or relaunch that does not wait for the products.
  case notWaitingForProducts
}

/// What `update` asks the runtime to do with the session.
enum PlayerEffect: Equatable, Sendable {
  /// Performs the walkthrough's step at `index`, as written or as the player runs it.
  case perform(index: Int, StepVariant)
  /// Starts the walkthrough again and performs its first `count` steps in virtual time.
  case replay(to: Int)
  case advance(to: Date)
  /// Runs virtual time until the launch's product request is answered.
  case settle
  /// A key for the storefront (free play), at this virtual time.
  case press(Key, at: Date)
  case screen(ScreenRequest)
}
