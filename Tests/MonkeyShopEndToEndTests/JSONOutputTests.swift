import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// Evidence a QA engineer keeps: `--json` on `buy` and `store show`, ISO 8601 dates in every JSON
/// output, and the storefront's event log as JSON Lines (`--log-file`).
@Suite("JSON output and the event log file", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct JSONOutputTests {
  @Test("buy --json: the outcome, the transaction, the balance and every event, dates in ISO 8601")
  func buyJSON() async throws {
    let folder = try ShopFolder("buy-json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let result = try await monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", "--json", in: folder)
    try expectSuccess(result)
    let object = try jsonObject(result.stdout)
    #expect(object["outcome"] as? String == "purchased", "\(result)")
    #expect(object["balance"] as? Int == 20, "\(result)")
    #expect(object["creditedBy"] as? String == "this command", "\(result)")
    let transaction = try #require(object["transaction"] as? [String: Any], "\(result)")
    #expect(transaction["id"] as? String == "1")
    #expect(transaction["quantity"] as? Int == 2)
    #expect(transaction["finished"] as? Bool == true)
    try expectISO8601(transaction["purchaseDate"])
    let events = try #require(object["events"] as? [[String: Any]], "\(result)")
    #expect(
      events.compactMap { $0["event"] as? String } == [
        "observerAdded", "canMakePayments", "productsRequested", "productsReceived", "paymentAdded", "purchasing",
        "purchased", "delivered", "finished",
      ], "\(result)")
    for event in events {
      try expectISO8601(event["time"])
      #expect(event["ms"] is Int, "\(event)")
      #expect(event["text"] is String, "\(event)")
    }
    #expect(events.last?["transactionIdentifier"] as? String == "1")
  }

  @Test("buy --json of a failed purchase: JSON with the transaction's error ID, the message on stderr, exit 1")
  func buyJSONFailed() async throws {
    let folder = try ShopFolder("buy-json-failed")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "failNext", "5002", in: folder))
    let result = try await monkeyshop("buy", ShippedCatalog.five, "--json", in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stderr.contains("MS-E0007"), "\(result)")
    let object = try jsonObject(result.stdout)
    #expect(object["outcome"] as? String == "failed", "\(result)")
    let transaction = try #require(object["transaction"] as? [String: Any], "\(result)")
    #expect(transaction["errorID"] as? String == "MS-E0007")
    #expect(transaction["errorCode"] as? Int == 5002)
    let events = try #require(object["events"] as? [[String: Any]])
    #expect(events.contains { $0["event"] as? String == "failed" && $0["errorID"] as? String == "MS-E0007" })
  }

  @Test("store show --json: every condition as store set takes it, and the time read in ISO 8601")
  func storeShowJSON() async throws {
    let folder = try ShopFolder("show-json")
    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "storefront", "JPN", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "network", "up", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "on", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    let result = try await monkeyshop("store", "show", "--json", in: folder)
    try expectSuccess(result)
    let object = try jsonObject(result.stdout)
    let conditions = try #require(object["conditions"] as? [String: String], "\(result)")
    #expect(conditions["network"] == "down")
    #expect(conditions["storefront"] == "JPN")
    #expect(conditions["latency"] == "instant")
    #expect(conditions.count == Condition.allCases.count, "\(conditions)")
    #expect(conditions["skipPaymentSheet"] == "off")
    // A purchase waiting for a parent has not ended: it is counted, as launch --json counts it.
    #expect(object["transactions"] as? Int == 1, "\(result)")
    #expect(object["deferred"] as? Int == 1, "\(result)")
    #expect(object["awaitingFinish"] as? Int == 0, "\(result)")
    try expectISO8601(object["at"])
  }

  @Test("store transactions --json gives each purchase date in ISO 8601")
  func transactionDates() async throws {
    let folder = try ShopFolder("transactions-dates")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    let result = try await monkeyshop("store", "transactions", "--json", in: folder)
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
    #expect(array.count == 1)
    try expectISO8601(array.first?["purchaseDate"])
  }

  @Test(
    "--log-file refuses a path it cannot write before the screen opens: exit 64, the path and why, nothing else",
    arguments: [
      ("a-file/events.jsonl", "cannot create the folder"), ("a-folder", "is a folder"),
      ("fifo", "is a FIFO, not a regular file"),
      // A person's file is not added to: only an earlier log of events.
      ("a-file", "is not a monkeyshop event log; it is left as it is"),
    ])
  func logFileUnwritable(_ name: String, _ why: String) async throws {
    let folder = try ShopFolder("log-file-refused")
    try FileManager.default.createDirectory(
      at: folder.root.appendingPathComponent("a-folder"), withIntermediateDirectories: true)
    try "notes".write(to: folder.root.appendingPathComponent("a-file"), atomically: false, encoding: .utf8)
    #expect(mkfifo(folder.root.appendingPathComponent("fifo").path, 0o644) == 0)
    let path = folder.root.appendingPathComponent(name).path
    // No terminal: had the path been accepted, the storefront would say it needs one (exit 1).
    let result = try await Child(["--log-file", path], in: folder).wait()
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains("--log-file \(path): \(why)"), "\(result)")
    #expect(!result.stderr.contains("No such device"), "\(result)")
    #expect(!result.stderr.contains("needs a terminal"), "\(result)")
  }

  @Test("--log-file into a folder that does not exist yet creates it, as --junit and --cast do")
  func logFileCreatesItsFolder() async throws {
    let folder = try ShopFolder("log-file-new-folder")
    let path = folder.root.appendingPathComponent("logs/today/events.jsonl").path
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront(["--log-file", path])
    try await tmux.waitFor("Buy $0.99")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("\"event\":\"productsReceived\""), "\(text)")
    try await tmux.press("q")
  }

  @Test(
    "--log-file refuses what is not a regular file (a FIFO would hang, a device swallow the events) and the data folder's own files, before the screen opens",
    arguments: ["fifo", "/dev/full", "data/wallet.json", "data/events.jsonl", "link-to-store"])
  func logFileRefusedPlaces(_ name: String) async throws {
    let folder = try ShopFolder("log-file-places")
    try FileManager.default.createDirectory(at: folder.data, withIntermediateDirectories: true)
    let fifo = folder.root.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o644) == 0)
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try FileManager.default.createSymbolicLink(
      atPath: folder.root.appendingPathComponent("link-to-store").path, withDestinationPath: folder.storePath)
    let path = name.hasPrefix("/") ? name : folder.root.appendingPathComponent(name).path
    let before = FileManager.default.contents(atPath: path)
    let storeBefore = try Data(contentsOf: URL(fileURLWithPath: folder.storePath))
    let result = try await Child(["--log-file", path], in: folder).wait()
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains("--log-file \(path):"), "\(result)")
    #expect(!result.stderr.contains("needs a terminal"), "\(result)")
    if !name.hasPrefix("/dev") { #expect(FileManager.default.contents(atPath: path) == before, "left as it was") }
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.storePath)) == storeBefore, "store.json untouched")
  }

  @Test("--log-file: the storefront appends every event as a JSON line as it happens, with IDs")
  func logFileInTmux() async throws {
    let folder = try ShopFolder("log-file")
    let path = folder.root.appendingPathComponent("events.jsonl").path
    // An earlier run's log: added to, not overwritten.
    let earlier = #"{"event":"observerAdded","earlier":true}"#
    try (earlier + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront(["--log-file", path])
    try await tmux.waitFor("Buy $0.99")
    // A cancel on the payment sheet, then a purchase.
    try await tmux.press("5")
    try await tmux.waitFor("Cancel")
    try await tmux.press("Escape")
    try await tmux.waitFor("cancelled")
    try await tmux.press("0")
    try await tmux.waitFor("Cancel")
    try await tmux.press("Enter")
    try await tmux.waitForBalance(10)

    // Read while the storefront still runs: every line is there already.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == earlier, "appended, not overwritten")
    let events = try lines.dropFirst().map { try jsonObject($0) }
    for event in events {
      try expectISO8601(event["time"])
      #expect(event["ms"] is Int && event["event"] is String && event["text"] is String, "\(event)")
    }
    let names = events.compactMap { $0["event"] as? String }
    #expect(
      names.starts(with: ["observerAdded", "canMakePayments", "productsRequested", "productsReceived"]), "\(names)")
    let cancel = try #require(events.first { $0["event"] as? String == "failed" }, "\(text)")
    #expect(cancel["payment"] as? String == "1")
    #expect(cancel["transactionIdentifier"] == nil, "a cancelled payment has no transactionIdentifier")
    #expect(cancel["errorID"] as? String == "MS-E0004")
    let delivered = try #require(events.first { $0["event"] as? String == "delivered" }, "\(text)")
    #expect(delivered["transactionIdentifier"] as? String == "2" && delivered["payment"] as? String == "2")
    #expect(delivered["text"] as? String == "deliver #2: +10 credits → balance 10")
    #expect(names.last == "finished", "\(names)")
    // Each line as its published schema says (docs/json/log-file.schema.json).
    try await JSONSchemaCheck.expectValid(
      lines.dropFirst().joined(separator: "\n"), against: "log-file.schema.json", lines: true, in: folder)
    try await tmux.press("q")
  }
}

private func jsonObject(_ text: String) throws -> [String: Any] {
  guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
    throw E2EFailure("not a JSON object: \(text)")
  }
  return object
}

/// A date as ISO 8601 writes it: `2026-11-21T09:30:00.250Z`.
private func expectISO8601(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let text = try #require(
    value as? String, "\(String(describing: value)) is not a string", sourceLocation: sourceLocation)
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  #expect(formatter.date(from: text) != nil, "\(text) is not ISO 8601", sourceLocation: sourceLocation)
}
