import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// StoreKit 2: a purchase the App Store refunded before the app delivered it carries a
/// `revocationDate` when the app meets it; the app grants nothing, so its credits can never be
/// spent, whatever crash comes between.
@Suite(.tags(.pure)) struct RefundBeforeDeliveryTests {
  static func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  /// A StoreKit 2 purchase paid for and not delivered (the app died before delivering it), then
  /// refunded while no app ran.
  static func refundedBeforeDelivery() throws -> ShopHarness {
    let shop = ShopHarness(conditions: {
      $0.storeKit = .storeKit2
      $0.latency = .instant
      $0.crashPoint = .beforeDelivery
    })
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    #expect(shop.crashes == [.beforeDelivery])
    #expect(shop.storage.wallet.balance == 0)
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) {
      _ = try $0.refund("1", reason: .other, at: ShopHarness.start)
    }
    return shop
  }

  @Test func theNextLaunchCreditsNothingAndFinishesIt() throws {
    let shop = try Self.refundedBeforeDelivery()
    shop.launch()
    let lines = Self.lines(shop)
    #expect(lines.contains { $0.contains("#1 has a revocationDate: refunded before it was delivered") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("deliver #1") && $0.contains("+") }, "\(lines)")
    #expect(shop.storage.wallet.balance == 0)
    #expect(shop.model.balance == 0)
    #expect(shop.storage.store.transaction("1")?.finished == true)
    #expect(shop.model.settlements.deliveries["1"] == .refundedBeforeDelivery)
    #expect(shop.model.status == .refundedBeforeDelivery(transactionID: "1"))
    // Nothing was ever credited, so nothing can be spent.
    #expect(throws: CreditError.insufficientBalance(balance: 0, requested: 1)) {
      try CreditManager(storage: shop.storage, catalog: ShopHarness.catalog).spend(1)
    }
    let outcome = LaunchOutcome(shop.model)
    #expect(outcome.taken.map(\.arrival) == [.refundedBeforeDelivery])
    #expect(outcome.taken.first?.credits == 0)
    // Heard once: a later launch neither credits nor takes anything back.
    shop.launch()
    #expect(shop.storage.wallet.balance == 0)
    #expect(!Self.lines(shop).contains { $0.contains("take back") })
  }

  @Test("the credit manager decides under the lock: refunded by the time it delivers, it credits nothing")
  func decidedUnderTheLock() throws {
    let storage = MemoryStorage()
    let (paid, _) = try storage.changeStore(catalog: ShopHarness.catalog) { store in
      store.state.conditions.latency = .instant
      let added = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: ShopHarness.start)
      _ = store.advance(to: ShopHarness.start.addingTimeInterval(1))
      return store.state.transaction(added.id)!
    }
    // The app's copy says purchased; the App Store refunded it since.
    _ = try storage.changeStore(catalog: ShopHarness.catalog) {
      _ = try $0.refund(paid.id, reason: .other, at: ShopHarness.start)
    }
    let credits = CreditManager(storage: storage, catalog: ShopHarness.catalog)
    #expect(
      try credits.deliver(paid, refusingRefunded: true)
        == .refunded(productIdentifier: "com.monkeyshop.credits.5", balance: 0))
    #expect(storage.wallet.balance == 0 && storage.wallet.clawedBack.contains(1))
    // Its refund is heard already: nothing to take back.
    #expect(try credits.clawBack(paid) == .alreadyTakenBack(balance: 0))
  }
}
