import Foundation
import Testing

@testable import MonkeyShopTerminal

/// How long the event loop sleeps in poll(2): until the app's next deadline, never less (it would
/// wake, find nothing due, and sleep again, spinning), and with no deadline until input comes.
@Suite("Event loop sleep", .tags(.pure))
struct EventLoopTimeoutTests {
  let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

  @Test("with nothing pending the loop sleeps until input, using no CPU")
  func noDeadline() {
    #expect(EventLoop.timeout(until: nil, now: now) == -1)
  }

  @Test("a deadline due now or already passed is acted on without sleeping", arguments: [0, -0.0004, -1, -86_400])
  func dueOrPassed(_ seconds: TimeInterval) {
    #expect(EventLoop.timeout(until: now.addingTimeInterval(seconds), now: now) == 0)
  }

  @Test(
    "the sleep is the time to the deadline in whole milliseconds",
    arguments: [(0.25, 250), (1, 1_000), (2.5, 2_500), (60, 60_000)] as [(TimeInterval, Int32)])
  func wholeMilliseconds(_ seconds: TimeInterval, _ milliseconds: Int32) {
    #expect(EventLoop.timeout(until: now.addingTimeInterval(seconds), now: now) == milliseconds)
  }

  @Test(
    "a deadline between milliseconds rounds up: the loop never wakes before it and spins",
    arguments: [0.000_001, 0.000_4, 0.000_999, 0.001_5, 0.333_333_3, 1.000_01])
  func roundsUp(_ seconds: TimeInterval) {
    let deadline = now.addingTimeInterval(seconds)
    let timeout = EventLoop.timeout(until: deadline, now: now)
    #expect(timeout > 0)
    #expect(now.addingTimeInterval(Double(timeout) / 1_000) >= deadline, "wakes \(timeout) ms in, before the deadline")
    #expect(Double(timeout) < seconds * 1_000 + 1, "sleeps a whole millisecond past the deadline")
  }

  @Test(
    "a deadline beyond what poll(2) takes sleeps as long as it can",
    arguments: [Date.distantFuture, Date(timeIntervalSinceReferenceDate: 800_000_000 + 30 * 86_400)])
  func farDeadlines(_ deadline: Date) {
    #expect(EventLoop.timeout(until: deadline, now: now) == Int32.max)
  }
}
