import Foundation

/// Reads and validates `products.plist` (XML or binary property list).
public enum CatalogLoader {
  /// The catalog at `path`; an Xcode StoreKit configuration file (`.storekit`) is read as one,
  /// its consumables granting `credits` (product ID → credits per unit). `builtIn`: hosted content
  /// built into the binary, for a package not found beside the file.
  public static func load(path: String, credits: [String: Int] = [:], builtIn: [String: Data] = [:])
    throws(CatalogError) -> Catalog
  {
    if StoreKitConfiguration.isConfiguration(path: path) {
      return try StoreKitConfiguration.load(path: path).catalog(credits: credits)
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let problem =
        FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
      throw CatalogError(path: path, problem: problem, expected: "a products.plist property list")
    }
    return try parse(data, path: path, content: .folder(PathText.folder(of: path), builtIn: builtIn))
  }

  /// `content`: where `hostedContent.path` is found; by default relative to the catalog file's
  /// folder.
  public static func parse(_ data: Data, path: String, content: HostedContentSource? = nil) throws(CatalogError)
    -> Catalog
  {
    try parse(data, path: path, fastXML: true, content: content)
  }

  /// `fastXML: false` reads with Foundation alone, for the tests that compare the two.
  static func parse(_ data: Data, path: String, fastXML: Bool, content: HostedContentSource? = nil)
    throws(CatalogError) -> Catalog
  {
    let content = content ?? .folder(PathText.folder(of: path))
    let root: PropertyListValue
    if fastXML, let parsed = XMLPropertyList.parse(data) {
      // The usual case, read in a fraction of Foundation's time, to the same values.
      root = parsed
    } else {
      // Binary plists, and anything the fast reader leaves alone: Foundation reads it or
      // refuses it.
      do {
        root = try PropertyListValue.foundationReading(data)
      } catch {
        let refusal = CatalogError(path: path, problem: "not a property list", expected: "an XML or binary plist")
        // Foundation refuses a whole document for one integer beyond 64 bits. Read it again
        // keeping such integers, to name the product and key that hold one; whatever that reading
        // finds, the document stays refused.
        if case .dictionary(let kept)? = XMLPropertyList.parse(data, keepingOversizedIntegers: true) {
          var reader = Reader(path: path, content: content)
          _ = try reader.catalog(kept)
        }
        throw refusal
      }
    }
    guard case .dictionary(let dictionary) = root else {
      throw CatalogError(
        path: path, problem: "the root is \(root.typeName)", expected: "a dictionary")
    }
    var reader = Reader(path: path, content: content)
    return try reader.catalog(dictionary)
  }

  /// A catalog from a property list already read, such as the one a `.storekit` file makes.
  /// (A `.storekit` file has no hosted content; a package is looked for beside it all the same.)
  static func catalog(root: [String: PropertyListValue], path: String) throws(CatalogError) -> Catalog {
    var reader = Reader(path: path, content: .folder(PathText.folder(of: path)))
    return try reader.catalog(root)
  }

  /// Walks the property list, naming the product and key of anything wrong.
  ///
  /// It runs over every product of catalogs of thousands, so it builds no text until something
  /// is wrong: names of keys and products are made in `fail`.
  struct Reader {
    let path: String
    /// Where the packages of `hostedContent` are.
    let content: HostedContentSource
    /// The identifier of the product being read, once it is known.
    var product: String?
    /// The position of the product being read, named `products[index]` until its identifier is
    /// known.
    var productIndex: Int?
    /// Prices already read, with their decimal places (trailing zeros aside): catalogs repeat the
    /// same few price strings.
    var decimals: [String: (price: Decimal, places: Int)] = [:]

    static let rootKeys = ["products", "defaultStorefront", "bundleIdentifier"]
    static let productKeys = [
      "productIdentifier", "type", "credits", "localizations", "prices", "availableInStore", "hostedContent",
    ]
    /// The types sold: `SKProduct` has no type, App Store Connect does; subscriptions are not simulated.
    static let types = ["consumable", "nonConsumable"]

    func fail(_ key: String?, _ problem: String, expected: String? = nil) -> CatalogError {
      let product = product ?? productIndex.map { "products[\($0)]" }
      return CatalogError(path: path, product: product, key: key, problem: problem, expected: expected)
    }

