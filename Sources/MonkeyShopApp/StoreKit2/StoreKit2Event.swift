import Foundation
import MonkeyShopDomain

/// What an app written with StoreKit 2 calls and receives, as its lines of the event log. StoreKit 2
/// has no payment queue and no transaction states: `purchase(options:)` returns a result, and
/// transactions reach the app only as `Transaction` values, through that result,
/// `Transaction.updates` and `Transaction.unfinished`.
public enum StoreKit2Event: Equatable, Sendable {
  /// `try await product.purchase(options: [.quantity(n)])`: the App Store shows its sheet.
  case purchaseCalled(productIdentifier: String, quantity: Int, appAccountToken: UUID? = nil)
  case purchaseResult(PurchaseOutcome)
  /// A transaction from the listener the app starts at launch.
  case update(transactionID: String, Verification)
  /// A transaction from `Transaction.unfinished`, gone through at launch.
  case unfinished(transactionID: String, Verification)
  /// A refunded transaction from `Transaction.updates`, its `revocationDate` set.
  case revoked(transactionID: String, reason: String)
  /// The app's rule for an unverified transaction: no credits, not finished.
  case notCredited(transactionID: String)
  /// `AppStore.sync()`, the StoreKit 2 Restore Purchases.
  case sync
  case syncThrew(String)
  /// `Transaction.currentEntitlements`, with how many transactions it emitted.
  case currentEntitlements(count: Int)

  /// `purchase(options:)`'s result, or what it threw.
  /// https://developer.apple.com/documentation/storekit/product/purchaseresult
  public enum PurchaseOutcome: Equatable, Sendable {
    /// `.success(VerificationResult<Transaction>)`: the only result that carries a transaction.
    case success(transactionID: String, Verification)
    /// "The purchase is pending, and requires action from the customer. … If a pending purchase
    /// succeeds, StoreKit delivers the resulting `Transaction` in the transaction `updates`."
    case pending
    /// "The user canceled the purchase."
    case userCancelled
    /// `purchase(options:)` threw: `Product.PurchaseError` or `StoreKitError`, as the app sees it.
    case threw(String)
  }

  /// `VerificationResult`: StoreKit checks the JWS before the app sees the transaction.
  /// https://developer.apple.com/documentation/storekit/verificationresult
  public enum Verification: Equatable, Sendable {
    case verified
    /// `.unverified(_, VerificationResult.VerificationError)`; the simulated fault is
    /// `invalidSignature` ("the signature didn't match the header and payload").
    case unverified(reason: String)

    var text: String {
      switch self {
      case .verified: ".verified"
      case .unverified(let reason): ".unverified(\(reason))"
      }
    }
  }

  /// Every name `name` gives, for walkthroughs to check theirs against.
  /// What a StoreKit 2 call throws when the network is down.
  static let networkError = "StoreKitError.networkError(URLError(.notConnectedToInternet))"

  public static let names = [
    "purchase", "success", "unverified", "pending", "userCancelled", "purchaseError", "update", "unfinished",
    "notCredited", "sync", "syncError", "currentEntitlements", "revoked",
  ]

  /// The name `expect: { event: … }` matches.
  var name: String {
    switch self {
    case .purchaseCalled: "purchase"
    case .purchaseResult(.success(_, .verified)): "success"
    case .purchaseResult(.success(_, .unverified)): "unverified"
    case .purchaseResult(.pending): "pending"
    case .purchaseResult(.userCancelled): "userCancelled"
    case .purchaseResult(.threw): "purchaseError"
    case .update: "update"
    case .unfinished: "unfinished"
    case .notCredited: "notCredited"
    case .revoked: "revoked"
    case .sync: "sync"
    case .syncThrew: "syncError"
    case .currentEntitlements: "currentEntitlements"
    }
  }

  var transactionID: String? {
    switch self {
    case .purchaseResult(.success(let id, _)), .update(let id, _), .unfinished(let id, _), .notCredited(let id),
      .revoked(let id, _):
      id
    default: nil
    }
  }

  /// The log line: StoreKit 2's calls and results as code, what they mean in the storefront's
  /// language.
  func text(_ language: Language) -> String {
    func say(_ english: String, _ japanese: String) -> String { language == .ja ? japanese : english }
    let none = say("(no transaction)", "(取引なし)")
    switch self {
    case .purchaseCalled(let identifier, let quantity, let token):
      let option = token.map { ", .appAccountToken(UUID(uuidString: \"\($0.uuidString.lowercased())\")!)" } ?? ""
      return "try await product.purchase(options: [.quantity(\(quantity))\(option)]) \(identifier)"
    case .purchaseResult(let outcome):
      switch outcome {
      case .success(let id, let verification): return "→ .success(\(verification.text)) Transaction #\(id)"
      case .pending: return "→ .pending \(none)"
      case .userCancelled: return "→ .userCancelled \(none)"
      case .threw(let error): return "purchase threw \(error) \(none)"
      }
    case .update(let id, let verification):
      return "Transaction.updates → \(verification.text) #\(id)"
    case .unfinished(let id, let verification):
      return "Transaction.unfinished → \(verification.text) #\(id)"
    case .notCredited(let id):
      return say("#\(id) unverified: not credited, not finished", "#\(id) は .unverified: 付与も完了もしません")
    case .revoked(let id, let reason):
      return "Transaction.updates → .verified #\(id), " + say("revocationDate set", "revocationDate あり")
        + " (\(reason))"
    case .sync:
      return "try await AppStore.sync()"
    case .syncThrew(let error):
      return "AppStore.sync() threw \(error)"
    case .currentEntitlements(let count):
      return "Transaction.currentEntitlements → \(counted(count, "transaction"))"
    }
  }
}

extension StoreFailure {
  /// What a StoreKit 2 app's `purchase(options:)` gives for a purchase the App Store failed: a
  /// result or a thrown error. StoreKit 2 has no failed transactions. Apple documents no mapping
  /// from the SKError codes a payment fails with to StoreKit 2's errors; these follow the names:
  /// a cancel is `.userCancelled`; an interrupted purchase "requires action from the customer", which
  /// is how Apple describes `.pending`; restrictions are `Product.PurchaseError.purchaseNotAllowed`,
  /// an unavailable product `.productUnavailable`, a lost network `StoreKitError.networkError`, and any
  /// other code `StoreKitError.unknown` (https://developer.apple.com/documentation/storekit/storekiterror).
  public var storeKit2Outcome: StoreKit2Event.PurchaseOutcome {
    switch reason {
    case .cancelled: return .userCancelled
    case .interrupted: return .pending
    case .networkLost: return .threw(StoreKit2Event.networkError)
    case .notAllowed: return .threw("Product.PurchaseError.purchaseNotAllowed")
    case .productNotAvailable: return .threw("Product.PurchaseError.productUnavailable")
    case .askToBuyDeclined: return .pending
    case .forced:
      switch code {
      case .storeKit(.paymentCancelled): return .userCancelled
      case .storeKit(.paymentNotAllowed): return .threw("Product.PurchaseError.purchaseNotAllowed")
      case .storeKit(.storeProductNotAvailable): return .threw("Product.PurchaseError.productUnavailable")
      default: return .threw("StoreKitError.unknown (\(code.label))")
      }
    }
  }
}
