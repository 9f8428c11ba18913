import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command's `--json` output, as the real binary prints it, is what its published JSON
/// Schema (docs/json/) says: the schema is the contract scripts are written against.
@Suite("JSON output against the published schemas", .tags(.endToEnd, .needsPython), .timeLimit(.minutes(3)))
struct JSONSchemaTests {
  private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  /// The header and payload of a JWS: what was signed, whatever the signature's random bytes.
  private func signedPart(_ jws: String?) -> String? {
    jws.map { $0.split(separator: ".").prefix(2).joined(separator: ".") }
  }

  @Test("buy --json (purchased, failed, deferred), store transactions, store show and wallet show match their schemas")
  func commands() async throws {
    let folder = try ShopFolder("schema-commands")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let bought = try await monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", "--json", in: folder)
    try expectSuccess(bought)
    try await JSONSchemaCheck.expectValid(bought.stdout, against: "buy.schema.json", in: folder)
    #expect(try object(bought.stdout)["exitStatus"] as? Int == 0)

    try await expectSuccess(monkeyshop("store", "set", "failNext", "5002", in: folder))
    let failed = try await monkeyshop("buy", ShippedCatalog.five, "--json", in: folder)
    #expect(failed.exitStatus == 1, "\(failed)")
    try await JSONSchemaCheck.expectValid(failed.stdout, against: "buy.schema.json", in: folder)
    let error = try #require(try object(failed.stdout)["error"] as? [String: Any], "\(failed)")
    #expect(error["errorID"] as? String == "MS-E0007" && error["exitStatus"] as? Int == 1, "\(failed)")

    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "on", in: folder))
    let deferred = try await monkeyshop("buy", ShippedCatalog.five, "--json", in: folder)
    try expectSuccess(deferred)
    try await JSONSchemaCheck.expectValid(deferred.stdout, against: "buy.schema.json", in: folder)
    #expect(try object(deferred.stdout)["outcome"] as? String == "deferred")

    let listed = try await monkeyshop("store", "transactions", "--json", in: folder)
    try expectSuccess(listed)
    try await JSONSchemaCheck.expectValid(listed.stdout, against: "store-transactions.schema.json", in: folder)
    let shown = try await monkeyshop("store", "show", "--json", in: folder)
    try expectSuccess(shown)
    try await JSONSchemaCheck.expectValid(shown.stdout, against: "store-show.schema.json", in: folder)
    let wallet = try await monkeyshop("wallet", "show", "--json", in: folder)
    try expectSuccess(wallet)
    try await JSONSchemaCheck.expectValid(wallet.stdout, against: "wallet-show.schema.json", in: folder)
  }

  @Test("restore --json (restored in each API, failed) and spend --json (spent, refused) match their schemas")
  func restoreAndSpend() async throws {
    let folder = try ShopFolder("schema-restore-spend")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", HostedPackage.jungleMap, in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    for storeKit in ["1", "2"] {
      let restored = try await monkeyshop("restore", "--json", "--storekit", storeKit, in: folder)
      try expectSuccess(restored)
      try await JSONSchemaCheck.expectValid(restored.stdout, against: "restore.schema.json", in: folder)
      #expect((try object(restored.stdout)["restored"] as? [Any])?.count == 1, "\(restored)")
    }
    let spent = try await monkeyshop("spend", "1", "--json", in: folder)
    try expectSuccess(spent)
    try await JSONSchemaCheck.expectValid(spent.stdout, against: "spend.schema.json", in: folder)
    let refused = try await monkeyshop("spend", "99", "--json", in: folder)
    #expect(refused.exitStatus == 1, "\(refused)")
    try await JSONSchemaCheck.expectValid(refused.stdout, against: "spend.schema.json", in: folder)
    #expect(try object(refused.stdout)["outcome"] as? String == "refused")

    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    let failed = try await monkeyshop("restore", "--json", in: folder)
    #expect(failed.exitStatus == 1, "\(failed)")
    try await JSONSchemaCheck.expectValid(failed.stdout, against: "restore.schema.json", in: folder)
    #expect(try object(failed.stdout)["outcome"] as? String == "failed")
  }

  @Test("walkthrough --json: a passing run, a failing check with what was expected and found, and a refused file")
  func walkthroughReport() async throws {
    let folder = try ShopFolder("schema-walkthrough")
    // refund-storekit1: a store step that names `last`, and the transaction it stood for.
    let passing = try await monkeyshop(
      "walkthrough", "buy-5", "ask-to-buy-declined", "refund-storekit1", "--json", in: folder)
    #expect(passing.exitStatus == 0, "\(passing)")
    try await JSONSchemaCheck.expectValid(passing.stdout, against: "walkthrough.schema.json", in: folder)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(passing.stdout.utf8)) as? [String: Any])
    #expect(report["passed"] as? Int == 3 && report["failed"] as? Int == 0)
    let failing = folder.root.appendingPathComponent("fails.yaml").path
    try """
    name: a balance that is not there
    steps:
      - launch
      - press: "5"
      - press: Enter
      - wait: 2s
      - expect: { balance: 30 }
    """.write(toFile: failing, atomically: true, encoding: .utf8)
    let failed = try await monkeyshop("walkthrough", failing, "--json", in: folder)
    #expect(failed.exitStatus == 1, "\(failed)")
    try await JSONSchemaCheck.expectValid(failed.stdout, against: "walkthrough.schema.json", in: folder)
    let failedReport = try #require(try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any])
    let walkthrough = try #require((failedReport["walkthroughs"] as? [[String: Any]])?.first)
    let last = try #require((walkthrough["steps"] as? [[String: Any]])?.last)
    let check = try #require((last["checks"] as? [[String: Any]])?.first)
    #expect(check["field"] as? String == "balance" && check["passed"] as? Bool == false, "\(check)")
    #expect(
      check["expected"] as? String == "30 credits in the wallet" && check["found"] as? String == "5 credits", "\(check)"
    )
    #expect(last["line"] as? Int == 7 && last["ms"] as? Int == 2400, "\(last)")
    let refused = folder.root.appendingPathComponent("refused.yaml").path
    try "name: no steps\nsteps: []\n".write(toFile: refused, atomically: true, encoding: .utf8)
    let rejected = try await monkeyshop("walkthrough", refused, "--json", in: folder)
    #expect(rejected.exitStatus == 65, "\(rejected)")
    try await JSONSchemaCheck.expectValid(rejected.stdout, against: "walkthrough.schema.json", in: folder)
    #expect(rejected.stdout.contains("\"rejected\""), "\(rejected)")
  }

  @Test("buy --json gives the transaction's jws, signing what store transactions --json signs")
  func buyJSONHasTheJWS() async throws {
    let folder = try ShopFolder("schema-buy-jws")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let bought = try await monkeyshop("buy", ShippedCatalog.five, "--json", in: folder)
    try expectSuccess(bought)
    let transaction = try #require(try object(bought.stdout)["transaction"] as? [String: Any], "\(bought)")
    let jws = try #require(transaction["jws"] as? String, "no jws in \(bought.stdout)")
    let listed = try await monkeyshop("store", "transactions", "--json", in: folder)
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed)")
    let same = try #require(array.first { $0["id"] as? String == "1" }, "\(listed)")
    #expect(signedPart(jws) == signedPart(same["jws"] as? String), "\(jws)\n\(same)")
    // The rest of the transaction is the same too.
    for key in ["id", "transactionIdentifier", "productIdentifier", "state", "purchaseDate"] {
      #expect(transaction[key] as? String == same[key] as? String, "\(key)")
    }
  }

  @Test("launch after a StoreKit 2 refund made while the app was closed: a line and a tookBack entry for the take-back")
  func launchTakesTheRefundBack() async throws {
    let folder = try ShopFolder("schema-launch-refund")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, "--storekit", "2", in: folder))
    try await expectSuccess(monkeyshop("store", "refund", "1", in: folder))
    let launched = try await monkeyshop("launch", in: folder)
    try expectSuccess(launched)
    #expect(launched.stdout.contains("take back #1: -5 credits → balance 0"), "\(launched)")
    #expect(
      launched.stdout.contains(
        "took back #1  \(ShippedCatalog.five)  -5 credits  (refunded, revocationReason other; balance 0)"),
      "\(launched)")
    #expect(!launched.stdout.contains("nothing was waiting"), "\(launched)")
    #expect(
      launched.stdout.contains(
        "balance 0 monkey credits; 1 refund taken back (-5 credits); still waiting: 0 deferred (Ask to Buy), 0 purchasing, 0 to finish"
      ), "\(launched)")

    // The same launch again has nothing left to take back; its JSON says so, in its schema.
    let again = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(again)
    try await JSONSchemaCheck.expectValid(again.stdout, against: "launch.schema.json", in: folder)
    #expect((try object(again.stdout)["tookBack"] as? [Any])?.isEmpty == true, "\(again)")
  }

  @Test("launch --json of a refund taken back: tookBack names it, with the credits and the balance after")
  func launchJSONTookBack() async throws {
    let folder = try ShopFolder("schema-launch-refund-json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, "--storekit", "2", in: folder))
    try await expectSuccess(monkeyshop("store", "refund", "1", in: folder))
    let launched = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(launched)
    try await JSONSchemaCheck.expectValid(launched.stdout, against: "launch.schema.json", in: folder)
    let tookBack = try #require(try object(launched.stdout)["tookBack"] as? [[String: Any]], "\(launched)")
    #expect(tookBack.count == 1, "\(launched)")
    #expect(tookBack.first?["payment"] as? String == "1")
    #expect(tookBack.first?["credits"] as? Int == 10)
    #expect(tookBack.first?["balance"] as? Int == 0)
  }

  @Test("launch of a StoreKit 2 purchase refunded before it was delivered: nothing credited, said so, in the schema")
  func launchRefundedBeforeDelivery() async throws {
    let folder = try ShopFolder("schema-launch-refunded-first")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop(
      "buy", ShippedCatalog.five, "--storekit", "2", "--crash", "beforeDelivery", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    try await expectSuccess(monkeyshop("store", "refund", "1", in: folder))
    let launched = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(launched)
    try await JSONSchemaCheck.expectValid(launched.stdout, against: "launch.schema.json", in: folder)
    let taken = try #require(try object(launched.stdout)["taken"] as? [[String: Any]], "\(launched)")
    #expect(taken.first?["arrival"] as? String == "refundedBeforeDelivery", "\(launched)")
    #expect(taken.first?["credits"] as? Int == 0)
    #expect(try await walletBalance(folder) == 0, "never credited")
  }
}
