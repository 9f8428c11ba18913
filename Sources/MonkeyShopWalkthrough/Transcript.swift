import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// The readable record of walkthrough runs: each step with the StoreKit events it caused (in
/// StoreKit 1 names), snapshots, and ✓ / ✗ for every expectation, the screen when one fails.
/// Control characters in it are escaped (`TerminalText`).
public enum Transcript {
  /// One walkthrough. `steps: false` (`-q`) makes it one line, the outcome, followed only by a
  /// failure's details.
  public static func text(_ result: WalkthroughResult, steps: Bool = true) -> String {
    let walkthrough = result.walkthrough
    let heading = "\(walkthrough.name) (\(walkthrough.path))"
    let (mark, outcome) = outcome(result)
    var lines = [steps ? "▶ \(heading)" : "\(mark) \(heading): \(outcome)"]
    if let setupFailure = result.setupFailure {
      lines.append("  ✗ setup: \(setupFailure)")
    }
    for record in result.records where steps || !record.passed {
      lines += self.lines(
        record, start: WalkthroughSession.epoch, width: walkthrough.size.width, language: walkthrough.language)
    }
    if steps { lines.append("\(mark) \(outcome)") }
    // Names, steps, `say:` and expected text come from the walkthrough file: shown escaped, never
    // acted on by the terminal the transcript is printed on.
    return lines.map(TerminalText.escaped).joined(separator: "\n")
  }

  /// `N passed, M failed`.
  public static func summary(passed: Int, failed: Int) -> String { "\(passed) passed, \(failed) failed" }

  public static func summary(_ results: [WalkthroughResult]) -> String {
    let passed = results.filter(\.passed).count
    return summary(passed: passed, failed: results.count - passed)
  }

  /// `✓` and `passed (13 steps, …)`, or `✗` and where it failed.
  static func outcome(_ result: WalkthroughResult) -> (mark: String, text: String) {
    let measures =
      "\(counted(result.records.count, "step")), \(seconds(result.virtualTime)) of virtual time in \(milliseconds(result.elapsed))"
    if result.passed { return ("✓", "passed (\(measures))") }
    if result.setupFailure != nil { return ("✗", "failed before the first step") }
    let step = result.failedStep.map { "step \($0.number) (line \($0.step.line))" } ?? "a step"
    return ("✗", "failed at \(step) (\(measures))")
  }

  static func lines(_ record: StepRecord, start: Date, width: Int, language: Language) -> [String] {
    let number = String(repeating: " ", count: max(0, 3 - "\(record.number)".count)) + "\(record.number)"
    var lines: [String] = []
    switch record.step.action {
    case .say(let text):
      lines.append("\(number). say: \(text)")
    default:
      // `store refundGrant last → #3`: which transaction `last` stood for.
      lines.append("\(number). \(record.step.description)" + (record.lastStoodFor.map { " → \($0)" } ?? ""))
    }
    let indent = "      "
    for entry in record.events {
      let time = LogClock.format(from: start, to: entry.time)
      lines.append("\(indent)\(time)  \(entry.text(language))")
    }
    for check in record.checks {
      if check.passed {
        lines.append("\(indent)✓ expect \(check.expectation)")
      } else {
        lines.append("\(indent)✗ expect \(check.expectation)")
        lines.append("\(indent)    expected \(check.expected)")
        lines.append("\(indent)    found    \(check.found)")
      }
    }
    if let failure = record.failure {
      lines.append("\(indent)✗ \(failure)")
    }
    if let snapshot = record.snapshot {
      lines += screen(snapshot, title: snapshotTitle(record), width: width, indent: indent)
    }
    if !record.passed {
      if let screen = record.screen {
        lines += self.screen(screen, title: "the screen at step \(record.number)", width: width, indent: indent)
      } else {
        lines.append("\(indent)(no screen: the app was not running)")
      }
    }
    return lines
  }

  private static func snapshotTitle(_ record: StepRecord) -> String {
    if case .snapshot(let title?) = record.step.action { return title }
    return "snapshot at step \(record.number)"
  }

  /// The screen in a frame as wide as the screen, as `tmux capture-pane` would print it.
  public static func screen(_ text: String, title: String, width: Int, indent: String = "") -> [String] {
    let head = "┌─ \(title) "
    var lines = [indent + head + String(repeating: "─", count: max(3, width + 2 - TextWidth.of(head)))]
    lines += text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.isEmpty ? "\(indent)│" : "\(indent)│ \($0)"
    }
    lines.append(indent + "└" + String(repeating: "─", count: width + 1))
    return lines
  }

  static func seconds(_ seconds: TimeInterval) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.3f s", seconds)
  }

  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return String(format: "%.1f ms", milliseconds)
  }
}
