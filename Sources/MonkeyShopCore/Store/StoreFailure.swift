/// Why a transaction failed, with the SKError code the app receives and the stable error ID a tester
/// quotes in a bug report.
public struct StoreFailure: Codable, Equatable, Sendable {
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
  public let code: SKErrorCode

  public init(_ reason: Reason, code: SKErrorCode) {
    self.reason = reason
    self.code = code
  }

  public static let cancelled = StoreFailure(.cancelled, code: .paymentCancelled)
  public static let networkLost = StoreFailure(.networkLost, code: .unknown)
  public static let notAllowed = StoreFailure(.notAllowed, code: .paymentNotAllowed)
  public static let productNotAvailable = StoreFailure(.productNotAvailable, code: .storeProductNotAvailable)
  public static let interrupted = StoreFailure(.interrupted, code: .paymentCancelled)
  public static let askToBuyDeclined = StoreFailure(.askToBuyDeclined, code: .paymentCancelled)
  public static func forced(_ code: SKErrorCode) -> StoreFailure { StoreFailure(.forced, code: code) }

  /// A cancel on the payment sheet is the user's choice, not an error.
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

  /// What the user is told, in the App Store's words where it has them.
  public var message: String {
    switch reason {
    case .interrupted: "The purchase was interrupted: an issue with the account must be resolved"
    case .askToBuyDeclined: "The Ask to Buy request was declined"
    default: code.message
    }
  }

  /// The error the app receives with the failed transaction.
  public var error: SKError { SKError(code: code, localizedDescription: message, errorID: errorID) }
}

/// An error as StoreKit hands it to the app: the App Store's words and the SKError code, with the
/// ID of what went wrong.
public struct SKError: ShopError, Equatable, Sendable {
  public let code: SKErrorCode
  /// The App Store's words, e.g. `Cannot connect to iTunes Store`.
  public let localizedDescription: String
  public let errorID: ErrorID

  public init(code: SKErrorCode, localizedDescription: String, errorID: ErrorID) {
    self.code = code
    self.localizedDescription = localizedDescription
    self.errorID = errorID
  }

  /// `Cannot connect to iTunes Store — SKError.unknown (0)`
  public var message: String { "\(localizedDescription) — \(code)" }
}
