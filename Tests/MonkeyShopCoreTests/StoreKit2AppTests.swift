import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The app written with StoreKit 2: what it calls and receives is StoreKit 2's, not StoreKit 1's
/// under other names.
@Suite(.tags(.pure)) struct StoreKit2AppTests {
  static func shop(_ conditions: @escaping (inout Conditions) -> Void = { _ in }) -> ShopHarness {
    ShopHarness(conditions: {
      $0.storeKit = .storeKit2
      conditions(&$0)
    })
  }

  /// Log lines after launch, as the storefront shows them.
  static func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  @Test func aPurchaseReturnsItsTransactionInTheResult() {
    let shop = Self.shop()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(
      shop.eventNames == [
        "observerAdded", "canMakePayments", "productsRequested", "productsReceived", "purchase", "note", "success",
        "delivered", "finished",
      ])
    let lines = Self.lines(shop)
    #expect(lines[0] == "Task { for await result in Transaction.updates }")
    #expect(lines.contains("try await product.purchase(options: [.quantity(1)]) com.monkeyshop.credits.5"))
    #expect(lines.contains("→ .success(.verified) Transaction #1"))
    #expect(lines.contains("transaction.finish() #1"))
    // Nothing of StoreKit 1: no queue, no purchasing state.
    #expect(!lines.contains { $0.contains("SKPaymentQueue") || $0.contains("purchasing") })
    #expect(shop.model.balance == 5)
  }

  @Test func aCancelledSheetLeavesNoTransaction() throws {
    let shop = Self.shop()
    shop.press("5")
    shop.press(.escape)
    shop.wait(2)
    #expect(shop.eventNames.suffix(3) == ["purchase", "note", "userCancelled"])
    #expect(Self.lines(shop).last == "→ .userCancelled (no transaction)")
    #expect(shop.storage.store.unfinished.isEmpty, "nothing is left for any app to finish")
    #expect(!shop.model.log.contains { $0.event.transactionID != nil }, "the app never saw a transaction")
    #expect(shop.model.status == .cancelled(product: "com.monkeyshop.credits.5"))
    #expect(!shop.eventNames.contains("error"))
  }

  @Test func askToBuyIsPendingAndTheApprovalArrivesThroughUpdates() throws {
    let shop = Self.shop { $0.askToBuy = true }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.eventNames.suffix(4) == ["purchase", "note", "pending", "note"])
    #expect(Self.lines(shop).contains("→ .pending (no transaction)"))
    #expect(shop.model.log.allSatisfy { $0.event.transactionID == nil }, "the app has no transaction yet")
    #expect(shop.model.status == .storeKit2(.pending(product: "com.monkeyshop.credits.5")))
    try shop.changeStore { _ = try $0.approve("last") }
    #expect(Self.lines(shop).contains("Transaction.updates → .verified #1"))
    #expect(shop.eventNames.suffix(4) == ["approved", "update", "delivered", "finished"])
    #expect(shop.model.balance == 5)
  }

  @Test func aDeclineDeliversNothing() throws {
    let shop = Self.shop { $0.askToBuy = true }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    let before = shop.eventNames.count
    try shop.changeStore { _ = try $0.decline("last") }
    let after = Array(shop.eventNames.dropFirst(before))
    #expect(after == ["declined", "note"], "no result, transaction or update reaches the app")
    #expect(Self.lines(shop).last?.contains("StoreKit 2 gives the app no result, transaction or update") == true)
    #expect(shop.model.balance == 0)
    #expect(shop.storage.store.unfinished.isEmpty, "the App Store closed it: no StoreKit 1 app meets it later")
  }

  @Test func anUnverifiedTransactionIsNeitherCreditedNorFinished() {
    let shop = Self.shop { $0.verificationPasses = false }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(
      Self.lines(shop).suffix(2) == [
        "→ .success(.unverified(invalidSignature)) Transaction #1", "#1 unverified: not credited, not finished",
      ])
    #expect(shop.model.balance == 0)
    #expect(shop.storage.wallet.balance == 0)
    #expect(shop.storage.store.transactions.first?.finished == false)
    #expect(shop.model.status == .storeKit2(.unverified(transactionID: "1")))
    // Every launch meets it again in Transaction.unfinished, and still credits nothing.
    shop.launch()
    #expect(Self.lines(shop).contains("Transaction.unfinished → .unverified(invalidSignature) #1"))
    #expect(shop.storage.wallet.balance == 0)
  }

  @Test func anUnfinishedTransactionIsDeliveredFromTransactionUnfinishedAtLaunch() {
    let shop = Self.shop { $0.crashPoint = .beforeDelivery }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.crashes == [.beforeDelivery])
    shop.launch()
    let lines = Self.lines(shop)
    #expect(lines.contains("Transaction.unfinished → .verified #1"))
    #expect(lines.contains { $0.contains("Transaction.updates also emits it once at launch") })
    #expect(lines.contains("transaction.finish() #1"))
    #expect(shop.model.balance == 5)
  }

  @Test func anInterruptedPurchaseIsPendingAndItsResolutionArrivesThroughUpdates() throws {
    let shop = Self.shop { $0.interruptedPurchases = true }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.eventNames.suffix(3) == ["purchase", "note", "pending"])
    #expect(!shop.eventNames.contains("error"))
    try shop.changeStore { store in
      _ = try store.set(.interruptedPurchases, to: "off", at: ShopHarness.start)
      _ = try store.resolve("last", at: ShopHarness.start)
    }
    #expect(Self.lines(shop).contains("Transaction.updates → .verified #2"))
    #expect(shop.model.balance == 5)
  }

  @Test(
    "a failed purchase throws, with no transaction",
    arguments: [
      ("network", "down", "purchase threw StoreKitError.networkError(URLError(.notConnectedToInternet))"),
      ("failNext", "0", "purchase threw StoreKitError.unknown (SKErrorDomain 0 unknown)"),
      ("failNext", "4", "purchase threw Product.PurchaseError.purchaseNotAllowed"),
    ])
  func aFailedPurchaseThrows(condition: String, value: String, line: String) throws {
    let shop = Self.shop { $0.latency = .slow }
    shop.press("5")
    shop.press(.enter)
    try shop.changeStore { _ = try $0.set(Condition(rawValue: condition)!, to: value, at: ShopHarness.start) }
    if condition == "failNext" {
      // The forced error applies to the next payment.
      shop.press("5")
      shop.press(.enter)
    }
    shop.wait(10)
    #expect(Self.lines(shop).contains { $0.hasSuffix(line + " (no transaction)") }, "\(Self.lines(shop))")
    #expect(shop.eventNames.contains("purchaseError"))
  }

  @Test func aForcedPaymentCancelledIsACancelToTheApp() throws {
    let shop = Self.shop { $0.failNext = .storeKit(.paymentCancelled) }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.eventNames.suffix(3) == ["purchase", "note", "userCancelled"])
    #expect(!shop.eventNames.contains("error"))
  }

  @Test func switchingRestartsTheAppAndKeepsWhatWasLogged() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("l")
    shop.wait(1)
    #expect(shop.storage.store.conditions.storeKit == .storeKit2, "the choice is kept in the data folder")
    let lines = Self.lines(shop)
    #expect(lines.contains("SKPaymentQueue.finishTransaction(#1)"), "earlier lines keep their API")
    let restart = try! #require(lines.firstIndex(of: "── the app restarts, written with StoreKit 2 ──"))
    #expect(lines[restart + 1] == "Task { for await result in Transaction.updates }")
    #expect(lines.suffix(2) == ["Product.products(for: 3 ids)", "→ [Product] 3 products"])
    #expect(shop.model.status == .appSwitched(.storeKit2))
    // And it stays switched for the next launch.
    shop.launch()
    #expect(Self.lines(shop).first == "Task { for await result in Transaction.updates }")
  }

  @Test func restoreWithOnlyConsumablesRestoresNothing() {
    let shop = Self.shop()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("o")
    let lines = Self.lines(shop)
    #expect(lines.suffix(3).first == "try await AppStore.sync()")
    #expect(lines.contains("Transaction.currentEntitlements → 0 transactions"))
    #expect(shop.model.status == .restoreFinished(restored: 0))
    #expect(shop.model.balance == 5, "restoring takes nothing and gives nothing")
  }

  @Test func walkthroughsKnowEveryStoreKit2EventName() {
    let events: [StoreKit2Event] = [
      .purchaseCalled(productIdentifier: "p", quantity: 1), .purchaseResult(.success(transactionID: "1", .verified)),
      .purchaseResult(.success(transactionID: "1", .unverified(reason: "r"))), .purchaseResult(.pending),
      .purchaseResult(.userCancelled), .purchaseResult(.threw("e")), .update(transactionID: "1", .verified),
      .unfinished(transactionID: "1", .verified), .notCredited(transactionID: "1"), .sync, .syncThrew("e"),
      .currentEntitlements(count: 0), .revoked(transactionID: "1", reason: "other"),
    ]
    #expect(Set(events.map(\.name)) == Set(StoreKit2Event.names))
    #expect(StoreKit2Event.names.allSatisfy(Expectation.eventNames.contains))
  }
}
