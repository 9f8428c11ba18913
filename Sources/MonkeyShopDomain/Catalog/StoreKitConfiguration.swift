import Foundation

/// An Xcode StoreKit configuration file (`.storekit`, docs/catalogs.md): the products a team tests its app
/// with in Xcode, read so that monkeyshop can sell them.
///
/// Apple documents the file only through Xcode's editor ("A StoreKit configuration file contains
/// descriptions of in-app purchases, subscription groups, auto-renewable subscriptions, and
/// non-renewing subscriptions … be sure to keep its file extension `.storekit`" —
/// https://developer.apple.com/documentation/storekit/setting-up-storekit-testing-in-xcode), not
/// its JSON. The shape read here is the one Xcode writes, from version 1.0 (Xcode 12: no
/// `identifier`, no `nonRenewingSubscriptions`, `settings._storeKitError` an integer) to 4.0
/// (`appPolicies`, `settings._storeKitErrors` a list): top level `identifier`, `products`,
/// `settings`, `subscriptionGroups`, `nonRenewingSubscriptions`, `version`; each product with
/// `displayPrice` (a decimal string), `familyShareable`, `internalID`,
/// `localizations[{description, displayName, locale}]`, `productID`, `referenceName` and `type`.
/// Keys monkeyshop has no use for (`appPolicies`, `internalID`, offers) are passed over; the keys
/// it reads must have the types Xcode writes.
///
/// There is one price per product, for the file's storefront: "the price is a placeholder value
/// that's not connected to price tiers" (same page), shown in the storefront's currency.
public struct StoreKitConfiguration: Sendable, Equatable {
  /// A consumable or a non-consumable of the file's `products`.
  public struct InAppProduct: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
      case consumable = "Consumable"
      case nonConsumable = "NonConsumable"
    }

    /// Its place in `products`.
    public let index: Int
    public let productID: String
    public let kind: Kind
    /// As written: the catalog loader reads it as a price in the file's storefront.
    public let displayPrice: String
    /// `referenceName`, when the file has a non-blank one: the name shown where Xcode left the
    /// localization's texts empty.
    public let referenceName: String?
    public let localizations: [Localization]

    /// `products[2]`: where it is in the file.
    public var place: String { "products[\(index)]" }
  }

  public struct Localization: Sendable, Equatable {
    /// Its place in the product's `localizations`.
    public let index: Int
    /// As written: `en_US`, `ja`, `de_DE`.
    public let locale: String
    public let displayName: String
    public let description: String

    /// The catalog's language for the locale: `en_US` and `en` are `en`, `ja_JP` and `ja` are `ja`.
    public var language: String {
      String(locale.prefix { $0 != "_" && $0 != "-" }).lowercased()
    }
  }

  /// An auto-renewable or non-renewing subscription: monkeyshop does not sell them.
  public struct Subscription: Sendable, Equatable {
    public let productID: String
    /// `subscriptionGroups[0].subscriptions[1]`, `nonRenewingSubscriptions[0]` or `products[3]`.
    public let place: String
  }

  /// The file, as messages name it.
  public let path: String
  /// `1.0`, `3.0`: the file's `version`, when it has one.
  public let version: String?
  public let products: [InAppProduct]
  public let subscriptions: [Subscription]
  /// `settings._storefront`, else USA, SKTestSession's default ("The default value is `USA`" —
  /// https://developer.apple.com/documentation/storekittest/sktestsession/storefront).
  public let storefront: Storefront
  public let settings: StoreKitSettings

  /// Whether a catalog path names a StoreKit configuration file: by its extension, which Xcode
  /// requires ("be sure to keep its file extension .storekit").
  public static func isConfiguration(path: String) -> Bool {
    (path as NSString).pathExtension.lowercased() == "storekit"
  }

  /// What is wrong with text read from the file, or nil: every text monkeyshop takes from it
  /// reaches the written products.plist or the terminal.
  ///
  /// Refused: control characters (Unicode's `Cc` of `TerminalText.isControl`: C0, DEL, C1), which
  /// a terminal acts on and XML 1.0 does not allow below U+0020 (a products.plist holding them is
  /// refused by other readers), and the noncharacters, which XML 1.0 does not allow either. A
  /// description may hold line breaks and tabs, as Xcode's editor lets it: the catalog keeps them
  /// (written `&#xA;`, `&#x9;`), the storefront draws nothing for them and messages show them
  /// escaped. Formatting marks, such as the bidirectional marks of Arabic and Hebrew text, are
  /// kept the same way.
  static func refusal(of text: String, lineBreaks: Bool) -> (problem: String, expected: String)? {
    for scalar in text.unicodeScalars {
      if scalar.value >= 0x20 && scalar.value < 0x7F { continue }
      if lineBreaks && (scalar == "\n" || scalar == "\t") { continue }
      if TerminalText.isControl(scalar) && scalar.properties.generalCategory == .control {
        return (
          "holds the control character \(Self.codePoint(scalar))",
          lineBreaks
            ? "text without control characters other than line breaks and tabs"
            : "one line of text without control characters"
        )
      }
      if scalar.properties.isNoncharacterCodePoint {
        return ("holds the noncharacter \(Self.codePoint(scalar))", "text without noncharacters")
      }
    }
    return nil
  }

  /// `U+001B`.
  static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  public static func load(path: String) throws(CatalogError) -> StoreKitConfiguration {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      // As the catalog loader says it of a products.plist: the same exit status for both.
      let problem = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
      throw CatalogError(path: path, problem: problem, expected: "an Xcode StoreKit configuration file")
    }
    return try parse(data, path: path)
  }

  public static func parse(_ data: Data, path: String) throws(CatalogError) -> StoreKitConfiguration {
    do {
      try JSONShape.check(data)
    } catch {
      switch error {
      // The key path is the file's own keys: clipped, as any text of the file in a message.
      case .duplicateKey(let key, let place):
        throw CatalogError(
          path: path, key: TerminalText.clipped(place == "the top level" ? key : "\(place).\(key)"),
          problem: "is written twice", expected: "each key once")
      case .tooDeep(let place):
        throw CatalogError(
          path: path, key: TerminalText.clipped(place), problem: "is nested too deeply",
          expected: "an Xcode StoreKit configuration file")
      }
    }
    let root: JSONValue
    do {
      root = try JSONValue.parse(data)
    } catch {
      throw CatalogError(
        path: path, problem: "is not JSON", expected: "an Xcode StoreKit configuration file, which is JSON")
    }
    var reader = StoreKitReader(path: path)
    return try reader.configuration(root)
  }
}

