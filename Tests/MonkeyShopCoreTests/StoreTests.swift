import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

private let five = "com.monkeyshop.credits.5"
private let ten = "com.monkeyshop.credits.10"
/// Asked for by the app, unknown to App Store Connect.
private let hidden = "com.monkeyshop.credits.hidden"

/// The sample's two products, plus one the App Store does not know. No product has an ITA price.
private let catalog = Catalog(products: [
  Product(
    productIdentifier: five, credits: 5,
    localizations: ["en": .init(title: "5 Monkey Credits", description: "A handful")],
    prices: [
      "USA": Decimal(string: "0.99")!, "JPN": 160, "GBR": Decimal(string: "0.99")!, "AUS": Decimal(string: "1.49")!,
    ]),
  Product(
    productIdentifier: ten, credits: 10,
    localizations: ["en": .init(title: "10 Monkey Credits", description: "A bunch")],
    prices: [
      "USA": Decimal(string: "1.99")!, "JPN": 320, "GBR": Decimal(string: "1.99")!, "AUS": Decimal(string: "2.99")!,
    ]),
  Product(
    productIdentifier: hidden, credits: 1,
    localizations: ["en": .init(title: "Hidden", description: "Not in the store")],
    prices: ["USA": Decimal(string: "0.49")!], availableInStore: false),
])

/// A fixed instant: every test runs in virtual time.
private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

private func makeStore(_ conditions: [String: String] = [:]) throws -> AppStore {
  var store = AppStore(state: StoreState(), catalog: catalog)
  for (name, value) in conditions.sorted(by: { $0.key < $1.key }) {
    _ = try store.set(Condition(rawValue: name)!, to: value, at: t0)
  }
  return store
}

/// Buys and lets the App Store answer, as the payment sheet's Buy button does.
private func buy(
  _ store: inout AppStore, _ product: String = five, quantity: Int = 1, at now: Date = t0
) throws -> StoreTransaction {
  let transaction = try store.add(productIdentifier: product, quantity: quantity, at: now)
  _ = store.advance(to: now.addingTimeInterval(60))
  return store.state.transaction(transaction.id)!
}

@Suite("Store: payments", .tags(.pure))
struct PaymentTests {
  @Test("a confirmed payment is purchasing until the App Store answers, then purchased")
  func confirmedPayment() throws {
    var store = try makeStore()
    let transaction = try store.add(productIdentifier: five, quantity: 2, at: t0)
    #expect(transaction.state == .purchasing)
    #expect(transaction.quantity == 2)
    #expect(transaction.purchaseDate == t0)
    #expect(transaction.answerDate == t0.addingTimeInterval(store.state.conditions.latency.purchase))
    #expect(store.state.nextAnswerDate == transaction.answerDate)
    #expect(store.state.unfinished.isEmpty)

    #expect(store.advance(to: t0.addingTimeInterval(0.5)).isEmpty)
    #expect(store.state.transaction(transaction.id)?.state == .purchasing)

    let updated = store.advance(to: transaction.answerDate!)
    #expect(updated.map(\.id) == [transaction.id])
    #expect(updated.first?.state == .purchased)
    #expect(updated.first?.failure == nil)
    #expect(store.state.unfinished.map(\.id) == [transaction.id])
    #expect(store.state.nextAnswerDate == nil)
    // Answered once: a later tick reports nothing new.
    #expect(store.advance(to: t0.addingTimeInterval(60)).isEmpty)
  }

  @Test("latency sets when the App Store answers", arguments: Latency.allCases)
  func latency(_ latency: Latency) throws {
    var store = try makeStore(["latency": latency.rawValue])
    let transaction = try store.add(productIdentifier: five, quantity: 1, at: t0)
    #expect(transaction.answerDate == t0.addingTimeInterval(latency.purchase))
    let answered = store.advance(to: t0.addingTimeInterval(latency.purchase))
    #expect(answered.map(\.state) == [.purchased])
  }

