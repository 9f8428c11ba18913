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

/// The test conditions of the simulated store, mirroring SKTestSession's switches.
public struct Conditions: Codable, Equatable, Sendable {
  public var purchasesAllowed = true
  public var networkUp = true
  public var askToBuy = false
  public var interruptedPurchases = false
  /// The next purchase fails with this code, then the setting clears itself.
  public var failNext: SKErrorCode?
  /// Every purchase fails with this code until switched off.
  public var failAll: SKErrorCode?
  public var latency = Latency.normal
  /// Nil: the catalog's default storefront.
  public var storefront: String?
  /// Armed: the next delivery dies at this point (then the crash point disarms).
  public var crashPoint: CrashPoint?

  public init() {}

  /// One condition: its name, the values `store set` and walkthroughs accept, and the values the
  /// conditions panel cycles through.
  public struct Setting: Sendable {
    public let name: String
    /// How its values are written in help and error messages.
    public let values: String
    /// Its values in the order the conditions panel offers them.
    public let choices: @Sendable (Catalog) -> [String]

    init(_ name: String, _ values: String, choices: @escaping @Sendable (Catalog) -> [String]) {
      self.name = name
      self.values = values
      self.choices = choices
    }
  }

  static let codes = ["off"] + SKErrorCode.allCases.map { "\($0.rawValue)" }

  /// Every condition, in the order the conditions bar and panel show them.
  public static let settings: [Setting] = [
    Setting("purchasesAllowed", "true|false") { _ in ["true", "false"] },
    Setting("network", "up|down") { _ in ["up", "down"] },
    Setting("askToBuy", "on|off") { _ in ["off", "on"] },
    Setting("interruptedPurchases", "on|off") { _ in ["off", "on"] },
    Setting("failNext", "CODE|off (\(SKErrorCode.accepted))") { _ in codes },
    Setting("failAll", "CODE|off (\(SKErrorCode.accepted))") { _ in codes },
    Setting("latency", "instant|normal|slow") { _ in Latency.allCases.map(\.rawValue) },
    Setting("storefront", Storefront.all.map(\.code).joined(separator: "|")) { catalog in
      // Only storefronts every product has a price in: the store refuses the others.
      Storefront.all.filter { storefront in
        catalog.products.allSatisfy { !$0.availableInStore || $0.price(in: storefront) != nil }
      }.map(\.code)
    },
    Setting("crashPoint", "beforeDelivery|afterDeliveryBeforeFinish|off") { _ in
      ["off"] + CrashPoint.allCases.map(\.rawValue)
    },
  ]

  /// Applies `store set NAME VALUE`, refusing anything it does not know with what it expected.
  public mutating func set(_ name: String, to value: String) throws(ConditionError) {
    let text = value.trimmingCharacters(in: .whitespaces)
    func flag(_ yes: String, _ no: String) throws(ConditionError) -> Bool {
      switch text.lowercased() {
      case yes, "true", "on", "yes": return true
      case no, "false", "off", "no": return false
      default: throw ConditionError.badValue(name, text, expected: "\(yes)|\(no)")
      }
    }
    func code() throws(ConditionError) -> SKErrorCode? {
      if ["off", "none"].contains(text.lowercased()) { return nil }
      guard let code = SKErrorCode(argument: text) else {
        throw ConditionError.badValue(name, text, expected: "an SKError code (\(SKErrorCode.accepted)) or off")
      }
      return code
    }
    switch name {
    case "purchasesAllowed": purchasesAllowed = try flag("true", "false")
    case "network": networkUp = try flag("up", "down")
    case "askToBuy": askToBuy = try flag("on", "off")
    case "interruptedPurchases": interruptedPurchases = try flag("on", "off")
    case "failNext": failNext = try code()
    case "failAll": failAll = try code()
    case "latency":
      guard let latency = Latency(rawValue: text.lowercased()) else {
        throw ConditionError.badValue(name, text, expected: "instant|normal|slow")
      }
      self.latency = latency
    case "storefront":
      guard let storefront = Storefront.named(text) else {
        throw ConditionError.badValue(name, text, expected: "one of \(Storefront.knownCodes)")
      }
      self.storefront = storefront.code
    case "crashPoint":
      if ["off", "none"].contains(text.lowercased()) {
        crashPoint = nil
      } else if let point = CrashPoint(rawValue: text) {
        crashPoint = point
      } else {
        throw ConditionError.badValue(name, text, expected: "beforeDelivery|afterDeliveryBeforeFinish|off")
      }
    default:
      throw ConditionError.unknownCondition(name)
    }
  }

  /// Each condition and its state, as the conditions bar and `store show` list them.
  /// The storefront in force: the one set, else the catalog's default.
  public func activeStorefront(default defaultStorefront: Storefront) -> Storefront {
    storefront.flatMap(Storefront.named) ?? defaultStorefront
  }

  public func summary(defaultStorefront: Storefront) -> [(name: String, value: String)] {
    [
      ("purchasesAllowed", purchasesAllowed ? "true" : "false"),
      ("network", networkUp ? "up" : "down"),
      ("askToBuy", askToBuy ? "on" : "off"),
      ("interruptedPurchases", interruptedPurchases ? "on" : "off"),
      ("failNext", failNext.map { "\($0.rawValue)" } ?? "off"),
      ("failAll", failAll.map { "\($0.rawValue)" } ?? "off"),
      ("latency", latency.rawValue),
      ("storefront", activeStorefront(default: defaultStorefront).code),
      ("crashPoint", crashPoint?.rawValue ?? "off"),
    ]
  }
}

public enum ConditionError: Error, Equatable, CustomStringConvertible {
  case unknownCondition(String)
  case badValue(String, String, expected: String)

  public var description: String {
    switch self {
    case .unknownCondition(let name):
      let names = Conditions.settings.map(\.name).joined(separator: ", ")
      return "unknown condition '\(name)' (expected one of \(names))"
    case .badValue(let name, let value, let expected):
      return "'\(value)' is not a value of \(name) (expected \(expected))"
    }
  }
}
