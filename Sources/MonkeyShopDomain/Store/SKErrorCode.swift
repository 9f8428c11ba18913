/// `SKError.Code`, every case Apple lists, with the raw values of the SDK header (`SKError.h`
/// declares the enum without explicit values, so they count from 0 in its order, which is not the
/// order of Apple's page): https://developer.apple.com/documentation/storekit/skerror/code
public enum SKErrorCode: Int, CaseIterable, Sendable {
  case unknown = 0
  case clientInvalid = 1
  case paymentCancelled = 2
  case paymentInvalid = 3
  case paymentNotAllowed = 4
  case storeProductNotAvailable = 5
  case cloudServicePermissionDenied = 6
  case cloudServiceNetworkConnectionFailed = 7
  case cloudServiceRevoked = 8
  case privacyAcknowledgementRequired = 9
  case unauthorizedRequestData = 10
  case invalidOfferIdentifier = 11
  case invalidSignature = 12
  case missingOfferParams = 13
  case invalidOfferPrice = 14
  case overlayCancelled = 15
  case overlayInvalidConfiguration = 16
  case overlayTimeout = 17
  case ineligibleForOffer = 18
  case unsupportedPlatform = 19
  case overlayPresentedInBackgroundScene = 20
  case paymentMethodBindingConfigurationRequired = 21

  /// The case's name, as Swift spells it.
  public var name: String {
    switch self {
    case .unknown: "unknown"
    case .clientInvalid: "clientInvalid"
    case .paymentCancelled: "paymentCancelled"
    case .paymentInvalid: "paymentInvalid"
    case .paymentNotAllowed: "paymentNotAllowed"
    case .storeProductNotAvailable: "storeProductNotAvailable"
    case .cloudServicePermissionDenied: "cloudServicePermissionDenied"
    case .cloudServiceNetworkConnectionFailed: "cloudServiceNetworkConnectionFailed"
    case .cloudServiceRevoked: "cloudServiceRevoked"
    case .privacyAcknowledgementRequired: "privacyAcknowledgementRequired"
    case .unauthorizedRequestData: "unauthorizedRequestData"
    case .invalidOfferIdentifier: "invalidOfferIdentifier"
    case .invalidSignature: "invalidSignature"
    case .missingOfferParams: "missingOfferParams"
    case .invalidOfferPrice: "invalidOfferPrice"
    case .overlayCancelled: "overlayCancelled"
    case .overlayInvalidConfiguration: "overlayInvalidConfiguration"
    case .overlayTimeout: "overlayTimeout"
    case .ineligibleForOffer: "ineligibleForOffer"
    case .unsupportedPlatform: "unsupportedPlatform"
    case .overlayPresentedInBackgroundScene: "overlayPresentedInBackgroundScene"
    case .paymentMethodBindingConfigurationRequired: "paymentMethodBindingConfigurationRequired"
    }
  }

  /// The localized description the App Store gives with the error, shown labelled as Apple's.
  /// Apple documents the codes, not these texts. For 0 to 5 they are the `localizedDescription`s
  /// developers report seeing (`SKErrorDomain Code=0 "Cannot connect to iTunes Store"`,
  /// https://github.com/bizz84/SwiftyStoreKit/issues/169; seed 001,
  /// https://developer.xamarin.com/guides/ios/platform_features/in-app_purchasing/purchasing_consumable_products/);
  /// Apple's own page on network errors points to `NSURLErrorDomain` instead, and for a payment in
  /// the queue it is silent. For the others no text is reported: they read as Apple's one-line
  /// description of the code on its page (17, 20 and 21 have none: their name in words).
  public var message: String {
    switch self {
    case .unknown: "Cannot connect to iTunes Store"
    case .clientInvalid: "The client is not allowed to issue the request"
    case .paymentCancelled: "The payment was cancelled"
    case .paymentInvalid: "The purchase identifier was invalid"
    case .paymentNotAllowed: "This device is not allowed to make the payment"
    case .storeProductNotAvailable: "The product is not available in the current storefront"
    case .cloudServicePermissionDenied: "The user has not allowed access to Cloud service information"
    case .cloudServiceNetworkConnectionFailed: "The device could not connect to the network"
    case .cloudServiceRevoked: "The user has revoked permission to use this cloud service"
    case .privacyAcknowledgementRequired: "The user has not yet acknowledged Apple's privacy policy for Apple Music"
    case .unauthorizedRequestData: "The app does not have the entitlement the request needs"
    case .invalidOfferIdentifier: "The offer identifier is invalid"
    case .invalidSignature: "The signature in a payment discount isn't valid"
    case .missingOfferParams: "Parameters are missing in a payment discount"
    case .invalidOfferPrice: "The price you specified in App Store Connect is no longer valid"
    case .overlayCancelled: "The overlay was cancelled"
    case .overlayInvalidConfiguration: "The overlay's configuration is invalid"
    case .overlayTimeout: "The overlay timed out"
    case .ineligibleForOffer: "The user is ineligible for the subscription offer"
    case .unsupportedPlatform: "The current platform doesn't support overlays"
    case .overlayPresentedInBackgroundScene: "The overlay was presented in a scene not in the foreground"
    case .paymentMethodBindingConfigurationRequired: "A payment method binding configuration is required"
    }
  }
}

