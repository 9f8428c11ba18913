import Foundation
import Testing

/// Every transaction stays listed (docs/data-folder.md), and any purchased one can be refunded, once, however
/// old: through the commands a user runs.
@Suite("History and refunds through the command line", .tags(.endToEnd))
struct HistoryCommandTests {
  /// `count` purchases of 5 credits, each delivered and finished.
  func buy(_ count: Int, in folder: ShopFolder) async throws {
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    for _ in 0..<count { try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder)) }
  }

  @Test("after 24 purchases `store transactions` lists all 24, in text and JSON, while store.json keeps 20")
  func everyTransactionListed() async throws {
    let folder = try ShopFolder("history")
    try await buy(24, in: folder)
    let listed = try await storeTransactions(folder)
    #expect(listed.map(\.id) == (1...24).map(String.init))
    #expect(listed.allSatisfy { $0.state == "purchased" && $0.finished })
    let text = try await expectSuccess(monkeyshop("store", "transactions", in: folder)).stdout
    let rows = text.split(separator: "\n").dropFirst()
    #expect(rows.map { String($0.prefix { $0 != " " }) } == (1...24).map(String.init), "\(text)")
    let store = try folder.jsonObject(folder.storePath)
    #expect((store["transactions"] as? [Any])?.count == 20)
    #expect(try await walletBalance(folder) == 120)
  }

  @Test(
    "a refund of a transaction only the history lists: shown refunded with its date and reason; a second is refused")
  func refundOldTransaction() async throws {
    let folder = try ShopFolder("refund")
    try await buy(22, in: folder)
    let refund = try await expectSuccess(
      monkeyshop("store", "refund", "1", "--reason", "developerIssue", in: folder))
    #expect(refund.stdout.contains("refunded: transaction #1"), "\(refund)")
    #expect(refund.stdout.contains("revocationReason developerIssue"), "\(refund)")
    let listed = try await storeTransactions(folder)
    #expect(listed.count == 22)
    let first = try #require(listed.first)
    #expect(first.id == "1" && first.revocationReason == "developerIssue")
    let date = try #require(first.revocationDate)
    #expect(date.hasSuffix("Z") && date.contains("T"), "ISO 8601: \(date)")
    #expect(listed.dropFirst().allSatisfy { $0.revocationDate == nil })
    // Back in the store file, so the app sees it.
    let store = try folder.jsonObject(folder.storePath)
    let ids = (store["transactions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    #expect(ids.contains("1"))
    let text = try await expectSuccess(monkeyshop("store", "transactions", in: folder)).stdout
    #expect(text.contains("refunded \(date) (developerIssue)"), "\(text)")

    let again = try await monkeyshop("store", "refund", "1", in: folder)
    #expect(again.exitStatus == 1, "\(again)")
    #expect(again.stderr.contains("transaction 1 was refunded already"), "\(again)")
    #expect(again.stderr.contains("MS-E0013"), "\(again)")
  }

  @Test(
    "refund: the default reason is other; a failed transaction, an unknown one, what is no id or an unknown reason are refused"
  )
  func refundRefusals() async throws {
    let folder = try ShopFolder("refund-refusals")
    try await buy(1, in: folder)
    try await expectSuccess(monkeyshop("store", "set", "failNext", "2", in: folder))
    _ = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    let other = try await expectSuccess(monkeyshop("store", "refund", "last", in: folder))
    #expect(other.stdout.contains("refunded: transaction #1"), "\(other)")
    #expect(other.stdout.contains("revocationReason other"), "\(other)")
    #expect(try await storeTransactions(folder).first?.revocationReason == "other")

    let failed = try await monkeyshop("store", "refund", "2", in: folder)
    #expect(failed.exitStatus == 1 && failed.stderr.contains("cannot refund transaction 2: it is failed"), "\(failed)")
    let unknown = try await monkeyshop("store", "refund", "99", in: folder)
    #expect(unknown.exitStatus == 1 && unknown.stderr.contains("no transaction '99'"), "\(unknown)")
    // What cannot be a transaction id says so, rather than that the store has no such transaction
    // (or, for `-1`, which the command line takes for an option, that the id is missing).
    let word = try await monkeyshop("store", "approve", "abc", in: folder)
    #expect(word.exitStatus == 1, "\(word)")
    #expect(
      word.stderr.hasPrefix("monkeyshop: 'abc' is not a transaction id (expected a number or last)"), "\(word)")
    for arguments in [["refund-request", "-1"], ["refund", "-1", "--reason", "other"], ["approve", "--", "-1"]] {
      let negative = try await Child(["store"] + arguments, in: folder).wait(timeout: .seconds(60))
      #expect(negative.exitStatus != 0, "\(negative)")
      #expect(
        negative.stderr.hasPrefix("monkeyshop: '-1' is not a transaction id (expected a number or last)"),
        "\(negative)")
    }
    let reason = try await monkeyshop("store", "refund", "1", "--reason", "bored", in: folder)
    #expect(reason.exitStatus == 64, "\(reason)")
    #expect(reason.stderr.contains("'other' and 'developerIssue'"), "\(reason)")
  }

  @Test(
    "a history.jsonl line that is not a transaction: `store transactions` exits 65 naming the file and the line, converting nothing"
  )
  func badHistoryLine() async throws {
    let folder = try ShopFolder("history-bad")
    try await buy(21, in: folder)
    let path = folder.data.appendingPathComponent("history.jsonl").path
    try Data("{\"id\": 2}\n".utf8).write(to: URL(fileURLWithPath: path))
    let result = try await monkeyshop("store", "transactions", in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(FileManager.default.fileExists(atPath: path), "left as it was")
    #expect(result.stderr.contains(path + ": line 1:"), "\(result)")
    #expect(result.stderr.contains("expected one transaction as a JSON object per line"), "\(result)")
  }

  @Test("a wallet left below zero by refunds: wallet show says owed (text and JSON); spend is refused saying so")
  func owedWallet() async throws {
    let folder = try ShopFolder("owed")
    try FileManager.default.createDirectory(at: folder.data, withIntermediateDirectories: true)
    chmod(folder.data.path, 0o700)
    try Data(
      #"{"schemaVersion": 3, "balance": -7, "credited": [[1, 2]], "clawedBack": [[2, 2]], "lastTransactionNumber": 2}"#
        .utf8
    ).write(to: URL(fileURLWithPath: folder.walletPath))
    let text = try await expectSuccess(monkeyshop("wallet", "show", in: folder)).stdout
    #expect(text.contains("7 monkey credits owed"), "\(text)")
    let json = try await expectSuccess(monkeyshop("wallet", "show", "--json", in: folder)).stdout
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["balance"] as? Int == -7 && object["owed"] as? Int == 7, "\(json)")
    let spend = try await monkeyshop("spend", "1", in: folder)
    #expect(spend.exitStatus == 1, "\(spend)")
    #expect(spend.stderr.contains("the wallet owes 7") && spend.stderr.contains("MS-E0010"), "\(spend)")
    #expect(try await walletBalance(folder) == -7)
  }

  @Test(
    "a damaged record or an older one is refused saying what to do for the record: put a good copy back, not move the file away, which loses its transactions"
  )
  func recordRefusalsSayWhatToDo() async throws {
    let folder = try ShopFolder("record-remedy")
    try await buy(24, in: folder)
    let record = folder.data.appendingPathComponent("record.sqlite").path
    let older = try #require(FileManager.default.contents(atPath: record))
    try await buy(2, in: folder)
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: record + suffix) }

    try older.write(to: URL(fileURLWithPath: record))
    let stale = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(stale.exitStatus == 65, "\(stale)")
    #expect(stale.stderr.contains("put back the newest record.sqlite"), "\(stale)")
    #expect(!stale.stderr.contains("move the file away"), "\(stale)")

    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: record))
    let damaged = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(damaged.exitStatus == 65, "\(damaged)")
    #expect(damaged.stderr.contains("\(record): is not a monkeyshop record that can be opened"), "\(damaged)")
    #expect(damaged.stderr.contains("put back a good copy of record.sqlite"), "\(damaged)")
    #expect(
      damaged.stderr.contains("only to go on without the transactions it holds, move all three away"), "\(damaged)")
    #expect(!damaged.stderr.contains("move the file away"), "\(damaged)")
    #expect(try folder.jsonObject(folder.walletPath)["balance"] as? Int == 130, "nothing was bought")
  }

  /// A listing cut short by a full disk is not a listing: a script must not take part of it for all.
  @Test("standard output that cannot be written (a full disk) fails the command, saying so")
  func outputThatCannotBeWritten() async throws {
    #if os(Linux)
      let folder = try ShopFolder("full-output")
      try await buy(1, in: folder)
      let binary = try #require(Locations.binary)
      // Help and the version too: a script reading either takes what it got for all of it.
      for arguments in [
        ["wallet", "show"], ["store", "transactions", "--json"], ["--version"], ["--help"], ["buy", "--help"],
      ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = folder.environment()
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(arguments): \(said)")
        #expect(said.contains("standard output could not be written (No space left on device)"), "\(said)")
        #expect(said.contains("MS-E0021"), "\(said)")
      }
    #endif
  }
}
