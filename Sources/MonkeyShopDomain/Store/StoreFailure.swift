/// Why a transaction failed, on the App Store's side, with the error the app receives (a domain and
/// a code) and the stable error ID a tester quotes in a bug report.
public struct StoreFailure: Equatable, Sendable {
  public enum Reason: String, Codable, Sendable, CaseIterable {
    case cancelled
    case networkLost
    case notAllowed
    case productNotAvailable
    case forced
    case interrupted
    case askToBuyDeclined
  }

  public let reason: Reason
  /// What the app receives: `SKPaymentTransaction.error`'s domain and code.
  public let code: StoreError

  public init(_ reason: Reason, code: StoreError) {
    self.reason = reason
    self.code = code
  }

  public static let cancelled = StoreFailure(.cancelled, code: .storeKit(.paymentCancelled))
  public static let networkLost = StoreFailure(.networkLost, code: .storeKit(.unknown))
  public static let notAllowed = StoreFailure(.notAllowed, code: .storeKit(.paymentNotAllowed))
  public static let productNotAvailable = StoreFailure(.productNotAvailable, code: .storeKit(.storeProductNotAvailable))
  /// Apple documents no code for an interrupted purchase's failure; developers see
  /// `SKErrorPaymentCancelled` ("Our app users are complaining they are being charged, even though
  /// we're getting back SKErrorPaymentCancelled", https://forums.developer.apple.com/thread/6431).
  public static let interrupted = StoreFailure(.interrupted, code: .storeKit(.paymentCancelled))
  /// A declined Ask to Buy: Apple's `.deferred` says to "wait for another callback that indicates
  /// the final status" (https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/deferred)
  /// and does not say which state that callback carries for a decline; the simulation ends the
  /// transaction `.failed` with `paymentCancelled`, so a decline has a visible end.
  public static let askToBuyDeclined = StoreFailure(.askToBuyDeclined, code: .storeKit(.paymentCancelled))
  public static func forced(_ code: StoreError) -> StoreFailure { StoreFailure(.forced, code: code) }

  /// On the App Store's side: the person tapped Cancel on the payment sheet. The app cannot see the
  /// reason, only the code (`StoreError.isPaymentCancelled`).
  public var isCancellation: Bool { reason == .cancelled }

  public var errorID: ErrorID {
    switch reason {
    case .cancelled: .purchaseCancelled
    case .networkLost: .networkLostDuringPurchase
    case .notAllowed: .purchasesRestricted
    case .productNotAvailable: .productNotAvailable
    case .forced: .forcedError
    case .interrupted: .purchaseInterrupted
    case .askToBuyDeclined: .askToBuyDeclined
    }
  }

  /// The App Store's words that come with the error.
  public var message: String { code.message }

  /// The error the app receives with the failed transaction.
  public var error: AppStoreError { AppStoreError(code: code, localizedDescription: message, errorID: errorID) }
}

extension StoreFailure: Codable {
  private enum CodingKeys: String, CodingKey { case reason, domain, code }

  /// `{"reason": "forced", "domain": "SSServerErrorDomain", "code": 5002}`; stores written before the
  /// domain was kept have no `domain`, and the code says which it is.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    reason = try container.decode(Reason.self, forKey: .reason)
    let domain = try container.decodeIfPresent(String.self, forKey: .domain).map { name in
      guard let domain = ErrorDomain(rawValue: name) else {
        throw DecodingError.dataCorruptedError(
          forKey: .domain, in: container,
          debugDescription: "is '\(name)', expected \(ErrorDomain.allCases.map(\.rawValue).joined(separator: " or "))")
      }
      return domain
    }
    code = try StoreError.decoded(
      domain: domain, code: try container.decode(Int.self, forKey: .code), decoder.codingPath + [CodingKeys.code])
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(reason, forKey: .reason)
    try container.encode(code.domain.rawValue, forKey: .domain)
    try container.encode(code.code, forKey: .code)
  }
}

/// An error as StoreKit hands it to the app with a failed transaction (`SKPaymentTransaction.error`,
/// an `NSError`): its domain and code and the App Store's words, with the ID of what went wrong.
public struct AppStoreError: ShopError, Equatable, Sendable {
  public let code: StoreError
  /// The App Store's words, e.g. `Cannot connect to iTunes Store`.
  public let localizedDescription: String
  public let errorID: ErrorID

  public init(code: StoreError, localizedDescription: String, errorID: ErrorID) {
    self.code = code
    self.localizedDescription = localizedDescription
    self.errorID = errorID
  }

  /// `Cannot connect to iTunes Store — SKErrorDomain 0 unknown`
  public var message: String { "\(localizedDescription) — \(code.label)" }
}
