import Foundation

/// Runs the storefront: feeds messages to `update`, performs the effects it returns against the
/// store and the wallet, and feeds the answers back. The terminal, the headless `buy` command and
/// walkthroughs all drive this one runtime.
public final class ShopRuntime {
  public private(set) var model: ShopModel
  public let storage: any ShopStorage
  let credits: CreditManager
  /// A crash point armed for this run only (`buy --crash`), on top of the store's condition.
  var armedCrash: CrashPoint?
  /// What dying means: the real app kills its process; a walkthrough marks the app as down.
  let onCrash: (CrashPoint) -> Void
  public private(set) var crashed = false
  public let watchedFolder: String?
  /// Called with every log entry as it is recorded (the headless `buy` prints them).
  public var onLog: ((LogEntry) -> Void)?
  private var logged = 0

  public init(
    catalog: Catalog, storage: any ShopStorage, language: Language, now: Date, watchedFolder: String? = nil,
    requestsProducts: Bool = true, armedCrash: CrashPoint? = nil, onCrash: @escaping (CrashPoint) -> Void
  ) {
    self.model = ShopModel(catalog: catalog, language: language, now: now, requestsProducts: requestsProducts)
    self.storage = storage
    self.credits = CreditManager(storage: storage, catalog: catalog)
    self.watchedFolder = watchedFolder
    self.armedCrash = armedCrash
    self.onCrash = onCrash
  }

  // MARK: TerminalApp

  public var isFinished: Bool { model.isFinished || crashed }

  public var nextDeadline: Date? {
    [model.nextDeadline, model.answersHeld ? nil : model.store.nextAnswerDate].compactMap { $0 }.min()
  }

  public func start(now: Date) {
    model.setNow(now)
    do {
      let (store, wallet) = try storage.read()
      send(.launched(store, wallet))
    } catch {
      send(Self.failure(error))
      return
    }
    // Payments the store should have answered while no app was running (the app that added them
    // was killed) are answered now, and delivered like any other.
    tick(now: now)
  }

  public func handle(_ key: Key, now: Date) {
    model.setNow(now)
    send(.key(key))
  }

  public func tick(now: Date) {
    model.setNow(now)
    if !model.answersHeld, let due = model.store.nextAnswerDate, due <= now {
      do {
        send(
          try storeMessages { store in
            let updates = store.advance(to: now)
            return updates.isEmpty ? [] : [.transactionsUpdated(updates, redelivered: false)]
          })
      } catch {
        send(.answersFailed(ErrorID.of(error), "\(error)"))
      }
    }
    send(.tick)
  }

