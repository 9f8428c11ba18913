import Foundation
import Testing

/// How the ledger's failures reach a script: never exit 0 with nothing credited, always the path and
/// the one error ID of what went wrong.
@Suite("Ledger failures through the command line", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct LedgerExitTests {
  @Test("a purchase the wallet cannot take is not reported as purchased: exit 1, MS-E0017 alone, still unfinished")
  func walletAtItsLimit() async throws {
    let folder = try ShopFolder("wallet-limit")
    try await monkeyshop("store", "set", "latency", "instant", in: folder)
    let wallet = #"{"schemaVersion": 2, "balance": 9007199254740990, "credited": [], "lastTransactionNumber": 0}"#
    try Data(wallet.utf8).write(to: URL(fileURLWithPath: folder.walletPath))
    let result = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(!result.stdout.contains("purchased: transaction"))
    #expect(result.stdout.contains("MS-E0017 ✗"))
    #expect(!result.stdout.contains("MS-E0015") && !result.stderr.contains("MS-E0015"))
    #expect(result.stderr.contains("stays unfinished"))
    let transactions = try await storeTransactions(folder)
    #expect(transactions.map(\.finished) == [false])
  }

  @Test(
    "a store write that fails while the purchase is answered: exit 65 with MS-E0015, and the payment is answered later",
    .enabled(if: Strace.unavailableReason == nil))
  func storeWriteFailsMidPurchase() async throws {
    let folder = try ShopFolder("store-write-fails")
    try await monkeyshop("store", "set", "latency", "instant", in: folder)
    // The first store.json.tmp written adds the payment; the second answers it: that one fails.
    let strace = try #require(Strace.executable)
    let result = try await Child(
      executable: strace,
      [
        "-f", "-qq", "-o", "/dev/null", "-P", folder.resolvedDataPath + "/store.json.tmp",
        "-e", "inject=write:error=ENOSPC:when=2", try Locations.requireBinary(), "buy", ShippedCatalog.five,
      ], in: folder, environment: folder.environment()
    ).wait(timeout: .seconds(30))
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stdout.contains("MS-E0015 ✗"), "the log says what failed: \(result)")
    #expect(result.stderr.contains("MS-E0015"), "\(result)")
    #expect(try await storeTransactions(folder).map(\.state) == ["purchasing"])
    let launch = try await monkeyshop("launch", in: folder)
    #expect(launch.exitStatus == 0, "\(launch)")
    #expect(try await storeTransactions(folder).map(\.finished) == [true])
  }

  @Test(
    "a data folder that is a file: every command exits 65 with its path",
    arguments: [
      ["wallet", "show"], ["store", "show"], ["store", "transactions"], ["buy", "com.monkeyshop.credits.5"], ["launch"],
      ["spend", "1"],
    ])
  func folderIsAFile(_ command: [String]) async throws {
    let folder = try ShopFolder("folder-file")
    let file = folder.root.appendingPathComponent("not-a-folder").path
    _ = FileManager.default.createFile(atPath: file, contents: Data())
    let result = try await Child(command, in: folder, environment: ["MONKEYSHOP_DATA_DIR": file]).wait(
      timeout: .seconds(20))
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains("\(file): is a file, expected the data folder"))
  }

  @Test("an Ask to Buy approved after 21 other purchases is credited, and every later launch works")
  func approvedAfterPruning() async throws {
    let folder = try ShopFolder("approved-after-pruning")
    try await monkeyshop("store", "set", "latency", "instant", in: folder)
    try await monkeyshop("store", "set", "askToBuy", "on", in: folder)
    try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try await monkeyshop("store", "set", "askToBuy", "off", in: folder)
    for _ in 1...21 { try expectSuccess(try await monkeyshop("buy", ShippedCatalog.five, in: folder)) }
    try expectSuccess(try await monkeyshop("store", "approve", "1", in: folder))
    try expectSuccess(try await monkeyshop("buy", ShippedCatalog.five, in: folder))
    try expectSuccess(try await monkeyshop("launch", in: folder))
    #expect(try await walletBalance(folder) == 5 * 23)
  }
}
