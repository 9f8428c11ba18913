import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// `walkthrough --json`: the machine-readable twin of the transcript (docs/json/walkthrough.schema.json).
/// Every walkthrough run, each step with the events it caused, every check with what was expected
/// and what was found, and the virtual time; or the files refused before anything ran.
public struct WalkthroughRunReport: Encodable, Sendable {
  public let walkthroughs: [WalkthroughReport]
  public let passed: Int
  public let failed: Int
  /// Files refused before anything ran: then no walkthrough ran.
  public let rejected: [RejectedFile]

  public init(_ results: [WalkthroughResult], rejected: [WalkthroughError.Problem] = []) {
    walkthroughs = results.map(WalkthroughReport.init)
    passed = results.filter(\.passed).count
    failed = results.count - passed
    self.rejected = rejected.map(RejectedFile.init)
  }

  public struct RejectedFile: Encodable, Sendable {
    public let path: String
    /// Nil when the problem is the file itself (missing, unreadable).
    public let line: Int?
    public let problem: String

    init(_ problem: WalkthroughError.Problem) {
      path = problem.path
      line = problem.line
      self.problem = problem.message
    }
  }
}

/// One walkthrough's run.
public struct WalkthroughReport: Encodable, Sendable {
  public let name: String
  public let path: String
  public let passed: Bool
  /// Where and why it failed, as the transcript's last line says it.
  public let failure: String?
  /// The virtual time the walkthrough covered, in milliseconds.
  public let virtualMs: Int
  /// The wall-clock time it took, in milliseconds.
  public let elapsedMs: Int
  public let steps: [StepReport]

  init(_ result: WalkthroughResult) {
    name = result.walkthrough.name
    path = result.walkthrough.path
    passed = result.passed
    failure = result.failureSummary
    virtualMs = Int((result.virtualTime * 1000).rounded())
    let (seconds, attoseconds) = result.elapsed.components
    elapsedMs = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    steps = result.records.map { StepReport($0, language: result.walkthrough.language) }
  }
}

/// One step: what it was, when it ended on the virtual clock, its events and its checks.
public struct StepReport: Encodable, Sendable {
  public let number: Int
  /// The line of the walkthrough file the step is on.
  public let line: Int
  /// The step's kind as the file writes it: launch, press, wait, expect, …
  public let kind: String
  /// The step as the transcript names it: `press 0 + +`, `wait 2s`.
  public let step: String
  public let passed: Bool
  /// Why the step could not be done (not a check).
  public let failure: String?
  /// Milliseconds from the walkthrough's start to the step's end, on the virtual clock.
  public let ms: Int?
  public let events: [LogRecord]
  public let checks: [CheckReport]
  public let snapshot: String?
  /// The screen when the step failed.
  public let screen: String?
  /// The ID of the transaction a store step's `last` stood for (the transcript's `→ #2`).
  public let lastTransactionID: String?

  init(_ record: StepRecord, language: Language) {
    number = record.number
    line = record.step.line
    kind = record.step.kind
    step = record.step.description
    passed = record.passed
    failure = record.failure
    ms = record.endedAt.map { LogClock.milliseconds(from: WalkthroughSession.epoch, to: $0) }
    events = record.events.map { LogRecord($0, launchDate: WalkthroughSession.epoch, language: language) }
    checks = record.checks.map(CheckReport.init)
    snapshot = record.snapshot
    screen = record.screen
    lastTransactionID = record.lastTransactionID
  }
}

/// One check of an `expect:` step.
public struct CheckReport: Encodable, Sendable {
  /// The `expect:` field: screen, notScreen, status, balance, event, events, transaction.
  public let field: String
  /// The check as the transcript writes it: `balance 30`.
  public let check: String
  public let passed: Bool
  public let expected: String
  public let found: String

  init(_ check: Check) {
    field = check.expectation.field
    self.check = check.expectation.description
    passed = check.passed
    expected = check.expected
    found = check.found
  }
}