    mutating func catalog(_ root: [String: PropertyListValue]) throws(CatalogError) -> Catalog {
      if let key = Self.firstUnknownKey(of: root, known: Self.rootKeys) {
        throw fail(key, "unknown key", expected: Self.rootKeys.joined(separator: ", "))
      }
      var storefront = Storefront.usa
      if let value = root["defaultStorefront"] {
        guard case .string(let code) = value else {
          throw fail("defaultStorefront", "is \(value.typeName)", expected: "a storefront code string")
        }
        guard let known = Storefront.named(code) else {
          throw fail(
            "defaultStorefront", "unknown storefront '\(TerminalText.clipped(code))'",
            expected: "one of \(Storefront.knownCodes)")
        }
        storefront = known
      }
      var bundleIdentifier = Catalog.defaultBundleIdentifier
      if root["bundleIdentifier"] != nil {
        bundleIdentifier = try string(root, "bundleIdentifier")
        guard Self.isBundleIdentifier(bundleIdentifier) else {
          throw fail(
            "bundleIdentifier", "'\(TerminalText.clipped(bundleIdentifier))' is not a bundle ID",
            expected: "reverse-DNS of letters, digits, hyphens and periods, such as com.example.app")
        }
      }
      guard let value = root["products"] else {
        throw fail("products", "missing", expected: "an array of product dictionaries")
      }
      guard case .array(let entries) = value else {
        throw fail("products", "is \(value.typeName)", expected: "an array of product dictionaries")
      }
      guard !entries.isEmpty else {
        throw fail("products", "is empty", expected: "at least one product")
      }
      var products: [Product] = []
      products.reserveCapacity(entries.count)
      var seen: Set<String> = []
      seen.reserveCapacity(entries.count)
      for (index, entry) in entries.enumerated() {
        product = nil
        productIndex = nil
        guard case .dictionary(let dictionary) = entry else {
          throw fail("products[\(index)]", "is \(entry.typeName)", expected: "a product dictionary")
        }
        let item = try self.product(dictionary, index: index)
        guard seen.insert(item.productIdentifier).inserted else {
          throw fail("productIdentifier", "duplicate identifier", expected: "each identifier once")
        }
        products.append(item)
      }
      product = nil
      productIndex = nil
      let catalog = Catalog(products: products, defaultStorefront: storefront, bundleIdentifier: bundleIdentifier)
      try catalog.checkPrices(in: storefront, path: path)
      return catalog
    }

    mutating func product(_ entry: [String: PropertyListValue], index: Int) throws(CatalogError) -> Product {
      let known = Self.productKeys
      productIndex = index
      let identifier = try string(entry, "productIdentifier")
      product = identifier
      // Apple: "The product ID can contain letters, numbers, hyphens, periods, and underscores, and
      // can be as long as 100 characters"
      // (https://developer.apple.com/help/app-store-connect/reference/in-app-purchase-information).
      // Reverse-DNS below allows only those characters; the length also keeps every content
      // folder named after the ID (`content/.<ID>.unpacking`) well inside a file name's limit.
      guard identifier.count <= Product.maximumIdentifierLength else {
        throw fail(
          "productIdentifier",
          "is \(identifier.count) characters long, more than Apple's limit of \(Product.maximumIdentifierLength)",
          expected: "a product ID of at most \(Product.maximumIdentifierLength) characters")
      }
      guard Self.isReverseDNS(identifier) else {
        throw fail(
          "productIdentifier", "'\(TerminalText.clipped(identifier))' is not reverse-DNS",
          expected:
            "letters, digits, hyphens, periods and underscores (Apple's product ID characters), reverse-DNS, e.g. com.example.monkeycredits.5"
        )
      }
      if let key = Self.firstUnknownKey(of: entry, known: known) {
        throw fail(key, "unknown key", expected: known.joined(separator: ", "))
      }
      let type = try string(entry, "type")
      guard Self.types.contains(type) else {
        let subscription = type.lowercased().contains("subscription") || type.lowercased().contains("renew")
        throw fail(
          "type",
          "'\(TerminalText.clipped(type))' is not sold here\(subscription ? " (subscriptions are not simulated)" : "")",
          expected: Self.types.joined(separator: " or "))
      }
      let kind: Product.Kind
      if type == "nonConsumable" {
        // A non-consumable is owned, never counted: it grants no credits.
        guard entry["credits"] == nil else {
          throw fail("credits", "is set on a non-consumable", expected: "no credits: only a consumable grants them")
        }
        kind = .nonConsumable
      } else {
        guard entry["hostedContent"] == nil else {
          throw fail(
            "hostedContent", "is set on a consumable", expected: "hosted content on a non-consumable only")
        }
        kind = .consumable(credits: try credits(entry))
      }
      return Product(
        productIdentifier: identifier, kind: kind,
        localizations: try localizations(entry["localizations"]),
        prices: try prices(entry["prices"]),
        availableInStore: try bool(entry, "availableInStore", default: true),
        hostedContent: try hostedContent(entry["hostedContent"], productIdentifier: identifier))
    }

