import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

private let five = "com.monkeyshop.credits.5"
private let ten = "com.monkeyshop.credits.10"
private let huge = "com.monkeyshop.credits.huge"

private let catalog = Catalog(products: [
  Product(
    productIdentifier: five, credits: 5, localizations: ["en": .init(title: "5 Monkey Credits", description: "")],
    prices: ["USA": Decimal(string: "0.99")!]),
  Product(
    productIdentifier: ten, credits: 10, localizations: ["en": .init(title: "10 Monkey Credits", description: "")],
    prices: ["USA": Decimal(string: "1.99")!]),
  Product(
    productIdentifier: huge, credits: Int.max / 2 + 1, localizations: ["en": .init(title: "Too many", description: "")],
    prices: ["USA": 1]),
])

private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// Buys through the App Store kept in `storage`, as the app does: the transaction is in the store
/// before it is delivered.
private func purchase(_ storage: some ShopStorage, _ product: String = five, quantity: Int = 1) throws
  -> StoreTransaction
{
  try storage.update { state, _ in
    var store = AppStore(state: state, catalog: catalog)
    let added = try store.add(productIdentifier: product, quantity: quantity, at: t0)
    _ = store.advance(to: t0.addingTimeInterval(60))
    state = store.state
    return store.state.transaction(added.id)!
  }
}

/// `finishTransaction`, as the app calls it after delivery.
private func finish(_ storage: some ShopStorage, _ id: String) throws {
  try storage.update { state, _ in
    var store = AppStore(state: state, catalog: catalog)
    try store.finish(id)
    state = store.state
  }
}

