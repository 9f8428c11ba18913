import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

/// Runs the storefront: feeds messages to `update`, performs the effects it returns against the
/// store and the wallet, and feeds their results back as messages. It changes nothing itself: the
/// model is `update`'s alone. The terminal, the headless commands and walkthroughs all drive this
/// one runtime, on the wall clock or on virtual time (`ShopClock`).
public final class ShopRuntime {
  public private(set) var model: ShopModel
  public let storage: any ShopStorage
  let credits: CreditManager
  /// What dying means: the real app kills its process; a walkthrough marks the app as down.
  let onCrash: (CrashPoint) -> Void
  public let watchedFolder: String?
  /// Called with every log entry as it is recorded (the headless commands print them).
  public var onLog: ((LogEntry) -> Void)?
  private var logged = 0
  private var screenRequests: [ScreenRequest] = []

  public init(
    catalog: Catalog, storage: any ShopStorage, language: Language, launchDate: Date, watchedFolder: String? = nil,
    requestsProducts: Bool = true, armedCrash: CrashPoint? = nil, onCrash: @escaping (CrashPoint) -> Void
  ) {
    self.model = ShopModel(
      catalog: catalog, language: language, launchDate: launchDate, requestsProducts: requestsProducts,
      armedCrash: armedCrash)
    self.storage = storage
    self.credits = CreditManager(storage: storage, catalog: catalog)
    self.watchedFolder = watchedFolder
    self.onCrash = onCrash
  }

  // MARK: What the event loop calls

  public var isFinished: Bool { model.isFinished }

  /// When the model next needs a tick, on the wall clock.
  public var nextDeadline: Date? { model.nextDeadline.map(model.date(at:)) }

  public func start(now: Date) {
    let time = model.time(at: now)
    do {
      let (store, wallet) = try storage.read()
      send(.ownedRead(try storage.readOwned()))
      send(.launched(store, wallet, at: time))
    } catch {
      send(.failed(ShopFailure(error)))
    }
  }

  public func handle(_ key: Key, now: Date) { send(.key(key, at: model.time(at: now))) }

  public func tick(now: Date) { send(.tick(at: model.time(at: now))) }

  public func resized(_ size: ScreenSize, now: Date) { send(.resized(size)) }

  /// Another process wrote the store or the wallet: the model follows what is there now.
  public func folderChanged(now: Date) {
    let time = model.time(at: now)
    do {
      let (store, wallet) = try storage.read()
      send(.ownedRead(try storage.readOwned()))
      send(.dataFolderRead(store, wallet, at: time))
    } catch {
      send(.failed(ShopFailure(error)))
    }
  }

  public func draw(on canvas: inout some Canvas) {
    ShopView(model: model).draw(on: &canvas)
  }

  /// What the app asked of the terminal since the last call (Ctrl-L, Ctrl-Z).
  public func takeScreenRequests() -> [ScreenRequest] {
    defer { screenRequests = [] }
    return screenRequests
  }

  // MARK: Running

  /// Sends one message and everything it leads to, until the model asks for nothing more.
  public func send(_ message: ShopMessage) {
    // A dead app hears nothing more.
    guard model.crashed == nil else { return }
    process([message])
    publishLog()
    if let point = model.crashed { onCrash(point) }
  }

  /// Feeds messages to `update`, then performs the effects they asked for, one at a time, each
  /// effect's results reaching `update` before the next effect is performed: an app handles one
  /// transaction (deliver, then finish) before the next, so one that dies delivering the first
  /// never touches the second. All results of one effect reach `update` before any of their own
  /// effects, so the model never sees an older store after a newer one.
  private func process(_ messages: [ShopMessage]) {
    var effects: [ShopEffect] = []
    for message in messages { effects += model.update(message) }
    for effect in effects {
      guard model.crashed == nil else { return }
      process(perform(effect))
    }
  }

  private func publishLog() {
    guard let onLog else { return }
    // The log is capped; count from its end so nothing is printed twice.
    let fresh = model.log.suffix(min(model.log.count, model.recordedCount - logged))
    fresh.forEach(onLog)
    logged = model.recordedCount
  }