  @Test("instant answers at once, normal in about a second, slow takes many seconds")
  func latencyValues() throws {
    #expect(Latency.instant.purchase == 0)
    #expect((0.5...2).contains(Latency.normal.purchase))
    #expect(Latency.slow.purchase >= 5)
    var store = try makeStore(["latency": "slow"])
    let transaction = try store.add(productIdentifier: five, quantity: 1, at: t0)
    #expect(store.advance(to: t0.addingTimeInterval(2)).isEmpty)
    #expect(store.state.transaction(transaction.id)?.state == .purchasing)
  }

  @Test("purchases answered in the order they are due")
  func answerOrder() throws {
    var store = try makeStore(["latency": "slow"])
    let slow = try store.add(productIdentifier: five, quantity: 1, at: t0)
    _ = try store.set(.latency, to: "instant", at: t0)
    let quick = try store.add(productIdentifier: ten, quantity: 1, at: t0.addingTimeInterval(1))
    #expect(store.advance(to: t0.addingTimeInterval(100)).map(\.id) == [quick.id, slow.id])
  }

  @Test("a payment added with its sheet is purchasing and waits for the sheet: nothing is answered meanwhile")
  func waitsForTheSheet() throws {
    var store = try makeStore(["latency": "instant", "failNext": "2"])
    let added = try store.add(productIdentifier: five, quantity: 1, showsPaymentSheet: true, at: t0)
    #expect(added.state == .purchasing)
    #expect(added.awaitsPaymentSheet)
    #expect(store.advance(to: t0.addingTimeInterval(600)).isEmpty, "the App Store waits for the person")
    #expect(store.state.conditions.failNext != nil, "a forced error waits for a confirmed purchase")
    let confirmed = try store.answerPaymentSheet(added.id, confirmed: true, at: t0.addingTimeInterval(5))
    #expect(confirmed.state == .purchasing)
    #expect(confirmed.answerDate == t0.addingTimeInterval(5))
    #expect(store.state.conditions.failNext == nil)
    let error = #expect(throws: TransactionError.self) {
      try store.answerPaymentSheet(added.id, confirmed: false, at: t0.addingTimeInterval(5))
    }
    #expect(error?.message.contains("its sheet unanswered") == true, "a sheet is answered once")
    #expect(store.advance(to: t0.addingTimeInterval(5)).map(\.state) == [.failed])
  }

  @Test("Cancel on the payment sheet fails its purchasing transaction as a cancellation")
  func cancelled() throws {
    var store = try makeStore()
    let added = try store.add(productIdentifier: five, quantity: 1, showsPaymentSheet: true, at: t0)
    let transaction = try store.answerPaymentSheet(added.id, confirmed: false, at: t0)
    #expect(transaction.id == added.id)
    #expect(transaction.state == .failed)
    #expect(transaction.failure == .cancelled)
    #expect(transaction.failure?.code == .storeKit(.paymentCancelled))
    #expect(transaction.failure?.code.code == 2)
    #expect(transaction.failure?.isCancellation == true)
    #expect(transaction.answerDate == nil)
    #expect(store.advance(to: t0.addingTimeInterval(60)).isEmpty)
    #expect(store.state.unfinished.map(\.id) == [transaction.id])
  }

  @Test("a payment buys 1 to 10", arguments: [1, 10])
  func validQuantity(_ quantity: Int) throws {
    var store = try makeStore()
    #expect(try buy(&store, quantity: quantity).quantity == quantity)
  }

  @Test("a quantity outside 1…10 is refused and no transaction is made", arguments: [0, 11, -1])
  func invalidQuantity(_ quantity: Int) throws {
    var store = try makeStore()
    let error = #expect(throws: PaymentError.self) {
      try store.add(productIdentifier: five, quantity: quantity, at: t0)
    }
    #expect(error == .invalidQuantity(quantity))
    #expect(error?.description.contains("1 to 10") == true)
    #expect(error?.errorID == .invalidQuantity)
    #expect(store.state.transactions.isEmpty)
  }

  @Test("with purchases restricted, canMakePayments is false and a payment fails with paymentNotAllowed")
  func restricted() throws {
    var store = try makeStore(["purchasesAllowed": "false"])
    #expect(!store.canMakePayments)
    let transaction = try store.add(productIdentifier: five, quantity: 1, at: t0)
    #expect(transaction.state == .failed)
    #expect(transaction.failure?.code == .storeKit(.paymentNotAllowed))
    #expect(transaction.failure?.code.code == 4)
    #expect(transaction.failure?.errorID == .purchasesRestricted)
    _ = try store.set(.purchasesAllowed, to: "true", at: t0)
    #expect(store.canMakePayments)
  }

  @Test("a product the App Store does not sell fails with storeProductNotAvailable", arguments: [hidden, "com.nope.x"])
  func productNotAvailable(_ identifier: String) throws {
    var store = try makeStore()
    let transaction = try store.add(productIdentifier: identifier, quantity: 1, at: t0)
    #expect(transaction.state == .failed)
    #expect(transaction.failure?.code == .storeKit(.storeProductNotAvailable))
    #expect(transaction.failure?.code.code == 5)
  }

  @Test("with the network down when the App Store answers, the purchase fails: Cannot connect to iTunes Store")
  func networkDownAtAnswer() throws {
    var store = try makeStore(["network": "down"])
    let transaction = try store.add(productIdentifier: five, quantity: 1, at: t0)
    #expect(transaction.state == .purchasing)
    let failed = try #require(store.advance(to: t0.addingTimeInterval(60)).first)
    #expect(failed.state == .failed)
    #expect(failed.failure?.code == .storeKit(.unknown))
    #expect(failed.failure?.code.code == 0)
    #expect(failed.failure?.message == "Cannot connect to iTunes Store")
    #expect(failed.failure?.error.description.contains("MS-E0002") == true)
  }

  @Test("losing the network fails every purchase in flight at once")
  func networkLostInFlight() throws {
    var store = try makeStore(["latency": "slow"])
    let done = try buy(&store, at: t0)
    let first = try store.add(productIdentifier: five, quantity: 1, at: t0)
    let second = try store.add(productIdentifier: ten, quantity: 3, at: t0)
    let failed = try store.set(.network, to: "down", at: t0.addingTimeInterval(1))
    #expect(Set(failed.map(\.id)) == [first.id, second.id])
    #expect(failed.allSatisfy { $0.state == .failed && $0.failure == .networkLost })
    #expect(store.state.transaction(done.id)?.state == .purchased)
    #expect(store.state.nextAnswerDate == nil)
  }

  @Test("a storefront change stops the purchases in flight only when the app's delegate says so")
  func storefrontChangeInFlight() throws {
    // Apple: returning false from paymentQueue(_:shouldContinue:in:) fails the transaction with
    // SKError.storeProductNotAvailable.
    var store = try makeStore(["latency": "slow"])
    let kept = try store.add(productIdentifier: five, quantity: 1, at: t0)
    #expect(try store.set(.storefront, to: "JPN", at: t0).isEmpty, "by default the purchase continues")
    #expect(store.state.transaction(kept.id)?.state == .purchasing)
    _ = try store.set(.continueOnStorefrontChange, to: "false", at: t0)
    #expect(try store.set(.storefront, to: "JPN", at: t0).isEmpty, "the same storefront is no change")
    let failed = try store.set(.storefront, to: "GBR", at: t0)
    #expect(failed.map(\.id) == [kept.id])
    #expect(failed.first?.failure == .productNotAvailable)
    #expect(failed.first?.failure?.code == .storeKit(.storeProductNotAvailable))
  }
}