@Suite("Credits", .tags(.pure))
struct CreditsTests {
  @Test("delivering a purchase adds credits × quantity")
  func deliver() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    let transaction = try purchase(storage, ten, quantity: 3)
    #expect(transaction.state == .purchased)
    #expect(try manager.deliver(transaction) == .credited(credits: 30, balance: 30))
    #expect(storage.wallet.balance == 30)
    let other = try purchase(storage, five)
    #expect(try manager.deliver(other) == .credited(credits: 5, balance: 35))
  }

  @Test("delivering the same transaction again credits nothing")
  func deliverTwice() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    let transaction = try purchase(storage, five, quantity: 2)
    _ = try manager.deliver(transaction)
    let writes = storage.writes.wallet
    #expect(try manager.deliver(transaction) == .alreadyDelivered(balance: 10))
    #expect(storage.wallet.balance == 10)
    #expect(storage.writes.wallet == writes)
  }

  @Test("a redelivery is recognised after other transactions were delivered and finished")
  func redeliveryAmongOthers() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    let first = try purchase(storage, five)
    let second = try purchase(storage, ten)
    _ = try manager.deliver(first)
    _ = try manager.deliver(second)
    try finish(storage, second.id)
    let third = try purchase(storage, five)
    _ = try manager.deliver(third)
    #expect(try manager.deliver(first) == .alreadyDelivered(balance: 20))
    #expect(try manager.deliver(second) == .alreadyDelivered(balance: 20))
  }

  @Test("a crash after delivery but before finish: at relaunch the transaction is only finished")
  func crashBeforeFinish() throws {
    let storage = MemoryStorage()
    let transaction = try purchase(storage, ten)
    _ = try CreditManager(storage: storage, catalog: catalog).deliver(transaction)
    // The app dies here. At relaunch the queue hands the unfinished transaction over again.
    let relaunched = CreditManager(storage: storage, catalog: catalog)
    let unfinished = storage.store.unfinished
    #expect(unfinished.map(\.id) == [transaction.id])
    #expect(try relaunched.deliver(unfinished[0]) == .alreadyDelivered(balance: 10))
    try finish(storage, transaction.id)
    #expect(storage.store.unfinished.isEmpty)
    #expect(storage.wallet.balance == 10)
  }

  @Test("a transaction the store shows finished is never credited")
  func finishedTransaction() throws {
    var state = StoreState()
    state.transactions = [
      StoreTransaction(
        id: "7", productIdentifier: ten, quantity: 1, state: .purchased, purchaseDate: t0, finished: true)
    ]
    let storage = MemoryStorage(store: state, wallet: Wallet(balance: 3))
    let manager = CreditManager(storage: storage, catalog: catalog)
    #expect(try manager.deliver(state.transactions[0]) == .alreadyDelivered(balance: 3))
    #expect(storage.wallet.balance == 3)
  }

  @Test("the wallet does not grow: 500 purchases delivered and finished are one run of numbers")
  func walletStaysSmall() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    for _ in 1...500 {
      let transaction = try purchase(storage, five)
      _ = try manager.deliver(transaction)
      try finish(storage, transaction.id)
    }
    #expect(storage.wallet.balance == 2500)
    #expect(storage.wallet.credited == CreditedTransactions(through: 500, uncredited: []))
    #expect(storage.store.transactions.count <= StoreState.finishedHistoryLimit)
    #expect(storage.store.unfinished.isEmpty)
  }

  @Test(
    "failed purchases never grow the wallet: 100,000 between purchases leave it under 1 KB, as small as after the first"
  )
  func failuresDoNotGrowTheWallet() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    func buy() throws {
      let transaction = try purchase(storage, five)
      let before = storage.wallet.balance
      #expect(try manager.deliver(transaction) == .credited(credits: 5, balance: before + 5))
      try finish(storage, transaction.id)
    }
    try buy()
    let first = try JSONEncoder().encode(storage.wallet).count
    for _ in 1...100_000 {
      // A forced failure (the store's failNext), finished as the app finishes a failed payment.
      let failed = try storage.update { state, _ in
        var store = AppStore(state: state, catalog: catalog)
        _ = try store.set(.failNext, to: "2", at: t0)
        let added = try store.add(productIdentifier: five, quantity: 1, at: t0)
        _ = store.advance(to: t0.addingTimeInterval(60))
        try store.finish(added.id)
        state = store.state
        return store.state.transaction(added.id) ?? added
      }
      #expect(failed.state == .failed || failed.finished)
      try buy()
    }
    let wallet = storage.wallet
    let bytes = try JSONEncoder().encode(wallet)
    #expect(bytes.count < 1024, "\(bytes.count) bytes")
    #expect(bytes.count <= first + 16, "first purchase: \(first) bytes, now \(bytes.count)")
    #expect(wallet.balance == 5 * 100_001)
    #expect(wallet.credited.uncredited.isEmpty && wallet.credited.through == 200_001)
  }

  @Test("a purchase waiting for approval while later ones are credited and fail is still credited once approved")
  func watchedWhileOthersSettle() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    let waiting = try storage.update { state, _ in
      var store = AppStore(state: state, catalog: catalog)
      _ = try store.set(.askToBuy, to: "on", at: t0)
      let added = try store.add(productIdentifier: ten, quantity: 1, at: t0)
      _ = store.advance(to: t0.addingTimeInterval(60))
      _ = try store.set(.askToBuy, to: "off", at: t0)
      state = store.state
      return store.state.transaction(added.id)!
    }
    #expect(waiting.state == .deferred)
    for _ in 1...3 {
      let transaction = try purchase(storage, five)
      _ = try manager.deliver(transaction)
      try finish(storage, transaction.id)
    }
    #expect(storage.wallet.credited == CreditedTransactions(through: 4, uncredited: [1]))
    let approved = try storage.update { state, _ in
      var store = AppStore(state: state, catalog: catalog)
      let approved = try store.approve(waiting.id)
      state = store.state
      return approved
    }
    #expect(try manager.deliver(approved) == .credited(credits: 10, balance: 25))
    #expect(try manager.deliver(approved) == .alreadyDelivered(balance: 25))
    #expect(storage.wallet.credited == CreditedTransactions(through: 4, uncredited: []))
  }

  @Test(
    "a schema 3 wallet (credited as runs with gaps) is read, still knows every credit, and shrinks at the next purchase"
  )
  func upgradesRuns() throws {
    let old =
      #"{"schemaVersion":3,"balance":15,"credited":[[1,1],[3,3],[5,5]],"clawedBack":[],"lastTransactionNumber":6}"#
    var wallet = try JSONDecoder().decode(Wallet.self, from: Data(old.utf8))
    wallet.schemaVersion = Wallet.schemaVersion
    #expect(wallet.credited == CreditedTransactions(through: 5, uncredited: [2, 4]))
    #expect([1, 3, 5].allSatisfy(wallet.credited.contains) && ![2, 4, 6].contains(where: wallet.credited.contains))
    let storage = MemoryStorage(wallet: wallet)
    let manager = CreditManager(storage: storage, catalog: catalog)
    let transaction = try purchase(storage, five)
    #expect(transaction.id == "7")
    #expect(try manager.deliver(transaction) == .credited(credits: 5, balance: 20))
    // 2, 4 and 6 failed long ago: the store no longer holds them, and the wallet forgets them.
    #expect(storage.wallet.credited == CreditedTransactions(through: 7, uncredited: []))
  }

  @Test("spending subtracts credits and refuses more than the balance")
  func spend() throws {
    let storage = MemoryStorage(wallet: Wallet(balance: 5))
    let manager = CreditManager(storage: storage, catalog: catalog)
    #expect(try manager.spend(3) == 2)
    let error = #expect(throws: CreditError.self) { try manager.spend(3) }
    #expect(error == .insufficientBalance(balance: 2, requested: 3))
    #expect(error?.description.contains("MS-E0010") == true)
    #expect(storage.wallet.balance == 2)
    #expect(try manager.spend(2) == 0)
    #expect(throws: CreditError.insufficientBalance(balance: 0, requested: 1)) { try manager.spend(1) }
    #expect(storage.wallet.balance == 0)
  }

  @Test("what spend reports: spent with the balance left (exit 0), refused with the balance that refused it (exit 1)")
  func spendOutcome() throws {
    let storage = MemoryStorage(wallet: Wallet(balance: 5))
    let manager = CreditManager(storage: storage, catalog: catalog)
    let spent = try SpendOutcome(credits: 3, spendingFrom: manager)
    #expect(spent.outcome == .spent && spent.balance == 2 && spent.exitStatus == 0 && spent.error == nil)
    #expect(spent.line == "spent 3: 2 monkey credits left")
    let refused = try SpendOutcome(credits: 3, spendingFrom: manager)
    #expect(refused.outcome == .refused && refused.balance == 2 && refused.exitStatus == 1, "\(refused)")
    #expect(refused.error?.errorID == .insufficientBalance && refused.line == nil)
    #expect(storage.wallet.balance == 2, "a refused spend takes nothing")
    let unreadable = SpendOutcome(credits: 1, error: ShopFailure(.unreadableDataFile, "wallet.json: not JSON"))
    #expect(unreadable.outcome == .failed && unreadable.balance == nil && unreadable.exitStatus == 65)
  }

  @Test("spending nothing or a negative amount is refused", arguments: [0, -1])
  func spendNothing(_ amount: Int) throws {
    let storage = MemoryStorage(wallet: Wallet(balance: 5))
    let manager = CreditManager(storage: storage, catalog: catalog)
    #expect(throws: CreditError.invalidAmount(amount)) { try manager.spend(amount) }
    #expect(storage.wallet.balance == 5)
    #expect(storage.writes.wallet == 0)
  }

  @Test("a reset empties the wallet but still recognises what was delivered")
  func reset() throws {
    let storage = MemoryStorage()
    let manager = CreditManager(storage: storage, catalog: catalog)
    let transaction = try purchase(storage, ten)
    _ = try manager.deliver(transaction)
    try manager.reset()
    #expect(storage.wallet.balance == 0)
    #expect(storage.wallet.credited.contains(try #require(transaction.number)))
    #expect(try manager.deliver(transaction) == .alreadyDelivered(balance: 0))
    #expect(storage.wallet.balance == 0)
  }

  @Test("a delivery that would overflow the balance is refused and changes nothing")
  func overflow() throws {
    let storage = MemoryStorage(wallet: Wallet(balance: Wallet.balanceLimit - 2))
    let manager = CreditManager(storage: storage, catalog: catalog)
    let transaction = try purchase(storage, five)
    #expect(throws: CreditError.balanceOverflow) { try manager.deliver(transaction) }
    #expect(storage.wallet.balance == Wallet.balanceLimit - 2)
    #expect(storage.wallet.credited.highest == nil)
    // Credits × quantity itself too large.
    let many = try purchase(storage, huge, quantity: 2)
    #expect(throws: CreditError.balanceOverflow) { try manager.deliver(many) }
    #expect(storage.wallet.balance == Wallet.balanceLimit - 2)
  }

  @Test("a transaction for a product the catalog does not have is not credited")
  func unknownProduct() throws {
    // Paid in the store, with no record of its credits (completed before transactions kept one).
    let stranger = StoreTransaction(
      id: "1", productIdentifier: "com.other.gems", quantity: 1, state: .purchased, purchaseDate: t0)
    var store = StoreState()
    store.transactions = [stranger]
    store.lastTransactionNumber = 1
    let storage = MemoryStorage(store: store)
    let manager = CreditManager(storage: storage, catalog: catalog)
    #expect(throws: CreditError.unknownProduct("com.other.gems")) { try manager.deliver(stranger) }
    #expect(storage.wallet.balance == 0)
    #expect(storage.writes.wallet == 0)
  }
}