/// Walks the JSON, naming the key path (`products[2].displayPrice`) of anything wrong.
private struct StoreKitReader {
  let path: String
  /// The product being read, once its ID is known: messages name it as the catalog loader's do.
  var product: String?

  func fail(_ key: String, _ problem: String, expected: String) -> CatalogError {
    CatalogError(path: path, product: product, key: key, problem: problem, expected: expected)
  }

  func object(_ value: JSONValue?, at key: String, expected: String) throws(CatalogError) -> [String: JSONValue] {
    guard let value else { throw fail(key, "missing", expected: expected) }
    guard case .object(let fields) = value else { throw fail(key, "is \(value.typeName)", expected: expected) }
    return fields
  }

  func array(_ value: JSONValue?, at key: String, expected: String) throws(CatalogError) -> [JSONValue] {
    guard let value else { throw fail(key, "missing", expected: expected) }
    guard case .array(let items) = value else { throw fail(key, "is \(value.typeName)", expected: expected) }
    return items
  }

  /// An array that may be left out (`nonRenewingSubscriptions` before version 1.1).
  func optionalArray(_ value: JSONValue?, at key: String, expected: String) throws(CatalogError) -> [JSONValue] {
    guard value != nil else { return [] }
    return try array(value, at: key, expected: expected)
  }

