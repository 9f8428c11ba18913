import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

private let catalog = ShopHarness.catalog
private let five = "com.monkeyshop.credits.5"
private let ten = "com.monkeyshop.credits.10"
private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// Bought (and, unless `deliver` is false, delivered and finished) at `index` seconds.
@discardableResult
private func buy(
  _ storage: any ShopStorage, _ product: String = ten, quantity: Int = 1, at index: Int = 0, deliver: Bool = true
) throws -> StoreTransaction {
  let (transaction, _) = try storage.changeStore(catalog: catalog) { store in
    store.state.conditions.latency = .instant
    let now = t0.addingTimeInterval(Double(index))
    _ = try store.add(productIdentifier: product, quantity: quantity, at: now)
    return store.advance(to: now)[0]
  }
  guard deliver else { return transaction }
  _ = try CreditManager(storage: storage, catalog: catalog).deliver(transaction)
  _ = try storage.changeStore(catalog: catalog) { try $0.finish(transaction.id) }
  return transaction
}

private func refund(
  _ storage: any ShopStorage, _ id: String, reason: RevocationReason = .other, at seconds: Double = 100
) throws -> StoreTransaction {
  try storage.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction(id)) { store in
    try store.refund(id, reason: reason, at: t0.addingTimeInterval(seconds))
  }.result
}

