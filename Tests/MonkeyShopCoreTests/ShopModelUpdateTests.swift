import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// `update` on its own: a message in, the effects it asks for and the model after. No runtime, no
/// storage, no clock: what the runtime would answer is written into the test as a message.
@Suite(.tags(.pure)) struct ShopModelUpdateTests {
  static let catalog = ShopHarness.catalog
  static let launch = Date(timeIntervalSince1970: 1_800_000_000)
  static let five = "com.monkeyshop.credits.5"
  static let ten = "com.monkeyshop.credits.10"

  /// A storefront launched on `store`, its products answered unless `loaded` is false.
  static func shop(
    _ store: StoreState = StoreState(), balance: Int = 0, loaded: Bool = true, armedCrash: CrashPoint? = nil
  ) -> ShopModel {
    var model = ShopModel(catalog: catalog, language: .en, launchDate: launch, armedCrash: armedCrash)
    _ = model.update(.launched(store, Wallet(balance: balance), at: 0))
    if loaded, case .loading = model.products {
      let response = AppStore(state: store, catalog: catalog).productsResponse(
        for: catalog.products.map(\.productIdentifier))
      _ = model.update(.productsAnswered(response))
    }
    return model
  }

  static func transaction(
    _ id: String, _ state: TransactionState, product: String = five, failure: StoreFailure? = nil,
    answerDate: Date? = nil, hasPurchaseIssue: Bool = false, resolvedFromTransactionID: String? = nil
  ) -> StoreTransaction {
    StoreTransaction(
      id: id, productIdentifier: product, quantity: 1, state: state, purchaseDate: launch, failure: failure,
      answerDate: answerDate, hasPurchaseIssue: hasPurchaseIssue, resolvedFromTransactionID: resolvedFromTransactionID)
  }

  static func store(_ transactions: StoreTransaction..., conditions: (inout Conditions) -> Void = { _ in })
    -> StoreState
  {
    var store = StoreState()
    conditions(&store.conditions)
    store.transactions = transactions
    store.lastTransactionNumber = transactions.count
    return store
  }

  /// A buy key pressed, and the payment it added as the runtime reports it: `.purchasing`, its
  /// payment sheet not yet answered.
  static func addPayment(_ model: inout ShopModel, _ key: Character = "5", id: String = "1") -> StoreTransaction {
    let effects = press(&model, key)
    guard case .addPayment(let product, let quantity, true, false, nil, let at) = effects.first else {
      Issue.record("\(key) added no payment with a sheet: \(effects)")
      return transaction(id, .purchasing)
    }
    let added = StoreTransaction(
      id: id, productIdentifier: product, quantity: quantity, state: .purchasing, purchaseDate: at)
    _ = model.update(.paymentAdded(added))
    return added
  }

  /// A payment whose sheet was answered with Buy: the App Store answers it at `answerDate`.
  static func confirmed(_ id: String, product: String = five) -> StoreTransaction {
    transaction(id, .purchasing, product: product, answerDate: launch.addingTimeInterval(60))
  }

  static func press(_ model: inout ShopModel, _ key: Key) -> [ShopEffect] {
    model.update(.key(key, at: model.now))
  }

  static func press(_ model: inout ShopModel, _ character: Character) -> [ShopEffect] {
    press(&model, .character(character))
  }

  var names: (ShopModel) -> [String] { { $0.log.map(\.event.name) } }

  // MARK: Launch and time

  @Test func launchAddsTheObserverAndRequestsProducts() {
    var model = ShopModel(catalog: Self.catalog, language: .en, launchDate: Self.launch)
    let effects = model.update(.launched(StoreState(), Wallet(balance: 7), at: 0))
    #expect(effects.isEmpty, "the answer comes at the latency's time, not at once")
    #expect(names(model) == ["observerAdded", "canMakePayments", "productsRequested"])
    #expect(model.products == .loading(answerAt: 400))
    #expect(model.balance == 7)
    #expect(model.nextDeadline == 400)
    #expect(model.update(.tick(at: 399)).isEmpty)
    #expect(model.update(.tick(at: 400)) == [.answerProductRequest(Self.catalog.products.map(\.productIdentifier))])
  }

  @Test func launchWhileRestrictedMakesNoRequest() {
    var model = ShopModel(catalog: Self.catalog, language: .en, launchDate: Self.launch)
    let store = Self.store(conditions: { $0.purchasesAllowed = false })
    #expect(model.update(.launched(store, Wallet(), at: 0)).isEmpty)
    #expect(model.products == .restricted)
    #expect(model.buyButton(Self.catalog.products[0]) == .appStoreDisabled)
    #expect(model.nextDeadline == nil)
  }

  @Test func launchRedeliversUnfinishedTransactions() {
    var model = ShopModel(catalog: Self.catalog, language: .en, launchDate: Self.launch, requestsProducts: false)
    let paid = Self.transaction("3", .purchased)
    let effects = model.update(.launched(Self.store(paid), Wallet(), at: 0))
    #expect(effects == [.deliver(paid)])
    #expect(model.redelivered == ["3"])
    #expect(model.log.contains { $0.event == .note(.unfinishedAtLaunch(count: 1)) })
  }

  @Test func aPaymentDueIsAnsweredAtItsOwnDate() {
    let due = Self.launch.addingTimeInterval(1)
    var model = Self.shop(Self.store(Self.transaction("1", .purchasing, answerDate: due)))
    #expect(model.nextDeadline == 1000)
    #expect(model.update(.tick(at: 999)).isEmpty)
    #expect(model.update(.tick(at: 1000)) == [.answerPayments(through: due.addingTimeInterval(ShopModel.dateNoise))])
  }

  @Test func aDateMillenniaAwayIsAFarDeadlineNotATrap() {
    let far = Date(timeIntervalSince1970: 1e300)
    var model = Self.shop(Self.store(Self.transaction("1", .purchasing, answerDate: far)))
    #expect(model.nextDeadline == Int(ShopModel.farthest))
    #expect(model.update(.tick(at: 10_000)).isEmpty)
  }

  @Test func timeNeverRunsBackwards() {
    var model = Self.shop()
    _ = model.update(.tick(at: 5000))
    _ = model.update(.tick(at: 10))
    #expect(model.now == 5000)
  }

  // MARK: Keys on the storefront

  @Test("a buy key adds the payment first; the sheet opens once the observer has seen .purchasing")
  func buyKeysAddThePaymentThenTheSheetOpens() {
    var model = Self.shop()
    #expect(
      Self.press(&model, "0") == [
        .addPayment(productIdentifier: Self.ten, quantity: 1, showsSheet: true, at: Self.launch)
      ])
    #expect(model.overlay == nil, "no sheet before the payment is in the queue")
    #expect(model.selection == 1)
    let added = StoreTransaction(
      id: "1", productIdentifier: Self.ten, quantity: 1, state: .purchasing, purchaseDate: Self.launch)
    #expect(model.update(.paymentAdded(added)).isEmpty)
    #expect(Array(names(model).suffix(2)) == ["paymentAdded", "purchasing"])
    #expect(model.overlay == .paymentSheet(.init(transactionID: "1", productIdentifier: Self.ten, quantity: 1)))
    #expect(model.status == nil, "nothing is processed before the sheet is answered")
    model = Self.shop()
    _ = Self.press(&model, "+")
    #expect(
      Self.press(&model, .enter) == [
        .addPayment(productIdentifier: Self.five, quantity: 2, showsSheet: true, at: Self.launch)
      ], "the quantity is set on the row, on the payment")
  }

  @Test func buyKeysSayWhyNotWhileProductsLoad() {
    var model = Self.shop(loaded: false)
    #expect(Self.press(&model, "5").isEmpty)
    #expect(model.overlay == nil)
    #expect(model.status == .cannot(keys: "5", .productsLoading))
    #expect(model.buyButton(Self.catalog.products[0]) == .loading)
  }

  @Test func selectionAndQuantityStayInBounds() {
    var model = Self.shop()
    _ = Self.press(&model, .up)
    #expect(model.status == .cannot(keys: "↑/k", .firstProductSelected))
    _ = Self.press(&model, .down)
    #expect(model.selection == 1)
    _ = Self.press(&model, "j")
    #expect(model.selection == 2)
    _ = Self.press(&model, "j")
    #expect(model.status == .cannot(keys: "↓/j", .lastProductSelected))
    _ = Self.press(&model, "-")
    #expect(model.status == .cannot(keys: "-/−", .quantityAtLeast))
    // The last product is the non-consumable: bought one at a time.
    _ = Self.press(&model, "+")
    #expect(model.status == .cannot(keys: "+/=", .quantityOnlyForConsumables))
    _ = Self.press(&model, "k")
    for _ in 0..<9 { _ = Self.press(&model, "+") }
    #expect(model.quantity == 10)
    _ = Self.press(&model, "=")
    #expect(model.status == .cannot(keys: "+/=", .quantityAtMost))
  }

  @Test(
    "each switch asks the store for its condition's next value",
    arguments: [
      ("r", Condition.purchasesAllowed, "false"), ("n", .network, "down"), ("a", .askToBuy, "on"),
      ("i", .interruptedPurchases, "on"),
    ] as [(Character, Condition, String)])
  func switches(key: Character, condition: Condition, value: String) {
    var model = Self.shop()
    _ = model.update(.tick(at: 2500))
    #expect(
      Self.press(&model, key) == [.setCondition(condition, value: value, at: Self.launch.addingTimeInterval(2.5))])
    #expect(model.store == StoreState(), "the model changes only when the store answers")
  }

  @Test func spendNeedsCredits() {
    var model = Self.shop()
    #expect(Self.press(&model, "s").isEmpty)
    #expect(model.status == .cannot(keys: "s", .nothingToSpend))
    model = Self.shop(balance: 3)
    #expect(Self.press(&model, "s") == [.spend(1)])
    #expect(model.update(.spent(balance: 2)).isEmpty)
    #expect(model.balance == 2)
    #expect(model.status == .spent(balance: 2))
  }

  @Test func overlaysOpenAndCloseWithoutEffects() {
    var model = Self.shop()
    // The transaction manager reads every transaction, the history's included, as it opens.
    for (key, overlay, effects) in [
      (Key.tab, ShopModel.Overlay.transactions(selection: 0), [ShopEffect.readHistory]),
      (.character("c"), .conditions(selection: 0), []), (.character("?"), .help(), []),
    ] {
      #expect(Self.press(&model, key) == effects)
      #expect(model.overlay == overlay)
      #expect(Self.press(&model, .escape).isEmpty)
      #expect(model.overlay == nil)
    }
  }

  @Test(
    "help closes on any key, as htop's does, and the key does nothing else",
    arguments: [Key.character("x"), .character("5"), .pageDown, .enter, .tab, .character("c")])
  func helpClosesOnAnyKey(_ key: Key) {
    var model = Self.shop()
    _ = Self.press(&model, "?")
    #expect(Self.press(&model, key).isEmpty)
    #expect(model.overlay == nil, "help is still open after \(key)")
    #expect(model.logScroll == 0)
  }

  @Test func lSwitchesTheAppsStoreKitThroughTheStore() {
    var model = Self.shop()
    let effects = Self.press(&model, "l")
    #expect(effects == [.setCondition(.storeKit, value: "2", at: model.date(at: model.now))])
  }

  @Test func reloadRequestsProductsAgainUnlessRestricted() {
    var model = Self.shop()
    _ = Self.press(&model, "R")
    #expect(model.products == .loading(answerAt: 400))
    model = Self.shop(Self.store(conditions: { $0.purchasesAllowed = false }))
    _ = Self.press(&model, "R")
    #expect(model.status == .cannot(keys: "R", .noRequestWhileRestricted))
  }

  @Test func quitAsksOnlyWhileAPurchaseIsInFlight() {
    var model = Self.shop()
    _ = Self.press(&model, "q")
    #expect(model.isFinished)
    model = Self.shop()
    _ = model.update(.paymentAdded(Self.confirmed("1")))
    _ = Self.press(&model, "q")
    #expect(model.overlay == .confirmQuit())
    _ = Self.press(&model, "n")
    #expect(model.overlay == nil && !model.isFinished)
    _ = Self.press(&model, "q")
    _ = Self.press(&model, "y")
    #expect(model.isFinished)
  }

  /// `q` pressed right after the sheet's Buy, before the store's answer reaches the app (two keys
  /// read together from the terminal): the purchase is under way, so it asks.
  @Test func quitAsksBeforeTheSheetsAnswerArrives() {
    var model = Self.shop()
    _ = Self.addPayment(&model)
    _ = Self.press(&model, .enter)
    #expect(model.overlay == nil && model.isPurchaseInFlight)
    _ = Self.press(&model, "q")
    #expect(model.overlay == .confirmQuit() && !model.isFinished)
  }

  @Test(
    "global keys act in every part of the screen",
    arguments: [nil, .character("5"), .tab, .character("c"), .character("?")] as [Key?])
  func globalKeys(opening: Key?) {
    var model = Self.shop()
    if let opening { _ = Self.press(&model, opening) }
    let overlay = model.overlay
    #expect(Self.press(&model, .ctrlL) == [.screen(.redraw)])
    #expect(Self.press(&model, .ctrlZ) == [.screen(.suspend)])
    #expect(model.overlay == overlay, "repainting or suspending leaves the screen as it was")
    #expect(Self.press(&model, .ctrlC).isEmpty)
    #expect(model.isFinished)
  }

  // MARK: Keys on the sheet, the transaction manager and the conditions panel

  @Test("the sheet answers its transaction: Buy lets the App Store process it, Cancel fails it")
  func theSheetConfirmsOrCancelsItsPayment() {
    var model = Self.shop()
    _ = Self.addPayment(&model)
    #expect(Self.press(&model, .right).isEmpty)
    #expect(Self.press(&model, "+").isEmpty)
    #expect(model.overlay == .paymentSheet(.init(transactionID: "1", productIdentifier: Self.five, quantity: 1)))
    #expect(model.status == .cannot(keys: "+", .notInThisOverlay), "the sheet does not change the quantity")
    _ = model.update(.tick(at: 1200))
    let at = Self.launch.addingTimeInterval(1.2)
    #expect(Self.press(&model, .enter) == [.answerPaymentSheet(transactionID: "1", confirmed: true, at: at)])
    #expect(model.overlay == nil)
    #expect(model.update(.paymentSheetAnswered(Self.confirmed("1"), confirmed: true)).isEmpty)
    #expect(model.status == .purchasing(product: Self.five, quantity: 1))
    #expect(model.inFlight == ["1": 1200])
    #expect(Self.lastNote(model) == "  ↳ payment sheet: Buy — the App Store processes the payment")
    #expect(names(model).filter { $0 == "purchasing" }.count == 1, "the observer sees .purchasing once")

    _ = Self.addPayment(&model, id: "2")
    #expect(Self.press(&model, .escape) == [.answerPaymentSheet(transactionID: "2", confirmed: false, at: at)])
    let cancelled = Self.transaction("2", .failed, failure: .cancelled)
    #expect(model.update(.paymentSheetAnswered(cancelled, confirmed: false)) == [.finish(cancelled)])
    #expect(Array(names(model).suffix(4)) == ["paymentAdded", "purchasing", "note", "failed"])
    #expect(model.status == .cancelled(product: Self.five))
  }

  @Test(
    "with skipPaymentSheet on, a buy key adds the payment as if confirmed, without the sheet",
    arguments: [(Key.enter, five), (.character("b"), five), (.character("5"), five), (.character("0"), ten)])
  func skipPaymentSheet(key: Key, product: String) {
    var model = Self.shop(Self.store(conditions: { $0.skipPaymentSheet = true }))
    _ = Self.press(&model, "+")
    _ = model.update(.tick(at: 1200))
    let at = Self.launch.addingTimeInterval(1.2)
    // `+` set the first row's quantity; the 10-credit row keeps its own, 1.
    let quantity = product == Self.five ? 2 : 1
    #expect(
      Self.press(&model, key)
        == [
          .addPayment(productIdentifier: product, quantity: quantity, showsSheet: false, sheetSkipped: true, at: at)
        ])
    #expect(model.overlay == nil, "no payment sheet")
    // The store's answer, as the runtime reports it.
    let added = StoreTransaction(
      id: "1", productIdentifier: product, quantity: quantity, state: .purchasing, purchaseDate: at, answerDate: at)
    #expect(model.update(.paymentAdded(added, sheetSkipped: true)).isEmpty)
    #expect(Array(names(model).suffix(3)) == ["paymentAdded", "note", "purchasing"])
    #expect(model.log.contains { $0.event == .note(.paymentSheetSkipped) })
    let note = model.log.first { $0.event == .note(.paymentSheetSkipped) }
    #expect(
      note?.event.text(.storeKit1, .en)
        == "  ↳ skipPaymentSheet: no payment sheet, added as if Buy was tapped")
    #expect(note?.event.text(.storeKit1, .ja).contains("シートなしで「購入」を押したものとして追加") == true)
    #expect(model.status == .purchasing(product: product, quantity: quantity, sheetSkipped: true))
    #expect(model.words.notice(model.status!, title: model.title(of:)).contains("(payment sheet skipped)"))
    #expect(Words(.ja).notice(model.status!, title: model.title(of:)).contains("(支払いシート省略)"))
    // It goes through as a confirmed purchase does.
    var paid = added
    paid.state = .purchased
    #expect(model.update(.transactionsUpdated([paid], redelivered: false)) == [.deliver(paid)])
    let credits = 10
    #expect(model.update(.delivered(paid, .credited(credits: credits, balance: credits))) == [.finish(paid)])
    #expect(model.status == .purchased(product: product, quantity: quantity, credits: credits))
  }

  @Test("with skipPaymentSheet off the sheet opens; a payment confirmed on it notes no skipped sheet")
  func theSheetIsShownUnlessSkipped() {
    var model = Self.shop()
    _ = Self.addPayment(&model)
    #expect(model.overlay == .paymentSheet(.init(transactionID: "1", productIdentifier: Self.five, quantity: 1)))
    _ = Self.press(&model, .enter)
    _ = model.update(.paymentSheetAnswered(Self.confirmed("1"), confirmed: true))
    #expect(!model.log.contains { $0.event == .note(.paymentSheetSkipped) })
    #expect(model.status == .purchasing(product: Self.five, quantity: 1))
  }

  @Test("a skipped sheet is noted only for the payment it added, not one refused nor the next")
  func aSkippedSheetIsNotedOnce() {
    var model = Self.shop(Self.store(conditions: { $0.skipPaymentSheet = true }))
    _ = Self.press(&model, "5")
    _ = model.update(.paymentRefused(.invalidQuantity(0)))
    _ = model.update(.purchase(productIdentifier: Self.five, quantity: 1))
    _ = model.update(.paymentAdded(Self.confirmed("1")))
    #expect(!model.log.contains { $0.event == .note(.paymentSheetSkipped) })
    #expect(model.status == .purchasing(product: Self.five, quantity: 1))
  }

  @Test func theManagerActsOnlyOnTransactionsThatAllowIt() {
    let deferred = Self.transaction("1", .deferred)
    let interrupted = Self.transaction(
      "2", .failed, failure: .interrupted, hasPurchaseIssue: true)
    var model = Self.shop(Self.store(deferred, interrupted))
    _ = Self.press(&model, .tab)
    // Newest first: #2, the interrupted purchase.
    #expect(Self.press(&model, "a").isEmpty)
    #expect(model.status == .cannot(keys: "a", .onlyDeferredCanBeApproved))
    #expect(Self.press(&model, "v") == [.resolve("2", at: Self.launch)])
    _ = Self.press(&model, .down)
    #expect(Self.press(&model, "v").isEmpty)
    #expect(model.status == .cannot(keys: "v", .onlyInterruptedCanBeResolved))
    #expect(Self.press(&model, "a") == [.approve("1")])
    #expect(Self.press(&model, "d") == [.decline("1")])
  }

  @Test func thePanelStepsThroughAConditionsChoices() {
    var model = Self.shop()
    _ = Self.press(&model, "c")
    _ = Self.press(&model, .down)
    #expect(Self.press(&model, .right) == [.setCondition(.network, value: "down", at: Self.launch)])
    #expect(Self.press(&model, .left) == [.setCondition(.network, value: "down", at: Self.launch)], "two values wrap")
    for _ in Condition.allCases { _ = Self.press(&model, .down) }
    #expect(model.overlay == .conditions(selection: Condition.allCases.count - 1))
    #expect(Self.press(&model, .right) == [.setCondition(.crashPoint, value: "beforeDelivery", at: Self.launch)])
  }

  // MARK: The observer

  @Test func anAddedPaymentIsPurchasingUntilTheStoreAnswers() {
    var model = Self.shop()
    let added = Self.confirmed("1")
    #expect(model.update(.paymentAdded(added)).isEmpty)
    #expect(model.lastAddedTransactionID == "1")
    #expect(model.inFlight == ["1": 0])
    #expect(model.status == .purchasing(product: Self.five, quantity: 1))
    #expect(Array(names(model).suffix(2)) == ["paymentAdded", "purchasing"])
    let purchased = Self.transaction("1", .purchased)
    #expect(model.update(.transactionsUpdated([purchased], redelivered: false)) == [.deliver(purchased)])
    #expect(model.inFlight.isEmpty)
    #expect(model.update(.transactionsUpdated([purchased], redelivered: false)).isEmpty, "delivered once")
    #expect(model.update(.delivered(purchased, .credited(credits: 5, balance: 5))) == [.finish(purchased)])
    #expect(model.balance == 5)
    #expect(model.status == .purchased(product: Self.five, quantity: 1, credits: 5))
  }

  @Test func aFailedTransactionIsFinishedAndSaysWhy() {
    var model = Self.shop()
    let cancelled = Self.transaction("1", .failed, failure: .cancelled)
    #expect(model.update(.transactionsUpdated([cancelled], redelivered: false)) == [.finish(cancelled)])
    #expect(model.status == .cancelled(product: Self.five))
    #expect(model.status?.tone == .warning)
    let forced = Self.transaction("2", .failed, failure: .forced(.server(.unknownError)))
    _ = model.update(.transactionsUpdated([forced], redelivered: false))
    #expect(model.status == .purchaseFailed(.forced(.server(.unknownError))))
    #expect(model.log.last?.event.name == "error")
    #expect(
      model.log.last?.text(.en) == "\(ErrorID.forcedError) ✗ An unknown error has occurred — SSServerErrorDomain 5002")
  }

  @Test func aDeferredTransactionWaitsAndIsNotFinished() {
    var model = Self.shop()
    #expect(model.update(.transactionsUpdated([Self.transaction("1", .deferred)], redelivered: false)).isEmpty)
    #expect(model.status == .waitingForApproval(transactionID: "1"))
  }

  @Test func anAlreadyCreditedDeliveryIsFinishedWithoutCredit() {
    var model = Self.shop(balance: 5)
    let paid = Self.transaction("1", .purchased)
    #expect(model.update(.delivered(paid, .alreadyDelivered(balance: 5))) == [.finish(paid)])
    #expect(model.status == .alreadyDelivered(transactionID: "1"))
  }

  /// The log's last note, as the storefront shows it.
  static func lastNote(_ model: ShopModel, _ language: Language = .en) -> String? {
    model.log.last { $0.event.name == "note" }?.event.text(.storeKit1, language)
  }

  @Test("a purchase this app saw answered, found credited, was credited by another monkeyshop")
  func creditedByAnotherMonkeyshop() {
    var model = Self.shop()
    _ = model.update(.paymentAdded(Self.confirmed("1")))
    let paid = Self.transaction("1", .purchased)
    _ = model.update(.transactionsUpdated([paid], redelivered: false))
    // Another monkeyshop on the data folder (an open storefront, a `buy`) credited it first.
    #expect(model.update(.delivered(paid, .alreadyDelivered(balance: 5))) == [.finish(paid)])
    #expect(model.log.last?.event == .note(.creditedByAnother(transactionID: "1")))
    #expect(
      Self.lastNote(model)
        == "  ↳ #1 was credited by another monkeyshop (an open storefront or another command); finishing it keeps it from coming back"
    )
    #expect(Self.lastNote(model, .ja)?.contains("別の monkeyshop") == true)
    #expect(!model.log.contains { $0.event == .note(.creditedBeforeStop) }, "no app stopped")
  }

  @Test("a transaction redelivered at launch, found credited, was credited before the app stopped")
  func creditedBeforeTheAppStopped() {
    var model = ShopModel(catalog: Self.catalog, language: .en, launchDate: Self.launch, requestsProducts: false)
    let paid = Self.transaction("3", .purchased)
    _ = model.update(.launched(Self.store(paid), Wallet(balance: 5), at: 0))
    #expect(model.update(.delivered(paid, .alreadyDelivered(balance: 5))) == [.finish(paid)])
    #expect(model.log.last?.event == .note(.creditedBeforeStop))
    #expect(Self.lastNote(model) == "  ↳ credited before the app stopped; finishing it now keeps it from coming back")
    #expect(!model.log.contains { $0.event == .note(.creditedByAnother(transactionID: "3")) })
  }

  @Test func failuresOfEffectsAreShownWithTheirID() {
    var model = Self.shop()
    let paid = Self.transaction("1", .purchased)
    _ = model.update(.transactionsUpdated([paid], redelivered: false))
    let overflow = ShopFailure(.balanceOverflow, "the balance would exceed the limit")
    #expect(model.update(.deliveryFailed(paid, overflow)).isEmpty)
    #expect(model.lastFailure == overflow)
    #expect(model.status == .failed(overflow))
    #expect(model.settling.isEmpty, "a later notice may try again")
    _ = model.update(.paymentRefused(.invalidQuantity(11)))
    #expect(model.lastFailure?.errorID == .invalidQuantity)
  }

  @Test func answersThatCannotBeWrittenStopTheWait() {
    let due = Self.launch.addingTimeInterval(1)
    var model = Self.shop(Self.store(Self.transaction("1", .purchasing, answerDate: due)))
    _ = model.update(.paymentAdded(Self.transaction("1", .purchasing, answerDate: due)))
    let failure = ShopFailure(.cannotWriteDataFile, "store.json: no space left on device")
    #expect(model.update(.answersFailed(failure)).isEmpty)
    #expect(model.nextDeadline == nil, "nothing to wait for: no spinning")
    #expect(model.update(.tick(at: 5000)).isEmpty)
    #expect(model.status == .failed(failure))
  }

  @Test func aPaymentTheStoreNoLongerHoldsVanishes() {
    var model = Self.shop()
    _ = model.update(.paymentAdded(Self.confirmed("4")))
    _ = model.update(.dataFolderRead(StoreState(), Wallet(), at: 600))
    // Apple's record (the history included) is asked first: no record has it.
    #expect(model.update(.tick(at: 700)).contains(.lookUp(transactionID: "4")))
    #expect(model.inFlight.isEmpty)
    _ = model.update(.lookedUp(transactionID: "4", nil))
    #expect(model.lastFailure?.errorID == .unknownTransaction)
    #expect(model.status == .vanished(transactionID: "4"))
  }

  @Test func aPaymentAnotherMonkeyshopFinishedIntoTheHistoryEndsAsFinishedElsewhere() {
    var model = Self.shop()
    _ = model.update(.paymentAdded(Self.confirmed("4")))
    _ = model.update(.dataFolderRead(StoreState(), Wallet(), at: 600))
    #expect(model.update(.tick(at: 700)).contains(.lookUp(transactionID: "4")))
    var finished = Self.transaction("4", .purchased, answerDate: Date(timeIntervalSince1970: 0))
    finished.finished = true
    #expect(model.update(.lookedUp(transactionID: "4", finished)) == [.readWallet])
    #expect(model.lastFailure == nil)
    #expect(model.status == .finishedElsewhere(transactionID: "4", .purchased))
    #expect(model.settlements.finishedElsewhere["4"] == finished)
    #expect(!model.settlements.deliveredHere("4"))
  }

  // MARK: Crash points

  @Test func aCrashPointInTheStoreIsDisarmedBeforeTheAppDies() {
    var model = Self.shop(Self.store(conditions: { $0.crashPoint = .beforeDelivery }))
    let paid = Self.transaction("1", .purchased)
    #expect(model.update(.transactionsUpdated([paid], redelivered: false)) == [.recordCrash(.beforeDelivery, paid)])
    #expect(!model.isFinished)
    #expect(model.update(.crashRecorded(.beforeDelivery)) == [.crash(.beforeDelivery)])
    #expect(model.isFinished)
    #expect(model.crashed == .beforeDelivery)
    #expect(model.status == .crashed)
  }

  @Test func aCrashPointThatCannotBeDisarmedDoesNotKillTheApp() {
    var model = Self.shop(Self.store(conditions: { $0.crashPoint = .afterDeliveryBeforeFinish }))
    let paid = Self.transaction("1", .purchased)
    #expect(model.update(.transactionsUpdated([paid], redelivered: false)) == [.deliver(paid)])
    let disarm = model.update(.delivered(paid, .credited(credits: 5, balance: 5)))
    #expect(disarm == [.recordCrash(.afterDeliveryBeforeFinish, paid)])
    #expect(model.log.last?.event == .delivered(transactionID: "1", credits: 5, balance: 5), "credited before dying")
    let failure = ShopFailure(.cannotWriteDataFile, "store.json: read-only file system")
    #expect(model.update(.crashNotRecorded(.afterDeliveryBeforeFinish, paid, failure)) == [.finish(paid)])
    #expect(!model.isFinished)
    #expect(model.lastFailure == failure)
  }

  @Test func aCrashArmedForTheRunDiesAtOnceAndNotOnARedelivery() {
    var model = Self.shop(armedCrash: .beforeDelivery)
    let paid = Self.transaction("1", .purchased)
    #expect(model.update(.transactionsUpdated([paid], redelivered: true)) == [.deliver(paid)], "a redelivery")
    let next = Self.transaction("2", .purchased)
    #expect(model.update(.transactionsUpdated([next], redelivered: false)) == [.recordCrash(.beforeDelivery, next)])
    #expect(!model.isFinished, "the store first holds the crash, so the next launch can tell of it")
    #expect(model.update(.crashRecorded(.beforeDelivery)) == [.crash(.beforeDelivery)])
    #expect(model.log.last?.event == .crashed(.beforeDelivery))
  }

  /// `buy --crash` kills the process even when the store cannot be written: the store holds no
  /// crash point, so the relaunch cannot die again.
  @Test func aCrashArmedForTheRunDiesEvenIfTheStoreCannotBeWritten() {
    var model = Self.shop(armedCrash: .beforeDelivery)
    let paid = Self.transaction("1", .purchased)
    #expect(model.update(.transactionsUpdated([paid], redelivered: false)) == [.recordCrash(.beforeDelivery, paid)])
    let failure = ShopFailure(.cannotWriteDataFile, "store.json: read-only file system")
    #expect(model.update(.crashNotRecorded(.beforeDelivery, paid, failure)) == [.crash(.beforeDelivery)])
    #expect(model.crashed == .beforeDelivery)
  }

  // MARK: The data folder read again

  @Test func anApprovalElsewhereIsLoggedAndDelivered() {
    let deferred = Self.transaction("1", .deferred)
    var model = Self.shop(Self.store(deferred))
    let approved = Self.transaction("1", .purchased)
    let effects = model.update(.dataFolderRead(Self.store(approved), Wallet(), at: 900))
    #expect(effects == [.deliver(approved)])
    #expect(Array(names(model).suffix(2)) == ["approved", "purchased"])
    #expect(model.now == 900)
  }

  @Test func aDeclineAndAResolutionElsewhereAreLogged() {
    let deferred = Self.transaction("1", .deferred)
    let interrupted = Self.transaction("2", .failed, failure: .interrupted, hasPurchaseIssue: true)
    var model = Self.shop(Self.store(deferred, interrupted))
    let declined = Self.transaction("1", .failed, failure: .askToBuyDeclined)
    var resolvedOriginal = interrupted
    resolvedOriginal.hasPurchaseIssue = false
    let purchase = Self.transaction("3", .purchased, resolvedFromTransactionID: "2")
    let effects = model.update(.dataFolderRead(Self.store(declined, resolvedOriginal, purchase), Wallet(), at: 0))
    #expect(effects == [.finish(declined), .deliver(purchase)])
    #expect(model.log.contains { $0.event == .declined(transactionID: "1") })
    #expect(model.log.contains { $0.event == .resolved(transactionID: "2", newTransactionID: "3") })
  }

  @Test func conditionsChangedElsewhereAreLoggedAndFollowed() {
    var model = Self.shop(Self.store(conditions: { $0.purchasesAllowed = false }))
    let effects = model.update(.dataFolderRead(StoreState(), Wallet(balance: 9), at: 0))
    #expect(effects.isEmpty)
    #expect(model.log.contains { $0.event == .conditionChanged(.purchasesAllowed, value: "true") })
    #expect(model.products == .loading(answerAt: 400), "canMakePayments is asked again")
    #expect(model.balance == 9)
    #expect(model.log.contains { $0.event == .note(.walletChangedElsewhere(balance: 9)) })
  }

  @Test func aStorefrontChangeRequestsTheProductsAgain() {
    var model = Self.shop()
    _ = model.update(.dataFolderRead(Self.store(conditions: { $0.storefront = "JPN" }), Wallet(), at: 0))
    #expect(
      Array(names(model).suffix(4)) == [
        "conditionChanged", "storefrontChanged", "canMakePayments", "productsRequested",
      ])
    #expect(model.products == .loading(answerAt: 400))
    #expect(model.buyButton(Self.catalog.products[0]) == .loading, "no price until the new response")
  }
}

