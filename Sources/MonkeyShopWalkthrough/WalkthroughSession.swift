import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

/// The app a walkthrough drives: the real `ShopRuntime` (the storefront's update and view) on a
/// `MemoryStorage`, on virtual time. Time moves only when a step says so, from one deadline of the
/// app to the next (`ShopRuntime.run`), so minutes of store latency cost microseconds. Steps that
/// act for Apple's side change the store as `monkeyshop store …` changes the data folder, and the
/// app hears of it as it hears of any change to its folder.
///
/// The runner performs whole steps; the player (`--play`) also uses the pieces (`advance(to:)`,
/// `launch(waitForProducts:)`) to run waits on the wall clock.
public final class WalkthroughSession {
  /// Where every walkthrough's clock starts: 2026-01-01T00:00:00Z.
  public static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

  public enum AppState: Equatable, Sendable {
    case notLaunched
    case running
    case crashed(CrashPoint)
    /// The user quit (q, Ctrl-C).
    case quit
  }

  public let walkthrough: Walkthrough
  public let catalog: Catalog
  public let storage: MemoryStorage
  public let start: Date
  public private(set) var clock: Date
  public private(set) var runtime: ShopRuntime?
  /// Every log entry of every launch, in order.
  public private(set) var log: [LogEntry] = []
  private var crashPoint: CrashPoint?
  /// Where `event`/`events` checks look from: the log after the previous such check.
  var eventWindow = (from: 0, afterStep: 0)
  /// Steps performed so far.
  public private(set) var performed = 0

  /// Prepares the store and wallet as the walkthrough starts them. Throws a `ConditionError` when
  /// a starting condition is refused by the store (a storefront the catalog has no prices in).
  public init(walkthrough: Walkthrough, catalog: Catalog, start: Date = WalkthroughSession.epoch) throws {
    self.walkthrough = walkthrough
    self.catalog = catalog
    self.start = start
    clock = start
    var store = AppStore(state: StoreState(), catalog: catalog)
    for setting in walkthrough.conditions {
      _ = try store.set(setting.condition, to: setting.value, at: start)
    }
    storage = MemoryStorage(store: store.state, wallet: Wallet(balance: walkthrough.balance))
  }

  public var appState: AppState {
    if let crashPoint { return .crashed(crashPoint) }
    guard let runtime else { return .notLaunched }
    return runtime.isFinished ? .quit : .running
  }

  /// The running app, or nil when it is not running.
  var app: ShopRuntime? { appState == .running ? runtime : nil }
  /// The `appAccountToken` step's UUID: the app passes it with its purchases, launch after launch.
  var appAccountToken: UUID?

  /// Why keys and the screen are out of reach now, or nil while the app runs.
  public var whyNotRunning: String? { app == nil ? notRunning.en : nil }

  /// The screen as a person would see it now, at the walkthrough's size; nil while the app is not
  /// running.
  public func screen() -> TextGrid? {
    guard let app else { return nil }
    var grid = TextGrid(size: walkthrough.size)
    app.draw(on: &grid)
    return grid
  }

  // MARK: Steps

  /// Performs one step in virtual time and says what it caused and whether it held.
  public func perform(_ step: WalkthroughStep) -> StepRecord {
    performed += 1
    var record = StepRecord(number: performed, step: step)
    let before = log.count
    switch step.action {
    case .launch(let waits), .relaunch(let waits):
      launch(waitForProducts: waits)
    case .press(let keys):
      for key in keys {
        guard app != nil else {
          record.failure = "cannot press \(WalkthroughStep.name(of: key)): \(whyNotRunning ?? "")"
          break
        }
        press(key)
      }
    case .wait(let seconds):
      advance(to: clock.addingTimeInterval(seconds))
    case .set(let settings):
      for setting in settings {
        if let failure = set(setting) {
          record.failure = failure
          break
        }
      }
    case .store(let operation, let id, let reason):
      let (failure, acted) = store(operation, id, reason: reason)
      record.failure = failure
      if id == "last", let acted {
        record.lastStoodFor = StoreTransaction.logName(acted.id, identified: acted.identified)
        record.lastTransactionID = acted.id
      }
    case .crash(let point):
      record.failure = set(ConditionSetting(.crashPoint, point.rawValue))
    case .expect(let expectations):
      // One frame for every check of the step: drawing is most of a walkthrough's cost.
      let frame = screen()
      record.checks = expectations.map { check($0, on: frame) }
      if !record.passed { record.screen = frame?.text }
      if expectations.contains(where: \.isAboutEvents) { eventWindow = (log.count, performed) }
    case .snapshot:
      record.snapshot = screen()?.text ?? "(\(whyNotRunning ?? "no screen"))"
    case .say:
      break
    case .appAccountToken(let token):
      appAccountToken = token
      app?.send(.setAppAccountToken(token))
    }
    record.events = Array(log[before...])
    if !record.passed, record.screen == nil { record.screen = screen()?.text }
    return record
  }