    func credits(_ entry: [String: PropertyListValue]) throws(CatalogError) -> Int {
      let expectedCredits = "a whole number from 1 to \(Product.maximumCredits)"
      guard let creditsValue = entry["credits"] else {
        throw fail("credits", "missing", expected: expectedCredits)
      }
      switch Self.number(creditsValue) {
      case .whole(let number) where (1...Product.maximumCredits).contains(number):
        return number
      case .whole(let number) where number > Product.maximumCredits:
        throw fail("credits", "is \(number), more than \(Product.maximumCredits)", expected: expectedCredits)
      case .whole(let number):
        throw fail("credits", "is \(number)", expected: expectedCredits)
      case .outOfRange(let text):
        throw fail("credits", "is \(text), out of range", expected: expectedCredits)
      case .fraction(let text):
        throw fail("credits", "is \(text), not a whole number", expected: expectedCredits)
      case .notANumber:
        throw fail("credits", "is \(creditsValue.typeName)", expected: expectedCredits)
      }
    }

    /// `hostedContent: { path: "HostedContent/<product id>" }`: the package's folder, relative to
    /// the catalog file (or, for the shipped catalog, to the repository's root, built in).
    func hostedContent(_ value: PropertyListValue?, productIdentifier: String) throws(CatalogError) -> HostedContent? {
      guard let value else { return nil }
      let expected = "a dictionary with path: the package's folder, relative to the catalog"
      guard case .dictionary(let fields) = value else {
        throw fail("hostedContent", "is \(value.typeName)", expected: expected)
      }
      if let key = Self.firstUnknownKey(of: fields, known: ["path"]) {
        throw fail("hostedContent.\(key)", "unknown key", expected: "path")
      }
      let folder = try string(fields, "path", at: "hostedContent.")
      return try HostedContent.read(folder, from: content, productIdentifier: productIdentifier, catalogPath: path)
    }

    func string(_ entry: [String: PropertyListValue], _ key: String, at prefix: @autoclosure () -> String = "")
      throws(CatalogError) -> String
    {
      guard let value = entry[key] else {
        throw fail(prefix() + key, "missing", expected: "a string")
      }
      guard case .string(let text) = value else {
        throw fail(prefix() + key, "is \(value.typeName)", expected: "a string")
      }
      guard !Self.isBlank(text) else {
        throw fail(prefix() + key, "is empty", expected: "a non-empty string")
      }
      return text
    }

    func bool(_ entry: [String: PropertyListValue], _ key: String, default fallback: Bool) throws(CatalogError) -> Bool
    {
      guard let value = entry[key] else { return fallback }
      guard case .boolean(let flag) = value else {
        throw fail(key, "is \(value.typeName)", expected: "<true/> or <false/>")
      }
      return flag
    }

    /// Whether `text` would show nothing: only white space, line breaks included (Unicode's
    /// White_Space, which `Character.isWhitespace` holds to). The one rule for a catalog's strings
    /// and a `.storekit` file's names and descriptions.
    static func isBlank(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(\.properties.isWhitespace) }

    /// `text.trimmingCharacters(in: .whitespaces)`.
    static func trimmed(_ text: String) -> String {
      let scalars = text.unicodeScalars
      guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
      let last = scalars.lastIndex { !isSpace($0) }!
      return String(scalars[first...last])
    }

