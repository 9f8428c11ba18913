import Foundation

/// The simulated App Store: what Apple's side does with product requests and payments. Every
/// operation takes the time from the caller, so the same steps give the same results.
public struct AppStore: Sendable {
  public static let quantityLimit = 1...10

  public var state: StoreState
  public let catalog: Catalog
  /// The transactions of the history (`history.jsonl`), for an operation that reaches back to them
  /// (a refund of an old transaction); empty otherwise: a purchase never reads the history.
  public var history: [StoreTransaction] = []

  public init(state: StoreState, catalog: Catalog) {
    self.state = state
    self.catalog = catalog
  }

  /// `SKPaymentQueue.canMakePayments()`: false while purchases are restricted.
  public var canMakePayments: Bool { state.conditions.purchasesAllowed }

  public var storefront: Storefront {
    state.conditions.activeStorefront(default: catalog.defaultStorefront)
  }

  // MARK: Product requests

  public struct ProductsResponse: Equatable, Sendable {
    public let products: [Product]
    public let invalidProductIdentifiers: [String]
    public let storefront: Storefront
    private let valid: Set<String>

    init(products: [Product], invalidProductIdentifiers: [String], storefront: Storefront) {
      self.products = products
      self.invalidProductIdentifiers = invalidProductIdentifiers
      self.storefront = storefront
      valid = Set(products.map(\.productIdentifier))
    }

    /// Whether the App Store returned this product (it is not in `invalidProductIdentifiers`).
    public func contains(_ identifier: String) -> Bool { valid.contains(identifier) }
  }

  /// The answer to `SKProductsRequest` for these identifiers, as the store's conditions are now.
  public func productsResponse(for identifiers: [String]) -> Result<ProductsResponse, ProductRequestError> {
    guard state.conditions.networkUp else { return .failure(.networkDown) }
    var products: [Product] = []
    var invalid: [String] = []
    for identifier in identifiers {
      if let product = catalog.product(identifier), product.availableInStore,
        product.price(in: storefront) != nil
      {
        products.append(product)
      } else {
        invalid.append(identifier)
      }
    }
    return .success(ProductsResponse(products: products, invalidProductIdentifiers: invalid, storefront: storefront))
  }

  // MARK: Payments

  /// `SKPaymentQueue.add(_:)`. The transaction starts `.purchasing`; the App Store then shows its
  /// payment sheet for it, and answers the payment only once the sheet is answered
  /// (`answerPaymentSheet`). Without a sheet (`skipPaymentSheet`, a headless `buy`) the payment goes
  /// on at once, as if Buy had been tapped. A payment the App Store cannot take (purchases
  /// restricted, a product it does not sell) fails at once, with no sheet.
  public mutating func add(
    productIdentifier: String, quantity: Int, showsPaymentSheet: Bool = false, appAccountToken: UUID? = nil,
    at now: Date
  ) throws(PaymentError) -> StoreTransaction {
    guard Self.quantityLimit.contains(quantity) else { throw .invalidQuantity(quantity) }
    guard let id = state.takeTransactionNumber() else { throw .outOfTransactionNumbers }
    var transaction = StoreTransaction(
      id: id, productIdentifier: productIdentifier,
      quantity: quantity, state: .purchasing, purchaseDate: now, appAccountToken: appAccountToken)
    let product = catalog.product(productIdentifier)
    if !canMakePayments {
      transaction.fail(.notAllowed)
    } else if product == nil || product?.availableInStore == false
      || product?.price(in: storefront) == nil
    {
      transaction.fail(.productNotAvailable)
    } else if !showsPaymentSheet {
      confirm(&transaction, at: now)
    }
    state.transactions.append(transaction)
    return transaction
  }

  /// The person answers the payment sheet of a payment in the queue: Buy lets the App Store
  /// process it (it answers after the latency); Cancel fails it with `paymentCancelled`.
  public mutating func answerPaymentSheet(_ id: String, confirmed: Bool, at now: Date) throws(TransactionError)
    -> StoreTransaction
  {
    let index = try indexOf(
      id, for: "answer the payment sheet of", where: \.awaitsPaymentSheet, expected: "purchasing, its sheet unanswered")
    if confirmed {
      var transaction = state.transactions[index]
      confirm(&transaction, at: now)
      state.transactions[index] = transaction
    } else {
      state.transactions[index].fail(.cancelled)
    }
    return state.transactions[index]
  }

  /// Buy on the payment sheet: the App Store answers after the latency, with the error a forced
  /// failure chose for this purchase.
  private mutating func confirm(_ transaction: inout StoreTransaction, at now: Date) {
    transaction.answerDate = now.addingTimeInterval(state.conditions.latency.purchase)
    transaction.forcedError = state.conditions.failNext ?? state.conditions.failAll
    state.conditions.failNext = nil
  }