  // MARK: The app

  /// A key for the running app at the current virtual time, and what it sets off at once; nothing
  /// while the app is not running.
  func press(_ key: Key) {
    guard let app else { return }
    app.handle(key, now: clock)
    advance(to: clock)
  }

  /// Starts the app (again) on the same store and wallet, as a fresh process would: unfinished
  /// transactions are delivered again at launch. With `waitForProducts`, virtual time runs until
  /// the product request is answered, so the buy buttons show what the store said.
  public func launch(waitForProducts: Bool) {
    let runtime = ShopRuntime(
      catalog: catalog, storage: storage, language: walkthrough.language, launchDate: clock,
      onCrash: { [weak self] point in self?.crashPoint = point })
    runtime.onLog = { [weak self] entry in self?.log.append(entry) }
    crashPoint = nil
    self.runtime = runtime
    runtime.start(now: clock)
    // The app's user stays signed in across launches.
    if let appAccountToken { runtime.send(.setAppAccountToken(appAccountToken)) }
    advance(to: clock)
    if waitForProducts { settle() }
  }

  /// Whether the launch work is done: the product request answered, refused or never made.
  public var isSettled: Bool {
    guard let app else { return true }
    switch app.model.products {
    case .loading: return false
    case .notRequested, .restricted, .loaded, .failed: return true
    }
  }

  func settle() {
    guard let app else { return }
    app.run(while: { _ in !isSettled })
    clock = max(clock, app.model.date(at: app.model.now))
  }

  /// Lets virtual time run to `target`, ticking the app at each deadline it asks for on the way
  /// (the store's answers, the product request, the spinner's frames), as the event loop would.
  public func advance(to target: Date) {
    if let app { app.run(until: app.model.time(at: target)) }
    clock = max(clock, target)
  }

  // MARK: Apple's side

  /// Changes a condition as `monkeyshop store set` does: in the store; a running app hears of it
  /// (it logs the change, and losing the network fails the purchases in flight).
  private func set(_ setting: ConditionSetting) -> String? {
    actForTheStore(failure: "cannot set \(setting)") {
      _ = try $0.set(setting.condition, to: setting.value, at: $1)
    }
  }

  /// A parent approves or declines, or the user resolves an interrupted purchase, as
  /// `monkeyshop store approve|decline|resolve` does. A running app's observer hears of it at once;
  /// otherwise at the next launch.
  /// Apple refunds, or the customer asks for a refund and Apple decides it or reverses one, as
  /// `monkeyshop store refund|refund-request|refund-decide|refund-reverse` do (their defaults: a
  /// request's reason UNINTENDED_PURCHASE, a refund's revocationReason other).
  /// Also says which transaction the operation acted on, and whether the log names it as one: an
  /// Ask to Buy or an interrupted purchase is a payment, a refund's a transaction (`payment 3`, `#3`).
  private func store(
    _ operation: StoreOperation, _ id: String, reason: ConsumptionRequestReason? = nil
  ) -> (failure: String?, acted: (id: String, identified: Bool)?) {
    var acted: (id: String, identified: Bool)?
    let failure = actForTheStore(failure: "cannot \(operation.rawValue) \(id)", reaching: .transaction(id)) {
      store, now in
      let payment = { (id: String) in (id: id, identified: false) }
      let transaction = { (id: String) in (id: id, identified: true) }
      switch operation {
      case .approve: acted = payment(try store.approve(id).id)
      case .decline: acted = payment(try store.decline(id).id)
      case .resolve: acted = try store.resolve(id, at: now).resolvedFromTransactionID.map(payment)
      case .refund: acted = transaction(try store.refund(id, reason: .other, at: now).id)
      case .refundRequest:
        acted = transaction(
          try store.requestRefund(id, reason: reason ?? .unintendedPurchase, at: now).request.transactionID)
      case .refundGrant: acted = transaction(try store.decideRefund(id, grant: true, reason: .other, at: now).id)
      case .refundDecline: acted = transaction(try store.decideRefund(id, grant: false, reason: .other, at: now).id)
      case .refundReverse: acted = transaction(try store.reverseRefund(id, at: now).id)
      }
    }
    return (failure, acted)
  }

  /// Changes the store as another process would, then lets a running app read its folder again.
  private func actForTheStore(
    failure: String, reaching: HistoryReach? = nil, _ change: (inout AppStore, Date) throws -> Void
  ) -> String? {
    let now = clock
    do {
      // A refund may name a transaction only the history lists.
      _ = try storage.changeStore(
        catalog: catalog, reaching: reaching, seeingWallet: { store, _ in try change(&store, now) })
    } catch {
      return "\(failure): \(error)"
    }
    if let app {
      app.folderChanged(now: clock)
      advance(to: clock)
    }
    return nil
  }
}

extension Expectation {
  var isAboutEvents: Bool {
    switch self {
    case .event, .events: true
    default: false
    }
  }
}