    /// Foundation's `CharacterSet.whitespaces`: "the characters in Unicode General Category Zs and
    /// CHARACTER TABULATION (U+0009)"
    /// (https://developer.apple.com/documentation/foundation/characterset/whitespaces). Asked of
    /// Swift's own Unicode properties: on Linux Foundation builds the set through ICU the first
    /// time, a millisecond of every storefront's start.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "\t" || scalar == " " || (scalar.value >= 0x80 && scalar.properties.generalCategory == .spaceSeparator)
    }

    /// The first key, in order, that is not one of `known`: dictionaries keep their keys in no
    /// particular order, and a catalog with several wrong keys names the same one every time.
    static func firstUnknownKey(of dictionary: [String: PropertyListValue], known: [String]) -> String? {
      guard dictionary.keys.contains(where: { !known.contains($0) }) else { return nil }
      return dictionary.keys.filter { !known.contains($0) }.min()
    }

    static func isReverseDNS(_ identifier: String) -> Bool { (DottedParts.count(identifier) ?? 0) >= 2 }

    /// A bundle ID as Apple defines one: "contains only alphanumeric characters (A-Z, a-z, 0-9),
    /// hyphens (-), and/or periods (.). The string should be in reverse-DNS format."
    /// (https://developer.apple.com/help/glossary/bundle-id)
    static func isBundleIdentifier(_ identifier: String) -> Bool {
      isReverseDNS(identifier) && !identifier.utf8.contains(UInt8(ascii: "_"))
    }

    /// How a number of the property list reads, for a message that says what is wrong with it.
    enum Number {
      case whole(Int)
      /// A whole number beyond `Int`, as written.
      case outOfRange(String)
      /// A real with a fraction, as written.
      case fraction(String)
      case notANumber
    }

    static func number(_ value: PropertyListValue) -> Number {
      switch value {
      case .oversizedInteger(let text): return .outOfRange(text)
      case .integer(let whole): return Int(exactly: whole).map(Number.whole) ?? .outOfRange("\(whole)")
      case .real(let real):
        guard real.isFinite, real == real.rounded() else { return .fraction("\(real)") }
        guard abs(real) < 1e15 else { return .outOfRange("\(real)") }
        return .whole(Int(real))
      default: return .notANumber
      }
    }

    /// Prices are decimal strings, never binary floating point: digits, an optional minus sign
    /// and an optional fraction.
    static func decimal(_ text: String) -> Decimal? {
      let trimmed = trimmed(text)
      var digits = 0
      var sawPoint = false
      var fractionDigits = 0
      var negative = false
      var significand: UInt64 = 0
      for (offset, byte) in trimmed.utf8.enumerated() {
        switch byte {
        case UInt8(ascii: "-") where offset == 0: negative = true
        case UInt8(ascii: "."):
          guard !sawPoint, digits > 0 else { return nil }
          sawPoint = true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
          digits += 1
          if sawPoint { fractionDigits += 1 }
          if digits <= 18 { significand = significand * 10 + UInt64(byte - UInt8(ascii: "0")) }
        default: return nil
        }
      }
      guard digits > 0, !sawPoint || fractionDigits > 0 else { return nil }
      // Built from its digits: Decimal(string:locale:) would load an ICU locale for every price.
      guard digits <= 18 else { return Decimal(string: trimmed, locale: posix) }
      return Decimal(
        sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    static let maximumSignificantDigits = 15

    /// The significant digits of a decimal string: leading zeros and a fraction's trailing zeros
    /// aside (`0.19` 2, `160.00` 3). Counts the digits of any string, decimal or not.
    static func significantDigits(_ text: String) -> Int {
      var digits = trimmed(text).utf8.filter {
        $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: ".")
      }
      if digits.contains(UInt8(ascii: ".")) {
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
      }
      return digits.filter { $0 != UInt8(ascii: ".") }.drop { $0 == UInt8(ascii: "0") }.count
    }

    /// Digits after the decimal point of a decimal string, trailing zeros aside: `0.19` 2,
    /// `160.00` 0, `160` 0.
    static func decimalPlaces(_ text: String) -> Int {
      let digits = trimmed(text).utf8.drop { $0 != UInt8(ascii: ".") }.dropFirst()
      return digits.reversed().drop { $0 == UInt8(ascii: "0") }.count
    }
  }
}
