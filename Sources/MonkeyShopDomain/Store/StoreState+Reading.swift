import Foundation

// `store.json` is read in full and refused whole when anything in it is out of place (docs/data-folder.md):
// a field this monkeyshop does not know, a quantity Apple would never accept, a transaction number
// that repeats or lies above the counter, a storefront that does not exist. JSONDecoder's
// synthesized readers check only types.

extension StoreState {
  /// Transaction numbers stay below this, so the counter can never overflow and every number
  /// survives a trip through a JSON reader that uses doubles.
  public static let transactionNumberLimit = (1 << 53) - 1

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, conditions, transactions, lastTransactionNumber, notifications
    case appTransactionID, recordRevision
  }

  /// The notifications are written once the store has any (a URL, a notification): a store that
  /// never had one reads as before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(conditions, forKey: .conditions)
    try container.encode(transactions, forKey: .transactions)
    try container.encode(lastTransactionNumber, forKey: .lastTransactionNumber)
    try container.encodeIfPresent(appTransactionID, forKey: .appTransactionID)
    try container.encodeIfPresent(recordRevision, forKey: .recordRevision)
    if notifications != NotificationQueue() { try container.encode(notifications, forKey: .notifications) }
  }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    conditions = try container.decode(Conditions.self, forKey: .conditions)
    lastTransactionNumber = try container.decodeWholeNumber(
      forKey: .lastTransactionNumber, in: 0...Self.transactionNumberLimit)
    transactions = try container.decode([StoreTransaction].self, forKey: .transactions)
    // Absent from stores written before notifications: none sent, none waiting.
    notifications = try container.decodeIfPresent(NotificationQueue.self, forKey: .notifications) ?? NotificationQueue()
    appTransactionID = try container.decodeIfPresent(String.self, forKey: .appTransactionID)
    if container.contains(.recordRevision) {
      recordRevision = Int64(
        try container.decodeWholeNumber(forKey: .recordRevision, in: 0...Self.transactionNumberLimit))
    }
    var seen = Set<Int>()
    for (index, transaction) in transactions.enumerated() {
      let place = "transactions[\(index)]"
      guard let number = transaction.number, number <= lastTransactionNumber else {
        throw DecodingError.dataCorruptedError(
          forKey: .transactions, in: container,
          debugDescription:
            "\(place).id is '\(transaction.id)', expected a transaction number from 1 to lastTransactionNumber (\(lastTransactionNumber))"
        )
      }
      guard seen.insert(number).inserted else {
        throw DecodingError.dataCorruptedError(
          forKey: .transactions, in: container,
          debugDescription: "\(place).id \(transaction.id) is listed twice (transaction IDs are unique)")
      }
      if let (field, recorded, signed) = transaction.recordDisagreement {
        throw DecodingError.dataCorruptedError(
          forKey: .transactions, in: container,
          debugDescription:
            "\(place) (transaction \(transaction.id)): its record says \(field) \(recorded) while its signedPurchase, what the App Store signed, says \(signed); the record never changes after a purchase, so this file was edited: put back the store.json monkeyshop wrote"
        )
      }
    }
  }
}

