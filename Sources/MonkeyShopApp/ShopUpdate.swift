import Foundation
import MonkeyShopDomain

extension ShopModel {
  /// The storefront's one rule book: how each message changes the model, and what to do next.
  /// Nothing else changes the model; the runtime only performs the effects returned here.
  public mutating func update(_ message: ShopMessage) -> [ShopEffect] {
    let contextBefore = keyContext
    let statusBefore = status
    let inspectedBefore = inspectedTransactionID
    let notificationsBefore = store.notifications
    var effects = apply(message)
    // A transaction's detail lists its notifications: read when it opens on a transaction, and
    // again when the store's notifications changed (one made, an attempt recorded).
    if let inspected = inspectedTransactionID,
      inspected != inspectedBefore || store.notifications != notificationsBefore
    {
      effects.append(.readNotifications(about: inspected))
    }
    // A status says what is true now: one whose reason no longer holds goes (or says what became of it).
    if let status, isStale(status) { self.status = successor(ofStale: status) }
    // A newly opened overlay starts with no status about something else (the last purchase, an
    // earlier cancel); a status the opening itself gave stays, and so does the one beneath the
    // quit or switch question, which asks about the purchase in flight that status describes.
    if let overlay, !overlay.asksAboutThePurchase, keyContext != contextBefore, status == statusBefore {
      status = nil
    }
    // So does a transaction's detail opened on another transaction than the one in view before.
    if let inspected = inspectedTransactionID, inspected != inspectedBefore, status == statusBefore {
      status = nil
    }
    return effects
  }

  private mutating func apply(_ message: ShopMessage) -> [ShopEffect] {
    switch message {
    case .launched(let store, let wallet, let time):
      advanceClock(to: time)
      return launch(store: store, wallet: wallet)
    case .key(let key, let time):
      advanceClock(to: time)
      return press(key)
    case .resized(let size):
      screenSize = size
      return []
    case .tick(let time):
      advanceClock(to: time)
      return tick()
    case .dataFolderRead(let store, let wallet, let time):
      advanceClock(to: time)
      return follow(store: store, wallet: wallet)
    case .productsAnswered(let result):
      return productsAnswered(result)
    case .paymentAdded(let transaction, let sheetSkipped):
      lastAddedTransactionID = transaction.id
      // A StoreKit 2 app called `purchase(options:)` before the sheet; it sees no payment added.
      if storeKit == .storeKit1 {
        record(
          .paymentAdded(
            productIdentifier: transaction.productIdentifier, quantity: transaction.quantity,
            applicationUsername: transaction.appAccountToken?.uuidString.lowercased()))
      }
      guard sheetSkipped else { return observe(transaction, redelivered: false) }
      note(.paymentSheetSkipped)
      let effects = observe(transaction, redelivered: false)
      if case .purchasing(let product, let quantity, _) = status {
        status = .purchasing(product: product, quantity: quantity, sheetSkipped: true)
      }
      return effects
    case .paymentSheetAnswered(let transaction, let confirmed):
      note(.paymentSheetAnswered(confirmed: confirmed))
      defer { showWaitingPaymentSheet() }
      guard transaction.state == .purchasing else { return observe(transaction, redelivered: false) }
      // Bought: the App Store processes the payment; its answer reaches the observer after the latency.
      if inFlight[transaction.id] == nil { inFlight[transaction.id] = now }
      status = .purchasing(product: transaction.productIdentifier, quantity: transaction.quantity)
      return []
    case .paymentRefused(let error):
      fail(ShopFailure(error))
      return []
    case .transactionsUpdated(let transactions, let redelivered):
      return transactions.flatMap { observe($0, redelivered: redelivered) }
    case .delivered(let transaction, let delivery):
      return delivered(transaction, delivery)
    case .deliveryFailed(let transaction, let failure):
      settling.remove(transaction.id)
      fail(failure)
      return []
    case .answersFailed(let failure):
      answersHeld = true
      inFlight = [:]
      fail(failure)
      return []
    case .finished(let transaction):
      settling.remove(transaction.id)
      settlements.finished.append(transaction)
      record(.finished(transaction))
      return []
    case .closed(let transaction):
      settling.remove(transaction.id)
      return []
    case .approved(let transaction):
      record(.approved(transactionID: transaction.id))
      return observe(transaction, redelivered: false)
    case .declined(let transaction):
      record(.declined(transactionID: transaction.id))
      return observe(transaction, redelivered: false)
    case .resolved(let original, let transaction):
      record(.resolved(transactionID: original, newTransactionID: transaction.id))
      return observe(transaction, redelivered: false)
    case .spent(let balance):
      self.balance = balance
      record(.spent(credits: 1, balance: balance))
      status = .spent(balance: balance)
      return []
    case .conditionChanged(let condition, let value):
      record(.conditionChanged(condition, value: value))
      let before = status
      let effects = conditionChanged(condition)
      // In the conditions panel the status says what the key just changed, not what an earlier
      // key or purchase came to; a status the change itself gave stays.
      if case .conditions = overlay, status == before || status == nil {
        status = .conditionSet(condition, value: value)
      }
      return effects
    case .storeChanged(let store):
      let selected = selectedTransaction?.id
      self.store = store
      answersHeld = false
      clampSelections(keeping: selected)
      closeAnsweredPaymentSheet()
      return noticeServer(store.notifications)
    case .walletRead(let wallet):
      followWallet(wallet)
      return []
    case .crashRecorded(let point):
      return die(at: point)
    case .crashNotRecorded(let point, let transaction, let failure):
      // Only a crash point the store still holds would kill the relaunch too.
      guard store.conditions.crashPoint == point else { return die(at: point) }
      fail(failure)
      return point == .beforeDelivery ? [.deliver(transaction)] : [.finish(transaction)]
    case .failed(let failure):
      fail(failure)
      return []
    case .restore:
      return restorePurchases()
    case .ownedRead(let owned):
      self.owned = owned
      return []
    case .contentInstalled(let download, let path):
      return contentInstalled(download, path: path)
    case .contentInstallFailed(let download, let failure):
      return contentInstallFailed(download, failure)
    case .restoredTransactions(let restored):
      return restoredTransactions(restored)
    case .restoreFinished(let count):
      restoreFinished(restored: count)
      return []
    case .entitlements(let entitlements, let unlocked):
      entitlementsReceived(entitlements, unlocked: unlocked)
      return []
    case .refundMade(let transaction):
      return refunded(transaction)
    case .lookedUp(let id, let transaction):
      return lookedUp(id, transaction)
    case .endedNotificationsRead(let ended):
      endedNotificationsRead(ended)
      return []
    case .notificationsRead(let id, let listings):
      detailNotifications = (id, listings)
      return []
    case .clawedBack(let transaction, let clawback):
      return clawedBack(transaction, clawback)
    case .accessRevoked(let transaction, let revocation):
      accessRevoked(transaction, revocation)
      return []
    case .historyRead(let transactions):
      return historyRead(transactions)
    case .purchase(let identifier, let quantity):
      // As an app must, the headless buy pays only for a product the App Store returned: "Your
      // application must first send a products request to the App Store before deciding what
      // products to display for purchase" (https://developer.apple.com/library/archive/qa/qa1691/_index.html).
      pendingPurchase = PendingPurchase(productIdentifier: identifier, quantity: quantity)
      return requestProducts([identifier])
    case .setAppAccountToken(let token):
      appAccountToken = token
      return []
    }
  }