@Suite("Store: product requests", .tags(.pure))
struct ProductRequestTests {
  @Test("the products come back for the active storefront; unknown ones are invalid identifiers")
  func products() throws {
    let store = try makeStore()
    let response = try store.productsResponse(for: [five, ten, hidden, "com.nope.x"]).get()
    #expect(response.products.map(\.productIdentifier) == [five, ten])
    #expect(response.invalidProductIdentifiers == [hidden, "com.nope.x"])
    #expect(response.storefront == .usa)
  }

  @Test("with the network down the request fails")
  func networkDown() throws {
    let store = try makeStore(["network": "down"])
    let result = store.productsResponse(for: [five, ten])
    #expect(result == .failure(.networkDown))
    #expect(ProductRequestError.networkDown.code == .storeKit(.unknown))
    #expect(ProductRequestError.networkDown.description.contains("MS-E0001"))
  }
}

@Suite("Store: Ask to Buy and interrupted purchases", .tags(.pure))
struct DeferredTests {
  @Test("Ask to Buy defers the purchase; a parent's approval purchases it")
  func approve() throws {
    var store = try makeStore(["askToBuy": "on"])
    let deferred = try buy(&store)
    #expect(deferred.state == .deferred)
    #expect(store.state.unfinished.isEmpty)
    let approved = try store.approve(deferred.id)
    #expect(approved.state == .purchased)
    #expect(approved.id == deferred.id)
    #expect(store.state.unfinished.map(\.id) == [deferred.id])
  }

