import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `monkeyshop restore` and `--storekit`: the real binary, headless.
@Suite("monkeyshop restore and --storekit", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct RestoreAndStoreKitTests {
  @Test("restore in each API: nothing comes back for consumables, and the command says so")
  func restoreInEachAPI() async throws {
    let folder = try ShopFolder("restore-apis")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))

    let one = try await monkeyshop("restore", in: folder)
    try expectSuccess(one)
    #expect(one.stdout.contains("SKPaymentQueue.default().restoreCompletedTransactions()"), "\(one)")
    #expect(one.stdout.contains("paymentQueueRestoreCompletedTransactionsFinished(_:)"), "\(one)")
    #expect(one.stdout.hasSuffix("Restore finished: 0 purchases restored (consumables are never restored)\n"))

    let two = try await monkeyshop("restore", "--storekit", "2", in: folder)
    try expectSuccess(two)
    #expect(two.stdout.contains("try await AppStore.sync()"), "\(two)")
    #expect(two.stdout.contains("Transaction.currentEntitlements → 0 transactions"), "\(two)")
    #expect(try await walletBalance(folder) == 5, "restoring gives and takes nothing")
  }

  @Test("restore without a network fails: exit 1 with the failure callback and its error ID")
  func restoreWithoutNetwork() async throws {
    let folder = try ShopFolder("restore-offline")
    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    let result = try await monkeyshop("restore", in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stdout.contains("paymentQueue(_:restoreCompletedTransactionsFailedWithError:)"), "\(result)")
    #expect(result.stderr.contains("MS-E0001"), "\(result)")
  }

  private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  @Test(
    "restore --json: the non-consumable comes back finished, in each API; exit 0 and the text's last line say the same")
  func restoreJSON() async throws {
    let folder = try ShopFolder("restore-json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", HostedPackage.jungleMap, in: folder))

    let one = try await monkeyshop("restore", "--json", in: folder)
    try expectSuccess(one)
    let report = try object(one.stdout)
    #expect(report["outcome"] as? String == "restored" && report["exitStatus"] as? Int == 0, "\(one)")
    #expect(report["storeKit"] as? Int == 1)
    let restored = try #require((report["restored"] as? [[String: Any]])?.first, "\(one)")
    #expect(restored["productIdentifier"] as? String == HostedPackage.jungleMap)
    #expect(restored["originalTransactionIdentifier"] as? String == "1", "it restores purchase #1: \(one)")
    #expect(restored["transactionIdentifier"] as? String != "1", "a restored transaction is a new one: \(one)")
    #expect(restored["finished"] as? Bool == true, "\(one)")
    let events = (report["events"] as? [[String: Any]])?.compactMap { $0["event"] as? String } ?? []
    #expect(events.contains("restoreFinished"), "the event log as events: \(one)")

    let two = try await monkeyshop("restore", "--json", "--storekit", "2", in: folder)
    try expectSuccess(two)
    let entitlements = try #require(try object(two.stdout)["restored"] as? [[String: Any]], "\(two)")
    #expect(entitlements.count == 1 && entitlements.first?["transactionIdentifier"] as? String == "1", "\(two)")
    #expect(entitlements.first?["originalTransactionIdentifier"] == nil, "\(two)")

    let text = try await monkeyshop("restore", "--storekit", "1", in: folder)
    try expectSuccess(text)
    #expect(
      text.stdout.hasSuffix("Restore finished: 1 purchase restored (consumables are never restored)\n"), "\(text)")
  }

  @Test("restore --json without a network: outcome failed, exit 1, MS-E0001 in the object and on standard error")
  func restoreJSONWithoutNetwork() async throws {
    let folder = try ShopFolder("restore-json-offline")
    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    let result = try await monkeyshop("restore", "--json", in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    let report = try object(result.stdout)
    #expect(report["outcome"] as? String == "failed" && report["exitStatus"] as? Int == 1, "\(result)")
    let error = try #require(report["error"] as? [String: Any], "\(result)")
    #expect(error["errorID"] as? String == "MS-E0001", "\(result)")
    #expect(result.stderr.contains("MS-E0001"), "\(result)")
  }

  @Test("--storekit 2 is kept in the data folder: the next command runs the StoreKit 2 app too")
  func storeKitIsKept() async throws {
    let folder = try ShopFolder("storekit-kept")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let first = try await monkeyshop("buy", ShippedCatalog.five, "--storekit", "2", in: folder)
    try expectSuccess(first)
    #expect(first.stdout.contains("→ .success(.verified) Transaction #1"), "\(first)")
    let second = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try expectSuccess(second)
    #expect(second.stdout.contains("Task { for await result in Transaction.updates }"), "\(second)")
    #expect(!second.stdout.contains("SKPaymentQueue"), "\(second)")
    let bad = try await monkeyshop("buy", ShippedCatalog.five, "--storekit", "3", in: folder)
    #expect(bad.exitStatus == 64, "\(bad)")
  }

  @Test("StoreKit 2, an interrupted purchase: the app sees .pending and buy says pending, exit 0, not a failure")
  func storeKit2InterruptedIsPending() async throws {
    let folder = try ShopFolder("storekit2-interrupted")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "interruptedPurchases", "on", in: folder))
    let result = try await monkeyshop("buy", ShippedCatalog.five, "--storekit", "2", in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    #expect(result.stdout.contains(".pending"), "\(result)")
    #expect(result.stdout.contains("pending: the App Store interrupted the purchase"), "\(result)")
    #expect(!result.stderr.contains("SKError"), "\(result)")
    let json = try await monkeyshop("buy", ShippedCatalog.five, "--json", in: folder)
    #expect(json.exitStatus == 0, "\(json)")
    #expect(json.stdout.contains("\"pending\""), "\(json)")
  }
}