  // MARK: Launch and products

  private mutating func launch(store: StoreState, wallet: Wallet) -> [ShopEffect] {
    self.store = store
    _ = noticeServer(store.notifications, quietly: true)
    balance = wallet.balance
    // A new run of the app holds no download objects yet: the queue gives them again with each
    // unfinished transaction.
    downloads = []
    var effects = (storeKit == .storeKit2 ? launchStoreKit2() : launchStoreKit1()) + refundsAtLaunch(wallet: wallet)
    if requestsProducts { effects += requestProducts() }
    showWaitingPaymentSheet()
    // Payments the store should have answered while no app was running (the app that added them
    // was killed) are answered now, and delivered like any other.
    return effects + tick()
  }

  /// Launch of the StoreKit 1 app: the observer is added, and the queue delivers every unfinished
  /// transaction to it again.
  private mutating func launchStoreKit1() -> [ShopEffect] {
    record(.observerAdded)
    var effects: [ShopEffect] = []
    let unfinished = store.unfinished
    if !unfinished.isEmpty {
      noteCrashBehind(unfinished)
      note(.unfinishedAtLaunch(count: unfinished.count))
      effects += unfinished.flatMap { observe($0, redelivered: true) }
    }
    return effects
  }

  /// The app switched to the other StoreKit: it restarts, as a new build of the app would, and
  /// launches again with the store as it is.
  private mutating func restartApp() -> [ShopEffect] {
    record(.appRestarted(storeKit))
    products = .notRequested
    inFlight = [:]
    downloads = []
    settling = []
    redelivered = []
    if case .paymentSheet = overlay { overlay = nil }
    status = .appSwitched(storeKit)
    return [.relaunch]
  }