  /// Text of the file, refused with its key path when it holds what `refusal(of:lineBreaks:)`
  /// refuses; `lineBreaks` for a description.
  func string(
    _ fields: [String: JSONValue], _ name: String, at place: String, nonEmpty: Bool = true, lineBreaks: Bool = false
  ) throws(CatalogError) -> String {
    let key = place.isEmpty ? name : "\(place).\(name)"
    guard let value = fields[name] else { throw fail(key, "missing", expected: "a string") }
    guard case .string(let text) = value else { throw fail(key, "is \(value.typeName)", expected: "a string") }
    if let refusal = StoreKitConfiguration.refusal(of: text, lineBreaks: lineBreaks) {
      throw fail(key, refusal.problem, expected: refusal.expected)
    }
    guard !nonEmpty || !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw fail(key, "is empty", expected: "a non-empty string")
    }
    return text
  }

  mutating func configuration(_ root: JSONValue) throws(CatalogError) -> StoreKitConfiguration {
    guard case .object(let top) = root else {
      throw CatalogError(
        path: path, problem: "the top level is \(root.typeName)",
        expected: "a JSON object with products, settings, subscriptionGroups, version")
    }
    let version = try self.version(top["version"])
    if let identifier = top["identifier"] {
      guard case .string = identifier else {
        throw fail("identifier", "is \(identifier.typeName)", expected: "a string")
      }
    }
    let settings = try StoreKitSettings(top["settings"], path: path)
    let entries = try array(
      top["products"], at: "products", expected: "an array of products (Consumable and NonConsumable)")
    var products: [StoreKitConfiguration.InAppProduct] = []
    var subscriptions: [StoreKitConfiguration.Subscription] = []
    var seen: [String: String] = [:]
    for (index, entry) in entries.enumerated() {
      product = nil
      let place = "products[\(index)]"
      let fields = try object(entry, at: place, expected: "a product object")
      let productID = try string(fields, "productID", at: place)
      product = productID
      if let earlier = seen[productID] {
        throw fail("\(place).productID", "is also the ID of \(earlier)", expected: "each product ID once")
      }
      seen[productID] = place
      let type = try string(fields, "type", at: place)
      guard let kind = StoreKitConfiguration.InAppProduct.Kind(rawValue: type) else {
        if Self.subscriptionTypes.contains(type) {
          subscriptions.append(.init(productID: productID, place: place))
          continue
        }
        throw fail("\(place).type", "is '\(TerminalText.clipped(type))'", expected: "Consumable or NonConsumable")
      }
      let displayPrice = try string(fields, "displayPrice", at: place)
      var referenceName: String?
      if fields["referenceName"] != nil {
        let name = try string(fields, "referenceName", at: place, nonEmpty: false)
        referenceName = name.trimmingCharacters(in: .whitespaces).isEmpty ? nil : name
      }
      products.append(
        .init(
          index: index, productID: productID, kind: kind, displayPrice: displayPrice, referenceName: referenceName,
          localizations: try localizations(fields["localizations"], at: "\(place).localizations")))
    }
    product = nil
    subscriptions += try self.subscriptions(top)
    return StoreKitConfiguration(
      path: path, version: version, products: products, subscriptions: subscriptions,
      storefront: settings.storefront, settings: settings)
  }

  /// Types Xcode writes for subscriptions; in `products` they are left out like the others.
  static let subscriptionTypes: Set<String> = ["RecurringSubscription", "NonRenewingSubscription"]

  func version(_ value: JSONValue?) throws(CatalogError) -> String? {
    guard let value else { return nil }
    let expected = "an object {major, minor} of whole numbers"
    guard case .object(let fields) = value else { throw fail("version", "is \(value.typeName)", expected: expected) }
    var parts: [Int] = []
    for name in ["major", "minor"] {
      guard let part = fields[name] else { throw fail("version.\(name)", "missing", expected: "a whole number") }
      guard case .integer(let number) = part else {
        throw fail("version.\(name)", "is \(part.typeName)", expected: "a whole number")
      }
      parts.append(number)
    }
    return parts.map(String.init).joined(separator: ".")
  }

  func localizations(_ value: JSONValue?, at place: String) throws(CatalogError)
    -> [StoreKitConfiguration.Localization]
  {
    let expected = "an array of {description, displayName, locale}"
    let entries = try array(value, at: place, expected: expected)
    guard !entries.isEmpty else {
      throw fail(place, "is empty", expected: "at least one localization with displayName and description")
    }
    var result: [StoreKitConfiguration.Localization] = []
    for (index, entry) in entries.enumerated() {
      let at = "\(place)[\(index)]"
      let fields = try object(entry, at: at, expected: "an object {description, displayName, locale}")
      let locale = try string(fields, "locale", at: at)
      guard Self.isLocale(locale) else {
        throw fail(
          "\(at).locale", "'\(TerminalText.clipped(locale))' is not a locale",
          expected: "a locale such as en_US, ja or zh_Hans")
      }
      // Empty texts are what Xcode writes for a new product (`"description" : "", "displayName" :
      // ""`): taken, and warned about by the conversion (`catalogLocalizations`), which stands in
      // for them.
      result.append(
        .init(
          index: index, locale: locale,
          displayName: try string(fields, "displayName", at: at, nonEmpty: false),
          description: try string(fields, "description", at: at, nonEmpty: false, lineBreaks: true)))
    }
    return result
  }

  /// `en`, `en_US`, `zh_Hans`, `es-419`: a language of two or three letters, then parts of letters
  /// and digits. The language becomes a key of the catalog's localizations.
  static func isLocale(_ text: String) -> Bool {
    let parts = text.split(separator: "_", omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
    guard let language = parts.first, (2...3).contains(language.count),
      language.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
  }

  /// Every subscription of `subscriptionGroups` and `nonRenewingSubscriptions`, to be reported.
  mutating func subscriptions(_ top: [String: JSONValue]) throws(CatalogError) -> [StoreKitConfiguration.Subscription] {
    var found: [StoreKitConfiguration.Subscription] = []
    let groups = try optionalArray(
      top["subscriptionGroups"], at: "subscriptionGroups", expected: "an array of subscription groups")
    for (groupIndex, group) in groups.enumerated() {
      let at = "subscriptionGroups[\(groupIndex)]"
      let fields = try object(group, at: at, expected: "a subscription group object")
      let members = try optionalArray(
        fields["subscriptions"], at: "\(at).subscriptions", expected: "an array of subscriptions")
      for (index, member) in members.enumerated() {
        let place = "\(at).subscriptions[\(index)]"
        let fields = try object(member, at: place, expected: "a subscription object")
        found.append(.init(productID: try string(fields, "productID", at: place), place: place))
      }
    }
    let nonRenewing = try optionalArray(
      top["nonRenewingSubscriptions"], at: "nonRenewingSubscriptions", expected: "an array of subscriptions")
    for (index, member) in nonRenewing.enumerated() {
      let place = "nonRenewingSubscriptions[\(index)]"
      let fields = try object(member, at: place, expected: "a subscription object")
      found.append(.init(productID: try string(fields, "productID", at: place), place: place))
    }
    return found
  }
}
