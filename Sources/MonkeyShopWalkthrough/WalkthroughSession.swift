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
  private var eventWindow = (from: 0, afterStep: 0)
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
  public var whyNotRunning: String? {
    switch appState {
    case .running: nil
    case .notLaunched: "the app is not running: add launch"
    case .crashed(let point): "the app is down (crashed at \(point.rawValue)): add relaunch"
    case .quit: "the app has quit: add relaunch"
    }
  }

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
    case .store(let operation, let id):
      record.failure = store(operation, id)
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
  private func store(_ operation: StoreOperation, _ id: String) -> String? {
    actForTheStore(failure: "cannot \(operation.rawValue) \(id)", reaching: .transaction(id)) { store, now in
      switch operation {
      case .approve: _ = try store.approve(id)
      case .decline: _ = try store.decline(id)
      case .resolve: _ = try store.resolve(id, at: now)
      case .refund: _ = try store.refund(id, reason: .other, at: now)
      }
    }
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

  // MARK: Expectations

  private func check(_ expectation: Expectation, on screen: TextGrid?) -> Check {
    switch expectation {
    case .screen(let text):
      guard let screen else {
        return Check(expectation, passed: false, expected: "\"\(text)\" on the screen", found: whyNotRunning ?? "")
      }
      let found = screen.contains(text)
      return Check(
        expectation, passed: found, expected: "\"\(text)\" on the screen",
        found: found ? "on the screen" : "not on the screen")
    case .notScreen(let text):
      guard let screen else {
        return Check(expectation, passed: false, expected: "no \"\(text)\" on the screen", found: whyNotRunning ?? "")
      }
      if let row = screen.lines.firstIndex(where: { $0.contains(text) }) {
        return Check(
          expectation, passed: false, expected: "no \"\(text)\" on the screen",
          found: "on line \(row + 1): \(screen.lines[row].trimmingCharacters(in: .whitespaces))")
      }
      return Check(expectation, passed: true, expected: "no \"\(text)\" on the screen", found: "not on the screen")
    case .status(let text):
      let expected = "\"\(text)\" on the status line"
      guard let app else { return Check(expectation, passed: false, expected: expected, found: whyNotRunning ?? "") }
      let line = app.model.statusText
      return Check(
        expectation, passed: line?.contains(text) == true, expected: expected,
        found: line.map { "the status line reads \"\($0)\"" } ?? "no status")
    case .balance(let balance):
      let stored = storage.wallet.balance
      return Check(
        expectation, passed: stored == balance, expected: "\(balance) credits in the wallet",
        found: "\(stored) credits")
    case .event(let name):
      let names = windowNames
      return Check(
        expectation, passed: names.contains(name), expected: "\(name) logged \(windowText)",
        found: names.isEmpty ? "no events" : names.joined(separator: ", "))
    case .events(let expected):
      let names = windowNames
      let missing = Self.firstMissing(expected, in: names)
      var found = names.isEmpty ? "no events" : names.joined(separator: ", ")
      if let missing {
        found += missing == 0 ? " (no \(expected[0]))" : " (no \(expected[missing]) after \(expected[missing - 1]))"
      }
      return Check(
        expectation, passed: missing == nil,
        expected: expected.joined(separator: " → ") + " in this order \(windowText)",
        found: found)
    case .transaction(let expected):
      return check(expected, expectation)
    case .notification(let type):
      let recorded = storage.notifications.map(\.notificationType.rawValue)
      return Check(
        expectation, passed: recorded.contains(type.rawValue),
        expected: "an App Store Server Notification \(type.rawValue) recorded",
        found: recorded.isEmpty ? "no notification recorded" : "recorded: " + recorded.joined(separator: ", "))
    }
  }

  private var windowNames: [String] { log[eventWindow.from...].map(\.event.name) }

  private var windowText: String {
    eventWindow.afterStep == 0 ? "since the start" : "since step \(eventWindow.afterStep)"
  }

  /// The index of the first expected name not found in order, or nil when all are.
  static func firstMissing(_ expected: [String], in names: [String]) -> Int? {
    var position = names.startIndex
    for (index, name) in expected.enumerated() {
      guard let found = names[position...].firstIndex(of: name) else { return index }
      position = found + 1
    }
    return nil
  }

  private func check(_ expected: TransactionExpectation, _ expectation: Expectation) -> Check {
    let transactions = storage.store.transactions
    let transaction = expected.id == "last" ? transactions.last : transactions.first { $0.id == expected.id }
    guard let transaction else {
      let known = transactions.map { "#\($0.id)" }.joined(separator: ", ")
      let found = transactions.isEmpty ? "no transactions in the store" : "no such transaction (the store has \(known))"
      return Check(expectation, passed: false, expected: "transaction \(expected)", found: found)
    }
    var wrong: [String] = []
    if let state = expected.state, state != transaction.state { wrong.append("state") }
    if let finished = expected.finished, finished != transaction.finished { wrong.append("finished") }
    if let code = expected.errorCode, code != transaction.failure?.code.code { wrong.append("errorCode") }
    if let quantity = expected.quantity, quantity != transaction.quantity { wrong.append("quantity") }
    if let product = expected.product, product != transaction.productIdentifier { wrong.append("product") }
    var found = "#\(transaction.id) \(transaction.productIdentifier) ×\(transaction.quantity) \(transaction.state)"
    found += transaction.finished ? ", finished" : ", unfinished"
    if let failure = transaction.failure { found += ", \(failure.code)" }
    if !wrong.isEmpty { found += " (wrong \(wrong.joined(separator: ", ")))" }
    let name = expected.id == "last" ? "the last transaction (#\(transaction.id))" : "transaction #\(transaction.id)"
    var parts: [String] = []
    if let state = expected.state { parts.append("\(state)") }
    if let finished = expected.finished { parts.append(finished ? "finished" : "unfinished") }
    if let code = expected.errorCode { parts.append("errorCode \(code)") }
    if let quantity = expected.quantity { parts.append("×\(quantity)") }
    if let product = expected.product { parts.append(product) }
    return Check(
      expectation, passed: wrong.isEmpty, expected: "\(name) \(parts.joined(separator: ", "))", found: found)
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
