import Foundation

/// The `settings` of an Xcode StoreKit configuration file: the test session's starting state.
///
/// Xcode writes its Editor menu's switches here (Apple documents the switches, on `SKTestSession`,
/// not the keys): `_storefront` and `_locale` (3.0 on), `_askToBuyEnabled`, `_disableDialogs`,
/// `_failTransactionsEnabled` with `_storeKitError` (1.0, an integer) or `_storeKitErrors` (3.0 on,
/// one `{name, enabled, current}` per StoreKit 2 API), `_timeRate` and the subscription billing
/// switches. The storefront becomes the catalog's; those that match a monkeyshop condition become
/// starting conditions, applied with `monkeyshop store set` (conditions live in the data folder and
/// are switched at any time, so a catalog does not reset them); the rest are reported as not
/// simulated.
public struct StoreKitSettings: Sendable, Equatable {
  /// A condition the file starts the store in, away from monkeyshop's default.
  public struct StartingCondition: Sendable, Equatable {
    public let condition: Condition
    /// As `monkeyshop store set` reads it.
    public let value: String
    /// The setting it comes from, as the file writes it: `_askToBuyEnabled true`.
    public let setting: String
    /// How it differs from what Xcode does, when it does.
    public let note: String?

    /// The command that applies it.
    public var command: String { "monkeyshop store set \(condition) \(value)" }
  }

  public let storefront: Storefront
  /// `_locale` as written (`en_US`), when the file has one.
  public let locale: String?
  /// The UI language `_locale` asks for, when monkeyshop speaks it.
  public let language: Language?
  public let conditions: [StartingCondition]
  /// Settings in force that monkeyshop does not simulate: `_timeRate 6`.
  public let notSimulated: [String]

  /// Keys that describe the file, not the test session: nothing to simulate or report.
  static let fileDetails: Set<String> = ["_applicationInternalID", "_developerTeamID", "_lastSynchronizedDate"]