extension StoreTransaction {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, productIdentifier, quantity, state, finished, failure, purchaseDate, answerDate, forcedError
    case hasPurchaseIssue, resolvedFromTransactionID
    case environment, failsVerification, revocationDate, revocationReason, storefront
    case restoredTransactionID, originalPurchaseDate
    case record, signedPurchase, signedRefund
    case appAccountToken, appTransactionID
  }

  /// The name files written before kept `resolvedFromTransactionID` under. It is not Apple's
  /// `originalTransactionIdentifier`, which only a restored transaction has.
  enum EarlierKeys: String, CodingKey, CaseIterable {
    case originalTransactionID
  }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(
      in: decoder, known: CodingKeys.allCases.map(\.rawValue) + EarlierKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    productIdentifier = try container.decode(String.self, forKey: .productIdentifier)
    quantity = try container.decodeWholeNumber(
      forKey: .quantity, in: AppStore.quantityLimit.lowerBound...AppStore.quantityLimit.upperBound)
    state = try container.decode(TransactionState.self, forKey: .state)
    finished = try container.decode(Bool.self, forKey: .finished)
    failure = try container.decodeIfPresent(StoreFailure.self, forKey: .failure)
    purchaseDate = try container.decodeDate(forKey: .purchaseDate)
    answerDate = try container.decodeDateIfPresent(forKey: .answerDate)
    forcedError = try container.decodeIfPresent(StoreError.self, forKey: .forcedError)
    hasPurchaseIssue = try container.decode(Bool.self, forKey: .hasPurchaseIssue)
    let earlier = try decoder.container(keyedBy: EarlierKeys.self)
    let resolvedFrom = try container.decodeIfPresent(String.self, forKey: .resolvedFromTransactionID)
    let earlierResolvedFrom = try earlier.decodeIfPresent(String.self, forKey: .originalTransactionID)
    if resolvedFrom != nil, earlierResolvedFrom != nil {
      throw DecodingError.dataCorruptedError(
        forKey: .originalTransactionID, in: earlier,
        debugDescription: "is the earlier name of resolvedFromTransactionID, which is there too: keep only that one")
    }
    resolvedFromTransactionID = resolvedFrom ?? earlierResolvedFrom
    environment = try container.decodeIfPresent(StoreEnvironment.self, forKey: .environment)
    failsVerification = try container.decodeIfPresent(Bool.self, forKey: .failsVerification) ?? false
    revocationDate = try container.decodeDateIfPresent(forKey: .revocationDate)
    revocationReason = try container.decodeIfPresent(RevocationReason.self, forKey: .revocationReason)
    storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
    restoredTransactionID = try container.decodeIfPresent(String.self, forKey: .restoredTransactionID)
    originalPurchaseDate = try container.decodeDateIfPresent(forKey: .originalPurchaseDate)
    record = try container.decodeIfPresent(PurchaseRecord.self, forKey: .record)
    signedPurchase = try container.decodeIfPresent(String.self, forKey: .signedPurchase)
    signedRefund = try container.decodeIfPresent(String.self, forKey: .signedRefund)
    for (key, jws) in [(CodingKeys.signedPurchase, signedPurchase), (.signedRefund, signedRefund)] {
      if let jws, !StoreTransaction.isCompactJWS(jws) {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription: "is not a JWS in compact serialization (header.payload.signature)")
      }
    }
    if record != nil || signedPurchase != nil, !Self.hasIdentifier(state) {
      throw DecodingError.dataCorruptedError(
        forKey: record != nil ? .record : .signedPurchase, in: container,
        debugDescription: "is set on a \(state) transaction (only a purchased or restored one is recorded and signed)")
    }
    if signedRefund != nil, revocationDate == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .signedRefund, in: container, debugDescription: "is set on a transaction that was not refunded")
    }
    appAccountToken = try container.decodeIfPresent(UUID.self, forKey: .appAccountToken)
    appTransactionID = try container.decodeIfPresent(String.self, forKey: .appTransactionID)
    if originalPurchaseDate != nil, state != .restored {
      throw DecodingError.dataCorruptedError(
        forKey: .originalPurchaseDate, in: container,
        debugDescription: "is set on a \(state) transaction (only a restored one has its purchase's date)")
    }
    if let original = restoredTransactionID, Self.number(original) == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .restoredTransactionID, in: container,
        debugDescription: "is '\(original)', expected a transaction number")
    }
    if (state == .restored) != (restoredTransactionID != nil) {
      throw DecodingError.dataCorruptedError(
        forKey: .restoredTransactionID, in: container,
        debugDescription: state == .restored
          ? "is missing: a restored transaction names the purchase it restores"
          : "is set on a \(state) transaction (only a restored one restores a purchase)")
    }
    if let code = storefront, Storefront.named(code) == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .storefront, in: container, debugDescription: "is '\(code)', expected one of \(Storefront.knownCodes)")
    }
    if (revocationDate == nil) != (revocationReason == nil) {
      throw DecodingError.dataCorruptedError(
        forKey: .revocationReason, in: container,
        debugDescription: "revocationDate and revocationReason come together (a refund sets both)")
    }
    if revocationDate != nil, state != .purchased {
      throw DecodingError.dataCorruptedError(
        forKey: .revocationDate, in: container,
        debugDescription: "is set on a \(state) transaction (only a purchased one is refunded)")
    }
    // The interrupted payment came before the purchase that resolved it.
    if let original = resolvedFromTransactionID,
      Self.number(original).map({ number in Self.number(id).map { number < $0 } ?? true }) != true
    {
      let problem = "is '\(original)', expected the number of an earlier payment (below \(id))"
      throw earlierResolvedFrom == nil
        ? DecodingError.dataCorruptedError(forKey: .resolvedFromTransactionID, in: container, debugDescription: problem)
        : DecodingError.dataCorruptedError(forKey: .originalTransactionID, in: earlier, debugDescription: problem)
    }
    guard (state == .failed) == (failure != nil) else {
      throw DecodingError.dataCorruptedError(
        forKey: .failure, in: container,
        debugDescription: state == .failed
          ? "is missing: a failed transaction says why" : "is set on a \(state) transaction")
    }
    if finished, state != .purchased, state != .failed, state != .restored {
      throw DecodingError.dataCorruptedError(
        forKey: .finished, in: container,
        debugDescription: "is true on a \(state) transaction (only a purchased or failed one is finished)")
    }
  }

  /// The transaction's number, when its id is one as the store writes it: decimal digits, no sign,
  /// no leading zero.
  public var number: Int? { Self.number(id) }

  public static func number(_ id: String) -> Int? {
    guard let first = id.utf8.first, first != UInt8(ascii: "0"), id.utf8.count <= 16,
      id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int(id)
  }

  /// Whether `id` is one the store could give a transaction: a number as it writes them, from 1 to
  /// `StoreState.transactionNumberLimit`. Any other can never name a transaction.
  public static func canBeID(_ id: String) -> Bool {
    number(id).map { $0 <= StoreState.transactionNumberLimit } ?? false
  }
}

