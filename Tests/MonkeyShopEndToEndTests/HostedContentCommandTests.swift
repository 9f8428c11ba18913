import Foundation
import Testing

/// The non-consumable with Apple-hosted content through the real binary (docs/hosted-content.md).
@Suite("Hosted content from the command line", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct HostedContentCommandTests {
  static let jungleMap = HostedPackage.jungleMap

  /// Every file under `root`, by path relative to it.
  @Test("buy from any folder downloads the built-in content to the end; it is the repository's package, byte for byte")
  func buyDownloadsTheShippedContent() async throws {
    let folder = try ShopFolder("hosted")
    let elsewhere = folder.root.appendingPathComponent("elsewhere").path
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    func run(_ arguments: String...) async throws -> ChildResult {
      try await Child(arguments, in: folder, unsetting: ["MONKEYSHOP_CATALOG"], directory: elsewhere).wait()
    }
    try expectSuccess(await run("store", "set", "latency", "instant"))
    let bought = try await run("buy", Self.jungleMap)
    try expectSuccess(bought)
    #expect(bought.stdout.contains("paymentQueue(_:updatedDownloads:) .finished #1"), "\(bought)")
    #expect(bought.stdout.contains("purchased: transaction #1, \(Self.jungleMap) owned, content in"), "\(bought)")
    let unpacked = HostedPackage.files(under: folder.data.appendingPathComponent("content/\(Self.jungleMap)").path)
    let repository = HostedPackage.repositoryFiles(Self.jungleMap)
    #expect(!unpacked.isEmpty)
    #expect(unpacked == repository)
    let wallet = try await run("wallet", "show")
    #expect(wallet.stdout.contains("owned: \(Self.jungleMap) (content v1.0 in"), "\(wallet)")

    // The content deleted by hand: the wallet says so and how to get it back, which works.
    try FileManager.default.removeItem(at: folder.data.appendingPathComponent("content/\(Self.jungleMap)"))
    let missing = try await run("wallet", "show")
    #expect(
      missing.stdout.contains("owned: \(Self.jungleMap) (content v1.0 is missing from ")
        && missing.stdout.contains("`monkeyshop restore` downloads it again"), "\(missing)")
    let json = try await run("wallet", "show", "--json")
    #expect(json.stdout.contains(#""contentPresent" : false"#), "\(json)")
    try expectSuccess(await run("restore"))
    let restored = try await run("wallet", "show")
    #expect(restored.stdout.contains("owned: \(Self.jungleMap) (content v1.0 in"), "\(restored)")
  }

  @Test("buy --quantity 3 of the non-consumable is refused (64) and adds no payment")
  func quantityOfANonConsumable() async throws {
    let folder = try ShopFolder("hosted-quantity")
    let result = try await monkeyshop("buy", Self.jungleMap, "--quantity", "3", in: folder)
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains("is a non-consumable, bought one at a time"), "\(result)")
    #expect(!result.stdout.contains("SKPaymentQueue.add"), "\(result)")
  }

  @Test("a buy with a cut-short owned.json is refused before any payment (65), as with a bad wallet")
  func brokenOwnedFileStopsABuyUpFront() async throws {
    let folder = try ShopFolder("hosted-owned-upfront")
    try FileManager.default.createDirectory(at: folder.data, withIntermediateDirectories: true)
    try "{".write(to: folder.data.appendingPathComponent("owned.json"), atomically: true, encoding: .utf8)
    let result = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains("owned.json: is not valid JSON"), "\(result)")
    #expect(result.stderr.contains("nothing was changed"), "\(result)")
    #expect(!result.stdout.contains("SKPaymentQueue.add"), "\(result)")
  }

  @Test("a corrupt owned.json is refused with its path and exit 65, and left as it was")
  func corruptOwnedFile() async throws {
    let folder = try ShopFolder("hosted-corrupt")
    try FileManager.default.createDirectory(at: folder.data, withIntermediateDirectories: true)
    let owned = folder.data.appendingPathComponent("owned.json")
    let text = #"{"schemaVersion": 1, "products": [{"productIdentifier": "x", "transactionID": "one"}]}"#
    try text.write(to: owned, atomically: true, encoding: .utf8)
    let shown = try await monkeyshop("wallet", "show", in: folder)
    #expect(shown.exitStatus == 65, "\(shown)")
    #expect(shown.stderr.contains("owned.json"), "\(shown)")
    #expect(shown.stderr.contains("transactionID"), "\(shown)")
    #expect(try String(contentsOf: owned, encoding: .utf8) == text)
  }

  @Test("a truncated owned.json is refused as not valid JSON, with its path and exit 65, and left as it was")
  func truncatedOwnedFile() async throws {
    let folder = try ShopFolder("hosted-truncated")
    try FileManager.default.createDirectory(at: folder.data, withIntermediateDirectories: true)
    let owned = folder.data.appendingPathComponent("owned.json")
    let text = #"{"schemaVersion": 1, "products": [{"productIdentifier": "com.monkeyshop.jungle-map", "tra"#
    try text.write(to: owned, atomically: true, encoding: .utf8)
    let shown = try await monkeyshop("wallet", "show", in: folder)
    #expect(shown.exitStatus == 65, "\(shown)")
    #expect(
      shown.stderr.contains(
        "\(owned.path): is not valid JSON: it ends in the middle of a value (the file is cut short)"),
      "\(shown)")
    #expect(try String(contentsOf: owned, encoding: .utf8) == text)
  }

  @Test(
    "store refund of the map's purchase: the next launch of either app removes it, and wallet show no longer lists it")
  func refundTakesTheMapAway() async throws {
    for storeKit in ["1", "2"] {
      let folder = try ShopFolder("hosted-refund-\(storeKit)")
      try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
      try await expectSuccess(monkeyshop("buy", Self.jungleMap, "--storekit", storeKit, in: folder))
      let before = try await monkeyshop("wallet", "show", in: folder)
      #expect(before.stdout.contains("owned: \(Self.jungleMap)"), "\(before)")
      try await expectSuccess(monkeyshop("store", "refund", "1", in: folder))
      let launched = try await monkeyshop("launch", in: folder)
      try expectSuccess(launched)
      #expect(
        launched.stdout.contains("refund of #1: \(Self.jungleMap) no longer owned (removed from owned.json)"),
        "\(launched)")
      let after = try await monkeyshop("wallet", "show", in: folder)
      try expectSuccess(after)
      #expect(!after.stdout.contains("owned:"), "\(after)")
      let restored = try await monkeyshop("restore", in: folder)
      try expectSuccess(restored)
      #expect(!restored.stdout.contains("no longer owned"), "the refund is acted on once: \(restored)")
      #expect(!(try await monkeyshop("wallet", "show", in: folder)).stdout.contains("owned:"))
    }
  }
}
