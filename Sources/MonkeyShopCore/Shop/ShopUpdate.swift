import Foundation

extension ShopModel {
  /// The storefront's one rule book: how each message changes the model, and what to do next.
  /// Nothing else changes the model; the runtime only performs the effects returned here.
  public mutating func update(_ message: ShopMessage) -> [ShopEffect] {
    let contextBefore = keyContext
    let statusBefore = status
    let effects = apply(message)
    // A status says what is true now: one whose reason no longer holds goes.
    if let status, isStale(status) { self.status = nil }
    // A newly opened overlay starts with no status about something else (the last purchase, an
    // earlier cancel); a status the opening itself gave stays, and so does the one beneath the
    // quit question, which asks about the purchase in flight that status describes.
    if overlay != nil, overlay != .confirmQuit, keyContext != contextBefore, status == statusBefore {
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
      record(.paymentAdded(productIdentifier: transaction.productIdentifier, quantity: transaction.quantity))
      guard sheetSkipped else { return observe(transaction, redelivered: false) }
      note(.paymentSheetSkipped)
      let effects = observe(transaction, redelivered: false)
      if case .purchasing(let product, let quantity, _) = status {
        status = .purchasing(product: product, quantity: quantity, sheetSkipped: true)
      }
      return effects
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
      record(.finished(transactionID: transaction.id))
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
      return conditionChanged(condition)
    case .storeChanged(let store):
      self.store = store
      answersHeld = false
      clampSelections()
      return []
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
    case .historyRead(let transactions):
      return historyRead(transactions)
    case .purchase(let identifier, let quantity):
      return [.addPayment(productIdentifier: identifier, quantity: quantity, confirmed: true, at: date(at: now))]
    }
  }

  // MARK: Launch and products

  private mutating func launch(store: StoreState, wallet: Wallet) -> [ShopEffect] {
    self.store = store
    balance = wallet.balance
    record(.observerAdded)
    var effects: [ShopEffect] = []
    let unfinished = store.unfinished
    if !unfinished.isEmpty {
      if let crash = store.conditions.firedCrash, unfinished.contains(where: { $0.id == crash.transactionID }) {
        note(.crashedLastRun(crash))
      }
      note(.unfinishedAtLaunch(count: unfinished.count))
      effects += unfinished.flatMap { observe($0, redelivered: true) }
    }
    if requestsProducts { effects += requestProducts() }
    // Payments the store should have answered while no app was running (the app that added them
    // was killed) are answered now, and delivered like any other.
    return effects + tick()
  }

  mutating func requestProducts() -> [ShopEffect] {
    record(.canMakePayments(canMakePayments))
    guard canMakePayments else {
      products = .restricted
      return []
    }
    let identifiers = catalog.products.map(\.productIdentifier)
    record(.productsRequested(identifiers))
    products = .loading(answerAt: now + Int((store.conditions.latency.productRequest * 1000).rounded()))
    return answerProductRequestIfDue()
  }

  private mutating func answerProductRequestIfDue() -> [ShopEffect] {
    guard case .loading(let answerAt) = products, answerAt <= now else { return [] }
    products = .notRequested
    return [.answerProductRequest(catalog.products.map(\.productIdentifier))]
  }

  private mutating func tick() -> [ShopEffect] {
    var effects = answeredElsewhere()
    if answersDue { effects.append(.answerPayments(through: answersDueDate)) }
    return effects + answerProductRequestIfDue()
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
    return []
  }

  // MARK: The transaction observer

  /// `paymentQueue(_:updatedTransactions:)`: what the app does with each state.
  mutating func observe(_ transaction: StoreTransaction, redelivered: Bool) -> [ShopEffect] {
    if transaction.state != .purchasing { inFlight[transaction.id] = nil }
    guard !transaction.finished, !settling.contains(transaction.id) else { return [] }
    if redelivered { self.redelivered.insert(transaction.id) }
    record(.updated(transaction, redelivered: redelivered))
    switch transaction.state {
    case .purchasing:
      if inFlight[transaction.id] == nil { inFlight[transaction.id] = now }
      status = .purchasing(product: transaction.productIdentifier, quantity: transaction.quantity)
      return []
    case .purchased:
      settling.insert(transaction.id)
      if let point = crashDue(.beforeDelivery, for: transaction) { return crash(at: point, transaction) }
      return [.deliver(transaction)]
    case .failed:
      settling.insert(transaction.id)
      if let failure = transaction.failure {
        if failure.isCancellation {
          status = .cancelled(product: transaction.productIdentifier)
        } else {
          record(.error(ShopFailure(failure.error)))
          status =
            failure.reason == .interrupted
            ? .interrupted(transactionID: transaction.id, failure) : .purchaseFailed(failure)
        }
      }
      return [.finish(transaction)]
    case .deferred:
      note(.askToBuyWaits)
      status = .waitingForApproval(transactionID: transaction.id)
      return []
    case .restored:
      settling.insert(transaction.id)
      return [.finish(transaction)]
    }
  }

  /// Any monkeyshop on the data folder may answer a due payment, and deliver and finish it: a
  /// payment of this session that left `purchasing` elsewhere must still reach the observer, or the
  /// app would wait for it forever.
  private mutating func answeredElsewhere() -> [ShopEffect] {
    // A payment the store no longer holds (a `store reset`, or a store file moved away) will never
    // be answered: say so rather than wait for it forever.
    for id in inFlight.keys.sorted() where store.transaction(id) == nil {
      inFlight[id] = nil
      fail(.vanished(id))
      status = .vanished(transactionID: id)
    }
    let answered = inFlight.keys.sorted().compactMap(store.transaction).filter { $0.state != .purchasing }
    var effects: [ShopEffect] = []
    for transaction in answered {
      if transaction.finished {
        inFlight[transaction.id] = nil
        note(.finishedElsewhere(transactionID: transaction.id))
        status = .finishedElsewhere(transactionID: transaction.id, transaction.state)
        effects.append(.readWallet)
      } else {
        effects += observe(transaction, redelivered: false)
      }
    }
    return effects
  }

