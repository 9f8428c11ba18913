import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// Each product row keeps its own quantity: `+`/`−` change the selected row's, and the buy-5 and
/// buy-10 keys pay for their own row's, on the payment sheet, in the log and in the store.
@Suite(.tags(.pure)) struct RowQuantityTests {
  @Test func buyFiveUsesItsOwnRowsQuantityNotTheOneSetOnTheTenCreditRow() {
    let shop = ShopHarness()
    shop.press("j++")
    #expect(shop.model.quantity == 3)
    shop.press("5")
    let sheet = shop.screen()
    #expect(sheet.contains("Quantity        1"), "\(sheet)")
    #expect(sheet.contains("+5 monkey credits"), "\(sheet)")
    #expect(!sheet.contains("+15 monkey credits"), "\(sheet)")
    let log = shop.model.log.map { $0.text(.en) }
    #expect(log.contains { $0.contains("credits.5 ×1") }, "\(log)")
    #expect(!log.contains { $0.contains("×3") }, "\(log)")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.storage.store.transactions.last?.quantity == 1)
    #expect(shop.model.balance == 5)
  }

  @Test func buyTenUsesTheQuantitySetOnItsRowAfterTheSelectionMovedAway() {
    let shop = ShopHarness()
    shop.press("j++k")
    let screen = shop.screen()
    // The other row still shows the quantity its buy key will pay for.
    let tenRow = screen.lines.first { $0.contains("10 Monkey Credits") } ?? ""
    #expect(tenRow.contains("qty 3"), "\(screen)")
    let fiveRow = screen.lines.first { $0.contains("5 Monkey Credits") && !$0.contains("10") } ?? ""
    #expect(fiveRow.contains("qty 1"), "\(screen)")
    shop.press("0")
    #expect(shop.screen().contains("Quantity        3"), "\(shop.screen())")
    #expect(shop.screen().contains("+30 monkey credits"), "\(shop.screen())")
  }

  @Test func withTheSheetSkippedEachBuyKeyPaysForItsOwnRow() {
    let shop = ShopHarness(conditions: { $0.skipPaymentSheet = true })
    shop.press("j++")
    shop.press("5")
    shop.wait(2)
    shop.press("0")
    shop.wait(2)
    let bought = shop.storage.store.transactions.map { "\($0.productIdentifier) ×\($0.quantity)" }
    #expect(bought == ["com.monkeyshop.credits.5 ×1", "com.monkeyshop.credits.10 ×3"])
    #expect(shop.model.balance == 35)
  }
}