  @Test("a parent's decline fails the purchase")
  func decline() throws {
    var store = try makeStore(["askToBuy": "on"])
    let deferred = try buy(&store)
    let declined = try store.decline(deferred.id)
    #expect(declined.state == .failed)
    #expect(declined.failure?.reason == .askToBuyDeclined)
    #expect(declined.failure?.errorID == .askToBuyDeclined)
    #expect(declined.failure?.isCancellation == false)
  }

  @Test("only a deferred transaction can be approved or declined")
  func approveWrongState() throws {
    var store = try makeStore()
    let purchased = try buy(&store)
    let error = #expect(throws: TransactionError.self) { try store.approve(purchased.id) }
    #expect(error == .wrongState(id: purchased.id, operation: "approve", state: .purchased, expected: "deferred"))
    #expect(throws: TransactionError.self) { try store.decline(purchased.id) }
    #expect(store.state.transaction(purchased.id)?.state == .purchased)
    #expect(throws: TransactionError.unknown("999")) { try store.approve("999") }
    let none = #expect(throws: TransactionError.self) { try store.approve("last") }
    #expect(none == .noneToAct(operation: "approve", expected: "deferred"))
  }

  @Test("\"last\" acts on the newest transaction waiting for that action")
  func last() throws {
    var store = try makeStore(["askToBuy": "on"])
    let older = try buy(&store)
    let newer = try buy(&store)
    _ = try store.set(.askToBuy, to: "off", at: t0)
    let purchased = try buy(&store)
    #expect(try store.approve("last").id == newer.id)
    #expect(try store.decline("last").id == older.id)
    #expect(store.state.transaction(purchased.id)?.state == .purchased)
    #expect(store.state.transaction(newer.id)?.state == .purchased)
    #expect(store.state.transaction(older.id)?.state == .failed)
  }

  @Test("an interrupted purchase fails; resolving it delivers a new purchased transaction, once")
  func interrupted() throws {
    var store = try makeStore(["interruptedPurchases": "on"])
    let interrupted = try buy(&store, ten, quantity: 2)
    #expect(interrupted.state == .failed)
    #expect(interrupted.hasPurchaseIssue)
    #expect(interrupted.failure?.reason == .interrupted)
    #expect(interrupted.failure?.errorID == .purchaseInterrupted)
    // The app finishes a failed transaction at once; the issue stays to be resolved.
    try store.finish(interrupted.id)

    let resolved = try store.resolve(interrupted.id, at: t0.addingTimeInterval(120))
    #expect(resolved.state == .purchased)
    #expect(resolved.id != interrupted.id)
    #expect(resolved.resolvedFromTransactionID == interrupted.id)
    #expect(resolved.productIdentifier == ten)
    #expect(resolved.quantity == 2)
    #expect(resolved.purchaseDate == t0.addingTimeInterval(120))
    #expect(store.state.transaction(interrupted.id)?.hasPurchaseIssue == false)
    #expect(store.state.unfinished.map(\.id).contains(resolved.id))

    let again = #expect(throws: TransactionError.self) { try store.resolve(interrupted.id, at: t0) }
    guard case .wrongState = again else {
      Issue.record("resolving twice gave \(String(describing: again))")
      return
    }
    #expect(store.state.transactions.filter { $0.resolvedFromTransactionID == interrupted.id }.count == 1)
  }

  @Test("only an interrupted purchase can be resolved")
  func resolveWrongState() throws {
    var store = try makeStore()
    let purchased = try buy(&store)
    #expect(throws: TransactionError.self) { try store.resolve(purchased.id, at: t0) }
    #expect(throws: TransactionError.noneToAct(operation: "resolve", expected: "interrupted")) {
      try store.resolve("last", at: t0)
    }
  }
}

