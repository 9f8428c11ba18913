import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop launch`: the app launched headless takes delivery of what waits for it (an approval
/// or a resolution made from another terminal, a purchase a crash left unfinished), says what it
/// took and how it arrived, and sums up what still waits.
@Suite("monkeyshop launch", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct LaunchCommandTests {
  @Test("an Ask to Buy approved with store approve: launch prints the delivery, the balance and what still waits")
  func approvedThenLaunched() async throws {
    let folder = try ShopFolder("launch-approved")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "on", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    try await expectSuccess(monkeyshop("store", "approve", "1", in: folder))

    let result = try await monkeyshop("launch", in: folder)
    try expectSuccess(result)
    #expect(
      result.stdout.contains(
        "delivered #1  \(ShippedCatalog.ten)  +20 credits  (an approved Ask to Buy, or a purchase an app stopped before delivering)"
      ), "\(result)")
    #expect(
      result.stdout.hasSuffix(
        "balance 20 monkey credits; 1 credited, 0 only finished; still waiting: 1 deferred (Ask to Buy), 0 purchasing, 0 to finish\n"
      ), "\(result)")
    #expect(try await walletBalance(folder) == 20)

    // Nothing waits the second time but the deferred purchase.
    let again = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(again)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
    #expect((object["taken"] as? [Any])?.isEmpty == true, "\(again)")
    #expect(object["balance"] as? Int == 20)
    #expect(object["deferred"] as? Int == 1)
  }

  @Test("launch --json after a resolution and a crash: each taken transaction with how it arrived")
  func resolutionAndCrash() async throws {
    let folder = try ShopFolder("launch-json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.five, "--crash", "afterDeliveryBeforeFinish", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    let afterCrash = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(afterCrash)
    let redelivered = try #require(try launched(afterCrash).taken.first, "\(afterCrash)")
    #expect(redelivered["transactionIdentifier"] as? String == "1")
    #expect(redelivered["arrival"] as? String == "alreadyCredited")
    #expect(redelivered["credits"] as? Int == 0, "credited once, before the crash")
    // The crash of `buy --crash` is told at the next launch, as one set with `store set crashPoint`.
    let told = try #require(object(afterCrash)["events"] as? [[String: Any]], "\(afterCrash)")
    #expect(
      told.contains {
        ($0["text"] as? String)?.contains("crashed last run at afterDeliveryBeforeFinish with #1") == true
      },
      "\(afterCrash)")

    try await expectSuccess(monkeyshop("store", "set", "interruptedPurchases", "on", in: folder))
    let interrupted = try await monkeyshop("buy", ShippedCatalog.ten, in: folder)
    #expect(interrupted.exitStatus == 1, "\(interrupted)")
    try await expectSuccess(monkeyshop("store", "resolve", "last", in: folder))

    let result = try await monkeyshop("launch", "--json", in: folder)
    try expectSuccess(result)
    let (taken, object) = try launched(result)
    #expect(taken.count == 1, "\(result)")
    let resolution = try #require(taken.first)
    #expect(resolution["transactionIdentifier"] as? String == "3")
    #expect(resolution["arrival"] as? String == "resolution")
    #expect(resolution["resolvedFromTransactionID"] as? String == "2")
    #expect(resolution["credits"] as? Int == 10)
    #expect(object["balance"] as? Int == 15)
    #expect(object["awaitingFinish"] as? Int == 0)
  }

  @Test("a non-consumable redelivered at launch is described as unlocked, never as credited")
  func nonConsumableRedelivered() async throws {
    let map = "com.monkeyshop.jungle-map"
    let folder = try ShopFolder("launch-map")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", map, "--crash", "afterDeliveryBeforeFinish", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    let result = try await monkeyshop("launch", in: folder)
    try expectSuccess(result)
    let content = folder.data.appendingPathComponent("content/\(map)").path
    #expect(
      result.stdout.contains(
        "finished #1  \(map)  (a non-consumable unlocked before an app stopped, no credits: finished now; content downloaded to \(content))"
      ), "\(result)")
    #expect(!result.stdout.contains("credited before"), "\(result)")
    #expect(
      result.stdout.hasSuffix(
        "balance 0 monkey credits; 0 credited, 1 only finished; still waiting: 0 deferred (Ask to Buy), 0 purchasing, 0 to finish\n"
      ), "\(result)")

    let never = try ShopFolder("launch-map-undelivered")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: never))
    _ = try await monkeyshop("buy", map, "--crash", "beforeDelivery", in: never)
    let json = try await monkeyshop("launch", "--json", in: never)
    try expectSuccess(json)
    let taken = try #require(try launched(json).taken.first, "\(json)")
    #expect(taken["arrival"] as? String == "unlocked")
    #expect(taken["credits"] as? Int == 0)
    #expect((taken["content"] as? String)?.hasSuffix("content/\(map)") == true, "\(json)")
  }

  private func object(_ result: ChildResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  private func launched(_ result: ChildResult) throws -> (taken: [[String: Any]], object: [String: Any]) {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return (try #require(object["taken"] as? [[String: Any]], "\(result)"), object)
  }
}
