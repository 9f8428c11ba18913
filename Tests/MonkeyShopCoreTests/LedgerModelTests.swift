import Foundation
import PropertyBased
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

// The ledger's promise (docs/data-folder.md), checked against every sequence rather than the paths we thought
// of: random sequences of what a user, a parent, another terminal and the system can do drive the
// real app (ShopRuntime), store and wallet on a real data folder, and after every step the wallet
// and store on disk are compared with a small reference model. A failure prints the seed to replay
// it (`.fixedSeed`) and the sequence shrunk to the fewest steps that still fail.

/// One thing that happens to the shop.
enum LedgerStep: Hashable, Sendable, CustomStringConvertible {
  /// The app adds a payment (`SKPaymentQueue.add`); the store answers after the latency.
  case buy(credits: Int, quantity: Int)
  /// The payment sheet is opened and cancelled.
  case cancel
  /// Virtual time passes: the store answers purchases in flight.
  case wait(milliseconds: Int)
  case approve, decline, resolve
  case spend(Int)
  case walletReset, storeReset
  case set(String, String)
  /// The next delivery dies at this point (the store's crash-point condition).
  case crash(CrashPoint)
  /// The app is started again; after a crash this is the next launch.
  case relaunch
  /// A second monkeyshop launches on the same folder, takes delivery of what waits and quits.
  case secondApp
  case removeStoreFile, saveStoreCopy, restoreStoreCopy
  /// The App Store refunds the `pick`-th purchased transaction not yet refunded (of all, history
  /// included); none left, nothing happens.
  case refund(pick: Int)
  /// A catalog loaded in place of the other (the 5-credit pack gives 7 at another price), the app
  /// relaunched with it: what was recorded before stays.
  case changeCatalog
  /// A purchase that fails (a forced error) between buys.
  case failedBuy
  /// A refund of a transaction only the history still lists.
  case refundFromHistory
  /// The app takes back the credits of every refunded transaction, as it hears of refunds: again
  /// for those taken back before, which must take nothing.
  case clawBack

  var description: String {
    switch self {
    case .buy(let credits, let quantity): "buy \(credits)×\(quantity)"
    case .cancel: "cancel"
    case .wait(let milliseconds): "wait \(milliseconds)ms"
    case .approve: "approve last"
    case .decline: "decline last"
    case .resolve: "resolve last"
    case .spend(let amount): "spend \(amount)"
    case .walletReset: "wallet reset"
    case .storeReset: "store reset"
    case .set(let name, let value): "set \(name) \(value)"
    case .crash(let point): "crash at \(point.rawValue)"
    case .relaunch: "relaunch"
    case .secondApp: "second app"
    case .removeStoreFile: "rm store.json"
    case .saveStoreCopy: "copy store.json"
    case .restoreStoreCopy: "restore store.json"
    case .refund(let pick): "refund purchase \(pick)"
    case .clawBack: "claw back refunds"
    case .changeCatalog: "change catalog"
    case .failedBuy: "failed buy"
    case .refundFromHistory: "refund from history"
    }
  }

  static let all: [LedgerStep] =
    [5, 10].flatMap { credits in [1, 2, 10].map { LedgerStep.buy(credits: credits, quantity: $0) } }
    + [.cancel, .wait(milliseconds: 0), .wait(milliseconds: 1_000), .wait(milliseconds: 10_000)]
    + [.approve, .decline, .resolve, .spend(1), .spend(7), .spend(40), .walletReset, .storeReset]
    + [
      .set("askToBuy", "on"), .set("askToBuy", "off"), .set("interruptedPurchases", "on"),
      .set("interruptedPurchases", "off"), .set("network", "down"), .set("network", "up"),
      .set("purchasesAllowed", "false"), .set("purchasesAllowed", "true"), .set("failNext", "2"),
      .set("failNext", "5002"), .set("latency", "instant"), .set("latency", "normal"), .set("latency", "slow"),
    ]
    + [.crash(.beforeDelivery), .crash(.afterDeliveryBeforeFinish), .relaunch, .secondApp]
    + [.removeStoreFile, .saveStoreCopy, .restoreStoreCopy]
    + [.refund(pick: 0), .refund(pick: 1), .refund(pick: 5), .clawBack, .clawBack]
    + [.changeCatalog, .failedBuy, .failedBuy, .refundFromHistory]

