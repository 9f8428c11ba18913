/// One condition of the simulated store, as `monkeyshop store set`, walkthroughs, the conditions
/// bar and panel, and the storefront's switches name it. Each case says how its value is read,
/// written and offered; adding a condition is one case here, its field in `Conditions`, and its
/// two translations in `Words`.
public enum Condition: String, CaseIterable, Sendable, CustomStringConvertible {
  case purchasesAllowed, network, askToBuy, interruptedPurchases, failNext, failAll, latency, storefront
  /// What the app's `SKPaymentQueueDelegate` answers to `paymentQueue(_:shouldContinue:in:)` when
  /// the storefront changes while a payment is in flight. Apple: "Return `false` to stop the
  /// transaction. The transaction will fail with the error `SKError.Code.storeProductNotAvailable`."
  /// https://developer.apple.com/documentation/storekit/skpaymentqueuedelegate/paymentqueue(_:shouldcontinue:in:)
  case continueOnStorefrontChange
  /// No payment sheet: a buy adds the payment at once, as if the person had tapped Buy, for fast
  /// demos. Xcode's StoreKit Testing has the same switch, `SKTestSession.disableDialogs`: "A Boolean
  /// value that determines whether the testing environment disables dialogs during automated
  /// testing. … The default value is `false`. Set this value to `true` when you run automated tests
  /// and want to suppress interactive dialogs."
  /// https://developer.apple.com/documentation/storekittest/sktestsession/disabledialogs
  case skipPaymentSheet
  /// The `environment` of signed transactions (SPEC §8, `StoreEnvironment`).
  case environment
  /// `fail`: transactions completed from now on fail verification, as Xcode's StoreKit Testing
  /// fault "Fail Transaction Verification" does; a StoreKit 2 app receives them `.unverified`.
  case verification
  /// `SKIncludeConsumableInAppPurchaseHistory` in the app's Info.plist: "A Boolean value that
  /// determines whether StoreKit includes finished consumable In-App Purchases in transaction
  /// information. By default, this value is `false`. When it's `false`, StoreKit doesn't return
  /// finished consumables (unless refunded or revoked)" from `Transaction.all` and `latest(for:)`;
  /// `currentEntitlements` never holds consumables.
  /// https://developer.apple.com/documentation/bundleresources/information-property-list/skincludeconsumableinapppurchasehistory
  case includeConsumableHistory
  /// Which StoreKit the app is written with, 1 or 2 (`StoreKitAPI`); changing it restarts the app.
  case storeKit
  case crashPoint

  public var description: String { rawValue }

  /// How its values are written in help and error messages.
  public var values: String {
    switch self {
    case .purchasesAllowed, .continueOnStorefrontChange: "true|false"
    case .network: "up|down"
    case .askToBuy, .interruptedPurchases, .skipPaymentSheet, .includeConsumableHistory: "on|off"
    case .environment: StoreEnvironment.allCases.map(\.rawValue).joined(separator: "|")
    case .verification: "pass|fail"
    case .storeKit: "1|2"
    case .failNext, .failAll: "CODE|off (\(StoreError.accepted))"
    case .latency: Latency.allCases.map(\.rawValue).joined(separator: "|")
    case .storefront: "an App Store storefront (USA|JPN|CHN|…)"
    case .crashPoint: (CrashPoint.allCases.map(\.rawValue) + ["off"]).joined(separator: "|")
    }
  }

  /// Its values in the order the conditions panel offers them.
  public func choices(_ catalog: Catalog) -> [String] {
    switch self {
    case .purchasesAllowed, .continueOnStorefrontChange: ["true", "false"]
    case .network: ["up", "down"]
    case .askToBuy, .interruptedPurchases, .skipPaymentSheet, .includeConsumableHistory: ["off", "on"]
    case .environment: StoreEnvironment.allCases.map(\.rawValue)
    case .verification: ["pass", "fail"]
    case .storeKit: ["1", "2"]
    case .failNext, .failAll: ["off"] + StoreError.allCases.map { "\($0.code)" }
    case .latency: Latency.allCases.map(\.rawValue)
    case .storefront:
      // Only storefronts the catalog prices something in: the store refuses the others.
      catalog.pricedStorefronts.map(\.code)
    case .crashPoint: ["off"] + CrashPoint.allCases.map(\.rawValue)
    }
  }

  /// Whether a value away from its default breaks purchases; storefront, latency and skipping the
  /// payment sheet are choices.
  public var isFault: Bool {
    switch self {
    case .latency, .storefront, .skipPaymentSheet, .environment, .includeConsumableHistory, .storeKit: false
    default: true
    }
  }

  /// Whether the storefront's conditions bar always shows it: SKTestSession's everyday switches.
  /// The others show there only while away from their default.
  public var isAlwaysShown: Bool {
    switch self {
    case .purchasesAllowed, .network, .askToBuy, .interruptedPurchases, .failNext, .failAll, .latency, .storefront:
      true
    default: false
    }
  }

