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

  /// `Cannot connect to iTunes Store — SKError.unknown (0) — MS-E0002`
  public var summary: String { "\(message) — \(code) — \(errorID)" }
}

/// A stable identifier for every error a user can see.
public enum ErrorID: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case productRequestFailed = "MS-E0001"
  case networkLostDuringPurchase = "MS-E0002"
  case purchasesRestricted = "MS-E0003"
  case purchaseCancelled = "MS-E0004"
  case askToBuyDeclined = "MS-E0005"
  case purchaseInterrupted = "MS-E0006"
  case forcedError = "MS-E0007"
  case productNotAvailable = "MS-E0008"
  case invalidQuantity = "MS-E0009"
  case insufficientBalance = "MS-E0010"
  case unreadableDataFile = "MS-E0011"
  case invalidCatalog = "MS-E0012"
  case unknownTransaction = "MS-E0013"
  case invalidCondition = "MS-E0014"
  case cannotWriteDataFile = "MS-E0015"
  case invalidAmount = "MS-E0016"
  case balanceOverflow = "MS-E0017"
  case dataFolderBusy = "MS-E0018"

  public var description: String { rawValue }

  /// The ID of an error any part of the shop throws.
  public static func of(_ error: any Error) -> ErrorID {
    switch error {
    case let error as DataFileError: error.errorID
    case let error as DataFolderBusy: error.errorID
    case let error as CreditError: error.errorID
    case let error as TransactionError: error.errorID
    case let error as PaymentError: error.errorID
    case is ConditionError: .invalidCondition
    default: .unreadableDataFile
    }
  }
}