  /// The shipped catalog with the 5-credit pack giving 7 credits at another price.
  static let otherCatalog: Catalog = {
    let shipped = ShopHarness.catalog
    let products = shipped.products.map { product -> Product in
      guard product.credits == 5 else { return product }
      return Product(
        productIdentifier: product.productIdentifier, credits: 7, localizations: product.localizations,
        prices: product.prices.mapValues { $0 * 3 })
    }
    return Catalog(
      products: products, defaultStorefront: shipped.defaultStorefront, bundleIdentifier: shipped.bundleIdentifier)
  }()
}

/// The real app on a real data folder, stepped in virtual time.
final class LedgerWorld {
  let root: String
  let folder: DataFolder
  private(set) var catalog = ShopHarness.catalog
  var now = ShopHarness.start
  private(set) var app: ShopRuntime?
  private var crashedApp = false
  private var storeCopy: Data?
  /// The transactions every app run credited, as each said it in its log, in order: what the
  /// wallet must never forget and never credit twice. (The wallet keeps no list to compare with:
  /// failed payments are forgotten, so it stays small.)
  private var credits: [Int] = []

  /// The credits since the last call.
  func takeCredits() -> [Int] {
    defer { credits = [] }
    return credits
  }

  init() throws {
    // Memory-backed when the system has it: the model checks thousands of sequences.
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    root = base + "/monkeyshop-ledger-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    chmod(root, 0o700)
    folder = DataFolder(path: root)
    launch()
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  var isAppRunning: Bool { app.map { !$0.isFinished } ?? false }

  /// Starts the app; true when its launch went through without dying.
  @discardableResult
  func launch() -> Bool {
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: .en, launchDate: now, requestsProducts: true,
      onCrash: { _ in })
    runtime.onLog = { [unowned self] entry in
      if case .delivered(let id, _, _) = entry.event, let number = Int(id) { credits.append(number) }
    }
    runtime.start(now: now)
    app = runtime
    settle(upTo: now.addingTimeInterval(Latency.slow.productRequest))
    return !runtime.isFinished
  }

  /// Lets time pass, visiting every deadline on the way.
  func settle(upTo target: Date) {
    guard let app else { return }
    app.run(until: app.model.time(at: target))
    now = max(now, target)
  }

  /// Another process changed the data folder: the running app follows, as its folder watch does.
  func folderChanged() {
    if let app, !app.isFinished { app.folderChanged(now: now) }
  }

  func changeStore(_ body: (inout AppStore) throws -> Void) {
    do {
      _ = try folder.changeStore(catalog: catalog) { store in try body(&store) }
    } catch is TransactionError {
      // Nothing to approve, decline or resolve: the command refuses, as `store approve` does.
    } catch {
      Issue.record("a store change failed: \(error)")
    }
    folderChanged()
  }

  var storeFile: String { folder.storePath }
}