  init(_ value: JSONValue?, path: String) throws(CatalogError) {
    func fail(_ key: String, _ found: JSONValue, expected: String) -> CatalogError {
      CatalogError(path: path, key: "settings.\(key)", problem: "is \(found.typeName)", expected: expected)
    }
    var fields: [String: JSONValue] = [:]
    if let value {
      guard case .object(let object) = value else {
        throw CatalogError(path: path, key: "settings", problem: "is \(value.typeName)", expected: "an object")
      }
      fields = object
    }
    func flag(_ key: String) throws(CatalogError) -> Bool {
      guard let value = fields[key] else { return false }
      guard case .bool(let flag) = value else { throw fail(key, value, expected: "true or false") }
      return flag
    }
    // Text of the settings reaches the terminal (the report): held to the rule of the file's
    // other text.
    func checked(_ text: String, at key: String) throws(CatalogError) -> String {
      if let refusal = StoreKitConfiguration.refusal(of: text, lineBreaks: false) {
        throw CatalogError(
          path: path, key: "settings.\(TerminalText.clipped(key))", problem: refusal.problem,
          expected: refusal.expected)
      }
      return text
    }
    for key in fields.keys.sorted() {
      if let refusal = StoreKitConfiguration.refusal(of: key, lineBreaks: false) {
        throw CatalogError(
          path: path, key: "settings.\(TerminalText.clipped(key))", problem: "its name \(refusal.problem)",
          expected: "a setting name: \(refusal.expected)")
      }
    }
    func text(_ key: String) throws(CatalogError) -> String? {
      guard let value = fields[key] else { return nil }
      guard case .string(let text) = value else { throw fail(key, value, expected: "a string") }
      return try checked(text, at: key)
    }

    var storefront = Storefront.usa
    if let code = try text("_storefront") {
      guard let known = Storefront.named(code) else {
        throw CatalogError(
          path: path, key: "settings._storefront", problem: "unknown storefront '\(TerminalText.clipped(code))'",
          expected: "one of \(Storefront.knownCodes)")
      }
      storefront = known
    }
    self.storefront = storefront

    var conditions: [StartingCondition] = []
    var notSimulated: [String] = []
    locale = try text("_locale")
    if let locale {
      language = Language(rawValue: String(locale.prefix { $0 != "_" && $0 != "-" }).lowercased())
      if language == nil {
        notSimulated.append("_locale \(TerminalText.clipped(locale)) (the screen speaks en and ja)")
      }
    } else {
      language = nil
    }

    // SKTestSession.askToBuyEnabled: "Enabling this property causes all purchases to require
    // approval until you disable it." —
    // https://developer.apple.com/documentation/storekittest/sktestsession/asktobuyenabled
    if try flag("_askToBuyEnabled") {
      conditions.append(.init(condition: .askToBuy, value: "on", setting: "_askToBuyEnabled true", note: nil))
    }
    // SKTestSession.disableDialogs: "Set this value to `true` when you run automated tests and want
    // to suppress interactive dialogs." —
    // https://developer.apple.com/documentation/storekittest/sktestsession/disabledialogs
    if try flag("_disableDialogs") {
      conditions.append(
        .init(condition: .skipPaymentSheet, value: "on", setting: "_disableDialogs true", note: nil))
    }

    // SKTestSession.failTransactionsEnabled: "Attempted transactions in the payment queue show the
    // `failed` state, with the error code that you set in `failureError`" — every purchase fails:
    // failAll. https://developer.apple.com/documentation/storekittest/sktestsession/failtransactionsenabled
    // Apple does not say how the file writes `failureError`; version 1.0 files hold an integer,
    // read here as the SKError.Code raw value.
    var code: Int?
    if let value = fields["_storeKitError"] {
      guard case .integer(let number) = value else {
        throw fail("_storeKitError", value, expected: "a whole number (an SKError code)")
      }
      code = number
    }
    if try flag("_failTransactionsEnabled") {
      let setting = "_failTransactionsEnabled true" + (code.map { ", _storeKitError \($0)" } ?? "")
      if let error = SKErrorCode(rawValue: code ?? SKErrorCode.unknown.rawValue) {
        // "supported error codes: unknown, invalidOfferIdentifier, invalidSignature,
        // missingOfferParams, invalidOfferPrice" —
        // https://developer.apple.com/documentation/storekittest/sktestsession/failureerror
        let supported: Set<SKErrorCode> = [
          .unknown, .invalidOfferIdentifier, .invalidSignature, .missingOfferParams, .invalidOfferPrice,
        ]
        conditions.append(
          .init(
            condition: .failAll, value: "\(error.rawValue)", setting: setting,
            note: supported.contains(error)
              ? nil
              : "Xcode's failureError supports only unknown, invalidOfferIdentifier, invalidSignature, missingOfferParams and invalidOfferPrice"
          ))
      } else {
        notSimulated.append("\(setting) (no SKError code \(code ?? 0))")
      }
    }

    // 3.0 on: one switch per StoreKit 2 API, as `SKTestSession.setSimulatedError(_:forAPI:)` sets
    // them (https://developer.apple.com/documentation/storekittest/sktestsession/setsimulatederror(_:forapi:)).
    if let value = fields["_storeKitErrors"] {
      guard case .array(let entries) = value else {
        throw fail("_storeKitErrors", value, expected: "an array of {name, enabled, current}")
      }
      for (index, entry) in entries.enumerated() {
        let place = "_storeKitErrors[\(index)]"
        guard case .object(let error) = entry else {
          throw fail(place, entry, expected: "an object {name, enabled, current}")
        }
        guard case .string(let text)? = error["name"] else {
          throw fail("\(place).name", error["name"] ?? .null, expected: "a string")
        }
        let name = try checked(text, at: "\(place).name")
        guard case .bool(let enabled)? = error["enabled"] else {
          throw fail("\(place).enabled", error["enabled"] ?? .null, expected: "true or false")
        }
        guard enabled else { continue }
        let setting = "_storeKitErrors '\(TerminalText.clipped(name))' enabled"
        switch name {
        case "Purchase" where !conditions.contains { $0.condition == .failAll }:
          // Apple fails a StoreKit 2 purchase with a `Product.PurchaseError` or `StoreKitError`
          // (`SKTestFailures.Purchase`); monkeyshop's forced errors are SKError codes, of which
          // unknown is the nearest to any of them.
          conditions.append(
            .init(
              condition: .failAll, value: "\(SKErrorCode.unknown.rawValue)", setting: setting,
              note: "Xcode's error is a StoreKit 2 error; SKError unknown is the nearest"))
        case "Verification":
          conditions.append(.init(condition: .verification, value: "fail", setting: setting, note: nil))
        default:
          notSimulated.append(setting)
        }
      }
    }

    let handled: Set<String> = [
      "_storefront", "_locale", "_askToBuyEnabled", "_disableDialogs", "_failTransactionsEnabled", "_storeKitError",
      "_storeKitErrors",
    ]
    for key in fields.keys.sorted() where !handled.contains(key) && !Self.fileDetails.contains(key) {
      // `_timeRate`, the billing switches of subscriptions and whatever later Xcodes add: reported
      // while they are away from off.
      switch fields[key]! {
      case .bool(false), .integer(0), .null: continue
      case .bool(let flag): notSimulated.append("\(TerminalText.clipped(key)) \(flag)")
      case .integer(let number): notSimulated.append("\(TerminalText.clipped(key)) \(number)")
      case .string(let text):
        notSimulated.append("\(TerminalText.clipped(key)) \(TerminalText.clipped(try checked(text, at: key)))")
      case let other: notSimulated.append("\(TerminalText.clipped(key)) (\(other.typeName))")
      }
    }
    self.conditions = conditions
    self.notSimulated = notSimulated
  }
}