/// The App Store server's own codes, in `SSServerErrorDomain`: not `SKError` codes. Apple documents
/// neither the domain nor these codes (its page on errors names only `SKErrorDomain` and
/// `NSURLErrorDomain`, https://developer.apple.com/documentation/storekit/handling-errors); the
/// seeds quote them from failed purchases (seed 001), and developers report them:
/// `Error Domain=SSServerErrorDomain Code=5002 "An unknown error has occurred"`
/// (https://github.com/MKSG-MugunthKumar/MKStoreKit/issues/98), `Code=5020 "Forget Your Password?"`
/// after failed sign-ins (https://fernweh.jp/b/skpaymenttransactionstatefailed-error/).
public enum ServerErrorCode: Int, CaseIterable, Sendable {
  case unknownError = 5002
  case forgotPassword = 5020

  public var message: String {
    switch self {
    case .unknownError: "An unknown error has occurred"
    case .forgotPassword: "Forget Your Password?"
    }
  }
}

/// The domain of an error StoreKit hands the app.
public enum ErrorDomain: String, CaseIterable, Sendable {
  case skErrorDomain = "SKErrorDomain"
  case ssServerErrorDomain = "SSServerErrorDomain"
}

/// An error as the app receives it with a failed transaction: a domain and a code, which is all a
/// real app can judge it by ("it's important to use the domain and code of the resulting error to
/// determine the underlying cause of failure",
/// https://developer.apple.com/documentation/storekit/handling-errors).
public enum StoreError: Hashable, Sendable, CustomStringConvertible {
  case storeKit(SKErrorCode)
  case server(ServerErrorCode)

  public static let allCases: [StoreError] =
    SKErrorCode.allCases.map(StoreError.storeKit) + ServerErrorCode.allCases.map(StoreError.server)

  public var domain: ErrorDomain {
    switch self {
    case .storeKit: .skErrorDomain
    case .server: .ssServerErrorDomain
    }
  }

  public var code: Int {
    switch self {
    case .storeKit(let code): code.rawValue
    case .server(let code): code.rawValue
    }
  }

  /// The App Store's words that come with it (see `SKErrorCode.message`).
  public var message: String {
    switch self {
    case .storeKit(let code): code.message
    case .server(let code): code.message
    }
  }

  /// The one test an app can make for a cancel: `SKErrorDomain` code 2, `paymentCancelled` (as the
  /// seed's `Code == 2` check). Anything else is an error to show.
  public var isPaymentCancelled: Bool { self == .storeKit(.paymentCancelled) }

  /// `SKErrorDomain 2 paymentCancelled`, `SSServerErrorDomain 5002`: where the App Store's words are
  /// shown beside it.
  public var label: String {
    switch self {
    case .storeKit(let code): "\(domain.rawValue) \(code.rawValue) \(code.name)"
    case .server(let code): "\(domain.rawValue) \(code.rawValue)"
    }
  }

  /// `SKErrorDomain 2 paymentCancelled`, `SSServerErrorDomain 5002 "An unknown error has occurred"`
  /// (a server code has no name: its words say which it is).
  public var description: String {
    switch self {
    case .storeKit: label
    case .server(let code): "\(label) \"\(code.message)\""
    }
  }

  /// Reads a code as a user types it: a number (`2`, `5002`), an `SKError.Code` name
  /// (`paymentCancelled`, any case), or either with its domain first (`SSServerErrorDomain 5002`).
  public init?(argument: String) {
    var text = Substring(argument.trimmingCharacters(in: .whitespaces))
    var domain: ErrorDomain?
    for candidate in ErrorDomain.allCases where text.lowercased().hasPrefix(candidate.rawValue.lowercased()) {
      domain = candidate
      text = text.dropFirst(candidate.rawValue.count).drop { $0 == " " || $0 == ":" }
    }
    let found: StoreError?
    if let number = Int(text) {
      found = Self.allCases.first { $0.code == number }
    } else {
      found = SKErrorCode.allCases.first { $0.name.lowercased() == text.lowercased() }.map(StoreError.storeKit)
    }
    guard let found, domain.map({ $0 == found.domain }) ?? true else { return nil }
    self = found
  }

  /// Every code a forced failure accepts, for help and error messages.
  public static var accepted: String {
    let storeKit = SKErrorCode.allCases.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", ")
    let server = ServerErrorCode.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
    return "SKErrorDomain \(storeKit) (by number or name); SSServerErrorDomain \(server)"
  }
}

extension StoreError: Codable {
  private enum CodingKeys: String, CodingKey { case domain, code }

  /// Written as `{"domain": "SSServerErrorDomain", "code": 5002}`. A bare number, as stores written
  /// before the domain was kept hold it, still reads: its domain follows from the code (SKError codes
  /// are 0 to 21, the server's 5002 and 5020).
  public init(from decoder: any Decoder) throws {
    if let number = try? decoder.singleValueContainer().decode(Int.self) {
      self = try Self.decoded(domain: nil, code: number, decoder.codingPath)
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .domain)
    guard let domain = ErrorDomain(rawValue: name) else {
      throw DecodingError.dataCorruptedError(
        forKey: .domain, in: container,
        debugDescription: "is '\(name)', expected \(ErrorDomain.allCases.map(\.rawValue).joined(separator: " or "))")
    }
    self = try Self.decoded(domain: domain, code: try container.decode(Int.self, forKey: .code), decoder.codingPath)
  }

  static func decoded(domain: ErrorDomain?, code: Int, _ path: [any CodingKey]) throws -> StoreError {
    guard let error = allCases.first(where: { error in error.code == code && (domain ?? error.domain) == error.domain })
    else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: path,
          debugDescription:
            "\(domain.map { "\($0.rawValue) " } ?? "")code \(code) is not one the store returns (\(accepted))"))
    }
    return error
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(domain.rawValue, forKey: .domain)
    try container.encode(code, forKey: .code)
  }
}