/// What the wallet and store must show: the reference the real ones are compared with.
struct LedgerModel {
  var balance = 0
  /// Every transaction number the wallet has credited.
  var credited: Set<Int> = []
  /// Every transaction the store ever showed as purchased, and the credits it is worth.
  var paid: [Int: Int] = [:]
  /// Paid, not yet credited, and then gone from the store with its file (removed or replaced by a
  /// copy): the test deleted Apple's record, so it cannot be owed any more.
  var lostWithStoreFile: Set<Int> = []
  /// Each transaction as first seen: an ID must never come back as another transaction.
  var seen: [String: String] = [:]
  /// What each transaction seen in a state that can still become purchased is worth. The store
  /// keeps only the newest finished transactions, so an approval can become purchased, be
  /// delivered, finished and dropped within one step.
  var payable: [Int: Int] = [:]
  /// Every transaction the wallet has taken back after a refund.
  var clawedBack: Set<Int> = []
  /// Brought back unsettled by an older copy of the store after the wallet had settled it: the
  /// wallet keeps no list of failures, so it cannot tell one from a credit, and finishes it
  /// without crediting (the price it pays to stay small, docs/data-folder.md).
  var settledBeforeRestore: Set<Int> = []
}

struct LedgerChecker {
  let world: LedgerWorld
  var model = LedgerModel()
  var spendOutcome: Int?
  var walletWasReset = false

  mutating func check(after step: LedgerStep, launched: Bool, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let (store, wallet) = try world.folder.read()
    // Every transaction ever made, the history's included: none is ever lost from the listing.
    let every = try world.folder.readEveryTransaction()
    let catalog = world.catalog
    // What the App Store recorded at purchase, whatever catalog is loaded now.
    func credits(_ transaction: StoreTransaction) -> Int {
      transaction.record?.credits
        ?? (catalog.product(transaction.productIdentifier)?.credits ?? 0) * transaction.quantity
    }
    // IDs never repeat: a known ID always names the same transaction.
    for transaction in every {
      let fingerprint =
        "\(transaction.productIdentifier) ×\(transaction.quantity) at \(transaction.purchaseDate.timeIntervalSince1970)"
      if let first = model.seen[transaction.id] {
        #expect(first == fingerprint, "transaction #\(transaction.id) was reused", sourceLocation: sourceLocation)
      } else {
        model.seen[transaction.id] = fingerprint
      }
      guard let number = transaction.number else { continue }
      if transaction.state == .purchased, model.paid[number] == nil {
        model.paid[number] = credits(transaction)
      }
      if [.purchasing, .deferred, .purchased].contains(transaction.state) {
        model.payable[number] = credits(transaction)
      }
    }
    // The wallet never forgets a credit, and credits only what was paid for, once.
    let newly = world.takeCredits()
    for number in newly where model.credited.contains(number) || newly.filter({ $0 == number }).count > 1 {
      Issue.record("transaction #\(number) was credited twice", sourceLocation: sourceLocation)
    }
    let nowCredited = model.credited.union(newly)
    for number in nowCredited.sorted() where !wallet.credited.contains(number) {
      Issue.record("the wallet forgot the credit of #\(number)", sourceLocation: sourceLocation)
    }
    var expected = walletWasReset ? 0 : model.balance
    for number in nowCredited.subtracting(model.credited).sorted() {
      guard let worth = model.paid[number] ?? model.payable[number] else {
        Issue.record("transaction #\(number) was credited but never paid for", sourceLocation: sourceLocation)
        continue
      }
      #expect(
        !model.clawedBack.contains(number), "#\(number) was credited after its refund was taken back",
        sourceLocation: sourceLocation)
      expected += worth
    }
    // A refund is taken back once, and only from what was credited; the wallet never forgets it.
    let nowClawedBack = Set((1...max(1, wallet.lastTransactionNumber)).filter(wallet.clawedBack.contains))
    #expect(
      model.clawedBack.isSubset(of: nowClawedBack), "the wallet forgot a clawback", sourceLocation: sourceLocation)
    let refunded = Set(every.filter(\.isRevoked).compactMap(\.number))
    for number in nowClawedBack.subtracting(model.clawedBack).sorted() {
      #expect(
        refunded.contains(number), "#\(number) was clawed back but never refunded", sourceLocation: sourceLocation)
      if nowCredited.contains(number) { expected -= model.paid[number] ?? model.payable[number] ?? 0 }
    }
    model.clawedBack = nowClawedBack
    if let spent = spendOutcome { expected -= spent }
    #expect(
      wallet.balance == expected, "balance \(wallet.balance), expected \(expected) after \(step)",
      sourceLocation: sourceLocation)
    model.balance = wallet.balance
    model.credited = nowCredited
    if step == .restoreStoreCopy {
      for number in Wallet.mayBeCredited(in: store)
      where wallet.credited.contains(number) && !nowCredited.contains(number) {
        model.settledBeforeRestore.insert(number)
      }
    }
    // A finished purchase was credited first.
    for transaction in store.transactions where transaction.state == .purchased && transaction.finished {
      // A refund taken back before delivery is finished uncredited.
      if transaction.number.map(nowClawedBack.contains) == true { continue }
      if transaction.number.map(model.settledBeforeRestore.contains) == true { continue }
      #expect(
        transaction.number.map(nowCredited.contains) == true,
        "#\(transaction.id) is finished but was never credited", sourceLocation: sourceLocation)
    }
    // A paid purchase is never lost: it is credited, or still waits in the store to be delivered.
    let waiting = Set(
      store.transactions.filter { $0.state == .purchased && !$0.finished }.compactMap(\.number))
    for number in model.paid.keys
    where !nowCredited.contains(number) && !waiting.contains(number) && !nowClawedBack.contains(number)
      && !model.settledBeforeRestore.contains(number)
    {
      if [.removeStoreFile, .restoreStoreCopy].contains(step) {
        model.lostWithStoreFile.insert(number)
      }
      #expect(
        model.lostWithStoreFile.contains(number), "paid #\(number) is neither credited nor waiting",
        sourceLocation: sourceLocation)
    }
    // After a launch nothing paid for stays undelivered.
    if launched {
      #expect(waiting.isEmpty, "after a launch #\(waiting.sorted()) still wait", sourceLocation: sourceLocation)
    }
    // The app never meets a data file it cannot read or write.
    if let failure = world.app?.model.lastFailure?.errorID {
      #expect(
        failure != .unreadableDataFile && failure != .cannotWriteDataFile,
        "the app failed with \(failure): \(world.app.map { "\($0.model.status as Any)" } ?? "")",
        sourceLocation: sourceLocation)
    }
  }
}