/// A lock held too long ends a `buy` once: it does not wait again for its purchase.
@Suite("buy and a held lock", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct BuyLockTests {
  @Test("launch gives up waiting for the lock: buy ends there, exit 75, having said it waits once")
  func buyWaitsOnce() async throws {
    let flock = try #require(Locations.executable(named: "flock"), "flock(1) is needed (util-linux)")
    let folder = try ShopFolder("buy-lock-once")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    // An unfinished purchase, so that the launch itself must take the lock to deliver it.
    _ = try await monkeyshop("buy", ShippedCatalog.five, "--crash", "beforeDelivery", in: folder)
    let holder = try Child(
      executable: flock, [folder.data.path, "sleep", "30"], in: folder, environment: folder.environment())
    defer { kill(holder.pid, SIGTERM) }
    try await Task.sleep(for: .milliseconds(300))
    let result = try await monkeyshop(
      "buy", ShippedCatalog.ten, in: folder, environment: ["MONKEYSHOP_LOCK_TIMEOUT": "2"])
    #expect(result.exitStatus == 75, "\(result)")
    #expect(result.stderr.components(separatedBy: "monkeyshop: waiting for the lock on").count == 2, "\(result)")
    #expect(!result.stdout.contains("SKPaymentQueue.add"), "no payment added after giving up: \(result)")
  }
}

/// What buy says when its purchase was credited but could not be finished.
@Suite("buy credited but not finished", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct BuyCreditedNotFinishedTests {
  @Test(
    "the record cannot be written to: buy says the purchase was credited, not that it was not delivered",
    .enabled(if: Strace.unavailableReason == nil))
  func creditedNotFinished() async throws {
    let folder = try ShopFolder("buy-credited-not-finished")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    for _ in 0..<21 { try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder)) }
    // Every write to the record fails (a full disk), while reading it still works.
    let strace = try #require(Strace.executable)
    let result = try await Child(
      executable: strace,
      [
        "-f", "-qq", "-o", "/dev/null", "-P", folder.resolvedDataPath + "/record.sqlite",
        "-P", folder.resolvedDataPath + "/record.sqlite-wal",
        "-e", "inject=write,writev,pwrite64:error=ENOSPC", try Locations.requireBinary(), "buy", ShippedCatalog.five,
      ], in: folder, environment: folder.environment()
    ).wait(timeout: .seconds(30))
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains("transaction #22 was credited but not finished"), "\(result)")
    #expect(try await walletBalance(folder) == 110)
  }
}
