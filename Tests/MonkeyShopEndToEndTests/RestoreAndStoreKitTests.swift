import Foundation
import Testing

/// `monkeyshop restore` and `--storekit`: the real binary, headless.
@Suite("monkeyshop restore and --storekit", .timeLimit(.minutes(2)))
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
}
