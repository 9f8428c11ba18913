import Foundation

/// Dates in JSON output: ISO 8601 in UTC with milliseconds, `2026-11-21T09:30:00.250Z`.
public enum ISO8601 {
  public static func string(from date: Date) -> String {
    // The milliseconds by the clock's rule, not Foundation's, which cuts the fraction: a `Date` is
    // a floating-point count of seconds, so 0.4 s after a whole second may be held as 0.39999998…
    // and would be written `.399` beside an `ms` of 400.
    let milliseconds = wholeMilliseconds(date.timeIntervalSince1970)
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let whole = Date(timeIntervalSince1970: TimeInterval(fraction < 0 ? seconds - 1 : seconds))
    let text = whole.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    let thousandths = String(fraction < 0 ? fraction + 1000 : fraction)
    return text.dropLast() + "." + String(repeating: "0", count: 3 - thousandths.count) + thousandths + "Z"
  }

  /// Whole milliseconds in `seconds`: the last millisecond reached, as a clock shows time, but a
  /// time within a microsecond short of a millisecond counts as that millisecond (a `Date` is
  /// about 0.24 µs apart in this century).
  public static func wholeMilliseconds(_ seconds: TimeInterval) -> Int64 {
    let exact = seconds * 1000
    let nearest = exact.rounded()
    return Int64(abs(exact - nearest) <= 0.001 ? nearest : exact.rounded(.down))
  }
}