  /// Another process wrote the store or the wallet: follow it, and take delivery of anything it
  /// made deliverable (an approval, a resolved interruption), as `Transaction.updates` would.
  public func folderChanged(now: Date) {
    model.setNow(now)
    let store: StoreState
    let wallet: Wallet
    do {
      (store, wallet) = try storage.read()
    } catch {
      send(Self.failure(error))
      return
    }
    let known = Dictionary(model.store.transactions.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    let changed = store.transactions.filter { transaction in
      known[transaction.id].map { $0.state != transaction.state } ?? true
    }
    let defaultStorefront = model.catalog.defaultStorefront
    let before = model.store.conditions.summary(defaultStorefront: defaultStorefront)
    let after = store.conditions.summary(defaultStorefront: defaultStorefront)
    if wallet.balance != model.balance { send(.walletChanged(wallet)) }
    // A store read again also lets the app await answers it stopped awaiting after a failed write.
    if store != model.store || model.answersHeld { send(.storeChanged(store)) }
    for (old, new) in zip(before, after) where old.value != new.value {
      send(.conditionChanged(name: new.name, value: new.value))
    }
    let deliverable = changed.filter { $0.awaitsFinish || $0.state == .deferred }
    if !deliverable.isEmpty { send(.transactionsUpdated(deliverable, redelivered: false)) }
  }

  public func draw(on canvas: inout some Canvas) {
    ShopView(model: model).draw(on: &canvas)
  }

  // MARK: Running

  /// Sends one message and everything it leads to, until the model asks for nothing more.
  public func send(_ message: ShopMessage) { send([message]) }

  func send(_ messages: [ShopMessage]) {
    var queue = messages
    while !queue.isEmpty, !crashed {
      let effects = model.update(queue.removeFirst())
      for effect in effects where !crashed {
        queue += perform(effect)
      }
    }
    publishLog()
  }

  private func publishLog() {
    guard let onLog else { return }
    // The log is capped; count from its end so nothing is printed twice.
    let fresh = model.log.suffix(min(model.log.count, model.recordedCount - logged))
    fresh.forEach(onLog)
    logged = model.recordedCount
  }

  /// Performs one effect as if `update` had asked for it, and says what went wrong, if anything:
  /// walkthroughs act for Apple's side (a condition, an approval) through this, as the
  /// storefront's own switches do.
  @discardableResult
  public func apply(_ effect: ShopEffect) -> String? {
    let messages = perform(effect)
    send(messages)
    for case .failed(_, let text) in messages { return text }
    return nil
  }

  private func perform(_ effect: ShopEffect) -> [ShopMessage] {
    let now = model.now
    switch effect {
    case .answerProductRequest(let identifiers):
      let store = AppStore(state: model.store, catalog: model.catalog)
      return [.productsAnswered(store.productsResponse(for: identifiers))]

    case .addPayment(let identifier, let quantity, let confirmed):
      do {
        return try storeMessages(prefix: [.paymentAdded(productIdentifier: identifier, quantity: quantity)]) {
          store in
          let transaction = try store.add(
            productIdentifier: identifier, quantity: quantity, confirmed: confirmed, at: now)
          model.lastAddedTransactionID = transaction.id
          return [.transactionsUpdated([transaction], redelivered: false)]
        }
      } catch let error as PaymentError {
        return [.paymentRefused(error)]
      } catch {
        return [Self.failure(error)]
      }

    case .deliver(let transaction):
      return deliver(transaction)

    case .finish(let transaction):
      do {
        return try storeMessages { store in
          let finished = try store.finish(transaction.id)
          return [.finished(finished)]
        }
      } catch {
        return [Self.failure(error)]
      }

    case .setCondition(let name, let value):
      do {
        return try storeMessages { store in
          let failed = try store.set(name, to: value, at: now)
          var messages: [ShopMessage] = [.conditionChanged(name: name, value: value)]
          if !failed.isEmpty { messages.append(.transactionsUpdated(failed, redelivered: false)) }
          return messages
        }
      } catch {
        return [Self.failure(error)]
      }

    case .approve(let id):
      return transactionOperation { store in [.approved(try store.approve(id))] }
    case .decline(let id):
      return transactionOperation { store in [.declined(try store.decline(id))] }
    case .resolve(let id):
      return transactionOperation { store in
        let purchase = try store.resolve(id, at: now)
        return [.resolved(original: purchase.originalTransactionID ?? id, purchase)]
      }

    case .readWallet:
      do {
        return [.walletChanged(try storage.readWallet())]
      } catch {
        return [Self.failure(error)]
      }

    case .spend(let amount):
      do {
        return [.spent(balance: try credits.spend(amount))]
      } catch {
        return [Self.failure(error)]
      }
    }
  }

  private func transactionOperation(_ body: (inout AppStore) throws -> [ShopMessage]) -> [ShopMessage] {
    do {
      return try storeMessages(body)
    } catch {
      return [Self.failure(error)]
    }
  }

  /// A failed effect, with the error ID of what actually went wrong.
  static func failure(_ error: any Error) -> ShopMessage {
    .failed(ErrorID.of(error), "\(error)")
  }

  /// Delivery as an app does it: credit the wallet, then finish. A crash point stops it between.
  private func deliver(_ transaction: StoreTransaction) -> [ShopMessage] {
    // A crash point kills the next purchase, not a redelivery of one it already killed.
    let mayCrash = !model.redelivered.contains(transaction.id)
    if mayCrash, takeCrash(at: .beforeDelivery) { return [] }
    let delivery: CreditManager.Delivery
    do {
      delivery = try credits.deliver(transaction)
    } catch {
      return [.deliveryFailed(transaction, ErrorID.of(error), "\(error)")]
    }
    if mayCrash, takeCrash(at: .afterDeliveryBeforeFinish, after: (transaction, delivery)) { return [] }
    return [.delivered(transaction, delivery)]
  }

  /// Dies here if a crash point is armed for this point, disarming it first so the relaunch
  /// does not die again.
  private func takeCrash(
    at point: CrashPoint, after delivery: (StoreTransaction, CreditManager.Delivery)? = nil
  ) -> Bool {
    let armedForThisRun = armedCrash == point
    if armedForThisRun { armedCrash = nil }
    var armedInStore = false
    if model.store.conditions.crashPoint == point {
      // Disarmed before dying, or the relaunch would die again. If the store cannot be written,
      // the app does not die: a crash point that cannot be disarmed would crash every launch.
      do {
        armedInStore = try storage.update { store, _ -> Bool in
          guard store.conditions.crashPoint == point else { return false }
          store.conditions.crashPoint = nil
          return true
        }
      } catch {
        send(Self.failure(error))
      }
    }
    guard armedForThisRun || armedInStore else { return false }
    if let (transaction, delivery) = delivery { _ = model.update(.creditedBeforeCrash(transaction, delivery)) }
    _ = model.update(.crashed(point))
    publishLog()
    crashed = true
    onCrash(point)
    return true
  }

  /// A locked read-modify-write of the store; the model then sees the store as written.
  private func storeMessages(
    prefix: [LogEvent] = [], _ body: (inout AppStore) throws -> [ShopMessage]
  ) throws -> [ShopMessage] {
    let (messages, state) = try storage.changeStore(catalog: model.catalog, body)
    for event in prefix { model.record(event) }
    return [.storeChanged(state)] + messages
  }
}
