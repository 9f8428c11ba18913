import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// A storefront change as StoreKit 1 delivers it: `paymentQueueDidChangeStorefront(_:)`, a new
/// products request, prices only from its response, and `paymentQueue(_:shouldContinue:in:)` for a
/// payment in flight.
@Suite(.tags(.screen)) struct StorefrontChangeTests {
  /// Two products: credits.5 priced in USA and JPN, credits.10 only in USA.
  static let partlyPriced: Catalog = {
    func product(_ id: String, credits: Int, prices: [String: String]) -> String {
      let priced = prices.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }
        .joined()
      return """
        <dict><key>productIdentifier</key><string>\(id)</string><key>type</key><string>consumable</string>
        <key>credits</key><integer>\(credits)</integer>
        <key>localizations</key><dict><key>en</key><dict><key>title</key><string>\(credits) Monkey Credits</string>
        <key>description</key><string>credits</string></dict></dict>
        <key>prices</key><dict>\(priced)</dict></dict>
        """
    }
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
      <key>defaultStorefront</key><string>USA</string><key>products</key><array>
      \(product("com.monkeyshop.credits.5", credits: 5, prices: ["USA": "0.99", "JPN": "160"]))
      \(product("com.monkeyshop.credits.10", credits: 10, prices: ["USA": "1.99"]))
      </array></dict></plist>
      """
    return try! CatalogLoader.parse(Data(xml.utf8), path: "partly-priced.plist")
  }()

  static func shop(_ conditions: (inout Conditions) -> Void = { _ in }) -> (ShopRuntime, MemoryStorage) {
    var store = StoreState()
    conditions(&store.conditions)
    let storage = MemoryStorage(store: store, wallet: Wallet())
    let runtime = ShopRuntime(
      catalog: partlyPriced, storage: storage, language: .en, launchDate: ShopHarness.start, onCrash: { _ in })
    runtime.start(now: ShopHarness.start)
    runtime.run(until: 4000)
    return (runtime, storage)
  }

  static func screen(_ runtime: ShopRuntime) -> TextGrid {
    var grid = TextGrid(size: ScreenSize(width: 80, height: 24))
    runtime.draw(on: &grid)
    return grid
  }

  static func lines(_ runtime: ShopRuntime) -> [String] { runtime.model.log.map { $0.event.text(.storeKit1, .en) } }

  @Test("a change reaches the observer, the app requests its products again, and prices change only with the answer")
  func pricesComeFromTheNewResponse() throws {
    let (runtime, storage) = Self.shop()
    #expect(Self.screen(runtime).contains("Buy $1.99"))
    _ = try storage.changeStore(catalog: Self.partlyPriced) {
      _ = try $0.set(.storefront, to: "JPN", at: ShopHarness.start)
    }
    runtime.folderChanged(now: ShopHarness.start.addingTimeInterval(5))
    let lines = Self.lines(runtime)
    let changed = try #require(lines.firstIndex(of: "paymentQueueDidChangeStorefront(_:) → JPN"))
    #expect(lines[(changed + 1)...].contains("SKProductsRequest(2 ids).start()"))
    let waiting = Self.screen(runtime)
    #expect(waiting.contains("loading..."), "\(waiting)")
    #expect(!waiting.contains("$0.99") && !waiting.contains("￥160"), "no price before the response: \(waiting)")
    runtime.run(until: 6000)
    let answered = Self.screen(runtime)
    #expect(answered.contains("Buy ￥160"), "\(answered)")
    #expect(answered.contains("Not available"), "credits.10 has no JPN price: \(answered)")
    #expect(
      Self.lines(runtime).last
        == "productsRequest(_:didReceive:) 1 product, invalidProductIdentifiers: com.monkeyshop.credits.10")
  }

  @Test("a storefront that prices only some products is offered and taken, not refused")
  func aPartlyPricedStorefrontIsAccepted() throws {
    #expect(Condition.storefront.choices(Self.partlyPriced) == ["USA", "JPN"])
    var store = AppStore(state: StoreState(), catalog: Self.partlyPriced)
    #expect(try store.set(.storefront, to: "JPN", at: ShopHarness.start).isEmpty)
    #expect(store.storefront.code == "JPN")
    let refused = #expect(throws: ConditionError.self) { try store.set(.storefront, to: "GBR", at: ShopHarness.start) }
    #expect(refused?.message.contains("a storefront the catalog prices a product in: USA|JPN") == true)
  }

  @Test(
    "a payment in flight asks paymentQueue(_:shouldContinue:in:); false fails it with storeProductNotAvailable",
    arguments: [true, false])
  func shouldContinue(_ answer: Bool) throws {
    let (runtime, storage) = Self.shop {
      $0.latency = .slow
      $0.continueOnStorefrontChange = answer
    }
    runtime.handle(.character("b"), now: ShopHarness.start.addingTimeInterval(4))
    runtime.handle(.enter, now: ShopHarness.start.addingTimeInterval(4))
    _ = try storage.changeStore(catalog: Self.partlyPriced) {
      _ = try $0.set(.storefront, to: "JPN", at: ShopHarness.start)
    }
    runtime.folderChanged(now: ShopHarness.start.addingTimeInterval(5))
    let lines = Self.lines(runtime)
    #expect(lines.contains("paymentQueue(_:shouldContinue: payment 1, in: JPN) → \(answer)"), "\(lines)")
    let transaction = try #require(storage.store.transactions.first)
    if answer {
      #expect(transaction.state == .purchasing)
    } else {
      #expect(transaction.failure == .productNotAvailable)
      #expect(lines.contains { $0.contains(".failed") && $0.contains("SKErrorDomain 5 storeProductNotAvailable") })
    }
  }
}
