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
