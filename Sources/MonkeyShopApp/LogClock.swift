import Foundation
import MonkeyShopDomain

/// Log times: minutes, seconds and milliseconds since launch, `01:02.250`. The screen's log, the
/// transcript, headless output and the JSONL log's `ms` all count milliseconds with `milliseconds`,
/// so they never disagree.
public enum LogClock {
  public static func format(_ seconds: TimeInterval) -> String {
    let milliseconds = milliseconds(seconds)
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

  /// The time from `start` to `date` as `format` shows it.
  public static func format(from start: Date, to date: Date) -> String { format(date.timeIntervalSince(start)) }

  /// Whole milliseconds in `seconds` (not below 0): the last millisecond reached, as a clock
  /// shows time. A time within a microsecond short of a millisecond counts as that millisecond: a
  /// `Date` is a floating-point count of seconds (about 0.24 µs apart in this century), so 0.4 s
  /// after launch may come back as 0.39999998… (`ShopModel.dateNoise`).
  public static func milliseconds(_ seconds: TimeInterval) -> Int {
    Int(ISO8601.wholeMilliseconds(max(0, seconds)))
  }

  /// Whole milliseconds from `start` to `date`.
  public static func milliseconds(from start: Date, to date: Date) -> Int {
    milliseconds(date.timeIntervalSince(start))
  }
}