  /// Its value as `store show` prints it and `set` reads it back.
  public func value(in conditions: Conditions, defaultStorefront: Storefront) -> String {
    switch self {
    case .purchasesAllowed: "\(conditions.purchasesAllowed)"
    case .network: conditions.networkUp ? "up" : "down"
    case .askToBuy: conditions.askToBuy ? "on" : "off"
    case .interruptedPurchases: conditions.interruptedPurchases ? "on" : "off"
    case .failNext: conditions.failNext.map { "\($0.code)" } ?? "off"
    case .failAll: conditions.failAll.map { "\($0.code)" } ?? "off"
    case .latency: conditions.latency.rawValue
    case .storefront: conditions.activeStorefront(default: defaultStorefront).code
    case .continueOnStorefrontChange: "\(conditions.continueOnStorefrontChange)"
    case .skipPaymentSheet: conditions.skipPaymentSheet ? "on" : "off"
    case .environment: conditions.environment.rawValue
    case .verification: conditions.verificationPasses ? "pass" : "fail"
    case .includeConsumableHistory: conditions.includeConsumableHistory ? "on" : "off"
    case .storeKit: "\(conditions.storeKit.rawValue)"
    case .crashPoint: conditions.crashPoint?.rawValue ?? "off"
    }
  }

  /// Sets it from a value as a user writes it, refusing anything else with what was expected.
  public func set(_ value: String, in conditions: inout Conditions) throws(ConditionError) {
    let text = value.trimmingCharacters(in: .whitespaces)
    let lowered = text.lowercased()
    func flag(_ yes: String, _ no: String) throws(ConditionError) -> Bool {
      switch lowered {
      case yes, "true", "on", "yes": return true
      case no, "false", "off", "no": return false
      default: throw .badValue(rawValue, text, expected: "\(yes)|\(no)")
      }
    }
    let isOff = ["off", "none"].contains(lowered)
    func code() throws(ConditionError) -> StoreError? {
      if isOff { return nil }
      guard let code = StoreError(argument: text) else {
        throw .badValue(rawValue, text, expected: "an error code (\(StoreError.accepted)) or off")
      }
      return code
    }
    switch self {
    case .purchasesAllowed: conditions.purchasesAllowed = try flag("true", "false")
    case .network: conditions.networkUp = try flag("up", "down")
    case .askToBuy: conditions.askToBuy = try flag("on", "off")
    case .interruptedPurchases: conditions.interruptedPurchases = try flag("on", "off")
    case .failNext: conditions.failNext = try code()
    case .failAll: conditions.failAll = try code()
    case .latency:
      guard let latency = Latency(rawValue: lowered) else { throw .badValue(rawValue, text, expected: values) }
      conditions.latency = latency
    case .storefront:
      guard let storefront = Storefront.named(text) else {
        throw .badValue(rawValue, text, expected: "one of \(Storefront.knownCodes)")
      }
      conditions.storefront = storefront.code
    case .continueOnStorefrontChange: conditions.continueOnStorefrontChange = try flag("true", "false")
    case .skipPaymentSheet: conditions.skipPaymentSheet = try flag("on", "off")
    case .environment:
      guard let environment = StoreEnvironment.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else {
        throw .badValue(rawValue, text, expected: values)
      }
      conditions.environment = environment
    case .verification: conditions.verificationPasses = try flag("pass", "fail")
    case .includeConsumableHistory: conditions.includeConsumableHistory = try flag("on", "off")
    case .storeKit:
      // `2`, `StoreKit 2`, `sk2`, and nothing else.
      let name = lowered.replacingOccurrences(of: " ", with: "")
      guard
        let api = StoreKitAPI.allCases.first(where: { api in
          ["\(api.rawValue)", "storekit\(api.rawValue)", "sk\(api.rawValue)"].contains(name)
        })
      else {
        throw .badValue(rawValue, text, expected: values)
      }
      conditions.storeKit = api
    case .crashPoint:
      if isOff {
        conditions.crashPoint = nil
      } else if let point = CrashPoint(rawValue: text) {
        conditions.crashPoint = point
      } else {
        throw .badValue(rawValue, text, expected: values)
      }
    }
  }
}

/// `network: down`: a condition and the value a walkthrough or `store set` gives it.
public struct ConditionSetting: Hashable, Sendable, CustomStringConvertible {
  public var condition: Condition
  public var value: String

  public init(_ condition: Condition, _ value: String) {
    self.condition = condition
    self.value = value
  }

  public var description: String { "\(condition) = \(value)" }
}

public enum ConditionError: ShopError, Equatable {
  case badValue(String, String, expected: String)

  public var errorID: ErrorID { .invalidCondition }

  public var message: String {
    switch self {
    case .badValue(let name, let value, let expected):
      return "'\(value)' is not a value of \(name) (expected \(expected))"
    }
  }
}