@Suite("Store: forced errors", .tags(.pure))
struct ForcedErrorTests {
  @Test("failNext fails the next purchase with that code, and the one after succeeds")
  func failNext() throws {
    var store = try makeStore(["failNext": "5002"])
    let failed = try buy(&store)
    #expect(failed.state == .failed)
    #expect(failed.failure?.code == .server(.unknownError))
    #expect(failed.failure?.code.code == 5002)
    #expect(failed.failure?.message == "An unknown error has occurred")
    #expect(failed.failure?.errorID == .forcedError)
    #expect(store.state.conditions.failNext == nil)
    #expect(try buy(&store).state == .purchased)
  }

  @Test("failAll fails every purchase until switched off")
  func failAll() throws {
    var store = try makeStore(["failAll": "5020"])
    for _ in 1...3 {
      let failed = try buy(&store)
      #expect(failed.failure?.code.code == 5020)
      #expect(failed.failure?.message == "Forget Your Password?")
    }
    _ = try store.set(.failAll, to: "off", at: t0)
    #expect(try buy(&store).state == .purchased)
  }

  /// Apple's `SKError.Code` in the order of the SDK header, whose enum counts from 0.
  static let headerOrder = [
    "unknown", "clientInvalid", "paymentCancelled", "paymentInvalid", "paymentNotAllowed",
    "storeProductNotAvailable", "cloudServicePermissionDenied", "cloudServiceNetworkConnectionFailed",
    "cloudServiceRevoked", "privacyAcknowledgementRequired", "unauthorizedRequestData", "invalidOfferIdentifier",
    "invalidSignature", "missingOfferParams", "invalidOfferPrice", "overlayCancelled", "overlayInvalidConfiguration",
    "overlayTimeout", "ineligibleForOffer", "unsupportedPlatform", "overlayPresentedInBackgroundScene",
    "paymentMethodBindingConfigurationRequired",
  ]

  @Test("every SKError.Code Apple lists, with the raw value of the header's order, by number or name")
  func everySKErrorCode() {
    #expect(SKErrorCode.allCases.map(\.name) == Self.headerOrder)
    for (raw, name) in Self.headerOrder.enumerated() {
      let code = StoreError.storeKit(SKErrorCode(rawValue: raw)!)
      #expect(StoreError(argument: "\(raw)") == code)
      #expect(StoreError(argument: name) == code)
      #expect(StoreError(argument: name.uppercased()) == code)
      #expect(code.description == "SKErrorDomain \(raw) \(name)")
      #expect(!code.message.isEmpty)
    }
  }

  @Test("5002 and 5020 are SSServerErrorDomain codes, shown with their domain, never as SKError codes")
  func serverCodes() {
    #expect(StoreError(argument: "5002") == .server(.unknownError))
    #expect(StoreError(argument: "SSServerErrorDomain 5020") == .server(.forgotPassword))
    #expect(StoreError(argument: "SKErrorDomain 5002") == nil)
    #expect(StoreError(argument: "SSServerErrorDomain 2") == nil)
    #expect(StoreError(argument: "22") == nil)
    #expect(StoreError(argument: "42") == nil)
    #expect(
      StoreError.server(.unknownError).description == #"SSServerErrorDomain 5002 "An unknown error has occurred""#)
    #expect(StoreError.server(.forgotPassword).description == #"SSServerErrorDomain 5020 "Forget Your Password?""#)
    #expect(StoreError.storeKit(.paymentCancelled).description == "SKErrorDomain 2 paymentCancelled")
    #expect(StoreError.allCases.count == 24)
  }