extension LedgerWorld {
  /// Performs one step; returns whether it ended with a launch that went through (all delivered).
  func perform(_ step: LedgerStep, checker: inout LedgerChecker) -> Bool {
    checker.spendOutcome = nil
    checker.walletWasReset = false
    switch step {
    case .buy(let credits, let quantity):
      guard isAppRunning, let app,
        let product = catalog.products.first(where: { $0.productIdentifier == "com.monkeyshop.credits.\(credits)" })
      else { return false }
      app.send(.purchase(productIdentifier: product.productIdentifier, quantity: quantity))
      settle(upTo: now)
    case .cancel:
      guard isAppRunning, let app else { return false }
      app.handle(.character("5"), now: now)
      app.handle(.escape, now: now)
      settle(upTo: now)
    case .wait(let milliseconds):
      settle(upTo: now.addingTimeInterval(Double(milliseconds) / 1000))
    case .approve:
      changeStore { _ = try $0.approve("last") }
    case .decline:
      changeStore { _ = try $0.decline("last") }
    case .resolve:
      changeStore { _ = try $0.resolve("last", at: now) }
    case .spend(let amount):
      do {
        _ = try CreditManager(storage: folder, catalog: catalog).spend(amount)
        checker.spendOutcome = amount
      } catch CreditError.insufficientBalance {
        checker.spendOutcome = 0
      } catch {
        Issue.record("spend failed: \(error)")
      }
      folderChanged()
    case .walletReset:
      do {
        try CreditManager(storage: folder, catalog: catalog).reset()
        checker.walletWasReset = true
      } catch {
        Issue.record("wallet reset failed: \(error)")
      }
      folderChanged()
    case .storeReset:
      do {
        _ = try folder.changeStore(catalog: catalog) { store in store.reset(at: now) }
      } catch {
        Issue.record("store reset failed: \(error)")
      }
      folderChanged()
    case .set(let name, let value):
      changeStore { _ = try $0.set(Condition(rawValue: name)!, to: value, at: now) }
    case .crash(let point):
      changeStore { _ = try $0.set(.crashPoint, to: point.rawValue, at: now) }
    case .relaunch:
      return launch()
    case .secondApp:
      let running = app
      let launched = launch()
      app = running
      folderChanged()
      return launched
    case .removeStoreFile:
      unlink(storeFile)
      folderChanged()
    case .saveStoreCopy:
      storeCopy = FileManager.default.contents(atPath: storeFile)
    case .restoreStoreCopy:
      guard let storeCopy else { return false }
      _ = FileManager.default.createFile(atPath: storeFile, contents: storeCopy, attributes: [.posixPermissions: 0o600])
      folderChanged()
    case .refund(let pick):
      do {
        let refundable = try folder.readEveryTransaction().filter { $0.state == .purchased && !$0.isRevoked }
        guard !refundable.isEmpty else { return false }
        let id = refundable[pick % refundable.count].id
        _ = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction(id)) { store in
          try store.refund(id, reason: .other, at: now)
        }
      } catch {
        Issue.record("refund failed: \(error)")
      }
      folderChanged()
    case .changeCatalog:
      catalog = catalog == ShopHarness.catalog ? LedgerStep.otherCatalog : ShopHarness.catalog
      return launch()
    case .failedBuy:
      changeStore { _ = try $0.set(.failNext, to: "0", at: now) }
      return perform(.buy(credits: 10, quantity: 1), checker: &checker)
    case .refundFromHistory:
      do {
        let inStore = Set(try folder.readStore().transactions.map(\.id))
        let refundable = try folder.readEveryTransaction().filter {
          $0.state == .purchased && !$0.isRevoked && !inStore.contains($0.id)
        }
        guard let oldest = refundable.first else { return false }
        _ = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction(oldest.id)) { store in
          try store.refund(oldest.id, reason: .developerIssue, at: now)
        }
      } catch {
        Issue.record("refund from history failed: \(error)")
      }
      folderChanged()
    case .clawBack:
      do {
        let credits = CreditManager(storage: folder, catalog: catalog)
        for transaction in try folder.readEveryTransaction() where transaction.isRevoked {
          _ = try credits.clawBack(transaction)
        }
      } catch {
        Issue.record("clawback failed: \(error)")
      }
      folderChanged()
    }
    return false
  }
}

