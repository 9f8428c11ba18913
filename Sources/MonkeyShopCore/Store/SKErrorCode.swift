/// The StoreKit error codes the simulated store returns, with Apple's raw values.
public enum SKErrorCode: Int, Codable, CaseIterable, Sendable, CustomStringConvertible {
  case unknown = 0
  case clientInvalid = 1
  case paymentCancelled = 2
  case paymentInvalid = 3
  case paymentNotAllowed = 4
  case storeProductNotAvailable = 5
  /// The App Store's own "An unknown error has occurred" (seen in the consumables sample).
  case storeUnknownError = 5002
  /// The App Store's "Forget Your Password?" sign-in failure (seen in the consumables sample).
  case forgotPassword = 5020

  public var name: String {
    switch self {
    case .unknown: "unknown"
    case .clientInvalid: "clientInvalid"
    case .paymentCancelled: "paymentCancelled"
    case .paymentInvalid: "paymentInvalid"
    case .paymentNotAllowed: "paymentNotAllowed"
    case .storeProductNotAvailable: "storeProductNotAvailable"
    case .storeUnknownError: "5002"
    case .forgotPassword: "5020"
    }
  }

  /// The localized description the App Store gives with the error, shown labelled as Apple's.
  /// Apple documents the codes, not these texts: they are the `localizedDescription`s developers
  /// report seeing, as seed 001 quotes them ("Cannot connect to iTunes Store", "Code=5002 An
  /// unknown error has occurred", "Code=5020 Forget Your Password?",
  /// https://developer.xamarin.com/guides/ios/platform_features/in-app_purchasing/purchasing_consumable_products/)
  /// and as reported for a purchase without a network (`SKErrorDomain Code=0 "Cannot connect to
  /// iTunes Store"`, https://github.com/bizz84/SwiftyStoreKit/issues/169). Apple's own page on
  /// network errors points to `NSURLErrorDomain` instead; for a payment in the queue it is silent.
  public var message: String {
    switch self {
    case .unknown: "Cannot connect to iTunes Store"
    case .clientInvalid: "The client is not allowed to issue the request"
    case .paymentCancelled: "The payment was cancelled"
    case .paymentInvalid: "The purchase identifier was invalid"
    case .paymentNotAllowed: "This device is not allowed to make the payment"
    case .storeProductNotAvailable: "The product is not available in the current storefront"
    case .storeUnknownError: "An unknown error has occurred"
    case .forgotPassword: "Forget Your Password?"
    }
  }

  /// `SKError.unknown (0)`, `SKError 5002`.
  public var description: String {
    rawValue >= 5000 ? "SKError \(rawValue)" : "SKError.\(name) (\(rawValue))"
  }

  /// Reads a code as a user types it: `5002`, `0`, `paymentCancelled`.
  public init?(argument: String) {
    if let number = Int(argument), let code = SKErrorCode(rawValue: number) {
      self = code
    } else if let code = SKErrorCode.allCases.first(where: {
      $0.name.lowercased() == argument.lowercased()
    }) {
      self = code
    } else {
      return nil
    }
  }

  public static var accepted: String {
    allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
  }
}
