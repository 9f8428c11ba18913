import Foundation

extension ShopModel {
  /// The storefront's one rule book: how each message changes the model, and what to do next.
  public mutating func update(_ message: ShopMessage) -> [ShopEffect] {
    switch message {
    case .launched(let store, let wallet):
      return launch(store: store, wallet: wallet)
    case .key(let key):
      return press(key)
    case .tick:
      return tick()
    case .productsAnswered(let result):
      return productsAnswered(result)
    case .transactionsUpdated(let transactions, let redelivered):
      return transactions.flatMap { observe($0, redelivered: redelivered) }
    case .paymentRefused(let error):
      fail(error.errorID, error.description)
      return []
    case .delivered(let transaction, let delivery):
      return delivered(transaction, delivery)
    case .deliveryFailed(let transaction, let id, let text):
      handling.remove(transaction.id)
      fail(id, text)
      return []
    case .answersFailed(let id, let text):
      answersHeld = true
      inFlight = [:]
      fail(id, text)
      return []
    case .finished(let transaction):
      handling.remove(transaction.id)
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
      say(words.spent(balance), .info)
      return []
    case .conditionChanged(let name, let value):
      record(.conditionChanged(name: name, value: value))
      return conditionChanged(name)
    case .storeChanged(let store):
      self.store = store
      answersHeld = false
      clampSelections()
      return []
    case .walletChanged(let wallet):
      if wallet.balance != balance {
        record(
          .note(
            words.pick(
              "another monkeyshop changed the wallet: balance \(wallet.balance)",
              "別の monkeyshop がウォレットを変更: 残高 \(wallet.balance)")))
        balance = wallet.balance
      }
      return []
    case .creditedBeforeCrash(let transaction, let delivery):
      balance = delivery.balance
      switch delivery {
      case .credited(let credits, let balance):
        record(.delivered(transactionID: transaction.id, credits: credits, balance: balance))
      case .alreadyDelivered:
        record(.alreadyDelivered(transactionID: transaction.id))
      }
      return []
    case .crashed(let point):
      record(.crashed(point))
      say(words.crashed, .failure)
      isFinished = true
      return []
    case .failed(let id, let text):
      fail(id, text)
      return []
    case .purchase(let identifier, let quantity):
      return [.addPayment(productIdentifier: identifier, quantity: quantity, confirmed: true)]
    }
  }

  // MARK: Launch and products

  private mutating func launch(store: StoreState, wallet: Wallet) -> [ShopEffect] {
    self.store = store
    balance = wallet.balance
    launchDate = now
    record(.observerAdded)
    var effects: [ShopEffect] = []
    let unfinished = store.unfinished
    if !unfinished.isEmpty {
      record(
        .note(
          words.pick(
            "\(unfinished.count) unfinished transaction(s) from an earlier run: the queue delivers them again",
            "前回の実行から未完了の取引 \(unfinished.count) 件: キューが再び届けます")))
      effects += unfinished.flatMap { observe($0, redelivered: true) }
    }
    if requestsProducts { effects += requestProducts() }
    return effects
  }

  mutating func requestProducts() -> [ShopEffect] {
    record(.canMakePayments(canMakePayments))
    guard canMakePayments else {
      products = .restricted
      return []
    }
    let identifiers = catalog.products.map(\.productIdentifier)
    record(.productsRequested(identifiers))
    products = .loading(answerAt: now.addingTimeInterval(store.conditions.latency.productRequest))
    return tick()
  }

