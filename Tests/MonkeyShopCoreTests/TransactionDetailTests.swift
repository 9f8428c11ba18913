import Foundation
import Testing

@testable import MonkeyShopCore

/// The transaction manager's detail: Enter on a transaction shows the payload the App Store signs
/// for it, what verifying it gives, and which StoreKit 2 sequences hold it.
@Suite struct TransactionDetailTests {
  private func bought(_ conditions: @escaping (inout Conditions) -> Void = { _ in }) -> ShopHarness {
    let shop = ShopHarness(conditions: conditions)
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    return shop
  }

  @Test("Enter shows the decoded payload; Esc goes back to the list, then closes the manager")
  func detailOpensAndCloses() {
    let shop = bought()
    shop.press(.tab, .enter)
    let screen = shop.screen()
    #expect(screen.contains("Transaction #1 · 1 of 1"))
    #expect(screen.contains("VerificationResult: .verified"))
    #expect(screen.contains("transactionId: 1"))
    #expect(screen.contains("productId: com.monkeyshop.credits.5"))
    #expect(screen.contains("price: 990"))
    #expect(screen.contains("currency: USD"))
    #expect(screen.contains("StoreKit 2: Transaction.all ✗  unfinished ✗  currentEntitlements ✗"))
    shop.press(.escape)
    #expect(shop.model.overlay == .transactions(selection: 0))
    #expect(shop.screen().contains("Transactions (1) · 1 of 1"))
    shop.press(.escape)
    #expect(shop.model.overlay == nil)
  }

  @Test("↑ ↓ in the detail show the other transactions; a cancelled payment has no signed transaction")
  func detailFollowsTheSelection() {
    let shop = bought()
    shop.press("5")
    shop.press(.escape)
    shop.press(.tab, .enter)
    #expect(shop.screen().contains("Transaction payment 2 · 1 of 2"))
    #expect(shop.screen().contains("No signed transaction"))
    #expect(!shop.screen().contains("transactionId:"))
    shop.press(.down)
    #expect(shop.model.overlay == .transactionDetail(selection: 1))
    #expect(shop.screen().contains("Transaction #1 · 2 of 2"))
    #expect(shop.screen().contains("transactionId: 1"))
  }

  @Test("verification fail: .unverified(invalidSignature), left unfinished, so Transaction.all and unfinished hold it")
  func unverifiedTransaction() {
    let shop = ShopHarness(conditions: {
      $0.verificationPasses = false
      $0.storeKit = .storeKit2
    })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab, .enter)
    let screen = shop.screen()
    #expect(screen.contains("VerificationResult: .unverified(invalidSignature)"))
    #expect(screen.contains("StoreKit 2: Transaction.all ✓  unfinished ✓  currentEntitlements ✗"))
  }

  @Test("consumable history on keeps a finished consumable in Transaction.all, never in currentEntitlements")
  func consumableHistory() {
    let shop = bought { $0.includeConsumableHistory = true }
    shop.press(.tab, .enter)
    #expect(shop.screen().contains("StoreKit 2: Transaction.all ✓  unfinished ✗  currentEntitlements ✗"))
    #expect(shop.screen().contains("consumable history on"))
  }

  @Test("a refund shows in the detail at once: revocation fields, back in Transaction.all")
  func refundInTheDetail() {
    let shop = bought()
    shop.press(.tab, .enter)
    shop.press("f")
    let screen = shop.screen()
    #expect(screen.contains("revocationReason: 0"))
    #expect(screen.contains("revocationDate: "))
    #expect(screen.contains("StoreKit 2: Transaction.all ✓  unfinished ✗  currentEntitlements ✗"))
    #expect(shop.model.overlay == .transactionDetail(selection: 0))
  }

  @Test("the payload lines pair up only where both fit half the width")
  func flowPairsShortLines() {
    let rows = OverlayView.flow(["a: 1", "b: 2", String(repeating: "c", count: 30), "d: 4"], width: 40)
    #expect(rows == ["a: 1" + String(repeating: " ", count: 15) + "  b: 2", String(repeating: "c", count: 30), "d: 4"])
  }
}
