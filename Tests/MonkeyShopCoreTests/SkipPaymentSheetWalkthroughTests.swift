import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// A walkthrough's `press` steps use the storefront's keys: with `skipPaymentSheet` on, a buy key
/// goes straight to the store, and the walkthrough sees no sheet.
@Suite("Walkthroughs: skipPaymentSheet", .tags(.walkthroughs))
struct SkipPaymentSheetWalkthroughTests {
  static let catalog = ShopHarness.catalog

  static func run(_ yaml: String) throws -> WalkthroughResult {
    WalkthroughRunner(catalog: catalog).run(try WalkthroughParser.parse(yaml, path: "skip.yaml"))
  }

  @Test("a press of 5 buys without the sheet when the walkthrough's conditions skip it")
  func pressBuysWithoutTheSheet() throws {
    let result = try Self.run(
      """
      name: Fast demo
      conditions: { skipPaymentSheet: on }
      steps:
        - launch
        - press: "5"
        - expect: { screen: "Purchasing 5 Monkey Credits ×1 (payment sheet skipped)…" }
        - expect: { screen: "skipPaymentSheet: no payment sheet, added as if Buy was tapped" }
        - wait: 1s
        - expect: { balance: 5, event: finished, screen: "Purchased 5 Monkey Credits ×1: +5 credits" }
        - set: { skipPaymentSheet: off }
        - press: "0"
        - expect: { screen: "App Store" }
      """)
    #expect(result.passed, "\(Transcript.text(result))")
  }
}
