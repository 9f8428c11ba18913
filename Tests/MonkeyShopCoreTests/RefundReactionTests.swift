import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// What each app hears of a refund: StoreKit 2 through Transaction.updates, taken back once;
/// StoreKit 1 nothing, for a consumable.
@Suite(.tags(.pure)) struct RefundReactionTests {
  static func bought(_ api: StoreKitAPI, quantity: Int = 1) -> ShopHarness {
    let shop = ShopHarness(conditions: {
      $0.storeKit = api
      $0.latency = .instant
    })
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    return shop
  }

  static func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  @Test func storeKit2TakesTheCreditsBackOnceAndMayOwe() throws {
    let shop = Self.bought(.storeKit2)
    shop.press("sss")
    #expect(shop.model.balance == 2)
    try shop.changeStore { _ = try $0.refund("1", reason: .developerIssue, at: ShopHarness.start) }
    let lines = Self.lines(shop)
    #expect(lines.contains("refund: the App Store revoked #1 (revocationReason developerIssue)"))
    #expect(lines.contains("Transaction.updates → .verified #1, revocationDate set (developerIssue)"))
    #expect(lines.contains("take back #1: -5 credits → balance -3"))
    #expect(shop.storage.wallet.balance == -3, "the balance goes below zero: owed")
    #expect(shop.model.status == .refundTakenBack(transactionID: "1", credits: 5, balance: -3))
    // Spending is refused while owed.
    shop.press("s")
    #expect(shop.storage.wallet.balance == -3)
    // A relaunch hears of it no more: taken back once.
    shop.launch()
    #expect(!Self.lines(shop).contains { $0.contains("revocationDate set") })
    #expect(shop.storage.wallet.balance == -3)
  }

  @Test func aRefundMadeWhileNoAppRanArrivesAtTheNextStoreKit2Launch() throws {
    let shop = Self.bought(.storeKit2)
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) {
      _ = try $0.refund("1", reason: .other, at: ShopHarness.start)
    }
    shop.launch()
    #expect(Self.lines(shop).contains("Transaction.updates → .verified #1, revocationDate set (other)"))
    #expect(shop.storage.wallet.balance == 0)
  }

  @Test func storeKit1HearsNothingAndKeepsTheCredits() throws {
    let shop = Self.bought(.storeKit1)
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    let lines = Self.lines(shop)
    #expect(lines.contains("refund: the App Store revoked #1 (revocationReason other)"))
    #expect(lines.contains { $0.contains("StoreKit 1 tells the app nothing of a consumable's refund") })
    #expect(!lines.contains { $0.hasPrefix("take back") })
    #expect(shop.storage.wallet.balance == 5)
    #expect(shop.model.status == .refundNotTold(transactionID: "1"))
  }

  @Test func theTransactionManagerRefundsTheSelectedTransaction() {
    let shop = Self.bought(.storeKit2)
    shop.press(.tab)
    shop.press("f")
    #expect(shop.storage.store.transaction("1")?.revocationReason == .other)
    #expect(shop.storage.wallet.balance == 0)
    // A second refund of the same transaction is refused with the reason.
    shop.press("f")
    #expect(shop.model.status == .cannot(keys: "f", .onlyPurchasedCanBeRefunded))
  }

  @Test func anOldTransactionOnlyTheHistoryListsIsRefundedFromTheManager() throws {
    let shop = Self.bought(.storeKit2)
    for _ in 0..<22 {
      shop.press("5")
      shop.press(.enter)
      shop.wait(1)
    }
    #expect(shop.storage.store.transaction("1") == nil, "#1 has moved to the history")
    shop.press(.tab)
    shop.press(.end)
    shop.press("f")
    #expect(shop.storage.store.transaction("1")?.isRevoked == true, "\(String(describing: shop.model.status))")
    #expect(Self.lines(shop).contains("take back #1: -5 credits → balance 110"))
    // The refunded transaction stays in the store until the app has heard of it, however many
    // purchases follow.
    for _ in 0..<22 {
      shop.press("5")
      shop.press(.enter)
      shop.wait(1)
    }
    #expect(shop.storage.store.transaction("1")?.isRevoked == true)
  }

  @Test func switchingTheAppDoesNotAnnounceARefundTakenBackAgain() throws {
    let shop = Self.bought(.storeKit2)
    try shop.changeStore { _ = try $0.refund("1", reason: .other, at: ShopHarness.start) }
    shop.press("l")
    shop.press("l")
    let revoked = Self.lines(shop).filter { $0.contains("revocationDate set") }
    #expect(revoked.count == 1, "\(revoked)")
  }
}
