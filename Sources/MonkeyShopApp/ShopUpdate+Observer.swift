import Foundation
import MonkeyShopDomain

/// How the app's transaction observer takes what the App Store sends it — a purchase delivered
/// and finished, or found delivered already — and where a crash point stops it.
extension ShopModel {
  // MARK: The transaction observer

  /// `paymentQueue(_:updatedTransactions:)`: what the app does with each state.
  mutating func observe(_ transaction: StoreTransaction, redelivered: Bool) -> [ShopEffect] {
    if storeKit == .storeKit2 { return observeStoreKit2(transaction, redelivered: redelivered) }
    if transaction.state != .purchasing { inFlight[transaction.id] = nil }
    guard !transaction.finished, !settling.contains(transaction.id) else { return [] }
    if redelivered { self.redelivered.insert(transaction.id) }
    record(.updated(transaction, redelivered: redelivered))
    switch transaction.state {
    case .purchasing:
      // The payment is in the queue and the observer has seen `.purchasing`: only now does the App
      // Store show its payment sheet. Apple documents `.purchasing` as arriving before the person
      // confirms, not whether before or after the sheet appears: its own test steps list "the
      // system displays the payment sheet" first, then "verify … `.purchasing`"
      // (https://developer.apple.com/documentation/storekit/testing-in-app-purchases-in-xcode,
      // https://developer.apple.com/documentation/storekit/testing-an-interrupted-purchase); the
      // queue, not the app, presents it ("The payment queue communicates with the App Store and
      // presents a user interface so that the user can authorize payment",
      // https://developer.apple.com/documentation/storekit/skpaymentqueue).
      if transaction.awaitsPaymentSheet {
        if requestsProducts, overlay == nil { overlay = .paymentSheet(PaymentSheet(transaction)) }
        return []
      }
      if inFlight[transaction.id] == nil { inFlight[transaction.id] = now }
      status = .purchasing(product: transaction.productIdentifier, quantity: transaction.quantity)
      return []
    case .purchased:
      settling.insert(transaction.id)
      return deliverOrCrash(transaction)
    case .failed:
      settling.insert(transaction.id)
      if let failure = transaction.failure {
        // The app sees only the error's domain and code, and decides from them alone, as the seed's
        // `Code == 2` check does: SKErrorDomain 2 (paymentCancelled) is a cancel, whatever made it
        // (the sheet's Cancel, a forced code 2, an interruption, a decline); anything else is an
        // error to show. What the App Store's side knows besides is the sandbox's, said in a note.
        if failure.code.isPaymentCancelled {
          switch failure.reason {
          case .interrupted:
            note(.interruptedLooksCancelled(transactionID: transaction.id))
            status = .interrupted(transactionID: transaction.id, failure)
          case .askToBuyDeclined:
            note(.declineEndsFailed)
            status = .declined(product: transaction.productIdentifier)
          default:
            status = .cancelled(product: transaction.productIdentifier)
          }
        } else {
          record(.error(ShopFailure(purchase: failure)))
          status = .purchaseFailed(failure)
        }
      }
      return [.finish(transaction)]
    case .deferred:
      note(.askToBuyWaits)
      status = .waitingForApproval(transactionID: transaction.id)
      return []
    case .restored:
      // Restores are of non-consumables only: delivered (unlocked) as a purchase is.
      settling.insert(transaction.id)
      return deliverOrCrash(transaction)
    }
  }

  /// At launch, in either API: the crash point that left one of these transactions unfinished.
  mutating func noteCrashBehind(_ unfinished: [StoreTransaction]) {
    if let crash = store.conditions.firedCrash, unfinished.contains(where: { $0.id == crash.transactionID }) {
      note(.crashedLastRun(crash))
    }
  }

  /// The app delivers a purchased transaction, unless a crash point kills it first.
  mutating func deliverOrCrash(_ transaction: StoreTransaction) -> [ShopEffect] {
    if let point = crashDue(.beforeDelivery, for: transaction) { return crash(at: point, transaction) }
    return [.deliver(transaction)]
  }

  mutating func delivered(_ transaction: StoreTransaction, _ delivery: CreditManager.Delivery)
    -> [ShopEffect]
  {
    balance = delivery.balance
    switch delivery {
    case .credited(let credits, let balance):
      settlements.deliveries[transaction.id] = .credited(credits)
      record(.delivered(transactionID: transaction.id, credits: credits, balance: balance))
    case .alreadyDelivered:
      settlements.deliveries[transaction.id] = .alreadyCredited
      record(.alreadyDelivered(transactionID: transaction.id))
    case .refunded where !catalog.isNonConsumable(transaction.productIdentifier):
      settlements.deliveries[transaction.id] = .refundedBeforeDelivery
      note(.refundedBeforeDelivery(transactionID: transaction.id))
      status = .refundedBeforeDelivery(transactionID: transaction.id)
    case .unlocked, .alreadyOwned, .refunded:
      recordNonConsumableDelivery(transaction, delivery)
    }
    // The app delivered the transaction and dies before it can finish it: the log still says what
    // was credited or unlocked, as the app's own log would have before it died.
    if let point = crashDue(.afterDeliveryBeforeFinish, for: transaction) { return crash(at: point, transaction) }
    switch delivery {
    case .refunded where !catalog.isNonConsumable(transaction.productIdentifier): return [.finish(transaction)]
    case .unlocked, .alreadyOwned, .refunded: return deliveredNonConsumable(transaction, delivery)
    case .credited, .alreadyDelivered: break
    }
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
      default:
        status = .alreadyDelivered(transactionID: transaction.id)
      }
    }
    return [.finish(transaction)]
  }

  /// The crash point that fired in an earlier run, while the transaction it killed is still being
  /// taken care of at this launch.
  var firedCrashBehind: FiredCrash? {
    guard let crash = store.conditions.firedCrash, redelivered.contains(crash.transactionID) else { return nil }
    return crash
  }

  // MARK: Crash points

  /// The crash point armed for this point, if the app should die here with this transaction: a
  /// crash point kills the next purchase, not a redelivery of one it already killed.
  func crashDue(_ point: CrashPoint, for transaction: StoreTransaction) -> CrashPoint? {
    guard !redelivered.contains(transaction.id) else { return nil }
    return armedCrash == point || store.conditions.crashPoint == point ? point : nil
  }

  /// Dies at a crash point once the store holds the crash (`crashRecorded`): the next launch says
  /// the app crashed, and a crash point set in the store is cleared so the relaunch does not die
  /// again. Armed for this run only, the app dies even if that cannot be written.
  mutating func crash(at point: CrashPoint, _ transaction: StoreTransaction) -> [ShopEffect] {
    armedCrash = nil
    return [.recordCrash(point, transaction)]
  }

  mutating func die(at point: CrashPoint) -> [ShopEffect] {
    guard crashed == nil else { return [] }
    record(.crashed(point))
    status = .crashed
    crashed = point
    isFinished = true
    return [.crash(point)]
  }
}