  mutating func requestProducts(_ identifiers: [String]? = nil) -> [ShopEffect] {
    record(.canMakePayments(canMakePayments))
    guard canMakePayments else {
      products = .restricted
      if let pending = pendingPurchase {
        // The app asks canMakePayments first and adds no payment while it is false.
        pendingPurchase = nil
        fail(
          ShopFailure(
            .purchasesRestricted,
            Phrase(
              "canMakePayments() is false: purchases are restricted (\(pending.productIdentifier))",
              "canMakePayments() が false: 購入は制限されています (\(pending.productIdentifier))")
          ))
      }
      return []
    }
    let identifiers = identifiers ?? catalog.products.map(\.productIdentifier)
    requestedIdentifiers = identifiers
    record(.productsRequested(identifiers))
    products = .loading(answerAt: now + Int((store.conditions.latency.productRequest * 1000).rounded()))
    return answerProductRequestIfDue()
  }

  private mutating func answerProductRequestIfDue() -> [ShopEffect] {
    guard case .loading(let answerAt) = products, answerAt <= now else { return [] }
    products = .notRequested
    return [.answerProductRequest(requestedIdentifiers)]
  }

  private mutating func tick() -> [ShopEffect] {
    var effects = answeredElsewhere()
    if answersDue { effects.append(.answerPayments(through: answersDueDate)) }
    return effects + answerProductRequestIfDue() + advanceDownloads()
  }

  private mutating func productsAnswered(_ result: Result<AppStore.ProductsResponse, ProductRequestError>)
    -> [ShopEffect]
  {
    switch result {
    case .success(let response):
      products = .loaded(response)
      record(
        .productsReceived(
          valid: response.products.map(\.productIdentifier), invalid: response.invalidProductIdentifiers))
    case .failure(let error):
      products = .failed(error)
      record(.productsRequestFailed(error))
      record(.error(ShopFailure(error)))
      status = .productsFailed(error)
    }
    guard let pending = pendingPurchase else { return [] }
    pendingPurchase = nil
    switch result {
    case .success(let response) where response.contains(pending.productIdentifier):
      if storeKit == .storeKit2 {
        callPurchase(productIdentifier: pending.productIdentifier, quantity: pending.quantity)
      }
      return [
        .addPayment(
          productIdentifier: pending.productIdentifier, quantity: pending.quantity, showsSheet: false,
          appAccountToken: appAccountToken, at: date(at: now))
      ]
    case .success(let response):
      fail(
        ShopFailure(
          .productNotAvailable,
          Phrase(
            "\(pending.productIdentifier) came back in invalidProductIdentifiers: the App Store does not sell it in \(response.storefront.code)",
            "\(pending.productIdentifier) は invalidProductIdentifiers で返りました: App Store は \(response.storefront.code) でこれを販売していません"
          )
        ))
    case .failure(let error):
      lastFailure = ShopFailure(error)
    }
    return []
  }

  // MARK: The data folder

  /// The data folder read again after another process (or a walkthrough acting for Apple) changed
  /// it: follow the wallet and the store, say what changed on Apple's side, and take delivery of
  /// anything now deliverable (an approval, a resolved interruption), as `Transaction.updates` would.
  private mutating func follow(store new: StoreState, wallet: Wallet) -> [ShopEffect] {
    let old = store
    let selected = selectedTransaction?.id
    followWallet(wallet)
    store = new
    answersHeld = false
    clampSelections(keeping: selected)
    closeAnsweredPaymentSheet()
    var effects = noticeServer(new.notifications) + refundsNoticed(before: old, now: new)
    for condition in Condition.allCases {
      let before = condition.value(in: old.conditions, defaultStorefront: catalog.defaultStorefront)
      let after = condition.value(in: new.conditions, defaultStorefront: catalog.defaultStorefront)
      guard before != after else { continue }
      record(.conditionChanged(condition, value: after))
      effects += conditionChanged(condition)
    }
    // An Ask to Buy request the store no longer holds was dropped (a store reset): nothing will
    // answer it, so the storefront stops saying it waits for one.
    for dropped in old.transactions where dropped.state == .deferred && new.transaction(dropped.id) == nil {
      note(.askToBuyDropped(transactionID: dropped.id))
      if status == .waitingForApproval(transactionID: dropped.id) { status = nil }
    }
    let known = Dictionary(old.transactions.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    for transaction in new.transactions {
      let previous = known[transaction.id]
      guard previous.map({ $0.state != transaction.state }) ?? true else { continue }
      switch (previous?.state, transaction.state) {
      case (.deferred, .purchased): record(.approved(transactionID: transaction.id))
      case (.deferred, .failed): record(.declined(transactionID: transaction.id))
      case (nil, _):
        if let original = transaction.resolvedFromTransactionID {
          record(.resolved(transactionID: original, newTransactionID: transaction.id))
        }
      default: break
      }
      if transaction.awaitsFinish || transaction.state == .deferred {
        effects += observe(transaction, redelivered: false)
      }
    }
    return effects
  }

  // MARK: The payment sheet

  /// A payment added before the app last stopped whose sheet was never answered is still
  /// `.purchasing` in the queue ("If an application quits when transactions are still being
  /// processed, those transactions are not lost. The next time the application launches, the
  /// payment queue resumes processing the transactions",
  /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-5ciz2): the App Store
  /// shows its sheet again, so the person can still buy or cancel it. Apple does not say what
  /// becomes of a sheet whose app quit. Only the storefront has a screen for it; headless commands
  /// leave it waiting (`launch` counts it as purchasing).
  private mutating func showWaitingPaymentSheet() {
    guard requestsProducts, overlay == nil, let waiting = store.transactions.first(where: \.awaitsPaymentSheet)
    else { return }
    note(.paymentSheetShownAgain(transactionID: waiting.id))
    overlay = .paymentSheet(PaymentSheet(waiting))
  }

