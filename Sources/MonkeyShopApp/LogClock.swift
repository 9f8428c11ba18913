import Foundation

/// Log times: minutes, seconds and milliseconds since launch, `01:02.250`.
public enum LogClock {
  public static func format(_ seconds: TimeInterval) -> String {
    let milliseconds = Int((max(0, seconds) * 1000).rounded())
    let minutes = milliseconds / 60_000
    let rest = milliseconds % 60_000
    return padded(minutes, 2) + ":" + padded(rest / 1000, 2) + "." + padded(rest % 1000, 3)
  }

  /// A number with leading zeros to `digits` digits, as `%02d` writes it; drawn on every frame for
  /// every log row, so without `String(format:)` and its run-time type checks.
  private static func padded(_ number: Int, _ digits: Int) -> String {
    let text = String(number)
    return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
  }
}
