import Foundation
import Testing

/// App Store Server Notifications V2 from the built binary to a real HTTP receiver, which verifies
/// each one with Apple's App Store Server Library (`SignedDataVerifier.verify_and_decode_notification`)
/// as a developer's server does, with the root `monkeyshop store certificate` exports. The sender
/// is `monkeyshop server`'s, which sends beside the API it serves (docs/notifications.md).
@Suite(
  "App Store Server Notifications to a receiver, verified by Apple's library", .tags(.endToEnd, .needsPython),
  .timeLimit(.minutes(3)))
struct ServerNotificationEndToEndTests {
  static let receiverScript = Locations.repository.appendingPathComponent("Tests/Receiver/notification_receiver.py")
    .path

  /// A developer's server: answers `answers` in turn (then 200), logging what Apple's library says.
  final class Receiver {
    let child: Child
    let url: String
    let log: String

    init(in folder: ShopFolder, root: String, answers: [String] = []) async throws {
      let python = try Tools.requirePython(for: "the receiver verifies notifications with Apple's library")
      let portFile = folder.file("port").path
      log = folder.file("received").path
      child = try Child(
        executable: python,
        [
          ServerNotificationEndToEndTests.receiverScript, portFile, log, root, "Sandbox",
          "com.monkeyshop.app", answers.joined(separator: ","),
        ],
        in: folder, environment: folder.environment())
      let deadline = ContinuousClock.now + .seconds(30)
      while !FileManager.default.fileExists(atPath: portFile) {
        guard ContinuousClock.now < deadline else {
          throw E2EFailure("the receiver did not start (\(Tools.missingPackage("app-store-server-library==3.1.2")))")
        }
        try await Task.sleep(for: .milliseconds(20))
      }
      url = "http://127.0.0.1:\(try String(contentsOfFile: portFile, encoding: .utf8))/"
    }

    /// Every request received so far, in order.
    func received() throws -> [[String: Any]] {
      guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
      return try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
    }
  }

  /// Exports the folder's root (making its chain) for the receiver.
  func exportRoot(_ folder: ShopFolder) async throws -> String {
    let root = folder.file("root.der").path
    try expectSuccess(await monkeyshop("store", "certificate", "--out", root, in: folder))
    return root
  }

  func notifications(_ folder: ShopFolder) async throws -> [[String: Any]] {
    let listed = try expectSuccess(await monkeyshop("store", "notifications", "--json", in: folder))
    let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    return try #require(report["notifications"] as? [[String: Any]], "\(listed)")
  }

  /// Waits (at most `limit`) until `done` holds of the listed notifications.
  func waitFor(
    _ folder: ShopFolder, limit: Duration = .seconds(60), _ what: String, _ done: ([[String: Any]]) -> Bool
  ) async throws -> [[String: Any]] {
    let deadline = ContinuousClock.now + limit
    while true {
      let listed = try await notifications(folder)
      if done(listed) { return listed }
      guard ContinuousClock.now < deadline else { throw E2EFailure("\(what) did not happen: \(listed)") }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  static func delivered(_ notification: [String: Any]) -> Bool { notification["status"] as? String == "delivered" }

  @Test("a refund request reaches the receiver as CONSUMPTION_REQUEST and the grant as REFUND, each verified")
  func refundFlow() async throws {
    let folder = try ShopFolder("notify-flow")
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    try expectSuccess(await monkeyshop("store", "refund-request", "last", "--reason", "FULFILLMENT_ISSUE", in: folder))
    let waiting = try await notifications(folder)
    #expect(waiting.map { $0["waitsFor"] as? String } == ["no notificationURL set", "no notificationURL set"])
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    let sender = try Child(["server", "--port", "0"], in: folder)
    try expectSuccess(await monkeyshop("store", "refund-decide", "1", "grant", in: folder))
    let listed = try await waitFor(folder, "three deliveries") { $0.count == 3 && $0.allSatisfy(Self.delivered) }
    sender.kill(SIGTERM)
    let stopped = try await sender.wait()
    #expect(stopped.exitStatus == 0, "\(stopped)")
    #expect(stopped.stdout.contains("App Store Server Notification REFUND #1 → \(receiver.url) · 200 · attempt 1"))

    let received = try receiver.received()
    #expect(received.count == 3)
    for request in received {
      #expect(request["verified"] as? Bool == true, "\(request)")
      #expect(request["transactionVerified"] as? Bool == true, "\(request)")
      #expect(request["contentType"] as? String == "application/json")
    }
    let payloads = received.compactMap { $0["notification"] as? [String: Any] }
    let byType = Dictionary(payloads.map { ($0["notificationType"] as? String ?? "", $0) }, uniquingKeysWith: { $1 })
    #expect(Set(byType.keys) == ["ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND"])
    let request = try #require(byType["CONSUMPTION_REQUEST"]?["data"] as? [String: Any])
    #expect(request["consumptionRequestReason"] as? String == "FULFILLMENT_ISSUE")
    #expect(request["environment"] as? String == "Sandbox" && request["appAppleId"] == nil)
    #expect(byType["REFUND"]?["version"] as? String == "2.0")
    let refunded = try #require(
      received.first { ($0["notification"] as? [String: Any])?["notificationType"] as? String == "REFUND" })
    let transaction = try #require(refunded["transaction"] as? [String: Any])
    #expect(transaction["revocationDate"] != nil && transaction["transactionId"] as? String == "1")
    // The receiver saw exactly the notifications the store lists, by UUID.
    #expect(
      Set(payloads.compactMap { $0["notificationUUID"] as? String })
        == Set(listed.compactMap { $0["notificationUUID"] as? String }))
  }