  /// Lets the App Store answer every purchase whose time has come. Returns the transactions that
  /// changed, in the order the observer sees them.
  public mutating func advance(to now: Date) -> [StoreTransaction] {
    var updated: [StoreTransaction] = []
    let due = state.transactions.indices
      .filter {
        state.transactions[$0].state == .purchasing && state.transactions[$0].answerDate.map { $0 <= now } == true
      }
      .sorted { state.transactions[$0].answerDate! < state.transactions[$1].answerDate! }
    for index in due {
      var transaction = state.transactions[index]
      answer(&transaction)
      state.transactions[index] = transaction
      updated.append(transaction)
    }
    notifyCharged(updated, at: now)
    return updated
  }

  private mutating func answer(_ transaction: inout StoreTransaction) {
    let conditions = state.conditions
    transaction.answerDate = nil
    if !conditions.networkUp {
      transaction.fail(.networkLost)
    } else if let code = transaction.forcedError {
      transaction.fail(.forced(code))
    } else if conditions.interruptedPurchases {
      transaction.fail(.interrupted)
      transaction.hasPurchaseIssue = true
    } else if conditions.askToBuy {
      transaction.state = .deferred
    } else {
      complete(&transaction)
    }
  }

  /// The App Store charges the purchase and signs its transaction: stamped with the environment and
  /// the verification fault in force now.
  private mutating func complete(_ transaction: inout StoreTransaction) {
    transaction.state = .purchased
    transaction.environment = state.conditions.environment
    transaction.failsVerification = !state.conditions.verificationPasses
    transaction.storefront = storefront.code
    // What the purchase cost and gives, fixed now: a catalog loaded later changes none of it.
    transaction.record = catalog.product(transaction.productIdentifier).flatMap {
      PurchaseRecord(
        product: $0, quantity: transaction.quantity, storefront: storefront, bundleId: catalog.bundleIdentifier)
    }
    transaction.appTransactionID = appTransactionID(firstPurchase: transaction.purchaseDate)
  }

  /// The data folder's `appTransactionId` (`StoreState.appTransactionID`), made at its first
  /// completed purchase: new for a folder whose first transaction this is, else (a folder from
  /// before this version, whose earlier transactions were listed with it) the derived one.
  /// `firstPurchase`: the purchase being completed.
  mutating func appTransactionID(firstPurchase: Date) -> String {
    if let known = state.appTransactionID { return known }
    let made =
      state.lastTransactionNumber <= 1
      ? StoreState.newAppTransactionID(bundleIdentifier: catalog.bundleIdentifier, firstPurchase: firstPurchase)
      : StoreState.derivedAppTransactionID(bundleIdentifier: catalog.bundleIdentifier)
    state.appTransactionID = made
    return made
  }

  // MARK: Conditions

  /// Changes a condition. Losing the network fails every purchase in flight at once, and so does
  /// a storefront change the app's delegate does not continue (`paymentQueue(_:shouldContinue:in:)`
  /// answering false fails the transaction with `storeProductNotAvailable`).
  public mutating func set(_ condition: Condition, to value: String, at now: Date) throws(ConditionError)
    -> [StoreTransaction]
  {
    var conditions = state.conditions
    try condition.set(value, in: &conditions)
    // A storefront where some product has no price is a storefront like any other: that product
    // comes back in `invalidProductIdentifiers`. One where the catalog sells nothing is refused.
    if condition == .storefront, let code = conditions.storefront, let storefront = Storefront.named(code),
      !catalog.pricedStorefronts.contains(storefront)
    {
      let priced = catalog.pricedStorefronts.map(\.code).joined(separator: "|")
      throw ConditionError.badValue(
        condition.rawValue, value, expected: "a storefront the catalog prices a product in: \(priced)")
    }
    let storefrontBefore = storefront
    state.conditions = conditions
    let failure: StoreFailure
    if condition == .network, !conditions.networkUp {
      failure = .networkLost
    } else if condition == .storefront, storefront != storefrontBefore, !conditions.continueOnStorefrontChange {
      failure = .productNotAvailable
    } else {
      return []
    }
    var updated: [StoreTransaction] = []
    for index in state.transactions.indices where state.transactions[index].state == .purchasing {
      state.transactions[index].fail(failure)
      updated.append(state.transactions[index])
    }
    return updated
  }

  // MARK: Ask to Buy and interrupted purchases

  /// A parent approves an Ask to Buy request: the deferred transaction is purchased.
  public mutating func approve(_ id: String, at now: Date = Date()) throws(TransactionError) -> StoreTransaction {
    let index = try indexOf(id, for: "approve", where: { $0.state == .deferred }, expected: "deferred")
    var transaction = state.transactions[index]
    complete(&transaction)
    state.transactions[index] = transaction
    notifyCharged([transaction], at: now)
    return transaction
  }

  /// A parent declines an Ask to Buy request: the deferred transaction fails.
  public mutating func decline(_ id: String) throws(TransactionError) -> StoreTransaction {
    let index = try indexOf(id, for: "decline", where: { $0.state == .deferred }, expected: "deferred")
    state.transactions[index].fail(.askToBuyDeclined)
    return state.transactions[index]
  }