  @Test("a failure is stored with its domain; stores from before, without one, still read")
  func failureEncodings() throws {
    let decoder = JSONDecoder()
    let old = try decoder.decode(StoreFailure.self, from: Data(#"{"reason":"forced","code":5002}"#.utf8))
    #expect(old == .forced(.server(.unknownError)))
    let oldCancel = try decoder.decode(StoreFailure.self, from: Data(#"{"reason":"cancelled","code":2}"#.utf8))
    #expect(oldCancel == .cancelled)
    let written = String(
      decoding: try JSONEncoder().encode(StoreFailure.forced(.server(.forgotPassword))), as: UTF8.self)
    #expect(written.contains(#""domain":"SSServerErrorDomain""#), "\(written)")
    #expect(try decoder.decode(StoreFailure.self, from: Data(written.utf8)) == .forced(.server(.forgotPassword)))
    #expect(throws: DecodingError.self) {
      try decoder.decode(
        StoreFailure.self, from: Data(#"{"reason":"forced","domain":"SKErrorDomain","code":5002}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try decoder.decode(
        StoreFailure.self, from: Data(#"{"reason":"forced","domain":"NSURLErrorDomain","code":-1009}"#.utf8))
    }
  }

  @Test("failNext and failAll from a store written before the domain was kept still read")
  func oldForcedErrors() throws {
    let json = #"""
      {"purchasesAllowed":true,"networkUp":true,"askToBuy":false,"interruptedPurchases":false,
       "failNext":5020,"failAll":4,"latency":"normal"}
      """#
    let conditions = try JSONDecoder().decode(Conditions.self, from: Data(json.utf8))
    #expect(conditions.failNext == .server(.forgotPassword))
    #expect(conditions.failAll == .storeKit(.paymentNotAllowed))
    var again = conditions
    again.failNext = .storeKit(.overlayTimeout)
    let round = try JSONDecoder().decode(Conditions.self, from: try JSONEncoder().encode(again))
    #expect(round.failNext == .storeKit(.overlayTimeout))
  }
}

@Suite("Store: conditions", .tags(.pure))
struct ConditionTests {
  @Test("the storefront condition changes currency and prices")
  func storefront() throws {
    var store = try makeStore()
    #expect(store.storefront == .usa)
    _ = try store.set(.storefront, to: "JPN", at: t0)
    #expect(store.storefront.code == "JPN")
    let response = try store.productsResponse(for: [five]).get()
    #expect(response.storefront.code == "JPN")
    #expect(response.products.first?.displayPrice(in: response.storefront) == "￥160")
  }

  @Test("a storefront where a product has no price is refused and the storefront stays")
  func storefrontWithoutPrice() throws {
    var store = try makeStore(["storefront": "GBR"])
    let error = #expect(throws: ConditionError.self) { try store.set(.storefront, to: "ITA", at: t0) }
    #expect(error?.description.contains("ITA") == true)
    #expect(store.storefront.code == "GBR")
  }

  @Test(
    "a bad value is refused, listing the values expected",
    arguments: [
      ("network", "sideways", "up|down"),
      ("purchasesAllowed", "maybe", "true|false"),
      ("askToBuy", "perhaps", "on|off"),
      ("interruptedPurchases", "2", "on|off"),
      ("latency", "warp", "instant|normal|slow"),
      ("failNext", "42", "5002"),
      ("failAll", "oops", "5020"),
      ("storefront", "XYZ", "USA"),
      ("crashPoint", "midway", "afterDeliveryBeforeFinish"),
      ("continueOnStorefrontChange", "sometimes", "true|false"),
      ("skipPaymentSheet", "maybe", "on|off"),
      ("environment", "Production", "Sandbox|Xcode|LocalTesting"),
      ("verification", "maybe", "pass|fail"),
      ("storeKit", "02", "1|2"),
      ("storeKit", "v2", "1|2"),
      ("storeKit", "rm -rf 2", "1|2"),
    ])
  func badValue(name: String, value: String, expected: String) throws {
    var store = try makeStore()
    let before = store.state.conditions
    let error = #expect(throws: ConditionError.self) { try store.set(Condition(rawValue: name)!, to: value, at: t0) }
    #expect(error?.description.contains(expected) == true)
    #expect(error?.description.contains(value) == true)
    #expect(store.state.conditions == before)
  }

  @Test("every condition can be switched and reads back in the summary")
  func summary() throws {
    var store = try makeStore([
      "purchasesAllowed": "false", "network": "down", "askToBuy": "on", "interruptedPurchases": "on",
      "failNext": "5002", "failAll": "paymentInvalid", "latency": "slow", "storefront": "jpn",
      "crashPoint": "afterDeliveryBeforeFinish", "continueOnStorefrontChange": "false", "skipPaymentSheet": "true",
      "environment": "xcode", "verification": "fail", "includeConsumableHistory": "on", "storeKit": "StoreKit 2",
      "notificationRetry": "fast", "refundDecision": "decline",
    ])
    let summary = Dictionary(
      uniqueKeysWithValues: Condition.allCases.map {
        ($0.rawValue, $0.value(in: store.state.conditions, defaultStorefront: .usa))
      })
    #expect(
      summary == [
        "purchasesAllowed": "false", "network": "down", "askToBuy": "on", "interruptedPurchases": "on",
        "failNext": "5002", "failAll": "3", "latency": "slow", "storefront": "JPN",
        "crashPoint": "afterDeliveryBeforeFinish", "continueOnStorefrontChange": "false", "skipPaymentSheet": "on",
        "environment": "Xcode", "verification": "fail", "includeConsumableHistory": "on", "storeKit": "2",
        "notificationRetry": "fast", "refundDecision": "decline",
      ])
    _ = try store.set(.crashPoint, to: "off", at: t0)
    #expect(store.state.conditions.crashPoint == nil)
  }

  @Test("a store written before skipPaymentSheet existed reads it as off, and writes it back")
  func skipPaymentSheetAbsentFromAnOlderStore() throws {
    let older = Data(
      #"{"purchasesAllowed": true, "networkUp": true, "askToBuy": false, "interruptedPurchases": false, "latency": "normal"}"#
        .utf8)
    var conditions = try JSONDecoder().decode(Conditions.self, from: older)
    #expect(conditions.skipPaymentSheet == false)
    #expect(Condition.skipPaymentSheet.value(in: conditions, defaultStorefront: .usa) == "off")
    conditions.skipPaymentSheet = true
    let written = try JSONDecoder().decode(Conditions.self, from: JSONEncoder().encode(conditions))
    #expect(written.skipPaymentSheet)
  }
}

@Suite("Store: finishing and history", .tags(.pure))
struct FinishTests {
  @Test("only purchased and failed transactions can be finished; finished ones leave the queue")
  func finish() throws {
    var store = try makeStore(["askToBuy": "on"])
    let deferred = try buy(&store)
    #expect(deferred.state == .deferred)
    #expect(throws: TransactionError.self) { try store.finish(deferred.id) }

    _ = try store.set(.askToBuy, to: "off", at: t0)
    let purchased = try buy(&store)
    let sheet = try store.add(productIdentifier: five, quantity: 1, showsPaymentSheet: true, at: t0)
    let cancelled = try store.answerPaymentSheet(sheet.id, confirmed: false, at: t0)
    _ = try store.set(.latency, to: "slow", at: t0)
    let purchasing = try store.add(productIdentifier: five, quantity: 1, at: t0)
    let error = #expect(throws: TransactionError.self) { try store.finish(purchasing.id) }
    #expect(
      error
        == .wrongState(
          id: purchasing.id, operation: "finish", state: .purchasing, expected: "purchased, restored or failed"))
    // Only what the observer must finish is waiting: purchased and failed, not purchasing or deferred.
    #expect(Set(store.state.unfinished.map(\.id)) == [purchased.id, cancelled.id])

    #expect(try store.finish(purchased.id).finished)
    #expect(try store.finish(cancelled.id).finished)
    #expect(store.state.unfinished.isEmpty)
    // A second observer finishing it again is harmless, as with finishTransaction.
    #expect(try store.finish(purchased.id).finished)
    #expect(store.state.unfinished.isEmpty)
    #expect(throws: TransactionError.unknown("nope")) { try store.finish("nope") }
  }

  @Test("refunds kept in the store never push out the purchase just finished")
  func refundsDoNotPushOutNewPurchases() throws {
    var store = try makeStore(["latency": "instant"])
    let limit = StoreState.finishedHistoryLimit
    for _ in 0..<(limit + 5) {
      let transaction = try buy(&store)
      try store.finish(transaction.id)
      _ = try store.refund(transaction.id, reason: .other, at: Date())
    }
    let next = try buy(&store)
    try store.finish(next.id)
    #expect(store.state.transaction(next.id)?.finished == true, "the purchase just finished is in the store")
    #expect(store.state.transactions.filter(\.isRevoked).count == limit + 5, "every refund stays for the app to find")
  }

  @Test("finished history is capped; unfinished transactions are always kept")
  func historyCap() throws {
    var store = try makeStore(["latency": "instant"])
    let unfinished = try buy(&store)
    let limit = StoreState.finishedHistoryLimit
    var lastFinished = ""
    for _ in 0..<(limit + 50) {
      let transaction = try buy(&store)
      try store.finish(transaction.id)
      lastFinished = transaction.id
    }
    #expect(store.state.transactions.filter(\.finished).count == limit)
    #expect(store.state.transaction(unfinished.id)?.state == .purchased)
    #expect(store.state.unfinished.map(\.id) == [unfinished.id])
    #expect(store.state.transaction(lastFinished)?.finished == true)
    // Identifiers are never reused, even after old ones were dropped.
    let next = try buy(&store)
    #expect(Int(next.id)! > Int(lastFinished)!)
    #expect(Set(store.state.transactions.map(\.id)).count == store.state.transactions.count)
  }
}

@Suite("Store: states, IDs and the store file", .tags(.pure))
struct StoreStateTests {
  @Test("transaction states have SKPaymentTransactionState's raw values and names")
  func transactionStates() throws {
    let expected: [(TransactionState, Int, String)] = [
      (.purchasing, 0, "purchasing"), (.purchased, 1, "purchased"), (.failed, 2, "failed"),
      (.restored, 3, "restored"), (.deferred, 4, "deferred"),
    ]
    for (state, raw, name) in expected {
      #expect(state.rawValue == raw)
      #expect(state.description == name)
      #expect(TransactionState(name: name) == state)
      let json = try JSONEncoder().encode([state])
      #expect(String(decoding: json, as: UTF8.self) == "[\"\(name)\"]")
      #expect(try JSONDecoder().decode([TransactionState].self, from: json) == [state])
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([TransactionState].self, from: Data("[\"paid\"]".utf8))
    }
  }

  @Test("the store state survives a JSON round trip")
  func roundTrip() throws {
    var store = try makeStore(["askToBuy": "on", "storefront": "JPN"])
    _ = try buy(&store)
    _ = try store.add(productIdentifier: ten, quantity: 3, showsPaymentSheet: true, at: t0)
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let data = try encoder.encode(store.state)
    #expect(try decoder.decode(StoreState.self, from: data) == store.state)
  }

  @Test("every error ID is distinct and reads MS-E followed by four digits")
  func errorIDs() {
    let ids = ErrorID.allCases.map(\.rawValue)
    #expect(Set(ids).count == ids.count)
    for id in ids {
      #expect(id.wholeMatch(of: /MS-E[0-9]{4}/) != nil, "\(id)")
    }
    let failures: [StoreFailure] = [
      .cancelled, .networkLost, .notAllowed, .productNotAvailable, .interrupted, .askToBuyDeclined,
      .forced(.storeKit(.unknown)),
    ]
    #expect(Set(failures.map(\.errorID)).count == failures.count)
    #expect(
      StoreFailure.networkLost.error.description
        == "Cannot connect to iTunes Store — SKErrorDomain 0 unknown — MS-E0002")
  }
}

@Suite("Store: a stored signed transaction's form", .tags(.pure))
struct StoredJWSFormTests {
  @Test(
    "a stored signed transaction is three Base64URL parts joined by periods; anything else is refused",
    arguments: [
      ("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLV8", true),
      ("A-_z.0.9", true),
      ("a.b", false), ("a.b.c.d", false), ("a..c", false), (".b.c", false), ("a.b.", false),
      ("a.b.c=", false), ("a+b.c.d", false), ("a/b.c.d", false), ("é.b.c", false), ("a.b.c\n", false),
      ("", false), ("..", false), ("a. b.c", false), ("ａ.b.c", false),
    ])
  func compactForm(_ text: String, _ accepted: Bool) {
    #expect(StoreTransaction.isCompactJWS(text) == accepted)
  }
}