  @Test("a receiver that refuses the connection: SOCKET_ISSUE at once, and the fast retry a second later")
  func refusedConnection() async throws {
    let folder = try ShopFolder("notify-refused")
    let port = try Loopback.unusedPort()
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", "http://127.0.0.1:\(port)/", in: folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationRetry", "fast", in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let sender = try Child(["server", "--port", "0"], in: folder)
    let listed = try await waitFor(folder, "two attempts") { ($0.first?["sendAttempts"] as? [Any])?.count ?? 0 >= 2 }
    sender.kill(SIGTERM)
    _ = try await sender.wait()
    let attempts = try #require(listed[0]["sendAttempts"] as? [[String: Any]])
    #expect(attempts.prefix(2).map { $0["sendAttemptResult"] as? String } == ["SOCKET_ISSUE", "SOCKET_ISSUE"])
    // `fast` retries 1 s after a failed attempt. Had the refused connection been tried again
    // until the connect timeout (10 s), the second attempt would have begun 10 s after the first.
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let dates = attempts.prefix(2).compactMap { ($0["attemptDate"] as? String).flatMap(format.date(from:)) }
    #expect(dates.count == 2 && dates[1].timeIntervalSince(dates[0]) < 5, "\(attempts)")
  }

  /// The signed transaction of each listed transaction, by ID (`store transactions --json`).
  func listedJWS(_ folder: ShopFolder) async throws -> [String: String] {
    let listed = try expectSuccess(await monkeyshop("store", "transactions", "--json", in: folder))
    let transactions = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed)")
    return Dictionary(
      transactions.compactMap { entry in (entry["id"] as? String).map { ($0, entry["jws"] as? String ?? "") } },
      uniquingKeysWith: { $1 })
  }

  @Test(
    "a refund of a purchase an earlier monkeyshop recorded without its record reaches the receiver signed, verified and stored"
  )
  func refundOfEarlierPurchase() async throws {
    let folder = try ShopFolder("notify-earlier")
    // As an earlier monkeyshop left the folder: two purchases in history.jsonl, written before
    // transactions kept what they cost (`record`), where and how they were signed.
    try FileManager.default.createDirectory(
      at: folder.data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let lines = [
      #"{"finished":true,"hasPurchaseIssue":false,"id":"1","productIdentifier":"com.monkeyshop.credits.5","purchaseDate":1700000000,"quantity":1,"state":"purchased"}"#,
      #"{"finished":true,"hasPurchaseIssue":false,"id":"2","productIdentifier":"com.monkeyshop.credits.10","purchaseDate":1700000100,"quantity":2,"state":"purchased"}"#,
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.data.appendingPathComponent("history.jsonl"))
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    try expectSuccess(await monkeyshop("store", "refund", "1", in: folder))
    let sender = try Child(["server", "--port", "0"], in: folder)
    _ = try await waitFor(folder, "the REFUND's delivery") { $0.count == 1 && $0.allSatisfy(Self.delivered) }
    sender.kill(SIGTERM)
    _ = try await sender.wait()

    let received = try receiver.received()
    let refund = try #require(received.first, "nothing received")
    #expect(received.count == 1)
    #expect(refund["verified"] as? Bool == true, "\(refund)")
    let payload = try #require(refund["notification"] as? [String: Any])
    #expect(payload["notificationType"] as? String == "REFUND")
    let data = try #require(payload["data"] as? [String: Any])
    let signed = try #require(data["signedTransactionInfo"] as? String, "REFUND without its transaction: \(payload)")
    #expect(refund["transactionVerified"] as? Bool == true, "\(refund)")
    let transaction = try #require(refund["transaction"] as? [String: Any])
    #expect(transaction["transactionId"] as? String == "1")
    #expect(transaction["productId"] as? String == "com.monkeyshop.credits.5")
    #expect(transaction["revocationDate"] != nil && transaction["revocationReason"] as? Int == 0)
    #expect(transaction["purchaseDate"] as? Int == 1_700_000_000_000)
    // Signed once and stored: every later read serves the same bytes.
    #expect(try await listedJWS(folder)["1"] == signed)
    #expect(try await listedJWS(folder)["1"] == signed)
  }

  @Test("a receiver answering 500 gets the retry with the same notificationUUID; both attempts are listed")
  func retrySameUUID() async throws {
    let folder = try ShopFolder("notify-retry")
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder), answers: ["500"])
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationRetry", "fast", in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let sender = try Child(["server", "--port", "0"], in: folder)
    let listed = try await waitFor(folder, "the retry") { $0.first.map(Self.delivered) == true }
    sender.kill(SIGTERM)
    _ = try await sender.wait()
    let received = try receiver.received()
    let uuids = received.compactMap { ($0["notification"] as? [String: Any])?["notificationUUID"] as? String }
    #expect(received.map { $0["answer"] as? String } == ["500", "200"])
    #expect(uuids.count == 2 && Set(uuids) == [listed[0]["notificationUUID"] as? String])
    let attempts = try #require(listed[0]["sendAttempts"] as? [[String: Any]])
    #expect(attempts.map { $0["sendAttemptResult"] as? String } == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
    #expect(attempts.map { $0["httpStatus"] as? Int } == [500, 200])
  }

  @Test("a receiver that hangs holds up only its own notification, which ends TIMED_OUT")
  func hangingReceiver() async throws {
    let folder = try ShopFolder("notify-hang")
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder), answers: ["hang"])
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let sender = try Child(["server", "--port", "0", "--notification-timeout", "8"], in: folder)
    // The first request hangs; a second notification goes out meanwhile.
    while try receiver.received().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
    try expectSuccess(await monkeyshop("store", "refund", "last", in: folder))
    let meanwhile = try await waitFor(folder, "the REFUND's delivery") { $0.count == 2 && Self.delivered($0[1]) }
    #expect((meanwhile[0]["sendAttempts"] as? [Any])?.isEmpty == true, "\(meanwhile)")
    let ended = try await waitFor(folder, "the timeout") { ($0[0]["sendAttempts"] as? [Any])?.isEmpty == false }
    sender.kill(SIGTERM)
    _ = try await sender.wait()
    let attempts = try #require(ended[0]["sendAttempts"] as? [[String: Any]])
    #expect(attempts.map { $0["sendAttemptResult"] as? String } == ["TIMED_OUT"])
    // The sandbox's one attempt (notificationRetry none): no retry left.
    #expect(ended[0]["waitsFor"] as? String == "not delivered: no attempt left")
  }

  @Test(
    "a receiver that answers 200 and then trickles its body: each attempt is decided by its status at once, and the rest are delivered meanwhile"
  )
  func drippingReceiver() async throws {
    let folder = try ShopFolder("notify-drip")
    // Nine dripping answers, more than the 8 sent at once: a sender that waited on their bodies
    // would send nothing more, the tenth (answered 200 at once) included.
    let receiver = try await Receiver(
      in: folder, root: try await exportRoot(folder), answers: Array(repeating: "drip", count: 9))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    for _ in 0..<10 { try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder)) }
    let timeout = 5.0
    let sender = try Child(["server", "--port", "0", "--notification-timeout", "\(Int(timeout))"], in: folder)
    // When each attempt was first seen recorded, by notificationUUID.
    var seen: [String: Date] = [:]
    let listed = try await waitFor(folder, limit: .seconds(30), "every delivery") { listed in
      for notification in listed where (notification["sendAttempts"] as? [Any])?.isEmpty == false {
        if let uuid = notification["notificationUUID"] as? String, seen[uuid] == nil { seen[uuid] = Date() }
      }
      return listed.count == 10 && listed.allSatisfy(Self.delivered)
    }
    // The sender hung up on each trickle rather than reading it, and did so while it runs (its
    // connections are not merely closed when it stops): the receiver tells at its next byte.
    let hangUps = ContinuousClock.now + .seconds(10)
    while try receiver.received().filter({ $0["hungUpAfter"] != nil }).count < 9, ContinuousClock.now < hangUps {
      try await Task.sleep(for: .milliseconds(100))
    }
    sender.kill(SIGTERM)
    let stopped = try await sender.wait()
    #expect(stopped.exitStatus == 0, "\(stopped)")
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for notification in listed {
      let attempts = try #require(notification["sendAttempts"] as? [[String: Any]])
      // A 200 is a delivery, whatever comes after it.
      #expect(attempts.map { $0["sendAttemptResult"] as? String } == ["SUCCESS"], "\(notification)")
      #expect(attempts.map { $0["httpStatus"] as? Int } == [200], "\(notification)")
      // Recorded within the timeout of the attempt's start (seen by polling, so a little late).
      let date = attempts.first?["attemptDate"] as? String
      let began = try #require(date.flatMap { format.date(from: $0) }, "\(notification)")
      let recorded = try #require(seen[notification["notificationUUID"] as? String ?? ""])
      #expect(recorded.timeIntervalSince(began) < timeout, "recorded \(recorded.timeIntervalSince(began)) s after")
    }
    let received = try receiver.received()
    #expect(received.filter { $0["notification"] != nil }.count == 10)
    let hungUp = received.compactMap { $0["hungUpAfter"] as? Double }
    #expect(hungUp.count == 9 && hungUp.allSatisfy { $0 < timeout }, "\(received)")
  }

  @Test(
    "a server out of file descriptors counts no attempt against the receiver: it says so naming the limit, and each notification reaches the receiver later"
  )
  func outOfDescriptors() async throws {
    let folder = try ShopFolder("notify-few-files")
    // Every request hangs until the timeout, so the connections that open stay open and the
    // others find no descriptor.
    let receiver = try await Receiver(
      in: folder, root: try await exportRoot(folder), answers: Array(repeating: "hang", count: 40))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    // What a server holds at rest here (its event loops' descriptors follow the cores): the limit
    // leaves it six more, what it needs to start (one connection and the readings of the folder),
    // fewer than the 8 notifications it sends at once.
    let probe = try ServerConnectionLimitTests.underLimit(1024, ["server", "--port", "0"], in: folder)
    let listening = ContinuousClock.now + .seconds(60)
    while !((try? String(contentsOfFile: probe.stdoutPath, encoding: .utf8)) ?? "").contains("listening on") {
      guard ContinuousClock.now < listening else {
        throw E2EFailure("the server did not start: \(probe.waitBlocking())")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    try await Task.sleep(for: .seconds(1))
    let atRest = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(probe.pid)/fd").count
    probe.kill(SIGTERM)
    _ = try await probe.wait()
    for _ in 0..<8 { try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder)) }
    let limit = atRest + 6
    let server = try ServerConnectionLimitTests.underLimit(
      limit, ["server", "--port", "0", "--notification-timeout", "2"], in: folder)
    // Less than the minute an HTTP client keeps an idle connection (each attempt then takes 2 s
    // more): the connections opened for requests the shortage failed must not hold the descriptors
    // the attempts are recorded with. It takes about 8 s on an idle machine.
    let listed = try await waitFor(folder, limit: .seconds(60), "an attempt at each") {
      $0.count == 8 && $0.allSatisfy { ($0["sendAttempts"] as? [Any])?.isEmpty == false }
    }
    server.kill(SIGTERM)
    let stopped = try await server.wait()
    #expect(stopped.exitStatus == 0, "\(stopped)")
    #expect(
      stopped.stderr.contains(
        "monkeyshop: warning: notifications: cannot connect to \(receiver.url): this process has no file descriptor left: its limit is \(limit) open files"
      ), "\(stopped)")
    // The lock file it could not open to check was not taken for one deleted or replaced: the
    // sending was never given up and claimed again.
    #expect(!stopped.stdout.contains("deleted or replaced"), "\(stopped)")
    #expect(!stopped.stdout.contains("replaced the lock file"), "\(stopped)")
    #expect(!stopped.stdout.contains("Too many open files"), "\(stopped)")
    // Each notification's one attempt reached the receiver (which timed it out): none was spent
    // on a connection the server could not open.
    for notification in listed {
      let attempts = try #require(notification["sendAttempts"] as? [[String: Any]])
      #expect(attempts.map { $0["sendAttemptResult"] as? String } == ["TIMED_OUT"], "\(notification)")
    }
    let reached = Set(
      try receiver.received().compactMap { ($0["notification"] as? [String: Any])?["notificationUUID"] as? String })
    #expect(reached == Set(listed.compactMap { $0["notificationUUID"] as? String }))
  }

  @Test("the sender killed with SIGKILL midway and started again loses no notification")
  func killedMidway() async throws {
    let folder = try ShopFolder("notify-kill")
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    for _ in 0..<12 { try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder)) }
    for id in 1...12 { try expectSuccess(await monkeyshop("store", "refund", "\(id)", in: folder)) }
    let first = try Child(["server", "--port", "0"], in: folder)
    while try receiver.received().count < 3 { try await Task.sleep(for: .milliseconds(5)) }
    first.kill(SIGKILL)
    let killed = try await first.wait()
    #expect(killed.killedBy == SIGKILL)
    let second = try Child(["server", "--port", "0"], in: folder)
    let listed = try await waitFor(folder, "every delivery") { $0.count == 24 && $0.allSatisfy(Self.delivered) }
    second.kill(SIGTERM)
    _ = try await second.wait()
    let stored = Set(listed.compactMap { $0["notificationUUID"] as? String })
    let received = try receiver.received().compactMap {
      ($0["notification"] as? [String: Any])?["notificationUUID"] as? String
    }
    #expect(stored.count == 24)
    // Every one arrived; a duplicate (one in flight at the kill) carries a UUID already seen.
    #expect(Set(received) == stored)
    #expect(received.count >= 24)
  }

  @Test("two servers on one folder: one sends, each notification arrives once; the other takes over when it stops")
  func oneSenderPerFolder() async throws {
    let folder = try ShopFolder("notify-two-servers")
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    for _ in 0..<6 { try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder)) }
    for id in 1...6 { try expectSuccess(await monkeyshop("store", "refund", "\(id)", in: folder)) }
    let first = try Child(["server", "--port", "0"], in: folder)
    // The first has claimed the sending once it delivered something.
    while try receiver.received().isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    let second = try Child(["server", "--port", "0"], in: folder)
    _ = try await waitFor(folder, "every delivery") { $0.count == 12 && $0.allSatisfy(Self.delivered) }
    first.kill(SIGTERM)
    let stopped = try await first.wait()
    #expect(stopped.exitStatus == 0, "\(stopped)")
    // With the first gone, the second sends what comes next.
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    _ = try await waitFor(folder, "the delivery by the second server") {
      $0.count == 13 && $0.allSatisfy(Self.delivered)
    }
    second.kill(SIGTERM)
    let other = try await second.wait()
    let received = try receiver.received().compactMap {
      ($0["notification"] as? [String: Any])?["notificationUUID"] as? String
    }
    #expect(received.count == 13 && Set(received).count == 13, "each notification once: \(received)")
    #expect(other.stdout.contains("another monkeyshop server sends this folder's notifications"), "\(other)")
    #expect(other.stdout.contains("the other server stopped; this one sends them now"), "\(other)")
    #expect(other.stdout.contains("App Store Server Notification ONE_TIME_CHARGE"), "\(other)")
  }

  @Test("notification-sender.lock deleted while a server sends: a second server and the first never both send")
  func deletedLockFile() async throws {
    let folder = try ShopFolder("notify-lock-deleted")
    let receiver = try await Receiver(in: folder, root: try await exportRoot(folder))
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let first = try Child(["server", "--port", "0"], in: folder)
    while try receiver.received().isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    try FileManager.default.removeItem(atPath: folder.data.appendingPathComponent("notification-sender.lock").path)
    let second = try Child(["server", "--port", "0"], in: folder)
    // The first notices within a round or two that its lock file is gone and claims the new one,
    // which the second may hold by then: from here on one of them sends.
    try await Task.sleep(for: .seconds(1))
    for _ in 0..<3 { try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder)) }
    _ = try await waitFor(folder, "every delivery") { $0.count == 4 && $0.allSatisfy(Self.delivered) }
    try await Task.sleep(for: .milliseconds(500))
    first.kill(SIGTERM)
    second.kill(SIGTERM)
    let outputs = [try await first.wait(), try await second.wait()]
    let received = try receiver.received().compactMap {
      ($0["notification"] as? [String: Any])?["notificationUUID"] as? String
    }
    #expect(received.count == 4 && Set(received).count == 4, "each notification once: \(received)")
    #expect(outputs[0].stdout.contains("notification-sender.lock was deleted or replaced"), "\(outputs[0])")
  }

  @Test("a notificationURL written into store.json by hand with a port beyond 65535 is a failed attempt, not a crash")
  func unusableStoredURL() async throws {
    let folder = try ShopFolder("notify-bad-port")
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", "http://127.0.0.1:9/", in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let text = try String(contentsOfFile: folder.storePath, encoding: .utf8)
    try text.replacingOccurrences(of: "http:\\/\\/127.0.0.1:9\\/", with: "http:\\/\\/127.0.0.1:65536\\/")
      .replacingOccurrences(of: "http://127.0.0.1:9/", with: "http://127.0.0.1:65536/")
      .write(toFile: folder.storePath, atomically: true, encoding: .utf8)
    let server = try Child(["server", "--port", "0"], in: folder)
    let listed = try await waitFor(folder, "the attempt") { ($0.first?["sendAttempts"] as? [Any])?.isEmpty == false }
    server.kill(SIGTERM)
    let stopped = try await server.wait()
    #expect(stopped.exitStatus == 0, "the server goes on: \(stopped)")
    let attempts = try #require(listed[0]["sendAttempts"] as? [[String: Any]])
    #expect(attempts.first?["sendAttemptResult"] as? String == "OTHER", "\(attempts)")
  }

  @Test("notificationURL refuses what is not an http(s) URL with exit 64, naming what was expected")
  func badURL() async throws {
    let folder = try ShopFolder("notify-url")
    let refused = try await monkeyshop("store", "set", "notificationURL", "ftp://example.com/", in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    #expect(refused.stderr.contains("expected an http:// or https:// URL, or none"), "\(refused)")
    // A port no socket has would stop the sender; credentials are named as what is wrong.
    let port = try await monkeyshop("store", "set", "notificationURL", "http://127.0.0.1:65536/", in: folder)
    #expect(port.exitStatus == 64 && port.stderr.contains("expected a port from 1 to 65535"), "\(port)")
    let user = try await monkeyshop("store", "set", "notificationURL", "http://user:pw@127.0.0.1:9/", in: folder)
    #expect(user.exitStatus == 64 && user.stderr.contains("expected a URL without a user name or password"), "\(user)")
    let shown = try expectSuccess(await monkeyshop("store", "show", in: folder))
    #expect(shown.stdout.contains("notificationURL             none"), "\(shown)")
  }
}
