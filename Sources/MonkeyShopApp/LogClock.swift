import Foundation

/// Log times: minutes, seconds and milliseconds since launch, `01:02.250`.
public enum LogClock {
  public static func format(_ seconds: TimeInterval) -> String {
    let milliseconds = Int((max(0, seconds) * 1000).rounded())
    let minutes = milliseconds / 60_000
    let rest = milliseconds % 60_000
    return String(format: "%02d:%02d.%03d", minutes, rest / 1000, rest % 1000)
  }
}