  private mutating func tick() -> [ShopEffect] {
    var effects = answeredElsewhere()
    if case .loading(let answerAt) = products, answerAt <= now {
      products = .notRequested
      effects.append(.answerProductRequest(catalog.products.map(\.productIdentifier)))
    }
    return effects
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
      record(.error(error.errorID, error.summary))
      say(words.productsFailed(error.summary), .failure)
    }
    return []
  }

  // MARK: The transaction observer

  /// `paymentQueue(_:updatedTransactions:)`: what the app does with each state.
  mutating func observe(_ transaction: StoreTransaction, redelivered: Bool) -> [ShopEffect] {
    if transaction.state != .purchasing { inFlight[transaction.id] = nil }
    guard !transaction.finished, !handling.contains(transaction.id) else { return [] }
    if redelivered { self.redelivered.insert(transaction.id) }
    record(.updated(transaction, redelivered: redelivered))
    let title = title(of: transaction.productIdentifier)
    switch transaction.state {
    case .purchasing:
      if inFlight[transaction.id] == nil { inFlight[transaction.id] = now }
      say(words.purchasing(title, transaction.quantity), .info)
      return []
    case .purchased:
      handling.insert(transaction.id)
      return [.deliver(transaction)]
    case .failed:
      handling.insert(transaction.id)
      if let failure = transaction.failure {
        if failure.isCancellation {
          say(words.cancelled(title), .warning)
        } else if failure.reason == .interrupted {
          record(.error(failure.errorID, failure.summary))
          say(words.interrupted(transaction.id) + " — \(failure.errorID)", .failure)
        } else {
          record(.error(failure.errorID, failure.summary))
          say(words.failed(failure.summary), .failure)
        }
      }
      return [.finish(transaction)]
    case .deferred:
      record(
        .note(
          words.pick("Ask to Buy: the purchase waits for a parent; do not finish it", "承認と購入: 保護者の承認待ち。finish しないこと")))
      say(words.waitingForApproval(transaction.id), .warning)
      return []
    case .restored:
      handling.insert(transaction.id)
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
      fail(.unknownTransaction, words.vanished(id) + " — \(ErrorID.unknownTransaction)")
    }
    let answered = inFlight.keys.sorted().compactMap(store.transaction).filter { $0.state != .purchasing }
    var effects: [ShopEffect] = []
    for transaction in answered {
      if transaction.finished {
        inFlight[transaction.id] = nil
        record(
          .note(
            words.pick(
              "#\(transaction.id) was answered and finished by another monkeyshop",
              "#\(transaction.id) は別の monkeyshop が受け取り完了しました")))
        say(words.finishedElsewhere(transaction.id, transaction.state.description), .info)
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
    let title = title(of: transaction.productIdentifier)
    switch delivery {
    case .credited(let credits, let balance):
      record(.delivered(transactionID: transaction.id, credits: credits, balance: balance))
      say(
        redelivered.contains(transaction.id)
          ? words.redelivered(transaction.id, credits) : words.purchased(title, transaction.quantity, credits),
        .success)
    case .alreadyDelivered:
      record(.alreadyDelivered(transactionID: transaction.id))
      record(
        .note(
          words.pick(
            "credited before the app stopped; finishing it now keeps it from coming back",
            "アプリ停止前に付与済み。ここで finish すれば再配信されません")))
      say(words.alreadyDelivered(transaction.id), .info)
    }
    return [.finish(transaction)]
  }

  private mutating func conditionChanged(_ name: String) -> [ShopEffect] {
    switch name {
    case "purchasesAllowed":
      // The sample asks canMakePayments again when restrictions change.
      if canMakePayments, case .restricted = products { return requestProducts() }
      if !canMakePayments {
        record(.canMakePayments(false))
        products = .restricted
      }
    case "storefront":
      record(
        .note(
          words.pick(
            "storefront \(storefront.code): prices in \(storefront.currencyCode)",
            "ストアフロント \(storefront.code): 価格は \(storefront.currencyCode)")))
    default:
      break
    }
    return []
  }

  func title(of identifier: String) -> String {
    catalog.product(identifier)?.localization(words.language.rawValue).title ?? identifier
  }

  mutating func clampSelections() {
    switch overlay {
    case .transactions(let selection):
      overlay = .transactions(selection: min(selection, max(0, store.transactions.count - 1)))
    default: break
    }
  }
}
