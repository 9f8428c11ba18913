import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// Every key action and flow of the storefront, through the same runtime the terminal drives.
@Suite(.tags(.screen)) struct ShopUpdateTests {
  @Test func buyFiveRunsTheWholeLifecycle() {
    let shop = ShopHarness()
    shop.press("5")
    #expect(
      shop.model.overlay
        == .paymentSheet(.init(transactionID: "1", productIdentifier: "com.monkeyshop.credits.5", quantity: 1)))
    shop.press(.enter)
    #expect(shop.model.isPurchaseInFlight)
    #expect(shop.screen().contains("Purchasing 5 Monkey Credits ×1…"))
    shop.wait(1)
    #expect(!shop.model.isPurchaseInFlight)
    #expect(shop.model.balance == 5)
    #expect(shop.storage.wallet.balance == 5)
    #expect(shop.storage.store.transactions.map(\.finished) == [true])
    let lifecycle = shop.eventNames.drop { $0 != "paymentAdded" }
    #expect(Array(lifecycle) == ["paymentAdded", "purchasing", "note", "purchased", "delivered", "finished"])
    #expect(shop.screen().contains("↳ payment sheet: Buy — the App Store processes the payment"))
    #expect(shop.screen().contains("5 monkey credits"))
    #expect(shop.screen().contains("Purchased 5 Monkey Credits ×1: +5 credits"))
  }

  @Test("the quantity set on the row is the payment's: the sheet shows it, the credits multiply")
  func quantityOnTheRowMultipliesCredits() {
    let shop = ShopHarness()
    shop.press("j++0")
    let sheet = shop.screen()
    #expect(sheet.contains("Quantity        3"))
    #expect(sheet.contains("$5.97"))
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.model.balance == 30)
    #expect(shop.storage.store.transactions.first?.quantity == 3)
  }

  @Test func quantityStaysWithinOneToTen() {
    let shop = ShopHarness()
    shop.press("-")
    #expect(shop.model.quantity == 1)
    #expect(shop.model.status == .cannot(keys: "-/−", .quantityAtLeast))
    shop.press(String(repeating: "+", count: 12))
    #expect(shop.model.quantity == 10)
    #expect(shop.model.status == .cannot(keys: "+/=", .quantityAtMost))
    shop.press("b")
    #expect(shop.screen().contains("Quantity        10"))
  }

  @Test func selectionMovesAndEnterBuysTheSelectedProduct() {
    let shop = ShopHarness()
    shop.press(.down)
    #expect(shop.model.selectedProduct?.credits == 10)
    shop.press("k")
    #expect(shop.model.selectedProduct?.credits == 5)
    shop.press("j")
    shop.press(.enter)
    #expect(
      shop.model.overlay
        == .paymentSheet(.init(transactionID: "1", productIdentifier: "com.monkeyshop.credits.10", quantity: 1)))
  }

  @Test func cancelOnTheSheetIsACancellationNotAnError() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    let transaction = shop.storage.store.transactions.first
    #expect(transaction?.state == .failed)
    #expect(transaction?.failure?.code == .storeKit(.paymentCancelled))
    #expect(transaction?.finished == true)
    #expect(shop.model.status == .cancelled(product: "com.monkeyshop.credits.5"))
    #expect(shop.model.status?.tone == .warning)
    #expect(shop.model.balance == 0)
  }

  @Test("a buy puts the payment in the queue before the sheet; the sheet answers that transaction")
  func thePaymentIsAddedBeforeTheSheet() {
    let shop = ShopHarness(conditions: { $0.latency = .instant })
    shop.press("5")
    #expect(shop.storage.store.transactions.map(\.state) == [.purchasing], "in the queue while the sheet is up")
    #expect(Array(shop.eventNames.suffix(2)) == ["paymentAdded", "purchasing"])
    #expect(shop.screen().contains("[ Buy ]"))
    shop.wait(600)
    #expect(shop.storage.store.transactions.map(\.state) == [.purchasing], "nothing is charged before Buy")
    #expect(shop.screen().contains("[ Buy ]"), "the sheet waits for the person")
    shop.press(.escape)
    #expect(shop.storage.store.transactions.map(\.id) == ["1"], "Cancel fails the same transaction")
    #expect(shop.storage.store.transactions.first?.failure == .cancelled)
  }

  @Test("quitting with the sheet open: at the next launch the App Store shows that payment's sheet again")
  func anUnansweredSheetComesBackAtLaunch() {
    let shop = ShopHarness()
    shop.press("j++0")
    shop.press(.ctrlC)
    #expect(shop.model.isFinished)
    #expect(shop.storage.store.transactions.first?.awaitsPaymentSheet == true)
    shop.launch()
    let screen = shop.screen()
    #expect(screen.contains("[ Buy ]") && screen.contains("Quantity        3"), "\(screen)")
    #expect(
      shop.model.log.map { $0.event.text(.storeKit1, .en) }.contains(
        "  ↳ payment 1 is still purchasing, its sheet unanswered: the App Store shows it again"))
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.model.balance == 30)
    #expect(shop.storage.store.transactions.map(\.id) == ["1"], "the same payment, bought once")
    shop.launch()
    #expect(!shop.screen().contains("[ Buy ]"), "answered, it does not come back")
  }

  @Test("the sheet goes away with its transaction: the network lost fails the payment and closes it")
  func theSheetClosesWhenItsPaymentFails() {
    let shop = ShopHarness()
    shop.press("5")
    #expect(shop.model.keyContext == .paymentSheet)
    try? shop.changeStore { _ = try $0.set(.network, to: "down", at: shop.now) }
    #expect(shop.model.overlay == nil)
    #expect(shop.storage.store.transactions.first?.failure == .networkLost)
    #expect(shop.screen().contains("Cannot connect to iTunes Store"))
  }

  @Test func restrictionsDisableTheAppStore() {
    let shop = ShopHarness()
    shop.press("r")
    #expect(shop.screen().contains("AppStore disabled"))
    #expect(!shop.model.activeBindings.contains { $0.action == .buyFive })
    shop.press("5")
    #expect(shop.model.overlay == nil)
    #expect(shop.model.status == .cannot(keys: "5", .restricted))
    shop.press("r")
    shop.wait(1)
    #expect(shop.screen().contains("Buy $0.99"))
  }

  @Test func networkDownFailsTheProductRequestUntilRequestedAgain() {
    let shop = ShopHarness(conditions: { $0.networkUp = false })
    let screen = shop.screen()
    #expect(screen.contains("Network down?"))
    #expect(screen.contains("MS-E0001"))
    shop.press("n")
    #expect(shop.screen().contains("Network down?"))
    shop.press("R")
    #expect(shop.screen().contains("loading..."))
    shop.wait(1)
    #expect(shop.screen().contains("Buy $0.99"))
  }

  @Test func losingTheNetworkMidPurchaseFailsIt() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(0.5)
    shop.press("n")
    let transaction = shop.storage.store.transactions.first
    #expect(transaction?.failure?.code == .storeKit(.unknown))
    #expect(transaction?.finished == true)
    let screen = shop.screen()
    #expect(screen.contains("Cannot connect to iTunes Store"))
    #expect(screen.contains("SKErrorDomain 0 unknown"))
    #expect(screen.contains("MS-E0002"))
    #expect(!shop.model.isPurchaseInFlight)
  }

  @Test func askToBuyApprovedInTheTransactionManagerDelivers() {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.screen().contains("Waiting for approval"))
    #expect(shop.model.balance == 0)
    shop.press(.tab)
    #expect(shop.screen().contains("deferred"))
    shop.press("a")
    #expect(shop.model.balance == 10)
    #expect(shop.storage.store.transactions.first?.finished == true)
    #expect(shop.eventNames.suffix(4) == ["approved", "purchased", "delivered", "finished"])
  }

  @Test func askToBuyDeclinedFails() {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab)
    shop.press("d")
    #expect(shop.storage.store.transactions.first?.failure?.reason == .askToBuyDeclined)
    // The app sees SKErrorDomain 2 and can only read a cancel; the log quotes Apple's promise of
    // "another callback that indicates the final status", never that there is none, and the status
    // line says what the app saw and points there.
    #expect(shop.model.status == .declined(product: "com.monkeyshop.credits.5"))
    #expect(!shop.eventNames.contains("error"))
    #expect(
      shop.model.log.map { $0.event.text(.storeKit1, .en) }.contains(
        "  ↳ Apple says to wait for \"another callback that indicates the final status\" and does not say which state a decline brings: here it ends .failed, SKErrorDomain 2, read as a cancel"
      ))
    #expect(!shop.model.log.contains { $0.event.text(.storeKit1, .en).contains("no callback") })
    #expect(shop.model.balance == 0)
  }

  @Test func approvingInTheManagerNeedsADeferredTransaction() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press(.tab)
    shop.press("a")
    #expect(shop.model.status == .cannot(keys: "a", .onlyDeferredCanBeApproved))
  }

  @Test func interruptedPurchaseResolvedDeliversANewTransaction() {
    let shop = ShopHarness(conditions: { $0.interruptedPurchases = true })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.model.status == .interrupted(transactionID: "1", .interrupted))
    #expect(shop.model.status?.tone == .warning, "to the app it is a cancel, not an error")
    #expect(!shop.eventNames.contains("error"))
    #expect(shop.screen().contains("The app sees a cancel (SKErrorDomain 2 paymentCancelled)"))
    #expect(shop.model.balance == 0)
    shop.press(.tab, .character("v"))
    #expect(shop.model.balance == 5)
    let transactions = shop.storage.store.transactions
    #expect(transactions.count == 2)
    #expect(transactions.last?.resolvedFromTransactionID == transactions.first?.id)
    #expect(transactions.allSatisfy { $0.finished })
  }

  @Test("the app decides from the domain and code alone: a forced paymentCancelled is a cancel, 5002 an error")
  func cancelOrErrorFromTheCodeAlone() {
    let shop = ShopHarness(conditions: { $0.failNext = .storeKit(.paymentCancelled) })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.storage.store.transactions.first?.failure == .forced(.storeKit(.paymentCancelled)))
    #expect(shop.model.status == .cancelled(product: "com.monkeyshop.credits.5"))
    #expect(!shop.eventNames.contains("error"), "a cancel is not an error")
    #expect(!shop.screen().contains("MS-E0007"))
    try? shop.changeStore { _ = try $0.set(.failNext, to: "SSServerErrorDomain 5002", at: shop.now) }
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.model.status == .purchaseFailed(.forced(.server(.unknownError))))
    #expect(shop.eventNames.contains("error"))
    #expect(
      shop.model.log.map { $0.event.text(.storeKit1, .en) }.contains(
        #"paymentQueue(_:updatedTransactions:) .failed payment 2 SSServerErrorDomain 5002 "An unknown error has occurred""#
      ))
    #expect(shop.screen().contains("MS-E0007"))
  }

  @Test func forcedErrorFromTheConditionsPanel() {
    let shop = ShopHarness()
    shop.press("c")
    shop.press(.down, .down, .down, .down)  // failNext
    for _ in 0..<23 { shop.press(.right) }  // off → 0 … 21 → 5002
    shop.press(.escape)
    #expect(shop.model.store.conditions.failNext == .server(.unknownError))
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    let screen = shop.screen()
    #expect(screen.contains("An unknown error has occurred"))
    #expect(screen.contains("SSServerErrorDomain 5002"))
    #expect(screen.contains("MS-E0007"))
    #expect(shop.model.store.conditions.failNext == nil)
  }

  @Test("skipPaymentSheet, switched on in the conditions panel, buys with no sheet and says so")
  func skipPaymentSheetFromTheConditionsPanel() throws {
    let shop = ShopHarness()
    shop.press("c")
    let row = try #require(Condition.allCases.firstIndex(of: .skipPaymentSheet))
    for _ in 0..<row { shop.press(.down) }
    shop.press(.right)
    #expect(shop.screen().contains("skip sheet            ◀ ON ▶"))
    shop.press(.escape)
    #expect(shop.storage.store.conditions.skipPaymentSheet)
    #expect(shop.screen().contains("skip sheet ON"))
    shop.press("5")
    #expect(shop.model.overlay == nil)
    #expect(!shop.screen().contains("App Store"), "no payment sheet")
    #expect(shop.screen().contains("Purchasing 5 Monkey Credits ×1 (payment sheet skipped)…"))
    #expect(shop.screen().contains("↳ skipPaymentSheet: no payment sheet, added as if Buy was tapped"))
    shop.wait(1)
    #expect(shop.model.balance == 5)
    #expect(shop.storage.store.transactions.map(\.finished) == [true])
    #expect(shop.screen().contains("Purchased 5 Monkey Credits ×1: +5 credits"))
  }

  @Test func storefrontSwitchChangesPricesLive() {
    let shop = ShopHarness()
    shop.press("c")
    for _ in 0..<7 { shop.press(.down) }  // storefront
    shop.press(.right)
    shop.press(.escape)
    #expect(shop.model.storefront.code == "JPN")
    #expect(shop.screen().contains("loading..."), "the app asks for the new storefront's products first")
    shop.wait(0.4)
    #expect(shop.screen().contains("Buy ￥160"))
  }

  @Test func spendingFeedsTheMonkeyUntilEmpty() {
    let shop = ShopHarness(balance: 2)
    shop.press("s")
    #expect(shop.model.balance == 1)
    shop.press("s")
    #expect(shop.model.balance == 0)
    #expect(!shop.model.activeBindings.contains { $0.action == .spend })
    shop.press("s")
    #expect(shop.model.status == .cannot(keys: "s", .nothingToSpend))
    #expect(shop.storage.wallet.balance == 0)
  }

  @Test func switchingTheAppKeepsEarlierLinesInTheirAPI() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.screen().contains("SKPaymentQueue.finishTransaction(#1)"))
    shop.press("l")
    shop.wait(1)
    let screen = shop.screen(120, 40)
    #expect(screen.contains("SKPaymentQueue.finishTransaction(#1)"), "\(screen)")
    #expect(screen.contains("StoreKit events (StoreKit 2)"))
    #expect(screen.contains("Product.products(for: 3 ids)"))
  }

  @Test func helpOpensAndCloses() {
    let shop = ShopHarness()
    shop.press("?")
    // At 80×24 every key fits in two columns, its sentence whole.
    #expect(shop.screen().contains("buy the 10-credit product"))
    #expect(!shop.screen().contains("…"), "\(shop.screen())")
    shop.press(.escape)
    #expect(shop.model.overlay == nil)
  }

  @Test func quitAsksOnlyWhileAPurchaseIsInFlight() {
    let idle = ShopHarness()
    idle.press("q")
    #expect(idle.runtime.isFinished)

    let busy = ShopHarness(conditions: { $0.latency = .slow })
    busy.press("5")
    busy.press(.enter)
    busy.press("q")
    #expect(busy.model.overlay == .confirmQuit())
    busy.press("n")
    #expect(!busy.runtime.isFinished)
    busy.press("q")
    busy.press("y")
    #expect(busy.runtime.isFinished)
  }

  @Test func ctrlCQuitsAtOnceEvenOnTheSheet() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.ctrlC)
    #expect(shop.runtime.isFinished)
  }

  @Test func unfinishedTransactionsAreRedeliveredAtLaunch() throws {
    let shop = ShopHarness(launch: false)
    try shop.storage.update { state, _ in
      var store = AppStore(state: state, catalog: ShopHarness.catalog)
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.10", quantity: 2, at: shop.now)
      _ = store.advance(to: shop.now.addingTimeInterval(5))
      state = store.state
    }
    shop.launch()
    #expect(shop.model.balance == 20)
    #expect(shop.storage.store.unfinished.isEmpty)
    #expect(shop.screen(120, 40).contains(".purchased #1 (redelivered)"))
    #expect(shop.model.status == .redelivered(transactionIDs: ["1"], credits: 20, crash: nil))
    #expect(shop.screen().contains("Unfinished transaction #1 delivered at launch: +20 credits"))
  }

  @Test func crashBeforeDeliveryIsDeliveredOnceAtRelaunch() {
    let shop = ShopHarness(conditions: { $0.crashPoint = .beforeDelivery })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.crashes == [.beforeDelivery])
    #expect(shop.runtime.isFinished)
    #expect(shop.storage.wallet.balance == 0)
    #expect(shop.storage.store.conditions.crashPoint == nil)
    shop.launch()
    #expect(shop.storage.wallet.balance == 5)
    shop.launch()
    #expect(shop.storage.wallet.balance == 5)
  }

  @Test func crashAfterDeliveryIsCreditedOnce() {
    let shop = ShopHarness(conditions: { $0.crashPoint = .afterDeliveryBeforeFinish })
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    #expect(shop.crashes == [.afterDeliveryBeforeFinish])
    #expect(shop.storage.wallet.balance == 10)
    #expect(shop.storage.store.unfinished.count == 1)
    shop.launch()
    #expect(shop.storage.wallet.balance == 10)
    #expect(shop.storage.store.unfinished.isEmpty)
    #expect(shop.eventNames.contains("alreadyDelivered"))
    let screen = shop.screen(200, 40)
    #expect(
      screen.contains(
        "Unfinished transaction #1 was already credited: finished, not credited again — the app crashed before finishing #1 (crash point afterDeliveryBeforeFinish)"
      ), "\(screen)")
    #expect(screen.contains("the app crashed last run at afterDeliveryBeforeFinish with #1"), "\(screen)")
  }

  /// At 80×24 the status takes the rows its message needs: with a two-digit transaction the
  /// crash point's name was cut after two rows.
  @Test(arguments: [Language.en, .ja])
  func aLongStatusKeepsTheCrashPointsName(language: Language) throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, language: language)
    for _ in 0..<11 {
      shop.press("0")
      shop.press(.enter)
      shop.wait(1)
    }
    #expect(shop.storage.store.transactions.last?.id == "11")
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) {
      $0.state.conditions.crashPoint = .afterDeliveryBeforeFinish
    }
    shop.launch()
    shop.press("0")
    shop.press(.enter)
    shop.wait(1)
    #expect(shop.crashes == [.afterDeliveryBeforeFinish])
    shop.launch()
    let screen = shop.screen()
    // The status, above the hint bar.
    let status = screen.lines.suffix(4).dropLast().joined()
    #expect(status.contains("#12"), "\(screen)")
    #expect(status.contains("afterDeliveryBeforeFinish)"), "\(screen)")
    #expect(!status.contains("…"), "\(screen)")
  }

  @Test func aCrashBeforeDeliveryIsNamedAtTheNextLaunch() {
    let shop = ShopHarness(conditions: { $0.crashPoint = .beforeDelivery })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.launch()
    #expect(
      shop.model.status
        == .redelivered(transactionIDs: ["1"], credits: 5, crash: FiredCrash(.beforeDelivery, transactionID: "1")))
    let screen = shop.screen(200, 40)
    #expect(
      screen.contains(
        "Unfinished transaction #1 delivered at launch: +5 credits — the app crashed before delivering #1 (crash point beforeDelivery)"
      ), "\(screen)")
    shop.launch()
    #expect(!shop.screen().contains("crashed"), "once finished, the crash is not told again")
  }

  @Test func twoRedeliveriesAtLaunchAreBothNamed() throws {
    let shop = ShopHarness(launch: false)
    try shop.storage.update { state, _ in
      var store = AppStore(state: state, catalog: ShopHarness.catalog)
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: shop.now)
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.10", quantity: 1, at: shop.now)
      _ = store.advance(to: shop.now.addingTimeInterval(5))
      state = store.state
    }
    shop.launch()
    #expect(shop.model.balance == 15)
    let screen = shop.screen(120, 40)
    #expect(screen.contains("Unfinished transactions #1 and #2 delivered at launch: +15 credits"), "\(screen)")
    #expect(screen.contains("2 unfinished transactions from an earlier run"), "\(screen)")
  }

  @Test func oneIsSingular() {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, balance: 0)
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    let screen = shop.screen(120, 40)
    #expect(screen.contains("productsRequest(_:didReceive:) 3 products"))
    #expect(screen.contains("deliver #1: +5 credits"))
    #expect(!screen.contains("1 credits") && !screen.contains("1 products"), "\(screen)")
    #expect(
      Words(.en).notice(.finishedElsewhere(transactionID: "3", .failed), title: { $0 }).contains("Payment 3 failed"))
    #expect(
      LogEvent.productsReceived(valid: ["a"], invalid: []).text(.storeKit1, .en)
        == "productsRequest(_:didReceive:) 1 product")
    #expect(
      LogEvent.delivered(transactionID: "1", credits: 1, balance: 1).text(.storeKit1, .en).contains("+1 credit →"))
  }

  @Test func anApprovalFromAnotherProcessIsDeliveredWhileOpen() throws {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    try shop.changeStore { store in _ = try store.approve("last") }
    #expect(shop.model.balance == 5)
    #expect(shop.storage.store.unfinished.isEmpty)
  }

  /// A restore and a refund read the history under the lock: what another process wrote first
  /// (here an approval) still reaches the app as a folder read, and is delivered.
  @Test(arguments: [false, true])
  func anApprovalWrittenBeforeARestoreOrRefundIsDelivered(refund: Bool) throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant })
    shop.press("0")
    shop.press(.enter)
    shop.wait(1)
    shop.press("a")
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    #expect(shop.model.balance == 10)
    // Another monkeyshop approves it; this app has not looked at the folder since.
    _ = try shop.storage.changeStore(catalog: ShopHarness.catalog) { store in _ = try store.approve("last") }
    if refund {
      // The manager, the 10 credits' purchase (#1, below the deferred payment 2), refunded.
      shop.press(.tab, .down)
      shop.press("f")
    } else {
      shop.press("o")
    }
    shop.wait(1)
    // StoreKit 1 keeps a consumable's credits after a refund: the approval's 5 are what is new.
    #expect(shop.model.balance == 15, "\(shop.screen(120, 40))")
    #expect(shop.storage.store.unfinished.isEmpty)
  }

  @Test func theBalanceFollowsTheWalletFile() throws {
    let shop = ShopHarness()
    try shop.storage.update { _, wallet in wallet.balance = 42 }
    shop.runtime.folderChanged(now: shop.now)
    #expect(shop.screen().contains("42 monkey credits"))
  }

  @Test func idleMeansNoDeadline() {
    let shop = ShopHarness()
    #expect(shop.runtime.nextDeadline == nil)
    shop.press("5")
    shop.press(.enter)
    #expect(shop.runtime.nextDeadline != nil)
    shop.wait(2)
    #expect(shop.runtime.nextDeadline == nil)
  }

  @Test func hintBarShowsOnlyKeysThatCanAct() {
    let shop = ShopHarness()
    let hints = shop.screen().lines.last ?? ""
    #expect(hints.contains("buy-5"))
    #expect(!hints.contains("spend"))
    shop.press("r")
    let restricted = shop.screen().lines.last ?? ""
    #expect(!restricted.contains("buy-5"))
  }

  @Test func japaneseInterface() {
    let shop = ShopHarness(conditions: { $0.storefront = "JPN" }, language: .ja)
    let screen = shop.screen()
    #expect(screen.contains("0 モンキークレジット"))
    #expect(screen.contains("購入 ￥160"))
    #expect(screen.contains("ストアフロント JPN"))
  }

  @Test func languageFollowsFlagThenLang() {
    #expect(Language.resolve(explicit: "ja", environment: [:]) == .ja)
    #expect(Language.resolve(explicit: nil, environment: ["LANG": "ja_JP.UTF-8"]) == .ja)
    #expect(Language.resolve(explicit: nil, environment: ["LANG": "en_US.UTF-8"]) == .en)
    #expect(Language.resolve(explicit: "en", environment: ["LANG": "ja_JP.UTF-8"]) == .en)
    #expect(Language.resolve(explicit: nil, environment: [:]) == .en)
  }
}