  /// The user resolves the issue that interrupted a purchase: the App Store completes it as a new
  /// purchased transaction that the app did not start in this session.
  public mutating func resolve(_ id: String, at now: Date) throws(TransactionError) -> StoreTransaction {
    let index = try indexOf(id, for: "resolve", where: \.hasPurchaseIssue, expected: "interrupted")
    guard let id = state.takeTransactionNumber() else { throw .outOfTransactionNumbers }
    state.transactions[index].hasPurchaseIssue = false
    let interrupted = state.transactions[index]
    var purchase = StoreTransaction(
      id: id, productIdentifier: interrupted.productIdentifier,
      quantity: interrupted.quantity, state: .purchasing, purchaseDate: now,
      resolvedFromTransactionID: interrupted.id, appAccountToken: interrupted.appAccountToken)
    complete(&purchase)
    state.transactions.append(purchase)
    notifyCharged([purchase], at: now)
    return purchase
  }

  // MARK: Reset

  /// `store reset`: payments whose answer is due are answered first (one the store has charged
  /// must not be forgotten), then `StoreState.reset()` keeps what is paid for and not delivered.
  @discardableResult
  public mutating func reset(at now: Date) -> [StoreTransaction] {
    _ = advance(to: now)
    return state.reset()
  }

  // MARK: Finishing

  /// `finishTransaction(_:)`: the transaction leaves the queue and is not delivered again.
  @discardableResult
  public mutating func finish(_ id: String) throws(TransactionError) -> StoreTransaction {
    let index = try indexOf(
      id, for: "finish", where: { $0.state == .purchased || $0.state == .failed || $0.state == .restored },
      expected: "purchased, restored or failed")
    state.transactions[index].finished = true
    let finished = state.transactions[index]
    state.archiveFinished()
    return finished
  }

  // MARK: Refunds

  /// The App Store refunds a purchased transaction, finished or not, as Xcode's Transaction Manager
  /// does: it gets `revocationDate` ("The date that the App Store refunded the transaction or
  /// revoked it from Family Sharing", https://developer.apple.com/documentation/storekit/transaction/revocationdate)
  /// and `revocationReason` (https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.property).
  /// A transaction is refunded once. One only the history still lists comes back into the store
  /// with its refund, so the app can see it. `last` is the newest purchased one not refunded.
  public mutating func refund(
    _ id: String, reason: RevocationReason, at now: Date
  ) throws(TransactionError) -> StoreTransaction {
    let transaction: StoreTransaction
    if id == "last" {
      guard let newest = state.transactions.last(where: \.isRefundable) else {
        throw .noneToAct(operation: "refund", expected: "purchased")
      }
      transaction = newest
    } else if let found = state.transaction(id) ?? history.last(where: { $0.id == id }) {
      transaction = found
    } else {
      throw .unknown(id)
    }
    if let date = transaction.revocationDate {
      throw .alreadyRefunded(id: transaction.id, on: date)
    }
    // A restored transaction is a copy of the purchase it restores ("Each transaction includes a
    // copy of the original transaction",
    // https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()),
    // with the purchase's `originalTransactionId`; what the customer paid for, and what the App
    // Store refunds, is that purchase. Refunding it revokes every copy: a restore brings it back no
    // more, and no copy entitles the app to the product.
    if transaction.state == .restored, let original = transaction.restoredTransactionID {
      throw .restoredCopy(id: transaction.id, purchase: original)
    }
    guard transaction.state == .purchased else {
      throw .wrongState(id: transaction.id, operation: "refund", state: transaction.state, expected: "purchased")
    }
    if state.transaction(transaction.id) == nil { state.bringBack(transaction) }
    guard let index = state.transactions.firstIndex(where: { $0.id == transaction.id }) else { throw .unknown(id) }
    state.transactions[index].revocationDate = now
    state.transactions[index].revocationReason = reason
    // `REFUND`: "Apple refunds the transaction for a consumable or non-consumable In-App Purchase, …"
    // (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype), carrying
    // the transaction signed with its refund (signed as this change is written). A refund ends any
    // refund request of the transaction.
    state.notifications.refundRequests.removeAll { $0.transactionID == transaction.id }
    notify(.refund, about: state.transactions[index], at: now)
    return state.transactions[index]
  }

  /// Finds a transaction by id, or `last` for the newest one the operation applies to.
  private func indexOf(
    _ id: String, for operation: String, where applies: (StoreTransaction) -> Bool, expected: String
  ) throws(TransactionError) -> Int {
    if id == "last" {
      guard let index = state.transactions.lastIndex(where: applies) else {
        throw .noneToAct(operation: operation, expected: expected)
      }
      return index
    }
    guard let index = state.transactions.firstIndex(where: { $0.id == id }) else {
      throw .unknown(id)
    }
    guard applies(state.transactions[index]) else {
      throw .wrongState(id: id, operation: operation, state: state.transactions[index].state, expected: expected)
    }
    return index
  }
}
