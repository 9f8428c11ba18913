import Foundation

/// Dates in JSON output: ISO 8601 in UTC with milliseconds, `2026-11-21T09:30:00.250Z`.
public enum ISO8601 {
  public static func string(from date: Date) -> String {
    date.formatted(
      Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
  }
}