@Suite("The ledger against a reference model", .tags(.pure))
struct LedgerModelTests {
  static let steps = Gen<LedgerStep?>.element(of: LedgerStep.all).map { $0! }

  @Test(
    "any sequence of purchases, approvals, spends, resets, crashes, relaunches and store-file accidents keeps the ledger exact",
    .shrinking)
  func randomSequences() async throws {
    await propertyCheck(count: 1_500, input: Self.steps.array(of: 1...30)) { steps in
      try run(steps)
    }
  }

  /// Runs one sequence, checking after every step; at the end, one last launch must deliver
  /// everything still owed.
  func run(_ steps: [LedgerStep], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let world = try LedgerWorld()
    var checker = LedgerChecker(world: world)
    try checker.check(after: .relaunch, launched: true, sourceLocation: sourceLocation)
    for step in steps {
      let launched = world.perform(step, checker: &checker)
      try checker.check(after: step, launched: launched, sourceLocation: sourceLocation)
    }
    // Whatever happened, the next launches deliver everything paid for (a crash point armed last
    // kills the first of them).
    _ = world.perform(.set("crashPoint", "off"), checker: &checker)
    let launched = world.perform(.relaunch, checker: &checker)
    try checker.check(after: .relaunch, launched: launched, sourceLocation: sourceLocation)
  }

