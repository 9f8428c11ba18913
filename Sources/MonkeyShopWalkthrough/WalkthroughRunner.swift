import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// One expectation checked: what was expected and what was there.
public struct Check: Sendable {
  public let expectation: Expectation
  public let passed: Bool
  /// What was expected and what was found, in English and Japanese (the player's band).
  let expectedPhrase: Phrase
  let foundPhrase: Phrase
  /// In English: the transcript, `--json` and JUnit.
  public var expected: String { expectedPhrase.en }
  public var found: String { foundPhrase.en }

  init(_ expectation: Expectation, passed: Bool, expected: Phrase, found: Phrase) {
    self.expectation = expectation
    self.passed = passed
    expectedPhrase = expected
    foundPhrase = found
  }
}

/// What one step did: the log events it caused, its checks, its snapshot, and why it failed.
public struct StepRecord: Sendable {
  /// 1-based, in the order performed.
  public let number: Int
  public let step: WalkthroughStep
  public internal(set) var events: [LogEntry] = []
  public internal(set) var checks: [Check] = []
  public internal(set) var snapshot: String?
  /// Why the step could not be done (the app is down, the store refused), not an expectation.
  public internal(set) var failure: String?
  /// The screen when the step failed, if the app was running.
  public internal(set) var screen: String?
  /// What a store step's `last` stood for, as the log names it (`#3`, `payment 3`).
  public internal(set) var lastStoodFor: String?
  /// The ID of the transaction a store step's `last` stood for.
  public internal(set) var lastTransactionID: String?
  /// The walkthrough's virtual clock when the step ended.
  public internal(set) var endedAt: Date?

  init(number: Int, step: WalkthroughStep) {
    self.number = number
    self.step = step
  }

  public var passed: Bool { failure == nil && checks.allSatisfy(\.passed) }

  /// `step 7 (line 18): expect balance 30: expected 30 credits in the wallet, found 0 credits`
  public var failureSummary: String? {
    guard !passed else { return nil }
    let place = "step \(number) (line \(step.line))"
    if let failure { return "\(place): \(step.description): \(failure)" }
    let failed = checks.filter { !$0.passed }
    return "\(place): "
      + failed.map { "expect \($0.expectation): expected \($0.expected), found \($0.found)" }
      .joined(separator: "; ")
  }
}

/// How a walkthrough went.
public struct WalkthroughResult: Sendable {
  public let walkthrough: Walkthrough
  /// Every step performed; a failing step is the last.
  public let records: [StepRecord]
  /// The starting state could not be set up (a condition the store refused); no step ran.
  public let setupFailure: String?
  /// Virtual time the walkthrough covered.
  public let virtualTime: TimeInterval
  /// Wall-clock time it took, when the caller timed it (the runner itself reads no clock).
  public var elapsed: Duration = .zero

  public var passed: Bool { setupFailure == nil && records.allSatisfy(\.passed) }
  public var failedStep: StepRecord? { records.first { !$0.passed } }

  /// One line: where and why it failed.
  public var failureSummary: String? {
    if let setupFailure { return "setup: \(setupFailure)" }
    return failedStep?.failureSummary
  }
}

/// Runs walkthroughs headless: every step in virtual time on the in-memory screen, stopping a
/// walkthrough at its first failing step.
public struct WalkthroughRunner: Sendable {
  public let catalog: Catalog

  public init(catalog: Catalog) { self.catalog = catalog }

  public func run(_ walkthrough: Walkthrough) -> WalkthroughResult {
    let session: WalkthroughSession
    do {
      session = try WalkthroughSession(walkthrough: walkthrough, catalog: catalog)
    } catch {
      return WalkthroughResult(
        walkthrough: walkthrough, records: [], setupFailure: "\(error)", virtualTime: 0)
    }
    var records: [StepRecord] = []
    for step in walkthrough.steps {
      var record = session.perform(step)
      record.endedAt = session.clock
      records.append(record)
      if !record.passed { break }
    }
    return WalkthroughResult(
      walkthrough: walkthrough, records: records, setupFailure: nil,
      virtualTime: session.clock.timeIntervalSince(session.start))
  }
}