extension Conditions {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case purchasesAllowed, networkUp, askToBuy, interruptedPurchases, failNext, failAll, latency, storefront
    case continueOnStorefrontChange, skipPaymentSheet, crashPoint, firedCrash
    case environment, verificationPasses, includeConsumableHistory, storeKit
    case notificationRetry, refundDecision
  }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    purchasesAllowed = try container.decode(Bool.self, forKey: .purchasesAllowed)
    networkUp = try container.decode(Bool.self, forKey: .networkUp)
    askToBuy = try container.decode(Bool.self, forKey: .askToBuy)
    interruptedPurchases = try container.decode(Bool.self, forKey: .interruptedPurchases)
    failNext = try container.decodeIfPresent(StoreError.self, forKey: .failNext)
    failAll = try container.decodeIfPresent(StoreError.self, forKey: .failAll)
    latency = try container.decode(Latency.self, forKey: .latency)
    storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
    // Absent from stores written before the condition existed: the delegate's default answer.
    continueOnStorefrontChange =
      try container.decodeIfPresent(Bool.self, forKey: .continueOnStorefrontChange) ?? true
    skipPaymentSheet = try container.decodeIfPresent(Bool.self, forKey: .skipPaymentSheet) ?? false
    environment = try container.decodeIfPresent(StoreEnvironment.self, forKey: .environment) ?? .sandbox
    verificationPasses = try container.decodeIfPresent(Bool.self, forKey: .verificationPasses) ?? true
    includeConsumableHistory =
      try container.decodeIfPresent(Bool.self, forKey: .includeConsumableHistory) ?? false
    storeKit = try container.decodeIfPresent(StoreKitAPI.self, forKey: .storeKit) ?? .storeKit1
    notificationRetry = try container.decodeIfPresent(NotificationRetry.self, forKey: .notificationRetry) ?? .none
    refundDecision = try container.decodeIfPresent(RefundDecision.self, forKey: .refundDecision) ?? .ask
    crashPoint = try container.decodeIfPresent(CrashPoint.self, forKey: .crashPoint)
    firedCrash = try container.decodeIfPresent(FiredCrash.self, forKey: .firedCrash)
    if let code = storefront, Storefront.named(code) == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .storefront, in: container, debugDescription: "is '\(code)', expected one of \(Storefront.knownCodes)")
    }
  }
}

extension KeyedDecodingContainer {
  /// Dates a store writes: from 1970 to the year 9999, in seconds. A date beyond would overflow
  /// the milliseconds of a signed transaction.
  static var dateRange: ClosedRange<Double> { 0...253_402_300_799 }

  func decodeDate(forKey key: Key) throws -> Date {
    let date = try decode(Date.self, forKey: key)
    guard Self.dateRange.contains(date.timeIntervalSince1970) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "is \(date.timeIntervalSince1970), expected seconds since 1970 up to the year 9999")
    }
    return date
  }

  func decodeDateIfPresent(forKey key: Key) throws -> Date? {
    try contains(key) && !decodeNil(forKey: key) ? decodeDate(forKey: key) : nil
  }
}
