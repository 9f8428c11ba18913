import Foundation
import MonkeyShopSigning
import Synchronization
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopNotifications
@testable import MonkeyShopStorage

/// How often `monkeyshop server`'s notification sender reads the data folder: not while nothing
/// changes, at the next round after another process changed it, and when a retry falls due though
/// nothing on disk changed.
@Suite("App Store Server Notifications: what the sender reads", .tags(.pure), .timeLimit(.minutes(1)))
struct NotificationSenderReadingTests {
  /// A URL no request can go to (a port beyond 65535, as a folder edited by hand may hold): each
  /// attempt fails at once, without the network, and is retried.
  static let unusable = "http://127.0.0.1:99999/"

  /// The sender's readings of the folder, counted.
  final class Readings: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
  }

  /// The attempts at the folder's one notification once there are at least `count` (10 s at most).
  static func attempts(_ path: String, atLeast count: Int) async throws -> [SendAttempt] {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
      let attempts = try DataFolder(path: path).readNotifications().notifications.first?.sendAttempts ?? []
      if attempts.count >= count { return attempts }
      guard ContinuousClock.now < deadline else {
        Issue.record("the sender made \(attempts.count) attempts, expected \(count)")
        return attempts
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  @Test("an idle sender reads nothing; a change made elsewhere, then a retry falling due, are each read and sent")
  func idleReadsNothing() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-sender-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o700)
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Transactions in the record (`record.sqlite`, converted from a history at the first reading)
    // and in the store, as in a folder that has sold for a while.
    try RecordSourceTests.lines((1...20).map { RecordSourceTests.transaction($0) })
      .write(to: URL(fileURLWithPath: path + "/history.jsonl"))
    try RecordSourceTests.write(store: [RecordSourceTests.transaction(21)], last: 21, in: path)
    let folder = DataFolder(path: path)
    folder.signer = FolderSigner()
    // A TEST notification waiting with notifications turned off (`notificationURL none`), retried
    // on the fast schedule (1 s after the first failed attempt, then 12 s).
    try folder.setNotificationURL(Self.unusable)
    _ = try folder.requestTestNotification(catalog: Catalog(products: []))
    try folder.setNotificationURL(nil)
    try folder.update { store, _ in store.conditions.notificationRetry = .fast }

    #expect(FileManager.default.fileExists(atPath: path + "/record.sqlite"))

    let readings = Readings()
    var options = NotificationSender.Options(pollInterval: .milliseconds(10), timeout: .seconds(5))
    options.read = { folder, now in
      readings.add()
      return try folder.notificationWork(at: now)
    }
    let sender = Task {
      try await NotificationSender.run(folder: path, options: options, log: { _ in }, warn: { _ in })
    }

    // A hundred rounds over a folder nobody writes: it is read once.
    try await Task.sleep(for: .seconds(1))
    let idle = readings.value
    #expect(idle >= 1 && idle <= 2, "the sender read the unchanged folder \(idle) times in 1 s")

    // Another command (a folder object of its own) turns notifications on: read and sent.
    try DataFolder(path: path).setNotificationURL(Self.unusable)
    let first = try await Self.attempts(path, atLeast: 1)
    #expect(first.first?.result == .other)
    // The retry falls due a second later with nothing written meanwhile: it is read and sent then.
    let second = try await Self.attempts(path, atLeast: 2)
    if second.count >= 2 {
      let wait = second[1].date.timeIntervalSince(second[0].date)
      #expect(wait >= 1 && wait < 3, "the retry due 1 s after the first attempt was made after \(wait) s")
    }
    // The next retry is 12 s away: idle again.
    try await Task.sleep(for: .milliseconds(200))
    let settled = readings.value
    try await Task.sleep(for: .seconds(1))
    #expect(readings.value - settled <= 1, "the sender read the unchanged folder \(readings.value - settled) times")

    sender.cancel()
    _ = try? await sender.value
  }
}
