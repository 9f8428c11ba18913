import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// A scripted run of the storefront (docs/walkthroughs.md): a starting state and the steps a tester or trainer
/// takes, checked against what the screen, the wallet, the store and the event log show.
public struct Walkthrough: Sendable {
  public var name: String
  /// A sentence for `--list` and the JUnit report.
  public var summary: String?
  /// The file it was read from, as given.
  public var path: String
  /// The in-memory screen expectations and snapshots are taken on (`size: 120x40`).
  public var size: ScreenSize
  public var language: Language
  /// The store's conditions before anything runs, in the order written (`storefront:` included).
  public var conditions: [ConditionSetting]
  /// The wallet's balance before anything runs.
  public var balance: Int
  public var steps: [WalkthroughStep]

  public init(
    name: String, summary: String? = nil, path: String, size: ScreenSize = .minimum, language: Language = .en,
    conditions: [ConditionSetting] = [], balance: Int = 0, steps: [WalkthroughStep]
  ) {
    self.name = name
    self.summary = summary
    self.path = path
    self.size = size
    self.language = language
    self.conditions = conditions
    self.balance = balance
    self.steps = steps
  }
}

/// One step and the line of the file it was written on.
public struct WalkthroughStep: Sendable {
  public var line: Int
  public var action: Action

  public init(line: Int, _ action: Action) {
    self.line = line
    self.action = action
  }

  public enum Action: Sendable {
    /// Starts the app. With `waitForProducts` it lets virtual time run until the product request
    /// has been answered (or refused), so the next step sees the buy buttons as a user would.
    case launch(waitForProducts: Bool)
    /// Quits (or, after a crash, starts again) the app on the same store and wallet.
    case relaunch(waitForProducts: Bool)
    case press([Key])
    /// Lets virtual time pass: the store answers, spinners turn.
    case wait(TimeInterval)
    case set([ConditionSetting])
    /// Apple's side acts on a transaction: a parent approves, the user resolves an issue.
    /// `reason` goes with `refundRequest` only: CONSUMPTION_REQUEST's `consumptionRequestReason`.
    case store(StoreOperation, transaction: String, reason: ConsumptionRequestReason? = nil)
    /// Arms the crash point: the next purchase kills the app there.
    case crash(CrashPoint)
    case expect([Expectation])
    case snapshot(title: String?)
    case say(String)
    /// The app's user from now on (nil: none): the purchases the next steps make pass this UUID,
    /// StoreKit 2's `.appAccountToken(_:)` or StoreKit 1's `applicationUsername`.
    case appAccountToken(UUID?)
  }

  /// The step's kind as the file writes it.
  public var kind: String { Self.kind(of: action) }

  static func kind(of action: Action) -> String {
    switch action {
    case .launch: "launch"
    case .relaunch: "relaunch"
    case .press: "press"
    case .wait: "wait"
    case .set: "set"
    case .store: "store"
    case .crash: "crash"
    case .expect: "expect"
    case .snapshot: "snapshot"
    case .say: "say"
    case .appAccountToken: "appAccountToken"
    }
  }

  /// Every kind of step, in the order the format documents them.
  public static let kinds = [
    "launch", "relaunch", "press", "wait", "set", "store", "crash", "expect", "snapshot", "say", "appAccountToken",
  ]

  /// `press 0 + +`, `wait 2s`, `expect balance 30`: the step as the transcript names it.
  public var description: String {
    switch action {
    case .launch(let wait): "launch" + (wait ? "" : " (not waiting for products)")
    case .relaunch(let wait): "relaunch" + (wait ? "" : " (not waiting for products)")
    case .press(let keys): "press " + keys.map(Self.name(of:)).joined(separator: " ")
    case .wait(let seconds): "wait " + Self.duration(seconds)
    case .set(let settings): "set " + settings.map(\.description).joined(separator: ", ")
    case .store(let operation, let transaction, let reason):
      "store \(operation.rawValue) \(transaction)" + (reason.map { " reason \($0)" } ?? "")
    case .crash(let point): "crash \(point.rawValue)"
    case .expect(let expectations): "expect " + expectations.map(\.description).joined(separator: ", ")
    case .snapshot(let title): "snapshot" + (title.map { " \"\($0)\"" } ?? "")
    case .say(let text): "say \(text)"
    case .appAccountToken(let token): "appAccountToken \(token?.uuidString.lowercased() ?? "none")"
    }
  }

