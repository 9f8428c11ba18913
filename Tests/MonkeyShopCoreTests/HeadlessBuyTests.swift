import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The headless `buy` is an app like the storefront: it requests its product before it pays.
@Suite(.tags(.pure)) struct HeadlessBuyTests {
  static func buy(
    _ identifier: String, catalog: Catalog = ShopHarness.catalog, _ conditions: (inout Conditions) -> Void = { _ in }
  ) -> (ShopRuntime, MemoryStorage) {
    var store = StoreState()
    conditions(&store.conditions)
    let storage = MemoryStorage(store: store, wallet: Wallet())
    let runtime = ShopRuntime(
      catalog: catalog, storage: storage, language: .en, launchDate: ShopHarness.start, requestsProducts: false,
      onCrash: { _ in })
    runtime.start(now: ShopHarness.start)
    runtime.send(.purchase(productIdentifier: identifier, quantity: 2))
    runtime.run(until: 10_000)
    return (runtime, storage)
  }

  static func lines(_ runtime: ShopRuntime) -> [String] { runtime.model.log.map { $0.event.text(.storeKit1, .en) } }

  @Test("SKProductsRequest, its response, then the payment")
  func requestsTheProductFirst() {
    let (runtime, storage) = Self.buy("com.monkeyshop.credits.5")
    let names = runtime.model.log.map(\.event.name)
    #expect(
      Array(names.drop { $0 != "canMakePayments" }.prefix(5))
        == ["canMakePayments", "productsRequested", "productsReceived", "paymentAdded", "purchasing"])
    #expect(Self.lines(runtime).contains("SKProductsRequest(1 id).start()"))
    #expect(storage.wallet.balance == 10)
    #expect(!runtime.model.isPurchaseInFlight)
  }

  @Test("a product the App Store does not return is not paid for: the request's answer is the failure")
  func anInvalidProductFailsAtTheRequest() {
    let (runtime, storage) = Self.buy("com.monkeyshop.credits.10", catalog: StorefrontChangeTests.partlyPriced) {
      $0.storefront = "JPN"
    }
    #expect(storage.store.transactions.isEmpty, "no payment was added")
    #expect(runtime.model.lastAddedTransactionID == nil)
    #expect(runtime.model.lastFailure?.errorID == .productNotAvailable)
    #expect(runtime.model.lastFailure?.message.contains("invalidProductIdentifiers") == true)
    #expect(
      Self.lines(runtime).contains(
        "productsRequest(_:didReceive:) 0 products, invalidProductIdentifiers: com.monkeyshop.credits.10"))
  }

  @Test("with the network down the buy fails at the product request, before any payment")
  func networkDownFailsAtTheRequest() {
    let (runtime, storage) = Self.buy("com.monkeyshop.credits.5") { $0.networkUp = false }
    #expect(storage.store.transactions.isEmpty)
    #expect(runtime.model.lastFailure?.errorID == .productRequestFailed)
    #expect(Self.lines(runtime).contains("request(_:didFailWithError:) SKErrorDomain 0 unknown"))
  }

  @Test("while purchases are restricted the app adds no payment")
  func restrictedAddsNoPayment() {
    let (runtime, storage) = Self.buy("com.monkeyshop.credits.5") { $0.purchasesAllowed = false }
    #expect(storage.store.transactions.isEmpty)
    #expect(runtime.model.lastFailure?.errorID == .purchasesRestricted)
    #expect(!runtime.model.isPurchaseInFlight)
  }
}