  @Test("the findings the first version failed, as sequences")
  func findings() throws {
    // A copy of the store taken while a purchase was in flight, put back after a store reset cut
    // that purchase short and a later one was credited: the store completes it, the wallet took it
    // for settled and finishes it uncredited, and nothing else is lost or credited twice.
    try run([
      .buy(credits: 5, quantity: 2), .wait(milliseconds: 1_000), .saveStoreCopy, .failedBuy, .storeReset,
      .wait(milliseconds: 10_000), .restoreStoreCopy,
    ])
    // An Ask to Buy approved after 21 other purchases: the approval's finish pruned the history.
    try run(
      [.set("latency", "instant"), .set("askToBuy", "on"), .buy(credits: 5, quantity: 1), .set("askToBuy", "off")]
        + Array(repeating: .buy(credits: 5, quantity: 1), count: 21) + [.approve, .buy(credits: 5, quantity: 1)])
    // A crash after delivery, then a store reset, then a purchase: #1 must not be credited again.
    try run([
      .set("latency", "instant"), .crash(.afterDeliveryBeforeFinish), .buy(credits: 10, quantity: 1), .storeReset,
      .relaunch, .buy(credits: 5, quantity: 1),
    ])
    // The store file moved away: new purchases must not take old IDs the wallet has credited.
    try run([
      .set("latency", "instant"), .buy(credits: 5, quantity: 1), .removeStoreFile, .buy(credits: 10, quantity: 1),
      .relaunch,
    ])
    // An older copy of the store brought back: what it lists as unfinished was credited already.
    try run([
      .set("latency", "instant"), .crash(.afterDeliveryBeforeFinish), .buy(credits: 10, quantity: 1),
      .saveStoreCopy, .relaunch, .restoreStoreCopy, .relaunch, .buy(credits: 5, quantity: 1),
    ])
  }

  @Test("the record: catalog changes, failed purchases between buys, refunds from the history")
  func record() throws {
    // Bought at 5 credits, refunded after the catalog gives 7: 5 are taken back.
    try run([
      .set("latency", "instant"), .buy(credits: 5, quantity: 2), .changeCatalog, .refund(pick: 0), .clawBack,
      .buy(credits: 5, quantity: 1), .changeCatalog, .refund(pick: 1), .clawBack,
    ])
    // Failed purchases between buys, then a refund of one only the history lists.
    try run(
      [.set("latency", "instant")]
        + Array(repeating: [LedgerStep.buy(credits: 5, quantity: 1), .failedBuy], count: 12).flatMap { $0 }
        + [.changeCatalog, .refundFromHistory, .clawBack, .buy(credits: 10, quantity: 1)])
  }

  @Test("refunds: taken back once, below zero, from the history, and before delivery")
  func refunds() throws {
    // A refund taken back twice takes the credits once; spending then leaves the balance owed.
    try run([
      .set("latency", "instant"), .buy(credits: 10, quantity: 2), .spend(7), .refund(pick: 0), .clawBack, .clawBack,
      .spend(1), .buy(credits: 5, quantity: 1),
    ])
    // A refund of a transaction only the history lists, then more purchases before the clawback.
    try run(
      [.set("latency", "instant")] + Array(repeating: .buy(credits: 5, quantity: 1), count: 22) + [
        .refund(pick: 0), .buy(credits: 5, quantity: 1), .buy(credits: 10, quantity: 1), .clawBack, .clawBack,
      ])
    // Refunded while paid and undelivered (the app died), taken back, then the relaunch delivers it.
    try run([
      .set("latency", "instant"), .crash(.beforeDelivery), .buy(credits: 10, quantity: 1), .refund(pick: 0),
      .clawBack, .relaunch, .clawBack,
    ])
  }
}
