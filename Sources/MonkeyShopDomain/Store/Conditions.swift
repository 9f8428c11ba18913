import Foundation

/// How long the simulated App Store takes to answer.
public enum Latency: String, Codable, CaseIterable, Sendable {
  case instant, normal, slow

  /// From the payment sheet's confirmation to the store's answer.
  public var purchase: TimeInterval {
    switch self {
    case .instant: 0
    case .normal: 1
    case .slow: 8
    }
  }

  /// From `SKProductsRequest.start()` to its answer.
  public var productRequest: TimeInterval {
    switch self {
    case .instant: 0
    case .normal: 0.4
    case .slow: 3
    }
  }
}

/// Where the app dies during delivery, to show why transactions stay until finished.
public enum CrashPoint: String, Codable, CaseIterable, Sendable {
  case beforeDelivery
  case afterDeliveryBeforeFinish
}

/// A crash point that fired: where the app died, and with which transaction. The crash point
/// disarms itself as it fires and leaves this behind, so the next launch can say why a transaction
/// comes back.
public struct FiredCrash: Codable, Equatable, Sendable {
  public var point: CrashPoint
  public var transactionID: String

  public init(_ point: CrashPoint, transactionID: String) {
    self.point = point
    self.transactionID = transactionID
  }
}

/// The App Store environment a signed transaction names (`environment` in its payload, docs/signing.md).
/// Apple's App Store Server Library checks the chain and signature of `Sandbox` (and `Production`)
/// data only: for `Xcode` and `LocalTesting` it skips them, as data signed by Xcode has no Apple
/// chain ("The test environment's certificate is a root certificate. There's no certificate chain
/// to validate", https://developer.apple.com/documentation/storekit/setting-up-storekit-testing-in-xcode).
public enum StoreEnvironment: String, Codable, CaseIterable, Sendable {
  case sandbox = "Sandbox"
  case xcode = "Xcode"
  case localTesting = "LocalTesting"
}

/// Why the App Store refunded a transaction: `Transaction.RevocationReason`, with the raw values of
/// the JWS payload's `revocationReason` ("0 The App Store refunded the transaction on behalf of the
/// customer for other reasons, for example, an accidental purchase. 1 … due to an actual or
/// perceived issue within your app.",
/// https://developer.apple.com/documentation/appstoreservernotifications/revocationreason).
public enum RevocationReason: Int, Codable, CaseIterable, Sendable, CustomStringConvertible {
  case other = 0
  case developerIssue = 1

  public var description: String { self == .other ? "other" : "developerIssue" }

  public init?(name: String) {
    guard let reason = Self.allCases.first(where: { $0.description.lowercased() == name.lowercased() }) else {
      return nil
    }
    self = reason
  }
}

/// The test conditions of the simulated store, mirroring SKTestSession's switches.
public struct Conditions: Codable, Equatable, Sendable {
  public var purchasesAllowed = true
  public var networkUp = true
  public var askToBuy = false
  public var interruptedPurchases = false
  /// The next purchase fails with this code, then the setting clears itself.
  public var failNext: StoreError?
  /// Every purchase fails with this code until switched off.
  public var failAll: StoreError?
  public var latency = Latency.normal
  /// Nil: the catalog's default storefront.
  public var storefront: String?
  /// False: a storefront change stops the purchases in flight (see `Condition`).
  public var continueOnStorefrontChange = true
  /// True: a buy adds its payment without the payment sheet, as if confirmed (see `Condition`).
  public var skipPaymentSheet = false
  /// The `environment` written into signed transactions completed from now on.
  public var environment = StoreEnvironment.sandbox
  /// False: transactions completed from now on fail verification, as Xcode's verification fault
  /// does (`SKTestSession`'s "Fail Transaction Verification").
  public var verificationPasses = true
  /// `SKIncludeConsumableInAppPurchaseHistory` in the app's Info.plist: finished consumables stay
  /// in `Transaction.all` (never in `currentEntitlements`).
  public var includeConsumableHistory = false
  /// The StoreKit the app is written with (see `StoreKitAPI`).
  public var storeKit = StoreKitAPI.storeKit1
  /// How notifications are retried (`NotificationRetry`): `none`, the sandbox's single attempt.
  public var notificationRetry = NotificationRetry.none
  /// What the App Store does with a customer's refund request (`RefundDecision`).
  public var refundDecision = RefundDecision.ask
  /// Armed: the next delivery dies at this point (then the crash point disarms).
  public var crashPoint: CrashPoint?
  /// The crash point that last fired, once it has.
  public var firedCrash: FiredCrash?

  public init() {}

  /// The storefront in force: the one set, else the catalog's default.
  public func activeStorefront(default defaultStorefront: Storefront) -> Storefront {
    storefront.flatMap(Storefront.named) ?? defaultStorefront
  }
}
