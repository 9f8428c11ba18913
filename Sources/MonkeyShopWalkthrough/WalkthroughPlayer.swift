import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// A walkthrough played in the live storefront for training (`monkeyshop walkthrough --play`):
/// the storefront as the walkthrough drives it, with a narration band showing the current `say`
/// line, what the last step did, and the player's keys (`PlayerKeys`). Space or Enter performs the
/// next step; b, Backspace or Left goes back a step; g and a number go to that step; r starts
/// again; q, Esc or Ctrl-C stops. With `autoAdvance` the next step comes by itself that long after
/// the last one ended (p pauses). After the last step the storefront takes its own keys (free
/// play) until the person quits, except the step keys, which say the walkthrough is over.
///
/// Waits (and the launch's product request) run on the wall clock, so the audience sees the
/// buttons read `loading...`, the spinner turn and the log fill in at the store's pace, with a
/// countdown in the band; Space during a wait skips to its end. Going back or to a step replays
/// the walkthrough from the start, in virtual time: the store is deterministic, so the storefront
/// is exactly as it was. Everything else runs exactly as `monkeyshop walkthrough` runs it.
///
/// The runtime of the player, as `ShopRuntime` is the storefront's: it feeds messages to the
/// model's `update`, performs the effects it returns on the walkthrough's session, and feeds their
/// results back. It changes nothing of the model itself.
public final class WalkthroughPlayer {
  public private(set) var session: WalkthroughSession?
  public let walkthrough: Walkthrough
  private let catalog: Catalog
  private(set) var model: PlayerModel
  private var screenRequests: [ScreenRequest] = []

  /// `language` is the band's (`--lang`, else the environment's); `shopLanguage` the storefront's
  /// on the screen (`--lang`, else the walkthrough's). The `screen` checks read the storefront in
  /// the walkthrough's own language, which they are written in, whatever the screen shows.
  public init(
    walkthrough: Walkthrough, catalog: Catalog, language: Language? = nil, shopLanguage: Language? = nil,
    autoAdvance: TimeInterval? = nil
  ) {
    self.walkthrough = walkthrough
    self.catalog = catalog
    model = PlayerModel(
      walkthrough: walkthrough, language: language, shopLanguage: shopLanguage, autoAdvance: autoAdvance)
    perform(.replay(to: 0))
  }

  /// Whether the walkthrough is over and the storefront takes its own keys.
  public var isFreePlay: Bool { model.isFreePlay }

  /// Why the walkthrough failed (a check that did not hold, a step the app or store refused), as
  /// the headless run says it; nil while every step has held.
  public var failure: String? { model.failure }

  /// How long after a step the next one comes by itself; nil: a step per key.
  public var autoAdvance: TimeInterval? { model.autoAdvance }

  // MARK: TerminalApp

  public var isFinished: Bool { model.quit }
  public var watchedFolder: String? { nil }
  public var nextDeadline: Date? { model.nextDeadline }

  public func start(now: Date) { send(.started(at: now)) }
  public func folderChanged(now: Date) {}
  public func handle(_ key: Key, now: Date) { send(.key(key, at: now)) }
  public func tick(now: Date) { send(.tick(at: now)) }
  public func resized(_ size: ScreenSize, now: Date) { send(.resized(size)) }

  public func draw(on canvas: inout some Canvas) { PlayerView(model: model).draw(on: &canvas) }

  /// What the player asked of the terminal since the last call (Ctrl-L, Ctrl-Z).
  public func takeScreenRequests() -> [ScreenRequest] {
    defer { screenRequests = [] }
    return screenRequests
  }

  // MARK: Running

  /// Sends one message and everything it leads to.
  func send(_ message: PlayerMessage) {
    for effect in model.update(message) { perform(effect) }
  }

  private func perform(_ effect: PlayerEffect) {
    switch effect {
    case .perform(let index, let variant):
      guard let session else { return }
      let written = walkthrough.steps[index]
      var step = written
      switch (variant, written.action) {
      case (.noWait, .wait): step.action = .wait(0)
      case (.notWaitingForProducts, .launch): step.action = .launch(waitForProducts: false)
      case (.notWaitingForProducts, .relaunch): step.action = .relaunch(waitForProducts: false)
      default: break
      }
      let record = session.perform(step)
      send(.performed(record, written: written, scene: scene()))
    case .replay(let count):
      var records: [StepRecord] = []
      do {
        let session = try WalkthroughSession(walkthrough: walkthrough, catalog: catalog)
        self.session = session
        for step in walkthrough.steps.prefix(count) {
          let record = session.perform(step)
          records.append(record)
          if record.failureSummary != nil { break }
        }
        send(.replayed(records, scene: scene()))
      } catch {
        session = nil
        var scene = PlayerModel.Scene()
        scene.setupError = "\(error)"
        send(.replayed([], scene: scene))
      }
    case .advance(let target):
      session?.advance(to: target)
      send(.advanced(scene()))
    case .settle:
      session?.settle()
      send(.advanced(scene()))
    case .press(let key, let time):
      session?.advance(to: time)
      session?.press(key)
      send(.advanced(scene()))
    case .screen(let request):
      screenRequests.append(request)
    }
  }

  /// The session as the model sees it.
  private func scene() -> PlayerModel.Scene {
    guard let session else { return PlayerModel.Scene() }
    return PlayerModel.Scene(
      shop: session.app?.model, appState: session.appState, clock: session.clock, logCount: session.log.count,
      lastLog: session.log.last, appDeadline: session.app?.nextDeadline,
      isSettled: session.isSettled)
  }
}

extension WalkthroughPlayer: TerminalApp {}
