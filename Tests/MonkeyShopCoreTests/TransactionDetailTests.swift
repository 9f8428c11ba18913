import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The transaction manager's detail: Enter on a transaction shows the payload the App Store signs
/// for it, what verifying it gives, and which StoreKit 2 sequences hold it.
@Suite(.tags(.screen)) struct TransactionDetailTests {
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

  @Test("the detail lists the App Store Server Notifications about the transaction, and follows them as they come")
  func detailListsNotifications() throws {
    let shop = bought()
    shop.press(.tab, .enter)
    #expect(shop.screen(100, 40).contains("App Store Server Notifications"))
    // Memory storage, as walkthroughs use, signs nothing.
    #expect(shop.screen(100, 40).contains("ONE_TIME_CHARGE · recorded, not signed: never sent"))
    // The App Store refunds it (another terminal's `store refund`): the open detail lists the REFUND.
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: Date()) }
    #expect(shop.screen(100, 40).contains("REFUND · recorded, not signed: never sent"))
    // A data folder's, signed and sent by `monkeyshop server`: where each stands.
    try shop.storage.update { store, _ in store.notifications.url = "http://127.0.0.1:9000/" }
    shop.runtime.folderChanged(now: shop.now)
    let refund = try #require(shop.storage.notifications.last)
    var waiting = PendingNotification(refund)
    waiting.signed = true
    let failed = SendAttempt(
      date: Date(timeIntervalSince1970: 1_800_000_000), result: .unsuccessfulHTTPResponseCode,
      url: "http://127.0.0.1:9000/", httpStatus: 500)
    waiting.sendAttempts = [failed]
    waiting.nextAttemptDate = Date(timeIntervalSince1970: 1_800_003_600)
    let charge = try #require(shop.storage.notifications.first)
    var delivered = failed
    (delivered.result, delivered.httpStatus) = (.success, 200)
    shop.runtime.send(
      .notificationsRead(
        transactionID: "1",
        [
          NotificationListing(notification: charge, sendAttempts: [failed, delivered], pending: nil),
          NotificationListing(notification: refund, sendAttempts: [failed], pending: waiting),
        ]))
    let screen = shop.screen(100, 40)
    #expect(screen.contains("ONE_TIME_CHARGE · delivered · 200 · attempt 2"))
    #expect(
      screen.contains("REFUND · retry at 2027-01-15T09:00:00.000Z · 500 UNSUCCESSFUL_HTTP_RESPONSE_CODE · attempt 1"))
    let ja = ShopHarness(language: .ja)
    ja.press("5")
    ja.press(.enter)
    ja.wait(2)
    ja.press(.tab, .enter)
    #expect(ja.screen(100, 40).contains("ONE_TIME_CHARGE · 記録済み・署名なし: 送信されない"))
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
    #expect(shop.screen().contains("revocationDate: "))
    #expect(shop.screen().contains("StoreKit 2: Transaction.all ✓  unfinished ✗  currentEntitlements ✗"))
    shop.press(.pageDown)
    let screen = shop.screen()
    #expect(screen.contains("revocationReason: 0"))
    #expect(screen.contains("revocationDate: "))
    #expect(shop.model.overlay == .transactionDetail(selection: 0))
  }

  @Test("an interrupted purchase's row says in words which key resolves it", arguments: [Language.en, .ja])
  func interruptedRowInWords(language: Language) {
    let shop = ShopHarness(conditions: { $0.interruptedPurchases = true }, language: language)
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab)
    let row = shop.screen().lines.first { $0.contains("com.monkeyshop.credits.5") } ?? ""
    #expect(row.contains(language == .ja ? "v を押して解決" : "press v to resolve"), "\(shop.screen())")
    #expect(!row.contains("issue"), "\(shop.screen())")
  }

  @Test("a new transaction above keeps the manager on the transaction chosen, so f and v act on it")
  func selectionFollowsTheTransaction() {
    let shop = ShopHarness(conditions: { $0.interruptedPurchases = true })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("i")  // interruptions off
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab, .down, .enter)
    #expect(shop.screen().contains("Transaction payment 1 · 2 of 2"))
    shop.press("v")
    shop.wait(2)
    #expect(shop.screen().contains("Transaction payment 1 · 3 of 3"), "\(shop.screen())")
    shop.press(.escape)
    #expect(shop.model.selectedTransaction?.id == "1")
  }

  @Test("at 80×24 in Japanese a refunded transaction shows every payload field, the last ones a PgDn down")
  func everyFieldFits() {
    let shop = ShopHarness(language: .ja)
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab, .enter)
    shop.press("f")
    #expect(shop.screen().contains("price: 990"), "\(shop.screen())")
    shop.press(.pageDown)
    let screen = shop.screen()
    #expect(screen.contains("revocationDate: "), "\(screen)")
    #expect(screen.contains("revocationReason: 0"), "\(screen)")
    #expect(screen.contains("price: 990"), "\(screen)")
  }

  @Test(
    "a list longer than its page says so on its edges, with the key that shows the rest", arguments: [Language.en, .ja])
  func longListSaysMore(language: Language) {
    let shop = ShopHarness(language: language)
    // Three pages at 80×24.
    for _ in 0..<40 {
      shop.press("5")
      shop.press(.enter)
      shop.wait(2)
    }
    shop.press(.tab)
    let below = language == .ja ? "下に続きあり: PgDn" : "more below: PgDn"
    let above = language == .ja ? "上にもあり: PgUp" : "more above: PgUp"
    var screen = shop.screen()
    // On the box's bottom edge, beside its footer, which still ends with help.
    let edge = screen.line(screen.size.height - 2)
    #expect(edge.contains(below) && edge.contains("? "), "\(screen)")
    #expect(!screen.contains(above), "\(screen)")
    shop.press(.end)
    screen = shop.screen()
    #expect(screen.line(1).contains(above), "\(screen)")
    #expect(!screen.contains(below), "\(screen)")
    shop.press(.home)
    shop.press(.pageDown)
    screen = shop.screen()
    #expect(screen.contains(above) && screen.contains(below), "\(screen)")
  }

  @Test(
    "at 80×24 a refunded transaction's detail scrolls to its last rows: ↓ more names PgDn, ↑↓ still change transaction")
  func tallDetailScrolls() throws {
    let shop = bought()
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: Date()) }
    shop.press(.tab, .end, .enter)
    var screen = shop.screen()
    #expect(screen.contains("Transaction #1 · 2 of 2"), "\(screen)")
    #expect(screen.contains("revocationType: REFUND_FULL"), "\(screen)")
    // Rows out of view are said, with the key that shows them.
    #expect(screen.contains("more below: PgDn"), "\(screen)")
    #expect(!screen.contains("revocationPercentage"), "\(screen)")
    shop.press(.pageDown)
    screen = shop.screen()
    #expect(shop.model.overlay == .transactionDetail(selection: 1), "PgDn scrolls the detail, it stays on #1")
    #expect(screen.contains("revocationPercentage: 100000"), "\(screen)")
    #expect(screen.contains("App Store Server Notifications"), "\(screen)")
    #expect(screen.contains("REFUND · recorded, not signed: never sent"), "\(screen)")
    #expect(screen.contains("monkeyshop store transactions --json"), "\(screen)")
    #expect(screen.contains("more above: PgUp"), "\(screen)")
    #expect(!screen.contains("↓ more"), "\(screen)")
    // Help opened over the scrolled detail, and closed, leaves it where it was.
    shop.press("?")
    #expect(shop.screen().contains("page down: log, list, detail"), "\(shop.screen())")
    shop.press(.escape)
    #expect(shop.screen().lines == screen.lines, "\(shop.screen())")
    // At the end PgDn says why it does nothing; PgUp goes back to the top.
    shop.press(.pageDown)
    #expect(shop.screen().contains("the detail shows its last row"))
    shop.press(.pageUp)
    #expect(shop.screen().contains("com.monkeyshop.credits.5 ×1 · purchased"))
    #expect(!shop.screen().contains("↑ more"))
    // ↑ goes to the transaction above, shown from its top.
    shop.press(.pageDown, .up)
    screen = shop.screen()
    #expect(screen.contains("Transaction #2 · 1 of 2"), "\(screen)")
    #expect(screen.contains("com.monkeyshop.credits.10 ×1 · purchased"), "\(screen)")
    // At 100×40 the whole detail fits: nothing said.
    shop.press(.down)
    #expect(!shop.screen(100, 40).contains("more: PgDn"))
    #expect(shop.screen(100, 40).contains("monkeyshop store transactions --json"))
  }

  @Test("a failed payment's detail gives its error: ID, domain, code and Apple's message")
  func failedPaymentShowsItsError() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.press(.tab, .enter)
    #expect(shop.screen().contains("MS-E0004 SKErrorDomain 2 paymentCancelled"), "\(shop.screen())")
  }

  @Test("a product the catalog no longer sells is taken for the consumable it was, never an entitlement")
  func unknownProductIsAConsumable() {
    let transaction = StoreTransaction(
      id: "1", productIdentifier: "com.example.gone", quantity: 1, state: .purchased, purchaseDate: ShopHarness.start,
      finished: true)
    let inspection = TransactionInspection(transaction, catalog: ShopHarness.catalog, conditions: Conditions())
    #expect(inspection.consumable)
    #expect(!inspection.sequences.currentEntitlements && !inspection.sequences.all)
  }

  @Test("the non-consumable signs as Non-Consumable; its restore names the purchase and is no StoreKit 2 transaction")
  func nonConsumableAndRestore() {
    let map = "com.monkeyshop.jungle-map"
    let purchase = StoreTransaction(
      id: "1", productIdentifier: map, quantity: 1, state: .purchased, purchaseDate: ShopHarness.start, finished: true)
    var restore = StoreTransaction(
      id: "2", productIdentifier: map, quantity: 1, state: .restored, purchaseDate: ShopHarness.start, finished: true)
    restore.restoredTransactionID = "1"
    let catalog = ShopHarness.catalog
    let bought = SignedTransactionPayload(purchase, catalog: catalog, storefront: .usa)
    #expect(bought?.type == "Non-Consumable")
    #expect(bought?.originalTransactionId == "1")
    let restored = SignedTransactionPayload(restore, catalog: catalog, storefront: .usa)
    #expect(restored?.transactionId == "2" && restored?.originalTransactionId == "1")
    let owned = TransactionInspection(purchase, catalog: catalog, conditions: Conditions())
    #expect(owned.sequences.all && owned.sequences.currentEntitlements && !owned.consumable)
    let again = TransactionInspection(restore, catalog: catalog, conditions: Conditions())
    #expect(!again.sequences.all && !again.sequences.unfinished && !again.sequences.currentEntitlements)
  }

  @Test("the payload lines pair up only where both fit half the width")
  func flowPairsShortLines() {
    let rows = OverlayView.flow(["a: 1", "b: 2", String(repeating: "c", count: 30), "d: 4"], width: 40)
    #expect(rows == ["a: 1" + String(repeating: " ", count: 15) + "  b: 2", String(repeating: "c", count: 30), "d: 4"])
  }
}