/// The runtime's one rule of order: an effect's results reach `update` before the next effect.
@Suite(.tags(.pure)) struct ShopRuntimeOrderTests {
  @Test("an app that dies delivering the first of two answered purchases never touches the second")
  func dyingMidBatch() {
    let launch = ShopModelUpdateTests.launch
    var store = StoreState()
    for id in ["1", "2"] {
      store.transactions.append(
        StoreTransaction(
          id: id, productIdentifier: ShopModelUpdateTests.five, quantity: 1, state: .purchasing, purchaseDate: launch,
          answerDate: launch))
    }
    store.lastTransactionNumber = 2
    let storage = MemoryStorage(store: store)
    var crashes: [CrashPoint] = []
    let runtime = ShopRuntime(
      catalog: ShopModelUpdateTests.catalog, storage: storage, language: .en, launchDate: launch,
      requestsProducts: false, armedCrash: .afterDeliveryBeforeFinish, onCrash: { crashes.append($0) })
    runtime.start(now: launch)
    #expect(crashes == [.afterDeliveryBeforeFinish])
    #expect(storage.wallet.balance == 5, "only the first was credited")
    #expect(storage.wallet.credited.contains(1) && !storage.wallet.credited.contains(2))
    let delivered = runtime.model.log.compactMap { entry -> String? in
      if case .delivered(let id, _, _) = entry.event { return id }
      return nil
    }
    #expect(delivered == ["1"], "the log says what was credited, and only that")
    #expect(storage.store.unfinished.map(\.id) == ["1", "2"])
  }
}