  private mutating func delivered(_ transaction: StoreTransaction, _ delivery: CreditManager.Delivery)
    -> [ShopEffect]
  {
    balance = delivery.balance
    switch delivery {
    case .credited(let credits, let balance):
      record(.delivered(transactionID: transaction.id, credits: credits, balance: balance))
    case .alreadyDelivered:
      record(.alreadyDelivered(transactionID: transaction.id))
    }
    // The app credited the transaction and dies before it can finish it: the log still says what
    // was credited, as the app's own log would have before it died.
    if let point = crashDue(.afterDeliveryBeforeFinish, for: transaction) { return crash(at: point, transaction) }
    if case .alreadyDelivered = delivery {
      // Only a transaction redelivered at launch can have been credited by an app that stopped
      // before finishing it; any other was credited by a monkeyshop running now on the data folder.
      note(
        redelivered.contains(transaction.id) ? .creditedBeforeStop : .creditedByAnother(transactionID: transaction.id))
    }
    if redelivered.contains(transaction.id) {
      // Every redelivery of the launch in one status, so none hides another.
      var ids: [String] = []
      var total = 0
      if case .redelivered(let before, let credits, _) = status {
        ids = before
        total = credits
      }
      if case .credited(let credits, _) = delivery { total += credits }
      status = .redelivered(transactionIDs: ids + [transaction.id], credits: total, crash: firedCrashBehind)
    } else {
      switch delivery {
      case .credited(let credits, _):
        status = .purchased(product: transaction.productIdentifier, quantity: transaction.quantity, credits: credits)
      case .alreadyDelivered:
        status = .alreadyDelivered(transactionID: transaction.id)
      }
    }
    return [.finish(transaction)]
  }

  /// The crash point that fired in an earlier run, while the transaction it killed is still being
  /// taken care of at this launch.
  private var firedCrashBehind: FiredCrash? {
    guard let crash = store.conditions.firedCrash, redelivered.contains(crash.transactionID) else { return nil }
    return crash
  }

  // MARK: Crash points

  /// The crash point armed for this point, if the app should die here with this transaction: a
  /// crash point kills the next purchase, not a redelivery of one it already killed.
  private func crashDue(_ point: CrashPoint, for transaction: StoreTransaction) -> CrashPoint? {
    guard !redelivered.contains(transaction.id) else { return nil }
    return armedCrash == point || store.conditions.crashPoint == point ? point : nil
  }

  /// Dies at a crash point once the store holds the crash (`crashRecorded`): the next launch says
  /// the app crashed, and a crash point set in the store is cleared so the relaunch does not die
  /// again. Armed for this run only, the app dies even if that cannot be written.
  private mutating func crash(at point: CrashPoint, _ transaction: StoreTransaction) -> [ShopEffect] {
    armedCrash = nil
    return [.recordCrash(point, transaction)]
  }

  private mutating func die(at point: CrashPoint) -> [ShopEffect] {
    guard crashed == nil else { return [] }
    record(.crashed(point))
    status = .crashed
    crashed = point
    isFinished = true
    return [.crash(point)]
  }

  // MARK: The data folder

  /// The data folder read again after another process (or a walkthrough acting for Apple) changed
  /// it: follow the wallet and the store, say what changed on Apple's side, and take delivery of
  /// anything now deliverable (an approval, a resolved interruption), as `Transaction.updates` would.
  private mutating func follow(store new: StoreState, wallet: Wallet) -> [ShopEffect] {
    let old = store
    followWallet(wallet)
    store = new
    answersHeld = false
    clampSelections()
    var effects: [ShopEffect] = []
    for condition in Condition.allCases {
      let before = condition.value(in: old.conditions, defaultStorefront: catalog.defaultStorefront)
      let after = condition.value(in: new.conditions, defaultStorefront: catalog.defaultStorefront)
      guard before != after else { continue }
      record(.conditionChanged(condition, value: after))
      effects += conditionChanged(condition)
    }
    let known = Dictionary(old.transactions.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    for transaction in new.transactions {
      let previous = known[transaction.id]
      guard previous.map({ $0.state != transaction.state }) ?? true else { continue }
      switch (previous?.state, transaction.state) {
      case (.deferred, .purchased): record(.approved(transactionID: transaction.id))
      case (.deferred, .failed): record(.declined(transactionID: transaction.id))
      case (nil, _):
        if let original = transaction.originalTransactionID {
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

  private mutating func followWallet(_ wallet: Wallet) {
    guard wallet.balance != balance else { return }
    note(.walletChangedElsewhere(balance: wallet.balance))
    balance = wallet.balance
  }

  private mutating func conditionChanged(_ condition: Condition) -> [ShopEffect] {
    switch condition {
    case .purchasesAllowed:
      // The sample asks canMakePayments again when restrictions change.
      if canMakePayments, case .restricted = products { return requestProducts() }
      if !canMakePayments {
        record(.canMakePayments(false))
        products = .restricted
      }
    case .storefront:
      note(.storefrontPrices(storefront))
    default:
      break
    }
    return []
  }

  mutating func clampSelections() {
    switch overlay {
    case .transactions(let selection):
      overlay = .transactions(selection: min(selection, max(0, transactionList.count - 1)))
    default: break
    }
  }
}
