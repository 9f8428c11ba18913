import Foundation

// The App Store's side of App Store Server Notifications V2 and of the refund requests customers
// make (docs/notifications.md). Each notification is recorded by the change that causes it, in the
// same locked write, so none is lost to a crash.

extension AppStore {
  /// Records a notification about a transaction, stamped with the transaction's environment. The
  /// transaction's signed transaction goes with it (`signedTransactionInfo`, else the one the change
  /// stores as it is written): a purchase completed before transactions kept a record is given one
  /// first (`recordIfMissing`), so that it is signed and stored too.
  mutating func notify(
    _ type: NotificationType, about transaction: StoreTransaction, reason: ConsumptionRequestReason? = nil,
    at now: Date, signedTransactionInfo: String? = nil
  ) {
    let transaction = recordIfMissing(transaction)
    state.notifications.record(
      type, transactionID: transaction.id, reason: reason, at: now,
      environment: transaction.environment ?? state.conditions.environment,
      bundleId: transaction.record?.bundleId ?? catalog.bundleIdentifier, signedTransactionInfo: signedTransactionInfo)
  }

  /// A purchase completed before transactions kept a record (in a folder an earlier monkeyshop
  /// made, its history converted from `history.jsonl`) has no signed transaction stored: each read
  /// signs one from the catalog (`SignedTransactionPayload(_:catalog:storefront:)`). A notification
  /// about it must carry it signed: Apple's `REFUND` gives the refund in the transaction's fields
  /// ("The `revocationDate` contains the timestamp of the refunded transaction. The
  /// `originalTransactionId` and `productId` identify the original transaction and product. The
  /// `revocationReason` contains the reason.",
  /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype), which
  /// are `signedTransactionInfo`'s. So the store's copy is given the record the catalog gives it
  /// (the one its reads were signed from), in the storefront and environment it was signed in, and
  /// the change signs it once and stores it, as every completion is. A product the catalog no
  /// longer sells has no record to give: its notification goes without a signed transaction.
  private mutating func recordIfMissing(_ transaction: StoreTransaction) -> StoreTransaction {
    guard transaction.record == nil, SignedTransactionPayload.isSigned(transaction),
      let index = state.transactions.firstIndex(where: { $0.id == transaction.id }),
      let product = catalog.product(transaction.productIdentifier)
    else { return transaction }
    let storefront = transaction.storefront.flatMap(Storefront.named) ?? storefront
    guard
      let record = PurchaseRecord(
        product: product, quantity: transaction.quantity, storefront: storefront, bundleId: catalog.bundleIdentifier)
    else { return transaction }
    state.transactions[index].record = record
    state.transactions[index].storefront = storefront.code
    state.transactions[index].environment = transaction.environment ?? .sandbox
    return state.transactions[index]
  }

  /// `ONE_TIME_CHARGE` for each transaction the App Store charged: "Customer purchases a
  /// consumable, non-consumable, or non-renewing subscription"
  /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype) —
  /// every product this shop sells. A restore charges nothing and sends none.
  mutating func notifyCharged(_ transactions: [StoreTransaction], at now: Date) {
    for transaction in transactions where transaction.state == .purchased && transaction.restoredTransactionID == nil {
      notify(.oneTimeCharge, about: transaction, at: now)
    }
  }

  /// Finds a transaction in the store, or in the history (then brought back into the store, so the
  /// app sees what changes).
  private mutating func findForRefund(_ id: String, operation: String) throws(TransactionError) -> Int {
    let found: StoreTransaction
    if id == "last" {
      guard let newest = state.transactions.last(where: \.isRefundable) else {
        throw .noneToAct(operation: operation, expected: "purchased")
      }
      found = newest
    } else if let transaction = state.transaction(id) ?? history.last(where: { $0.id == id }) {
      found = transaction
    } else {
      throw .unknown(id)
    }
    if state.transaction(found.id) == nil { state.bringBack(found) }
    guard let index = state.transactions.firstIndex(where: { $0.id == found.id }) else { throw .unknown(id) }
    return index
  }

  // MARK: Refund requests

  /// The customer asks Apple for a refund (`beginRefundRequest`, or reportaproblem.apple.com): the
  /// App Store sends `CONSUMPTION_REQUEST` — "When a customer initiates a refund request for any
  /// product type …, the App Store sends a `CONSUMPTION_REQUEST` notificationType"
  /// (https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information) —
  /// and then decides: at once under `refundDecision grant|decline`, else when told
  /// (`decideRefund`).
  public mutating func requestRefund(
    _ id: String, reason: ConsumptionRequestReason, at now: Date
  ) throws(TransactionError) -> (request: RefundRequest, decided: StoreTransaction?) {
    let index = try findForRefund(id, operation: "request a refund of")
    let transaction = state.transactions[index]
    if let date = transaction.revocationDate { throw .alreadyRefunded(id: transaction.id, on: date) }
    if transaction.state == .restored, let original = transaction.restoredTransactionID {
      throw .restoredCopy(id: transaction.id, purchase: original)
    }
    guard transaction.state == .purchased else {
      throw .wrongState(
        id: transaction.id, operation: "request a refund of", state: transaction.state, expected: "purchased")
    }
    if let open = state.notifications.refundRequest(for: transaction.id) {
      throw .refundRequested(id: transaction.id, on: open.date)
    }
    let request = RefundRequest(transactionID: transaction.id, date: now, reason: reason)
    state.notifications.refundRequests.append(request)
    notify(
      .consumptionRequest, about: transaction, reason: reason, at: now,
      signedTransactionInfo: transaction.currentJWS)
    switch state.conditions.refundDecision {
    case .ask: return (request, nil)
    case .grant: return (request, try decideRefund(transaction.id, grant: true, reason: .other, at: now))
    case .decline: return (request, try decideRefund(transaction.id, grant: false, reason: .other, at: now))
    }
  }

  /// Apple decides a refund request: granted, the transaction is refunded exactly as `refund`
  /// refunds it and `REFUND` goes out; declined, `REFUND_DECLINED` ("Apple declines a refund that
  /// the customer initiated",
  /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
  @discardableResult
  public mutating func decideRefund(
    _ id: String, grant: Bool, reason: RevocationReason, at now: Date
  ) throws(TransactionError) -> StoreTransaction {
    let requestID = try openRefundRequest(id)
    state.notifications.refundRequests.removeAll { $0.transactionID == requestID }
    if grant { return try refund(requestID, reason: reason, at: now) }
    let index = try findForRefund(requestID, operation: "decline the refund of")
    let transaction = state.transactions[index]
    notify(.refundDeclined, about: transaction, at: now, signedTransactionInfo: transaction.currentJWS)
    return transaction
  }

  /// The transaction whose refund request `id` names: that transaction's, or under `last`, as every
  /// `last` is, the newest transaction the decision applies to (the highest number with a request
  /// open), however long ago its request was made.
  private func openRefundRequest(_ id: String) throws(TransactionError) -> String {
    let open = state.notifications.refundRequests.map(\.transactionID)
    guard id == "last" else {
      guard open.contains(id) else { throw .noRefundRequest(id: id) }
      return id
    }
    guard let newest = open.max(by: { (StoreTransaction.number($0) ?? 0) < (StoreTransaction.number($1) ?? 0) })
    else { throw .noRefundRequestOpen }
    return newest
  }

  /// Apple reverses a refund it granted: "Apple reverses a previously granted refund due to a
  /// dispute that the customer raised", and the developer "needs to reinstate" what it revoked
  /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype). The
  /// transaction is no longer revoked: `revocationDate` and `revocationReason` go, as
  /// `revocationPercentage` "doesn't appear if the refund is reversed"
  /// (https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage), and
  /// `REFUND_REVERSED` carries it as purchased.
  public mutating func reverseRefund(_ id: String, at now: Date) throws(TransactionError) -> StoreTransaction {
    let index: Int
    if id == "last" {
      guard let newest = state.transactions.lastIndex(where: \.isRevoked) else {
        throw .noneToAct(operation: "reverse the refund of", expected: "refunded")
      }
      index = newest
    } else {
      index = try findForRefund(id, operation: "reverse the refund of")
    }
    guard state.transactions[index].isRevoked else { throw .notRefunded(id: state.transactions[index].id) }
    state.transactions[index].revocationDate = nil
    state.transactions[index].revocationReason = nil
    state.transactions[index].signedRefund = nil
    let transaction = state.transactions[index]
    notify(.refundReversed, about: transaction, at: now, signedTransactionInfo: transaction.signedPurchase)
    return transaction
  }

  // MARK: Settings and tests

  /// Request a Test Notification: a `TEST` notification, its token for Get Test Notification
  /// Status. Nil when no URL is set: Apple answers `ServerNotificationURLNotFoundError`
  /// (https://developer.apple.com/documentation/appstoreserverapi/request-a-test-notification).
  public mutating func requestTestNotification(at now: Date) -> ServerNotification? {
    guard state.notifications.url != nil else { return nil }
    return state.notifications.record(
      .test, transactionID: nil, at: now, environment: state.conditions.environment,
      bundleId: catalog.bundleIdentifier, testNotificationToken: UUID().uuidString.lowercased())
  }
}