/// Under "terminal too small" nothing the person cannot see acts.
@Suite(.tags(.screen)) struct TooSmallScreenTests {
  @Test func enterDoesNotConfirmAPaymentSheetHiddenByTooSmall() {
    var model = ShopModelUpdateTests.shop()
    _ = model.update(.resized(ScreenSize(width: 80, height: 24)))
    _ = ShopModelUpdateTests.addPayment(&model)
    #expect(model.keyContext == .paymentSheet)
    _ = model.update(.resized(ScreenSize(width: 60, height: 20)))
    for key in [Key.enter, .character("y"), .escape, .character("+"), .ctrlL, .ctrlZ] {
      #expect(ShopModelUpdateTests.press(&model, key) == [], "\(key) acts on a screen that shows nothing")
    }
    #expect(model.keyContext == .paymentSheet, "the sheet waits, unseen and unanswered")
    _ = model.update(.resized(ScreenSize(width: 80, height: 24)))
    let effects = ShopModelUpdateTests.press(&model, .enter)
    #expect(effects.contains { if case .answerPaymentSheet = $0 { true } else { false } }, "once seen, Enter confirms")
  }

  @Test func onlyQuitAndCtrlCActWhileTooSmall() {
    var model = ShopModelUpdateTests.shop()
    _ = model.update(.resized(ScreenSize(width: 50, height: 12)))
    for key in [Key.character("r"), .character("n"), .tab, .character("c"), .character("0"), .character("?")] {
      #expect(ShopModelUpdateTests.press(&model, key) == [], "\(key)")
    }
    #expect(model.overlay == nil)
    _ = ShopModelUpdateTests.press(&model, "q")
    #expect(model.isFinished)
    var other = ShopModelUpdateTests.shop()
    _ = other.update(.resized(ScreenSize(width: 50, height: 12)))
    _ = ShopModelUpdateTests.press(&other, .ctrlC)
    #expect(other.isFinished)
  }

  @Test func theQuitQuestionIsAskedAndAnsweredOnATooSmallScreen() {
    let shop = ShopHarness(conditions: { $0.latency = .slow })
    shop.press("5")
    shop.press(.enter)
    shop.runtime.resized(ScreenSize(width: 50, height: 12), now: shop.now)
    shop.press("q")
    #expect(shop.screen(50, 12).contains("Quit while a purchase is in flight? (y/n)"))
    shop.press("n")
    #expect(!shop.model.isFinished)
    #expect(shop.screen(50, 12).contains("only q (quit) acts"))
  }
}