  /// The sheet belongs to its transaction: once that is no longer waiting for the sheet's answer
  /// (the network went down, a `store reset`, another monkeyshop answered it), the sheet closes.
  mutating func closeAnsweredPaymentSheet() {
    guard case .paymentSheet(let sheet) = overlay, store.transaction(sheet.transactionID)?.awaitsPaymentSheet != true
    else { return }
    overlay = nil
  }

  private mutating func followWallet(_ wallet: Wallet) {
    guard wallet.balance != balance else { return }
    note(.walletChangedElsewhere(balance: wallet.balance))
    balance = wallet.balance
  }

  private mutating func conditionChanged(_ condition: Condition) -> [ShopEffect] {
    // What an earlier purchase came to is no longer what the storefront is about.
    if status?.isOutcome == true { status = nil }
    switch condition {
    case .purchasesAllowed:
      // The sample asks canMakePayments again when restrictions change.
      if canMakePayments, case .restricted = products { return requestProducts() }
      if !canMakePayments {
        record(.canMakePayments(false))
        products = .restricted
      }
    case .storefront:
      return storefrontChanged()
    case .storeKit:
      return restartApp()
    case .network:
      networkChangedForDownloads()
    default:
      break
    }
    return []
  }

  /// `paymentQueueDidChangeStorefront(_:)`: each payment in flight asks the app's delegate
  /// `paymentQueue(_:shouldContinue:in:)` (answered by the `continueOnStorefrontChange` condition;
  /// the store fails a refused one with `storeProductNotAvailable`), then the app requests its
  /// products again, as Apple advises ("Always get the storefront identifier immediately before you
  /// display product information", https://developer.apple.com/documentation/storekit/skstorefront;
  /// "If the storefront changes during a transaction, StoreKit notifies your app by calling the
  /// `paymentQueueDidChangeStorefront(_:)` method",
  /// https://developer.apple.com/documentation/storekit/skpaymentqueue/storefront). Prices change
  /// only with that response: until it arrives the buy buttons read `loading...` and no price shows.
  private mutating func storefrontChanged() -> [ShopEffect] {
    record(.storefrontChanged(storefront))
    let asked = Set(inFlight.keys).union(store.transactions.filter(\.awaitsPaymentSheet).map(\.id))
    for id in asked.sorted(by: { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }) {
      record(
        .shouldContinue(transactionID: id, storefront: storefront, answer: store.conditions.continueOnStorefrontChange))
    }
    guard canMakePayments else { return [] }
    return requestProducts()
  }

  /// After the store changed: the transaction manager stays on the transaction it had selected
  /// (newer ones may have come above it), so a key acts on the one the person chose.
  mutating func clampSelections(keeping id: String?) {
    let list = transactionList
    func position(_ selection: Int) -> Int {
      id.flatMap(list.position(of:)) ?? min(selection, max(0, list.count - 1))
    }
    switch overlay {
    case .transactions(let selection): overlay = .transactions(selection: position(selection))
    case .transactionDetail(let selection): overlay = .transactionDetail(selection: position(selection))
    default: break
    }
  }
}