  /// Performs one effect and says what came of it. Every failure is a message.
  private func perform(_ effect: ShopEffect) -> [ShopMessage] {
    switch effect {
    case .answerProductRequest(let identifiers):
      let store = AppStore(state: model.store, catalog: model.catalog)
      return [.productsAnswered(store.productsResponse(for: identifiers))]

    case .addPayment(let identifier, let quantity, let showsSheet, let sheetSkipped, let token, let date):
      do {
        return try changeStore { store in
          [
            .paymentAdded(
              try store.add(
                productIdentifier: identifier, quantity: quantity, showsPaymentSheet: showsSheet,
                appAccountToken: token,
                at: date),
              sheetSkipped: sheetSkipped)
          ]
        }
      } catch let error as PaymentError {
        return [.paymentRefused(error)]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .answerPaymentSheet(let id, let confirmed, let date):
      return storeOperation { store in
        [.paymentSheetAnswered(try store.answerPaymentSheet(id, confirmed: confirmed, at: date), confirmed: confirmed)]
      }

    case .answerPayments(let date):
      do {
        return try changeStore { store in
          let updates = store.advance(to: date)
          return updates.isEmpty ? [] : [.transactionsUpdated(updates, redelivered: false)]
        }
      } catch {
        return [.answersFailed(ShopFailure(error))]
      }

    case .deliver(let transaction):
      do {
        // The StoreKit 2 app reads the transaction's revocationDate before granting it.
        let delivery = try credits.deliver(transaction, refusingRefunded: model.storeKit == .storeKit2)
        return [.delivered(transaction, delivery)]
      } catch {
        return [.deliveryFailed(transaction, ShopFailure(error))]
      }

    case .finish(let transaction):
      return storeOperation { store in [.finished(try store.finish(transaction.id))] }
    case .refund(let id, let reason, let date):
      // The transaction may be one only the history lists.
      return storeOperation(reaching: .transaction(id)) { store in
        [.refundMade(try store.refund(id, reason: reason, at: date))]
      }
    case .relaunch:
      do {
        let (store, wallet) = try storage.read()
        return [.ownedRead(try storage.readOwned()), .launched(store, wallet, at: model.now)]
      } catch {
        return [.failed(ShopFailure(error))]
      }
    case .clawBack(let transaction):
      do {
        return [.clawedBack(transaction, try credits.clawBack(transaction))]
      } catch {
        return [.failed(ShopFailure(error))]
      }
    case .revokeAccess(let transaction):
      do {
        return [.accessRevoked(transaction, try credits.revokeAccess(transaction))]
      } catch {
        return [.failed(ShopFailure(error))]
      }
    case .close(let transaction):
      return storeOperation { store in [.closed(try store.finish(transaction.id))] }

    case .setCondition(let condition, let value, let date):
      return storeOperation { store in
        let failed = try store.set(condition, to: value, at: date)
        let shown = condition.value(in: store.state.conditions, defaultStorefront: store.catalog.defaultStorefront)
        var messages: [ShopMessage] = [.conditionChanged(condition, value: shown)]
        if !failed.isEmpty { messages.append(.transactionsUpdated(failed, redelivered: false)) }
        return messages
      }

    case .approve(let id):
      return storeOperation { store in [.approved(try store.approve(id))] }
    case .decline(let id):
      return storeOperation { store in [.declined(try store.decline(id))] }
    case .resolve(let id, let date):
      return storeOperation { store in
        let purchase = try store.resolve(id, at: date)
        return [.resolved(original: purchase.resolvedFromTransactionID ?? id, purchase)]
      }

    case .readWallet:
      do {
        return [.walletRead(try storage.readWallet())]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .spend(let amount):
      do {
        return [.spent(balance: try credits.spend(amount))]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .recordCrash(let point, let transaction):
      do {
        let (_, state) = try storage.changeStore(catalog: model.catalog) { store in
          if store.state.conditions.crashPoint == point { store.state.conditions.crashPoint = nil }
          store.state.conditions.firedCrash = FiredCrash(point, transactionID: transaction.id)
        }
        return [.storeChanged(state), .crashRecorded(point)]
      } catch {
        return [.crashNotRecorded(point, transaction, ShopFailure(error))]
      }

    case .crash:
      // `update` has marked the app as crashed; `send` stops and calls `onCrash`.
      return []

    case .screen(let request):
      screenRequests.append(request)
      return []

    case .readHistory:
      do {
        return [.historyRead(try storage.readEveryTransaction())]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .lookUp(let id):
      do {
        return [.lookedUp(transactionID: id, try storage.readTransaction(id))]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .readEndedNotifications(let start, let end):
      do {
        return [.endedNotificationsRead(try storage.readEndedNotifications(from: start, through: end))]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .readNotifications(let id):
      do {
        return [.notificationsRead(transactionID: id, try storage.readNotifications(about: id))]
      } catch {
        return [.failed(ShopFailure(error))]
      }

    case .installContent(let download):
      guard let content = model.catalog.product(download.productIdentifier)?.hostedContent else { return [] }
      do {
        let path = try storage.installContent(
          content, productIdentifier: download.productIdentifier, transactionID: download.transactionID)
        return [.contentInstalled(download, path: path)]
      } catch {
        return [.contentInstallFailed(download, ShopFailure(error))]
      }

    case .restoreCompletedTransactions(let date):
      return storeOperation(reaching: .nonConsumables(of: model.catalog)) { store in
        [.restoredTransactions(try store.restoreCompletedTransactions(at: date))]
      }

    case .finishRestore(let count):
      return [.restoreFinished(restored: count)]

    case .syncEntitlements:
      do {
        // Only non-consumables entitle: the history's purchases of them, and the store's.
        let products = HistoryReach.nonConsumableIdentifiers(of: model.catalog)
        let every = try storage.readStore().withHistory(try storage.readHistory(ofProducts: products))
        let entitlements = AppStore.currentEntitlements(of: every, in: model.catalog)
        return [.entitlements(entitlements, unlocked: try credits.unlock(entitlements: entitlements))]
      } catch {
        return [.failed(ShopFailure(error))]
      }
    }
  }

  /// A store operation whose failure is shown as it is.
  private func storeOperation(reaching: HistoryReach? = nil, _ body: (inout AppStore) throws -> [ShopMessage])
    -> [ShopMessage]
  {
    do {
      return try changeStore(reaching: reaching, body)
    } catch {
      return [.failed(ShopFailure(error))]
    }
  }

  /// A locked read-modify-write of the store; the model then sees the store as written. What
  /// another process wrote since the model last saw the folder (an approval, a resolution, a
  /// condition) reaches it first as a folder read, or taking the store as written would hide it
  /// from the reconciliation, and the app would neither log nor deliver it.
  private func changeStore(reaching: HistoryReach? = nil, _ body: (inout AppStore) throws -> [ShopMessage]) throws
    -> [ShopMessage]
  {
    let known = model.store
    let ((messages, found), state) = try storage.changeStore(catalog: model.catalog, reaching: reaching) {
      store, wallet in
      let found = store.state == known ? nil : ShopMessage.dataFolderRead(store.state, wallet, at: model.now)
      return (try body(&store), found)
    }
    return (found.map { [$0] } ?? []) + [.storeChanged(state)] + messages
  }
}
