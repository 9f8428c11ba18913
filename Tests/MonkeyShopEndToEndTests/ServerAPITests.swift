import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop server` judged by Apple's App Store Server Library: its `AppStoreServerAPIClient`,
/// pointed at the running server as a developer's server would be, calls every endpoint, and its
/// `SignedDataVerifier` verifies every signed transaction that comes back.
@Suite("App Store Server API through Apple's client", .tags(.endToEnd, .needsPython), .timeLimit(.minutes(3)))
struct ServerAPITests {
  static let script = Locations.repository.appendingPathComponent("Tests/ServerClient/call_server.py").path

  /// A running server over a data folder, with what a client needs to reach it.
  final class RunningServer: @unchecked Sendable {
    let folder: ShopFolder
    let child: Child
    let url: String
    let key: [String: Any]
    let root: String

    init(_ folder: ShopFolder, arguments: [String] = []) async throws {
      self.folder = folder
      let made = try expectSuccess(await monkeyshop("server", "key", "--json", in: folder))
      key = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
      root = folder.file("root.der").path
      try expectSuccess(await monkeyshop("store", "certificate", "--out", root, in: folder))
      child = try Child(["server", "--port", "0"] + arguments, in: folder)
      let deadline = ContinuousClock.now + .seconds(60)
      var found: String?
      while found == nil, ContinuousClock.now < deadline {
        let text = (try? String(contentsOfFile: child.stdoutPath, encoding: .utf8)) ?? ""
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }) {
          found = String(line.dropFirst("listening on ".count))
        } else {
          try await Task.sleep(for: .milliseconds(20))
        }
      }
      guard let found else {
        child.kill()
        throw E2EFailure("the server did not say where it listens: \(child.waitBlocking())")
      }
      url = found
    }

    /// Stops it as Ctrl-C would; it must end cleanly.
    func stop(_ signal: Int32 = SIGTERM) async throws -> ChildResult {
      child.kill(signal)
      return try await child.wait(timeout: .seconds(15))
    }

    /// Apple's client makes each call; one result per call.
    func call(_ calls: [[String: Any]]) async throws -> [[String: Any]] {
      let python = try Tools.requirePython(for: "Apple's App Store Server Library runs in it")
      let plan = String(decoding: try JSONSerialization.data(withJSONObject: calls), as: UTF8.self)
      let arguments = [
        ServerAPITests.script, url, "\(key["keyFile"]!)", "\(key["keyID"]!)", "\(key["issuerID"]!)",
        "\(key["bundleID"]!)", root, "Sandbox", plan,
      ]
      let result = try await Child(executable: python, arguments, in: folder, environment: folder.environment())
        .wait(timeout: .seconds(90))
      guard result.exitStatus == 0 else {
        throw E2EFailure(
          "Apple's client did not run (\(Tools.missingPackage("app-store-server-library==3.1.2"))): \(result)")
      }
      let lines = try result.stdout.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result)")
      }
      #expect(lines.count == calls.count, "\(result)")
      return lines
    }
  }

  static func response(_ result: [String: Any]) throws -> [String: Any] {
    guard result["ok"] as? Bool == true, let response = result["response"] as? [String: Any] else {
      throw E2EFailure("the call failed: \(result)")
    }
    return response
  }

  static func error(_ result: [String: Any]) -> (status: Int, code: Int?)? {
    guard result["ok"] as? Bool == false, let status = result["status"] as? Int else { return nil }
    return (status, result["errorCode"] as? Int)
  }

  /// The transaction IDs of every page's verified transactions.
  static func ids(_ response: [String: Any]) -> [[String]] {
    let pages = response["pages"] as? [[String: Any]] ?? [response]
    return pages.map { page in
      (page["signedTransactions"] as? [[String: Any]] ?? []).compactMap { $0["transactionId"] as? String }
    }
  }

  @Test("Every endpoint answers Apple's client, and every signed transaction verifies")
  func everyEndpoint() async throws {
    let folder = try ShopFolder("server-api")
    // 22 purchases: 21 consumables (1, 2, 4, …) and a non-consumable (#3); #2 refunded.
    for index in 1...22 {
      let product = index == 3 ? "com.monkeyshop.jungle-map" : "com.monkeyshop.credits.5"
      try expectSuccess(await monkeyshop("buy", product, in: folder))
    }
    try expectSuccess(await monkeyshop("store", "refund", "2", in: folder))
    let listed = try expectSuccess(await monkeyshop("store", "transactions", "--json", in: folder))
    let transactions = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let stored = Dictionary(uniqueKeysWithValues: transactions.map { ("\($0["id"]!)", $0["jws"] as? String) })
    let orderOf3 = try #require(transactions.first { "\($0["id"]!)" == "3" }?["orderID"] as? String, "\(listed)")

    let server = try await RunningServer(folder)
    let results = try await server.call([
      ["op": "transaction_info", "id": "1"],
      ["op": "transaction_info", "id": "2"],
      ["op": "history_v2", "id": "1", "allPages": true],
      ["op": "history_v2", "id": "4", "sort": "DESCENDING", "allPages": true],
      ["op": "history_v2", "id": "1", "productTypes": ["NON_CONSUMABLE"]],
      ["op": "history_v2", "id": "1", "revoked": true],
      ["op": "history_v2", "id": "1", "productIds": ["com.monkeyshop.jungle-map", "com.monkeyshop.credits.10"]],
      ["op": "history_v1", "id": "1", "allPages": true],
      ["op": "refund_history", "id": "5"],
      ["op": "look_up_order", "orderId": orderOf3],
      ["op": "look_up_order", "orderId": "ZZZZZZZZZZ"],
      [
        "op": "consumption", "id": "4", "deliveryStatus": "DELIVERED", "consumptionPercentage": 50000,
        "refundPreference": "GRANT_PRORATED",
      ],
      ["op": "consumption_v1", "id": "4"],
      ["op": "subscription_statuses", "id": "1"],
      ["op": "extend", "id": "1"],
      ["op": "transaction_info", "id": "999"],
    ])
    // Get Transaction Info: the stored signed transaction, verified.
    let info = try #require(Self.response(results[0])["signedTransactionInfo"] as? [String: Any])
    #expect(info["transactionId"] as? String == "1")
    #expect(info["productId"] as? String == "com.monkeyshop.credits.5")
    let refunded = try #require(Self.response(results[1])["signedTransactionInfo"] as? [String: Any])
    #expect(refunded["revocationDate"] != nil, "\(refunded)")
    // History: 20 and 2, each once, the refund last (its refund is its latest change).
    let ascending = Self.ids(try Self.response(results[2]))
    #expect(ascending.map(\.count) == [20, 2], "\(ascending)")
    let everyID: Set<String> = Set((1...22).map { String($0) })
    #expect(Set(ascending.flatMap { $0 }) == everyID)
    #expect(ascending.flatMap { $0 }.last == "2")
    let page = (try Self.response(results[2])["pages"] as? [[String: Any]])?.first ?? [:]
    #expect(page["bundleId"] as? String == "com.monkeyshop.app")
    #expect(page["environment"] as? String == "Sandbox")
    #expect(Self.ids(try Self.response(results[3])).flatMap { $0 } == ascending.flatMap { $0 }.reversed())
    #expect(Self.ids(try Self.response(results[4])) == [["3"]])
    #expect(Self.ids(try Self.response(results[5])) == [["2"]])
    #expect(Self.ids(try Self.response(results[6])) == [["3"]])
    // V1 leaves out the finished consumables that were not refunded.
    #expect(Set(Self.ids(try Self.response(results[7])).flatMap { $0 }) == ["2", "3"])
    // Refund history: the refund.
    #expect(Self.ids(try Self.response(results[8])) == [["2"]])
    // Look Up Order ID: valid with the purchase; an unknown order is status 1, no transactions.
    let order = try Self.response(results[9])
    #expect(order["status"] as? Int == 0)
    #expect(Self.ids(order) == [["3"]])
    let unknownOrder = try Self.response(results[10])
    #expect(unknownOrder["status"] as? Int == 1)
    #expect(unknownOrder["signedTransactions"] == nil)
    // Send Consumption Information, both endpoints: accepted and kept.
    _ = try Self.response(results[11])
    _ = try Self.response(results[12])
    let received = try folder.jsonObject(folder.data.appendingPathComponent("consumption.json").path)
    let reports = try #require(received["reports"] as? [[String: Any]], "\(received)")
    #expect(reports.map { $0["transactionID"] as? String } == ["4", "4"])
    #expect(reports.map { $0["endpoint"] as? String } == ["v2", "v1"])
    let shown = try expectSuccess(await monkeyshop("store", "show", in: folder))
    #expect(shown.stdout.components(separatedBy: "Send Consumption Information #4 received").count == 3, "\(shown)")
    // No subscriptions: no statuses; an extension is refused.
    let statuses = try Self.response(results[13])
    #expect((statuses["data"] as? [Any])?.isEmpty == true, "\(statuses)")
    #expect(Self.error(results[14])?.status == 403 && Self.error(results[14])?.code == 4_030_004, "\(results[14])")
    #expect(Self.error(results[15])?.status == 404 && Self.error(results[15])?.code == 4_040_010, "\(results[15])")

    // What the server served is what the App Store signed and stored: byte for byte.
    let raw = try await server.call([["op": "raw", "path": "/inApps/v1/transactions/1"]])
    let body = try #require(Self.response(raw[0])["body"] as? String)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    #expect(object["signedTransactionInfo"] as? String == stored["1"] ?? nil)

    // A purchase made while the server runs is served at once.
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.10", in: folder))
    let after = try await server.call([["op": "transaction_info", "id": "23"]])
    let newest = try #require(Self.response(after[0])["signedTransactionInfo"] as? [String: Any])
    #expect(newest["productId"] as? String == "com.monkeyshop.credits.10")
    // So is a refund of an old purchase, which the history holds.
    try expectSuccess(await monkeyshop("store", "refund", "5", in: folder))
    let refunds = try await server.call([["op": "refund_history", "id": "1"]])
    #expect(Self.ids(try Self.response(refunds[0])) == [["2", "5"]])

    let ended = try await server.stop(SIGINT)
    #expect(ended.exitStatus == 0, "\(ended)")
  }

  @Test("Bad tokens get 401; bad input gets Apple's error codes, never a crash")
  func refusals() async throws {
    let folder = try ShopFolder("server-refusals")
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let server = try await RunningServer(folder)
    let tokens: [[String: Any]] = [
      ["op": "token", "spec": ["missing": true]],
      ["op": "token", "spec": ["relative": ["exp": -60]]],
      ["op": "token", "spec": ["claims": ["aud": "appstoreconnect-v2"]]],
      ["op": "token", "spec": ["claims": ["bid": "com.example.other"]]],
      ["op": "token", "spec": ["kid": "ABCDEFGHIJ"]],
      ["op": "token", "spec": ["otherKey": true]],
      ["op": "token", "spec": ["claims": ["iss": "00000000-0000-0000-0000-000000000000"]]],
      ["op": "token", "spec": ["relative": ["iat": 0, "exp": 7200]]],
      ["op": "token", "spec": ["relative": ["exp": 7200]]],
      ["op": "token", "spec": ["header": "Bearer not.a.token"]],
      // An `iat` a year ahead does not make a token good for a year.
      ["op": "token", "spec": ["relative": ["iat": 31_536_000, "exp": 31_539_600]]],
      // Apple's own client sends no `iat`; with one, an hour's life is allowed.
      ["op": "token", "spec": [:]],
      ["op": "token", "spec": ["relative": ["iat": 0, "exp": 3600]]],
    ]
    let answers = try await server.call(tokens)
    for (index, answer) in answers.prefix(11).enumerated() {
      let response = try Self.response(answer)
      #expect(response["status"] as? Int == 401, "token \(index): \(answer)")
    }
    for answer in answers.suffix(2) {
      #expect(try Self.response(answer)["status"] as? Int == 200, "\(answer)")
    }

    let bad = try await server.call([
      ["op": "transaction_info", "id": "abc"],
      ["op": "history_v2", "id": "1", "revision": "bm90LWEtcmV2aXNpb24"],
      ["op": "history_v2", "id": "12345"],
      ["op": "refund_history", "id": "1", "revision": "%%%"],
      ["op": "history_v2", "id": "1", "startDate": 2_000, "endDate": 1_000],
      ["op": "consumption", "id": "1", "customerConsented": false],
      ["op": "look_up_order", "orderId": "not-an-order"],
      ["op": "raw", "method": "PUT", "path": "/inApps/v2/transactions/consumption/1", "body": "{not json"],
      [
        "op": "raw", "method": "PUT", "path": "/inApps/v2/transactions/consumption/1",
        "body": "{\"customerConsented\":true,\"deliveryStatus\":\"DELIVERED\",\"sampleContentProvided\":false,\"x\":\""
          + String(repeating: "a", count: 100_000) + "\"}",
      ],
      [
        "op": "raw", "method": "PUT", "path": "/inApps/v2/transactions/consumption/1",
        "body": "{\"customerConsented\":true,\"deliveryStatus\":\"SOMEWHAT\",\"sampleContentProvided\":false}",
      ],
      ["op": "raw", "path": "/inApps/v1/history/1?startDate=soon"],
      // A known path with a method it does not take: 404, as an unknown path (docs/server.md).
      ["op": "raw", "method": "DELETE", "path": "/inApps/v1/transactions/1"],
      ["op": "raw", "method": "POST", "path": "/inApps/v1/transactions/1", "body": "{}"],
      // Get Notification History without the startDate it requires.
      ["op": "raw", "method": "POST", "path": "/inApps/v1/notifications/history", "body": "{}"],
    ])
    #expect(Self.error(bad[0])?.code == 4_000_006, "\(bad[0])")
    #expect(Self.error(bad[1])?.code == 4_000_005, "\(bad[1])")
    #expect(Self.error(bad[2])?.code == 4_040_010 && Self.error(bad[2])?.status == 404, "\(bad[2])")
    #expect(Self.error(bad[3])?.code == 4_000_005, "\(bad[3])")
    #expect(Self.error(bad[4])?.code == 4_000_016, "\(bad[4])")
    #expect(Self.error(bad[5])?.code == 4_000_035, "\(bad[5])")
    #expect(Self.error(bad[6])?.code == 4_000_000 && Self.error(bad[6])?.status == 400, "\(bad[6])")
    for index in [7, 8] {
      let response = try Self.response(bad[index])
      #expect(response["status"] as? Int == 400, "\(bad[index])")
      #expect(response["body"] as? String == "", "\(bad[index])")
    }
    let delivery = try Self.response(bad[9])
    #expect(delivery["status"] as? Int == 400)
    #expect(delivery["contentType"] as? String == "application/json")
    #expect(
      delivery["body"] as? String
        == #"{"errorCode":4000036,"errorMessage":"Invalid request. The delivery status field is invalid."}"#)
    let date = try Self.response(bad[10])
    #expect(date["status"] as? Int == 400 && (date["body"] as? String)?.contains("4000015") == true, "\(date)")
    for index in [11, 12] {
      #expect(try Self.response(bad[index])["status"] as? Int == 404, "\(bad[index])")
    }
    let history = try Self.response(bad[13])
    #expect(
      history["status"] as? Int == 400
        && history["body"] as? String
          == #"{"errorCode":4000015,"errorMessage":"Invalid request. The start date is invalid."}"#,
      "\(history)")
    // Nothing bad was recorded.
    #expect(!FileManager.default.fileExists(atPath: folder.data.appendingPathComponent("consumption.json").path))

    let ended = try await server.stop()
    #expect(ended.exitStatus == 0, "\(ended)")
  }

  @Test(
    "The notification endpoints: a test notification the server's sender delivers, its status, and the history, verified by Apple's library"
  )
  func notificationEndpoints() async throws {
    let folder = try ShopFolder("server-notifications")
    let noURL = try await RunningServer(folder)
    let refused = try await noURL.call([["op": "request_test_notification"]])
    #expect(refused[0]["status"] as? Int == 404 && refused[0]["errorCode"] as? Int == 4_040_007, "\(refused)")
    _ = try await noURL.stop()
    let receiver = try await ServerNotificationEndToEndTests.Receiver(in: folder, root: noURL.root)
    try expectSuccess(await monkeyshop("store", "set", "notificationURL", receiver.url, in: folder))
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    try expectSuccess(await monkeyshop("store", "refund", "1", in: folder))
    let server = try await RunningServer(folder)
    let asked = try await server.call([["op": "request_test_notification"]])
    let token = try #require(Self.response(asked[0])["testNotificationToken"] as? String, "\(asked)")
    // The server's own sender delivers it (and the purchase's and refund's): three POSTs.
    let deadline = ContinuousClock.now + .seconds(30)
    while try receiver.received().count < 3, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let results = try await server.call([
      ["op": "test_notification_status", "token": token],
      ["op": "test_notification_status", "token": UUID().uuidString.lowercased()],
      ["op": "notification_history", "startDate": now - 3_600_000, "endDate": now + 60_000],
      [
        "op": "notification_history", "startDate": now - 3_600_000, "endDate": now + 60_000,
        "notificationType": "REFUND",
      ],
      ["op": "notification_history", "startDate": now, "endDate": now - 1],
      ["op": "notification_history", "startDate": now - 3_600_000, "endDate": now, "transactionId": "99"],
    ])
    let status = try Self.response(results[0])
    let test = try #require(status["notification"] as? [String: Any], "\(status)")
    #expect(test["notificationType"] as? String == "TEST", "\(test)")
    let attempts = try #require(status["sendAttempts"] as? [[String: Any]], "\(status)")
    #expect(attempts.first?["sendAttemptResult"] as? String == "SUCCESS", "\(attempts)")
    #expect(results[1]["status"] as? Int == 404 && results[1]["errorCode"] as? Int == 4_040_008, "\(results[1])")
    let everything = try #require(
      (Self.response(results[2])["pages"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
    let types = everything.compactMap { ($0["notification"] as? [String: Any])?["notificationType"] as? String }
    #expect(types == ["ONE_TIME_CHARGE", "REFUND", "TEST"], "\(everything)")
    let refunds = try #require(
      (Self.response(results[3])["pages"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
    #expect(refunds.count == 1, "\(refunds)")
    #expect(results[4]["status"] as? Int == 400 && results[4]["errorCode"] as? Int == 4_000_013, "\(results[4])")
    #expect(results[5]["status"] as? Int == 404 && results[5]["errorCode"] as? Int == 4_040_010, "\(results[5])")
    let stopped = try await server.stop()
    #expect(stopped.exitStatus == 0, "\(stopped)")
    #expect(
      stopped.stdout.contains("App Store Server Notification TEST → \(receiver.url) · 200 · attempt 1"), "\(stopped)")
  }

  @Test("Set App Account Token changes what later reads say; Get App Transaction Info verifies as Apple's")
  func accountAndAppTransaction() async throws {
    let folder = try ShopFolder("server-account")
    for product in ["com.monkeyshop.credits.5", "com.monkeyshop.jungle-map"] {
      try expectSuccess(await monkeyshop("buy", product, in: folder))
    }
    let server = try await RunningServer(folder)
    let token = "7389a31a-fb6d-4569-a2a6-db7d85d84813"
    let before = try await server.call([["op": "transaction_info", "id": "1"]])
    let first = try #require(Self.response(before[0])["signedTransactionInfo"] as? [String: Any])
    #expect(first["appAccountToken"] == nil, "\(first)")
    let appTransactionID = try #require(first["appTransactionId"] as? String, "\(first)")
    let results = try await server.call([
      ["op": "set_app_account_token", "id": "1", "token": token],
      ["op": "transaction_info", "id": "1"],
      ["op": "history_v2", "id": "1"],
      ["op": "transaction_info", "id": "2"],
      ["op": "set_app_account_token", "id": "1", "token": "not-a-uuid"],
      ["op": "set_app_account_token", "id": "99", "token": token],
      ["op": "app_transaction_info", "id": "2"],
      ["op": "app_transaction_info", "id": appTransactionID],
      ["op": "transaction_info", "id": appTransactionID],
      ["op": "app_transaction_info", "id": "99"],
    ])
    _ = try Self.response(results[0])
    let updated = try #require(Self.response(results[1])["signedTransactionInfo"] as? [String: Any])
    #expect(updated["appAccountToken"] as? String == token, "\(updated)")
    let page = (try Self.response(results[2])["pages"] as? [[String: Any]])?.first
    let listed = page?["signedTransactions"] as? [[String: Any]] ?? []
    #expect(listed.first { $0["transactionId"] as? String == "1" }?["appAccountToken"] as? String == token)
    // Only the transaction named changes.
    let other = try #require(Self.response(results[3])["signedTransactionInfo"] as? [String: Any])
    #expect(other["appAccountToken"] == nil, "\(other)")
    #expect(Self.error(results[4])?.code == 4_000_183, "\(results[4])")
    #expect(Self.error(results[5])?.code == 4_040_005 && Self.error(results[5])?.status == 404, "\(results[5])")
    for index in [6, 7] {
      let app = try #require(Self.response(results[index])["signedAppTransactionInfo"] as? [String: Any])
      #expect(app["appTransactionId"] as? String == appTransactionID, "\(app)")
      #expect(app["bundleId"] as? String == "com.monkeyshop.app")
      #expect(app["receiptType"] as? String == "Sandbox")
    }
    #expect(Self.error(results[8])?.code == 4_000_048, "\(results[8])")
    #expect(Self.error(results[9])?.code == 4_040_010, "\(results[9])")
    // The app's own record says it too.
    let listedByStore = try expectSuccess(await monkeyshop("store", "transactions", "--json", in: folder))
    #expect(listedByStore.stdout.contains(token), "\(listedByStore)")
    let ended = try await server.stop()
    #expect(ended.exitStatus == 0, "\(ended)")
  }

  @Test("server key: made once, the same facts after; --out copies the .p8 and never over another file")
  func key() async throws {
    let folder = try ShopFolder("server-key")
    let first = try expectSuccess(await monkeyshop("server", "key", "--json", in: folder))
    let second = try expectSuccess(await monkeyshop("server", "key", "--json", in: folder))
    #expect(first.stdout == second.stdout)
    let facts = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
    let keyID = try #require(facts["keyID"] as? String)
    #expect(keyID.count == 10 && keyID.allSatisfy { $0.isUppercase || $0.isNumber })
    #expect(UUID(uuidString: try #require(facts["issuerID"] as? String)) != nil)
    #expect(facts["bundleID"] as? String == "com.monkeyshop.app")
    let path = try #require(facts["keyFile"] as? String)
    #expect(path.hasSuffix("/SubscriptionKey_\(keyID).p8"))
    let pem = try #require(try? String(contentsOfFile: path, encoding: .utf8))
    #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    #expect(mode == 0o600)

    let out = folder.root.appendingPathComponent("keys")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let copied = try expectSuccess(await monkeyshop("server", "key", "--out", out.path, in: folder))
    #expect(copied.stdout.contains("key ID     \(keyID)"), "\(copied)")
    let copy = out.appendingPathComponent("SubscriptionKey_\(keyID).p8").path
    #expect(FileManager.default.contents(atPath: copy) == Data(pem.utf8))
    // Again: the same file is there, nothing changes.
    try expectSuccess(await monkeyshop("server", "key", "--out", out.path, in: folder))
    // A different file of that name is never overwritten.
    try Data("someone else's key\n".utf8).write(to: URL(fileURLWithPath: copy))
    let refused = try await monkeyshop("server", "key", "--out", out.path, in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    #expect(refused.stderr.contains("a different file is already there"), "\(refused)")
    #expect(FileManager.default.contents(atPath: copy) == Data("someone else's key\n".utf8))
  }

  @Test("A client that sends its request a byte at a time is cut off; others are answered meanwhile")
  func slowClient() async throws {
    let folder = try ShopFolder("server-slow-client")
    try expectSuccess(await monkeyshop("buy", "com.monkeyshop.credits.5", in: folder))
    let server = try await RunningServer(folder, arguments: ["--request-timeout", "2"])
    let port = try #require(server.url.split(separator: ":").last.flatMap { UInt16($0) })
    let slow = try SlowClient(port: port)
    let started = ContinuousClock.now
    let request = Array("GET /inApps/v1/transactions/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
    var sent = 0
    // Meanwhile another client is answered. Called beside the byte stream, not within it: on a
    // loaded machine the call can take seconds, and the slow client must go on sending meanwhile.
    let other = Task {
      try await Task.sleep(for: .milliseconds(400))
      let answer = try await server.call([["op": "raw", "path": "/inApps/v1/transactions/1"]])
      return try Self.response(answer[0])["status"] as? Int == 200
    }
    // One byte every 200 ms: never idle long, never a whole request.
    while slow.send(request[sent % request.count]) {
      sent += 1
      try await Task.sleep(for: .milliseconds(200))
      #expect(ContinuousClock.now - started < .seconds(30), "the slow connection is never closed")
      if ContinuousClock.now - started > .seconds(30) { break }
    }
    let closedAfter = ContinuousClock.now - started
    #expect(try await other.value)
    #expect(closedAfter >= .seconds(1.5) && closedAfter < .seconds(20), "closed after \(closedAfter)")
    let ended = try await server.stop()
    #expect(ended.exitStatus == 0, "\(ended)")
  }

  /// A TCP connection to the server that sends a byte at a time.
  final class SlowClient {
    let socket: Int32

    init(port: UInt16) throws {
      socket = try Loopback.connect(port: port)
    }

    deinit { close(socket) }

    /// False once the server has closed the connection.
    func send(_ byte: UInt8) -> Bool {
      var closed = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      if poll(&closed, 1, 0) > 0 {
        var buffer = [UInt8](repeating: 0, count: 256)
        if recv(socket, &buffer, buffer.count, 0) <= 0 { return false }
      }
      var byte = byte
      return Glibc.send(socket, &byte, 1, Int32(MSG_NOSIGNAL)) == 1
    }
  }

  @Test("A host other than loopback is warned about")
  func nonLoopback() async throws {
    let folder = try ShopFolder("server-host")
    let child = try Child(["server", "--host", "0.0.0.0", "--port", "0"], in: folder)
    let deadline = ContinuousClock.now + .seconds(60)
    var listening = false
    while !listening, ContinuousClock.now < deadline {
      let text = (try? String(contentsOfFile: child.stdoutPath, encoding: .utf8)) ?? ""
      listening = text.contains("listening on http://0.0.0.0:")
      if !listening { try await Task.sleep(for: .milliseconds(20)) }
    }
    child.kill(SIGTERM)
    let ended = try await child.wait(timeout: .seconds(15))
    #expect(listening, "\(ended)")
    #expect(ended.exitStatus == 0, "\(ended)")
    #expect(ended.stderr.contains("warning: listening on 0.0.0.0, which other machines may reach"), "\(ended)")
  }
}