@Suite("Refunds: Apple's side and the wallet", .tags(.pure))
struct RefundTests {
  @Test("a refund sets revocationDate and revocationReason on a purchased transaction, finished or not, once")
  func refundOnce() throws {
    let storage = MemoryStorage()
    let finished = try buy(storage, at: 1)
    let unfinished = try buy(storage, at: 2, deliver: false)
    let refunded = try refund(storage, finished.id, reason: .developerIssue, at: 50)
    #expect(refunded.revocationDate == t0.addingTimeInterval(50))
    #expect(refunded.revocationReason == .developerIssue)
    #expect(storage.store.transaction(finished.id)?.isRevoked == true)
    #expect(try refund(storage, unfinished.id).revocationReason == .other)
    #expect(throws: TransactionError.alreadyRefunded(id: finished.id, on: t0.addingTimeInterval(50))) {
      try refund(storage, finished.id, at: 60)
    }
    let message = TransactionError.alreadyRefunded(id: "1", on: t0).message
    #expect(message.contains("transaction 1 was refunded already") && message.contains("refunds a transaction once"))
    #expect(throws: TransactionError.unknown("99")) { try refund(storage, "99") }
  }

  @Test("only a purchased transaction is refunded: failed, deferred and purchasing ones are refused")
  func onlyPurchased() throws {
    let storage = MemoryStorage()
    _ = try storage.changeStore(catalog: catalog) { $0.state.conditions.failNext = .storeKit(.paymentCancelled) }
    let failed = try buy(storage, at: 1, deliver: false)
    #expect(failed.state == .failed)
    #expect(
      throws: TransactionError.wrongState(id: failed.id, operation: "refund", state: .failed, expected: "purchased")
    ) { try refund(storage, failed.id) }
    #expect(throws: TransactionError.noneToAct(operation: "refund", expected: "purchased")) {
      try refund(storage, "last")
    }
  }

  @Test("a refund of a transaction only the history lists brings it back into the store, refunded")
  func refundFromHistory() throws {
    let storage = MemoryStorage()
    for index in 0..<22 { try buy(storage, at: index) }
    #expect(storage.store.transaction("1") == nil)
    _ = try refund(storage, "1")
    #expect(storage.store.transaction("1")?.isRevoked == true)
    #expect(storage.store.transactions.first?.id == "1", "back in number order")
    let every = try storage.readEveryTransaction()
    #expect(every.count == 22)
    #expect(every.filter(\.isRevoked).map(\.id) == ["1"])
  }

  @Test("the clawback takes the credits back once; the balance may go below zero and is then owed")
  func clawBackOnce() throws {
    let storage = MemoryStorage()
    let credits = CreditManager(storage: storage, catalog: catalog)
    let bought = try buy(storage, ten, quantity: 2)
    #expect(storage.wallet.balance == 20)
    try credits.spend(15)
    let refunded = try refund(storage, bought.id)
    #expect(try credits.clawBack(refunded) == .takenBack(credits: 20, balance: -15))
    #expect(try credits.clawBack(refunded) == .alreadyTakenBack(balance: -15))
    #expect(storage.wallet.balance == -15 && storage.wallet.owed == 15)
    #expect(storage.wallet.clawedBack.contains(1))
    // Spending is refused while owed, and the message says so.
    let error = #expect(throws: CreditError.self) { try credits.spend(1) }
    #expect(error?.message.contains("the wallet owes 15") == true, "\(error?.message ?? "")")
    #expect(error?.errorID == .insufficientBalance)
    // Purchases pay it back.
    try buy(storage, ten, at: 5)
    try buy(storage, ten, at: 6)
    #expect(storage.wallet.balance == 5)
    #expect(try credits.spend(5) == 0)
  }

  @Test("a transaction the store does not hold as refunded is never clawed back")
  func notRefunded() throws {
    let storage = MemoryStorage()
    let credits = CreditManager(storage: storage, catalog: catalog)
    let bought = try buy(storage)
    #expect(throws: CreditError.notRefunded(bought.id)) { try credits.clawBack(bought) }
    // The caller's copy claiming a refund does not count: the store's record decides.
    var claimed = bought
    claimed.revocationDate = t0
    claimed.revocationReason = .other
    #expect(throws: CreditError.notRefunded(bought.id)) { try credits.clawBack(claimed) }
    #expect(storage.wallet.balance == 10 && storage.wallet.clawedBack.runs.isEmpty)
  }

  @Test("a refund taken back before delivery takes nothing, is recorded, and the delivery then credits nothing")
  func refundedBeforeDelivery() throws {
    let storage = MemoryStorage()
    let credits = CreditManager(storage: storage, catalog: catalog)
    let paid = try buy(storage, deliver: false)
    let refunded = try refund(storage, paid.id)
    #expect(try credits.clawBack(refunded) == .takenBack(credits: 0, balance: 0))
    #expect(try credits.deliver(paid) == .alreadyDelivered(balance: 0))
    #expect(storage.wallet.balance == 0)
  }

  @Test("an old refunded transaction brought back from the history stays in the store for the app to find")
  func clawBackFromHistory() throws {
    let storage = MemoryStorage()
    let credits = CreditManager(storage: storage, catalog: catalog)
    for index in 0..<22 { try buy(storage, at: index) }
    let refunded = try refund(storage, "1")
    // More purchases do not move it back to the history: an app that has not heard of the
    // refund must still find it at its next launch.
    for index in 22..<24 { try buy(storage, at: index) }
    #expect(storage.store.transaction("1")?.isRevoked == true)
    #expect(try credits.clawBack(refunded) == .takenBack(credits: 10, balance: 230))
  }

  @Test("the storefront's balance line shows a balance below zero as owed, in English and Japanese")
  func balanceLineOwed() throws {
    let english = ShopHarness(balance: -7)
    #expect(english.screen().text.contains("7 monkey credits owed"), "\(english.screen().text)")
    let japanese = ShopHarness(balance: -7, language: .ja)
    #expect(japanese.screen().text.contains("7 モンキークレジットの未払い"), "\(japanese.screen().text)")
    #expect(ShopHarness(balance: 7).screen().lines.contains("  7 monkey credits"))
    #expect(!ShopHarness(balance: 7).screen().text.contains("credits owed"))
  }

  @Test("a wallet of schema 2 is read with nothing clawed back and written back in the current schema")
  func walletUpgrade() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-v2-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o700)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let folder = DataFolder(path: path)
    try Data(#"{"schemaVersion": 2, "balance": 12, "credited": [[1, 3]], "lastTransactionNumber": 3}"#.utf8)
      .write(to: URL(fileURLWithPath: folder.walletPath))
    let wallet = try folder.readWallet()
    #expect(wallet.balance == 12 && wallet.clawedBack.runs.isEmpty && wallet.schemaVersion == Wallet.schemaVersion)
    try folder.update { _, wallet in wallet.balance -= 20 }
    let written = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.walletPath)))
        as? [String: Any])
    #expect(written["schemaVersion"] as? Int == Wallet.schemaVersion)
    #expect(written["balance"] as? Int == -8)
    #expect((written["clawedBack"] as? [Any])?.isEmpty == true)
  }
}
