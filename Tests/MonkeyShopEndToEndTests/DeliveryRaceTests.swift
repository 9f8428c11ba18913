import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A headless `buy` racing another monkeyshop on the same data folder (an open storefront, another
/// command): whoever credits first, the buy says what happened, and nobody claims an app stopped.
@Suite("Delivery races", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct DeliveryRaceTests {
  @Test("buy whose purchase another monkeyshop credited first says so, not 'credited before the app stopped'")
  func creditedByAnotherMonkeyshop() async throws {
    let folder = try ShopFolder("race")
    // Slow: seconds between the payment and the store's answer, in which the buy is stopped.
    try await expectSuccess(monkeyshop("store", "set", "latency", "slow", in: folder))
    let buy = try Child(["buy", ShippedCatalog.five], in: folder)
    let stdout = buy.stdoutPath
    try await waitUntil("buy to add its payment") {
      (try? String(contentsOfFile: stdout, encoding: .utf8))?.contains(".purchasing payment 1") == true
    }
    buy.kill(SIGSTOP)
    // Another monkeyshop (as a storefront does on the same folder) takes the store's answer and
    // credits the purchase; it has not finished it yet when the buy goes on.
    let data = DataFolder(path: folder.data.path)
    let catalog = try CatalogLoader.load(path: Locations.catalog)
    let (answered, _) = try data.changeStore(catalog: catalog) { store in
      store.advance(to: Date().addingTimeInterval(60))
    }
    let purchase = try #require(answered.first { $0.id == "1" && $0.state == .purchased }, "\(answered)")
    _ = try CreditManager(storage: data, catalog: catalog).deliver(purchase)
    buy.kill(SIGCONT)

    let result = try await buy.wait()
    try expectSuccess(result)
    #expect(result.stdout.contains("deliver #1: already credited, nothing added"), "\(result)")
    #expect(!result.stdout.contains("before the app stopped"), "no app stopped: \(result)")
    #expect(
      result.stdout.contains(
        "#1 was credited by another monkeyshop (an open storefront or another command); finishing it keeps it from coming back"
      ), "\(result)")
    #expect(
      result.stdout.contains(
        "purchased: transaction #1, credited by another monkeyshop (an open storefront or another command), balance 5 monkey credits"
      ), "\(result)")
    #expect(try await walletBalance(folder) == 5, "credited once")
    #expect(try await storeTransactions(folder).first?.finished == true)
  }

  /// A buy stopped while it waits for the store's answer; meanwhile another monkeyshop answers,
  /// credits and finishes its purchase, and 21 more, so the store moves it to its history before
  /// the buy looks again. Returns the buy, continued.
  private func buyWhoseSaleMovedToHistory(_ folder: ShopFolder, json: Bool) async throws -> Child {
    try await expectSuccess(monkeyshop("store", "set", "latency", "slow", in: folder))
    let buy = try Child(["buy", ShippedCatalog.five] + (json ? ["--json"] : []), in: folder)
    // With --json the log is not printed: the store itself shows the payment added.
    try await waitUntil("buy to add its payment") {
      (try? DataFolder(path: folder.data.path).readStore().transaction("1")) != nil
    }
    buy.kill(SIGSTOP)
    let data = DataFolder(path: folder.data.path)
    let catalog = try CatalogLoader.load(path: Locations.catalog)
    let credits = CreditManager(storage: data, catalog: catalog)
    // Another monkeyshop takes the store's answer, credits #1 and finishes it.
    let (answered, _) = try data.changeStore(catalog: catalog) { store in
      store.advance(to: Date().addingTimeInterval(60))
    }
    let purchase = try #require(answered.first { $0.id == "1" && $0.state == .purchased }, "\(answered)")
    _ = try credits.deliver(purchase)
    _ = try data.changeStore(catalog: catalog) { store in try store.finish("1") }
    // More purchases finished after it: the store keeps only the newest finished ones.
    for _ in 0...StoreState.finishedHistoryLimit {
      let (bought, _) = try data.changeStore(catalog: catalog) { store in
        store.state.conditions.latency = .instant
        let added = try store.add(productIdentifier: ShippedCatalog.ten, quantity: 1, at: Date())
        _ = store.advance(to: Date().addingTimeInterval(60))
        return store.state.transaction(added.id)!
      }
      _ = try credits.deliver(bought)
      _ = try data.changeStore(catalog: catalog) { store in try store.finish(bought.id) }
    }
    #expect(try data.readStore().transaction("1") == nil, "#1 moved to the history")
    buy.kill(SIGCONT)
    return buy
  }

  @Test(
    "buy whose purchase another monkeyshop credited and moved to the history: exit 0, said so, not 'no longer in the store'"
  )
  func creditedElsewhereThenMovedToHistory() async throws {
    let folder = try ShopFolder("race-history")
    let buy = try await buyWhoseSaleMovedToHistory(folder, json: false)
    let result = try await buy.wait()
    try expectSuccess(result)
    #expect(!result.stderr.contains("no longer in the store"), "\(result)")
    #expect(
      result.stdout.contains("↳ #1 was answered and finished by another monkeyshop"),
      "\(result)")
    #expect(
      result.stdout.contains(
        "purchased: transaction #1, credited by another monkeyshop (an open storefront or another command), balance 215 monkey credits"
      ), "\(result)")
    #expect(try await walletBalance(folder) == 5 + 10 * (StoreState.finishedHistoryLimit + 1), "credited once")
  }

  @Test("buy --json whose purchase another monkeyshop credited and moved to the history: outcome creditedElsewhere")
  func creditedElsewhereJSON() async throws {
    let folder = try ShopFolder("race-history-json")
    let buy = try await buyWhoseSaleMovedToHistory(folder, json: true)
    let result = try await buy.wait()
    try expectSuccess(result)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    #expect(object["outcome"] as? String == "creditedElsewhere", "\(result)")
    #expect(object["creditedBy"] as? String == "another monkeyshop", "\(result)")
    #expect(object["error"] == nil && object["exitStatus"] as? Int == 0, "\(result)")
    let transaction = try #require(object["transaction"] as? [String: Any], "\(result)")
    #expect(transaction["id"] as? String == "1" && transaction["finished"] as? Bool == true, "\(result)")
    try await JSONSchemaCheck.expectValid(result.stdout, against: "buy.schema.json", in: folder)
  }

  @Test("a redelivery at launch of a purchase credited before a crash still says the app stopped")
  func creditedBeforeACrash() async throws {
    let folder = try ShopFolder("crash-note")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.five, "--crash", "afterDeliveryBeforeFinish", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    let launched = try await monkeyshop("launch", in: folder)
    try expectSuccess(launched)
    #expect(launched.stdout.contains("credited before the app stopped"), "\(launched)")
    #expect(!launched.stdout.contains("was credited by another monkeyshop"), "\(launched)")
  }
}