  /// A key as a walkthrough writes it: `Enter`, `Space`, `0`.
  static func name(of key: Key) -> String {
    Key.named.first { $0.value == key }?.key ?? key.description
  }

  /// `500ms`, `2s`, `1.5s`, `2m`.
  static func duration(_ seconds: TimeInterval) -> String {
    if seconds < 1, seconds > 0 { return "\(Int((seconds * 1000).rounded()))ms" }
    if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
    if seconds == seconds.rounded() { return "\(Int(seconds))s" }
    return "\(seconds)s"
  }
}

/// What a `store:` step asks of Apple's side.
/// Each is the store's own operation that `monkeyshop store` runs: `refundRequest` is
/// `store refund-request` (the customer asks; CONSUMPTION_REQUEST), `refundGrant` and
/// `refundDecline` are `store refund-decide ID grant|decline`, `refundReverse` is
/// `store refund-reverse`.
public enum StoreOperation: String, Sendable, CaseIterable {
  case approve, decline, resolve, refund, refundRequest, refundGrant, refundDecline, refundReverse
}

/// One check of an `expect:` step.
public enum Expectation: Sendable, CustomStringConvertible {
  /// The text is on the screen (on one line).
  case screen(String)
  /// The text is nowhere on the screen.
  case notScreen(String)
  /// The status line (what just happened, or why a key did nothing) holds the text, however the
  /// screen wraps it.
  case status(String)
  /// The wallet's balance, as stored.
  case balance(Int)
  /// The event was logged since the previous `event`/`events` check.
  case event(String)
  /// The events were logged in this order (others may come between) since the previous check.
  case events([String])
  case transaction(TransactionExpectation)
  /// The App Store recorded an App Store Server Notification of this type for the developer's
  /// server (docs/notifications.md), at any time since the start.
  case notification(NotificationType)

  public var description: String {
    switch self {
    case .screen(let text): "screen \"\(text)\""
    case .notScreen(let text): "notScreen \"\(text)\""
    case .status(let text): "status \"\(text)\""
    case .balance(let balance): "balance \(balance)"
    case .event(let name): "event \(name)"
    case .events(let names): "events [\(names.joined(separator: ", "))]"
    case .transaction(let expected): "transaction \(expected)"
    case .notification(let type): "notification \(type.rawValue)"
    }
  }

  /// The field of `expect:` this check was written as.
  public var field: String {
    switch self {
    case .screen: "screen"
    case .notScreen: "notScreen"
    case .status: "status"
    case .balance: "balance"
    case .event: "event"
    case .events: "events"
    case .transaction: "transaction"
    case .notification: "notification"
    }
  }

  /// The field names of `expect:`, in the order the format documents them.
  public static let fields = [
    "screen", "notScreen", "status", "balance", "event", "events", "transaction", "notification",
  ]

  /// The names `event` and `events` match: `LogEvent.name`, with a transaction's state for the
  /// observer's callback (`purchased`, `failed`, `deferred`, …).
  public static let eventNames: [String] =
    [
      "observerAdded", "canMakePayments", "productsRequested", "productsReceived", "productsRequestFailed",
      "paymentAdded",
    ] + TransactionState.allCases.map(\.description)
    + [
      "delivered", "alreadyDelivered", "finished", "approved", "declined", "resolved", "refunded", "tookBack", "spent",
      "conditionChanged", "storefrontChanged", "shouldContinue", "crashed", "error", "note", "appRestarted", "restore",
      "restoreFinished", "restoreFailed", "notificationSent", "consumptionReceived",
    ] + StoreKit2Event.names + DownloadEvent.names
}

/// `transaction: { id: last, state: purchased, finished: true }`.
public struct TransactionExpectation: Sendable, CustomStringConvertible {
  /// A transaction identifier, or `last` for the newest transaction in the store.
  public var id = "last"
  public var state: TransactionState?
  public var finished: Bool?
  /// The SKError code it failed with.
  public var errorCode: Int?
  public var quantity: Int?
  public var product: String?

  public init() {}

  public static let fields = ["id", "state", "finished", "errorCode", "quantity", "product"]

  public var description: String {
    var parts = [id == "last" ? "last" : "#\(id)"]
    if let state { parts.append("state \(state)") }
    if let finished { parts.append(finished ? "finished" : "unfinished") }
    if let errorCode { parts.append("errorCode \(errorCode)") }
    if let quantity { parts.append("quantity \(quantity)") }
    if let product { parts.append("product \(product)") }
    return parts.joined(separator: " ")
  }
}
