import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// The repository's own `products.plist`, found from this file so the test runs from any directory.
private let shippedCatalogPath = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("products.plist").path

/// A fresh folder for the test's files, removed afterwards.
private func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("monkeyshop-catalog-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

/// A good product, as a property-list dictionary, that each bad-catalog case spoils in one way.
private func productEntry(_ identifier: String, credits: Int) -> [String: Any] {
  [
    "productIdentifier": identifier,
    "type": "consumable",
    "credits": credits,
    "localizations": [
      "en": ["title": "\(credits) Monkey Credits", "description": "Credits for a monkey"],
      "ja": ["title": "モンキークレジット \(credits)", "description": "おさるのクレジット"],
    ],
    "prices": ["USA": "0.99", "JPN": "160", "GBR": "0.99", "DEU": "0.99", "FRA": "0.99", "CAN": "1.39"],
  ]
}

private func goodCatalog() -> [String: Any] {
  [
    "defaultStorefront": "USA",
    "products": [
      productEntry("com.example.credits.5", credits: 5), productEntry("com.example.credits.10", credits: 10),
    ],
  ]
}

private func plistData(_ root: Any, format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
  try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
}

/// Writes `data` as a catalog file and loads it the way the program does.
private func load(_ data: Data) throws -> (path: String, result: Result<Catalog, CatalogError>) {
  try withTemporaryFolder { folder in
    let path = folder + "/products.plist"
    try data.write(to: URL(fileURLWithPath: path))
    return (path, Result { () throws(CatalogError) in try CatalogLoader.load(path: path) })
  }
}

/// One way to spoil a catalog, with the product and key the error must name.
struct BadCatalog: Sendable, CustomTestStringConvertible {
  let name: String
  let product: String?
  let key: String?
  let spoil: @Sendable (inout [String: Any]) -> Void

  var testDescription: String { name }

  init(_ name: String, product: String?, key: String?, spoil: @escaping @Sendable (inout [String: Any]) -> Void) {
    self.name = name
    self.product = product
    self.key = key
    self.spoil = spoil
  }

  /// A case that spoils only the first product (`com.example.credits.5`).
  static func first(
    _ name: String, key: String, product: String = "com.example.credits.5",
    _ spoil: @escaping @Sendable (inout [String: Any]) -> Void
  ) -> BadCatalog {
    BadCatalog(name, product: product, key: key) { root in
      var products = root["products"] as! [Any]
      var entry = products[0] as! [String: Any]
      spoil(&entry)
      products[0] = entry
      root["products"] = products
    }
  }

  static func prices(_ name: String, key: String, _ spoil: @escaping @Sendable (inout [String: Any]) -> Void)
    -> BadCatalog
  {
    first(name, key: key) { entry in
      var prices = entry["prices"] as! [String: Any]
      spoil(&prices)
      entry["prices"] = prices
    }
  }
}

/// `com.example.xxx…`, `length` characters long.
func longProductID(_ length: Int) -> String {
  "com.example." + String(repeating: "x", count: length - "com.example.".count)
}

private let badCatalogs: [BadCatalog] = [
  BadCatalog("no products key", product: nil, key: "products") { $0["products"] = nil },
  BadCatalog("empty products", product: nil, key: "products") { $0["products"] = [Any]() },
  BadCatalog("products not an array", product: nil, key: "products") { $0["products"] = "two" },
  BadCatalog("product not a dictionary", product: nil, key: "products[0]") { $0["products"] = ["credits"] },
  .first("missing productIdentifier", key: "productIdentifier", product: "products[0]") {
    $0["productIdentifier"] = nil
  },
  .first("empty productIdentifier", key: "productIdentifier", product: "products[0]") {
    $0["productIdentifier"] = ""
  },
  .first("productIdentifier not reverse-DNS", key: "productIdentifier", product: "credits5") {
    $0["productIdentifier"] = "credits5"
  },
  .first(
    "productIdentifier with a character Apple does not allow", key: "productIdentifier",
    product: "com.example.credits+5"
  ) {
    $0["productIdentifier"] = "com.example.credits+5"
  },
  BadCatalog("duplicate identifiers", product: "com.example.credits.5", key: "productIdentifier") {
    $0["products"] = [
      productEntry("com.example.credits.5", credits: 5), productEntry("com.example.credits.5", credits: 10),
    ]
  },
  .first("non-consumable with credits", key: "credits") { $0["type"] = "nonConsumable" },
  .first("auto-renewable type", key: "type") { $0["type"] = "autoRenewable" },
  .first("credits missing", key: "credits") { $0["credits"] = nil },
  .first("credits a string", key: "credits") { $0["credits"] = "5" },
  .first("credits a boolean", key: "credits") { $0["credits"] = true },
  .first("credits zero", key: "credits") { $0["credits"] = 0 },
  .first("credits negative", key: "credits") { $0["credits"] = -5 },
  .first("credits a real", key: "credits") { $0["credits"] = 1.5 },
  .first("localizations missing", key: "localizations") { $0["localizations"] = nil },
  .first("localizations without en", key: "localizations") {
    $0["localizations"] = ["ja": ["title": "モンキー", "description": "おさる"]]
  },
  .first("title not a string", key: "localizations.en.title") {
    $0["localizations"] = ["en": ["title": 5, "description": "Credits"]]
  },
  .first("title of spaces", key: "localizations.en.title") {
    $0["localizations"] = ["en": ["title": " \u{3000}\t", "description": "Credits"]]
  },
  // Nothing would show in the storefront's row: the rule `.storekit` files are converted by.
  .first("title of line breaks", key: "localizations.en.title") {
    $0["localizations"] = ["en": ["title": "\n\r\n", "description": "Credits"]]
  },
  .first("prices missing", key: "prices") { $0["prices"] = nil },
  .first("prices not a dictionary", key: "prices") { $0["prices"] = "0.99" },
  .prices("unknown storefront", key: "prices.XYZ") { $0["XYZ"] = "1.00" },
  .prices("price a real", key: "prices.USA") { $0["USA"] = 0.99 },
  .prices("price not a number", key: "prices.USA") { $0["USA"] = "free" },
  .prices("price with a currency sign", key: "prices.USA") { $0["USA"] = "$0.99" },
  .prices("negative price", key: "prices.USA") { $0["USA"] = "-0.99" },
  .prices("a fraction of a yen", key: "prices.JPN") { $0["JPN"] = "0.19" },
  .prices("a fraction of a cent", key: "prices.USA") { $0["USA"] = "0.999" },
  .prices("more digits than are shown exactly", key: "prices.USA") { $0["USA"] = "99999999999999.99" },
  .prices("a price of 201 digits", key: "prices.USA") { $0["USA"] = String(repeating: "9", count: 201) },
  .prices("no price for the default storefront", key: "prices") { $0["USA"] = nil },
  BadCatalog("no price for another default storefront", product: "com.example.credits.5", key: "prices") { root in
    root["defaultStorefront"] = "AUS"
  },
  BadCatalog("unknown defaultStorefront", product: nil, key: "defaultStorefront") { $0["defaultStorefront"] = "XYZ" },
  BadCatalog("defaultStorefront not a string", product: nil, key: "defaultStorefront") { $0["defaultStorefront"] = 1 },
  BadCatalog("bundleIdentifier not a string", product: nil, key: "bundleIdentifier") { $0["bundleIdentifier"] = 7 },
  BadCatalog("empty bundleIdentifier", product: nil, key: "bundleIdentifier") { $0["bundleIdentifier"] = "" },
  BadCatalog("bundleIdentifier not reverse-DNS", product: nil, key: "bundleIdentifier") {
    $0["bundleIdentifier"] = "monkeyshop"
  },
  BadCatalog("bundleIdentifier with an underscore", product: nil, key: "bundleIdentifier") {
    $0["bundleIdentifier"] = "com.example.monkey_shop"
  },
  BadCatalog("unknown top-level key", product: nil, key: "currency") { $0["currency"] = "USD" },
  .first("unknown product key", key: "price") { $0["price"] = "0.99" },
  .first("availableInStore a string", key: "availableInStore") { $0["availableInStore"] = "yes" },
  .first("availableInStore an integer", key: "availableInStore") { $0["availableInStore"] = 1 },
]

@Suite("Catalog", .tags(.pure))
struct CatalogTests {
  @Test("the shipped products.plist sells 5 and 10 monkey credits in every storefront")
  func shippedCatalog() throws {
    let catalog = try CatalogLoader.load(path: shippedCatalogPath)
    // Beside them, the jungle map pack (a non-consumable, HostedContentTests).
    #expect(catalog.products.map(\.credits) == [5, 10, nil])
    #expect(catalog.defaultStorefront == .usa)
    for product in catalog.products where product.credits != nil {
      #expect(product.productIdentifier.hasPrefix("com."))
      #expect(product.availableInStore)
      #expect(product.localization("en").title.contains("Monkey Credits"))
      #expect(product.localization("ja").title.contains("モンキー"))
      #expect(!product.localization("en").description.isEmpty)
      for code in ["USA", "JPN", "GBR", "DEU", "FRA", "CAN"] {
        #expect(product.price(in: Storefront.named(code)!) != nil, "\(product.productIdentifier) has no \(code) price")
      }
    }
    let five = try #require(catalog.products.first)
    #expect(five.displayPrice(in: .usa) == "$0.99")
    #expect(five.displayPrice(in: Storefront.named("JPN")!) == "￥160")
  }

  @Test("a binary property list is read like an XML one")
  func binaryPlist() throws {
    let (_, result) = try load(plistData(goodCatalog(), format: .binary))
    let catalog = try result.get()
    #expect(catalog.products.map(\.productIdentifier) == ["com.example.credits.5", "com.example.credits.10"])
    #expect(catalog.product("com.example.credits.10")?.credits == 10)
  }

  @Test("defaultStorefront may be left out: the shop opens in the USA")
  func defaultStorefrontIsUSA() throws {
    var root = goodCatalog()
    root["defaultStorefront"] = nil
    let catalog = try load(plistData(root)).result.get()
    #expect(catalog.defaultStorefront.code == "USA")
  }

  @Test("bundleIdentifier may be left out (com.monkeyshop.app) or name the app the store signs for")
  func bundleIdentifier() throws {
    var root = goodCatalog()
    #expect(try load(plistData(root)).result.get().bundleIdentifier == "com.monkeyshop.app")
    root["bundleIdentifier"] = "com.example.Monkey-Shop"
    #expect(try load(plistData(root)).result.get().bundleIdentifier == "com.example.Monkey-Shop")
  }

  @Test("a product not available in the store loads, and needs no price")
  func unavailableProduct() throws {
    var hidden = productEntry("com.example.credits.hidden", credits: 1)
    hidden["availableInStore"] = false
    hidden["prices"] = ["JPN": "160"]
    var root = goodCatalog()
    root["products"] = [productEntry("com.example.credits.5", credits: 5), hidden]
    let catalog = try load(plistData(root)).result.get()
    #expect(catalog.product("com.example.credits.hidden")?.availableInStore == false)
    #expect(catalog.product("com.example.credits.5")?.availableInStore == true)
  }

  @Test("a bad catalog is refused naming the file, the product and the key", arguments: badCatalogs)
  func badCatalog(_ bad: BadCatalog) throws {
    var root = goodCatalog()
    bad.spoil(&root)
    let (path, result) = try load(plistData(root))
    guard case .failure(let error) = result else {
      Issue.record("\(bad.name): the catalog was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.product == bad.product)
    #expect(error.key == bad.key)
    #expect(error.description.contains(path))
    if let product = bad.product { #expect(error.description.contains(product)) }
    if let key = bad.key { #expect(error.description.contains(key)) }
  }

  @Test("a product ID of Apple's 100 characters loads; 101 is refused naming the product and the limit")
  func productIDLength() throws {
    var root = goodCatalog()
    var products = root["products"] as! [Any]
    var entry = products[0] as! [String: Any]
    entry["productIdentifier"] = longProductID(100)
    products[0] = entry
    root["products"] = products
    let (_, accepted) = try load(plistData(root))
    let catalog = try accepted.get()
    #expect(catalog.product(longProductID(100)) != nil)
    // Every folder named after an accepted ID fits a file name (NAME_MAX, 255 bytes).
    #expect(".\(longProductID(100)).unpacking".utf8.count < 255)

    entry["productIdentifier"] = longProductID(101)
    products[0] = entry
    root["products"] = products
    let (path, refused) = try load(plistData(root))
    guard case .failure(let error) = refused else {
      Issue.record("a 101-character product ID was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.key == "productIdentifier")
    #expect(error.product == longProductID(101))
    #expect(error.description.contains("is 101 characters long, more than Apple's limit of 100"))
    #expect(error.description.contains(String(longProductID(101).prefix(100))))
  }

  @Test(
    "credits beyond 64 bits, near Int.max, above the maximum or with a fraction say what was expected",
    arguments: [
      ("<integer>9223372036854775807</integer>", "is 9223372036854775807, more than 1000000000"),
      ("<integer>9223372036854775808</integer>", "is 9223372036854775808, out of range"),
      ("<integer>18446744073709551616</integer>", "is 18446744073709551616, out of range"),
      ("<integer>-18446744073709551616</integer>", "is -18446744073709551616, out of range"),
      ("<integer>1000000001</integer>", "is 1000000001, more than 1000000000"),
      ("<real>5.5</real>", "is 5.5, not a whole number"),
      ("<integer>0</integer>", "is 0"),
      ("<string>5</string>", "is a string"),
    ])
  func creditsOutOfRange(_ credits: String, _ problem: String) throws {
    let catalog = try plistData(goodCatalog())
    let xml = String(decoding: catalog, as: UTF8.self)
      .replacingOccurrences(
        of: #"<key>credits</key>\s*<integer>5</integer>"#, with: "<key>credits</key>\(credits)",
        options: .regularExpression)
    #expect(xml.contains(credits))
    let (path, result) = try load(Data(xml.utf8))
    guard case .failure(let error) = result else {
      Issue.record("credits \(credits) was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.product == "com.example.credits.5")
    #expect(error.key == "credits")
    #expect(error.problem == problem, "\(error)")
    #expect(error.expected == "a whole number from 1 to \(Product.maximumCredits)", "\(error)")
  }

  @Test("the most credits a product may grant is accepted, and a payment of 10 of it cannot overflow")
  func maximumCredits() throws {
    var root = goodCatalog()
    var products = root["products"] as! [[String: Any]]
    products[0]["credits"] = Product.maximumCredits
    root["products"] = products
    let (_, result) = try load(plistData(root))
    #expect(try result.get().product("com.example.credits.5")?.credits == Product.maximumCredits)
    #expect(!Product.maximumCredits.multipliedReportingOverflow(by: 10 * 1_000_000).overflow)
  }

  @Test("a missing catalog file is refused with its path")
  func missingFile() throws {
    try withTemporaryFolder { folder in
      let path = folder + "/nowhere/products.plist"
      let error = #expect(throws: CatalogError.self) { try CatalogLoader.load(path: path) }
      #expect(error?.path == path)
      #expect(error?.product == nil)
      #expect(error?.description.contains(path) == true)
      #expect(error?.problem == "no such file")
    }
  }

  @Test("a file that is not a property list is refused")
  func notAPlist() throws {
    for text in ["products: [5, 10]\n", "", "<?xml version=\"1.0\"?><plist><dict><key>products</key>"] {
      let (path, result) = try load(Data(text.utf8))
      guard case .failure(let error) = result else {
        Issue.record("'\(text)' was accepted as a catalog")
        continue
      }
      #expect(error.path == path)
      #expect(error.description.contains(path))
      #expect(error.product == nil)
    }
  }

  @Test("10 MB of junk is refused as not a property list")
  func tenMegabytesOfJunk() throws {
    let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
    let junk = random.readData(ofLength: 10_000_000)
    let (path, result) = try load(junk)
    guard case .failure(let error) = result else {
      Issue.record("10 MB of random bytes were accepted as a catalog")
      return
    }
    #expect(error.path == path)
    #expect(error.problem == "not a property list")
  }

  @Test("a title that is not valid UTF-8 is refused, naming the file")
  func invalidUTF8Title() throws {
    let valid = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>products</key><array><dict>
      <key>productIdentifier</key><string>com.example.credits.5</string>
      <key>type</key><string>consumable</string>
      <key>credits</key><integer>5</integer>
      <key>localizations</key><dict><key>en</key><dict>
      <key>title</key><string>TITLE</string><key>description</key><string>d</string></dict></dict>
      <key>prices</key><dict><key>USA</key><string>0.99</string></dict>
      </dict></array></dict></plist>
      """.utf8)
    var bytes = [UInt8](valid)
    let marker = [UInt8]("TITLE".utf8)
    let at = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<$0 + marker.count]) == marker })
    bytes.replaceSubrange(at..<at + marker.count, with: [0x4D, 0xC3, 0x28, 0xFF, 0xFE])
    let (path, result) = try load(Data(bytes))
    guard case .failure(let error) = result else {
      Issue.record("a title with invalid UTF-8 was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.description.contains(path))
  }

  @Test("a property list whose root is not a dictionary is refused")
  func rootNotADictionary() throws {
    let (path, result) = try load(plistData([productEntry("com.example.credits.5", credits: 5)]))
    guard case .failure(let error) = result else {
      Issue.record("an array root was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.problem.contains("array"))
    #expect(error.description.contains(path))
  }

  @Test("prices are decimals, exact to the cent")
  func pricesAreDecimal() throws {
    var root = goodCatalog()
    var products = root["products"] as! [Any]
    var entry = products[0] as! [String: Any]
    entry["prices"] = ["USA": "0.10", "GBR": "0.20", "CAN": "1.10"]
    products = [entry]
    root["products"] = products
    let product = try #require(try load(plistData(root)).result.get().products.first)
    let usa = try #require(product.price(in: .usa))
    let gbr = try #require(product.price(in: Storefront.named("GBR")!))
    let can = try #require(product.price(in: Storefront.named("CAN")!))
    // 0.1 + 0.2 is exactly 0.3 and 3 × 1.10 exactly 3.30: binary floating point gives neither.
    #expect(usa + gbr == Decimal(string: "0.3")!)
    #expect(can * 3 == Decimal(string: "3.30")!)
    #expect(Storefront.named("CAN")!.format(can) == "$1.10")
    #expect(Storefront.usa.format(usa + gbr) == "$0.30")
    #expect(Storefront.named("CAN")!.format(can * 3) == "$3.30")
  }
}

@Suite("Currency minor units", .tags(.pure))
struct MinorUnitTests {
  @Test(
    "a price with more decimal places than its currency has is refused with what was expected",
    arguments: [
      (
        "JPN", "0.19", "'0.19' has 2 decimal places, but JPY has no minor unit",
        "a whole number of yen, such as \"160\""
      ),
      (
        "JPN", "160.5", "'160.5' has 1 decimal place, but JPY has no minor unit",
        "a whole number of yen, such as \"160\""
      ),
      (
        "KOR", "1500.5", "'1500.5' has 1 decimal place, but KRW has no minor unit",
        "a whole number of won, such as \"160\""
      ),
      (
        "USA", "0.999", "'0.999' has 3 decimal places, but USD has 2",
        "at most 2 decimal places of US dollars, such as \"0.99\""
      ),
    ])
  func refused(_ code: String, _ price: String, _ problem: String, _ expected: String) throws {
    var root = goodCatalog()
    var products = root["products"] as! [[String: Any]]
    var prices = products[1]["prices"] as! [String: Any]
    prices[code] = price
    products[1]["prices"] = prices
    root["products"] = products
    let (path, result) = try load(plistData(root))
    guard case .failure(let error) = result else {
      Issue.record("\(price) in \(code) was accepted")
      return
    }
    #expect(error.path == path)
    #expect(error.product == "com.example.credits.10")
    #expect(error.key == "prices.\(code)")
    #expect(error.problem == problem, "\(error)")
    #expect(error.expected == expected, "\(error)")
    #expect(error.exitStatus == .dataError)
  }

  @Test("whole prices, and trailing zeros, are accepted in a currency without minor units")
  func wholeYen() throws {
    var root = goodCatalog()
    var products = root["products"] as! [[String: Any]]
    var prices = products[0]["prices"] as! [String: Any]
    prices["JPN"] = "160.00"
    prices["KOR"] = "1500"
    products[0]["prices"] = prices
    root["products"] = products
    let product = try #require(try load(plistData(root)).result.get().products.first)
    #expect(product.displayPrice(in: Storefront.named("JPN")!) == "￥160")
  }

  @Test(
    "each storefront's minor-unit digits are those Foundation's currency formatter writes", arguments: Storefront.all)
  func minorUnitsAgreeWithFoundation(_ storefront: Storefront) throws {
    // Foundation on Linux reports `maximumFractionDigits` 2 for every currency, yet writes yen and
    // won without decimals: count the digits it writes after the decimal separator.
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Locale(identifier: storefront.localeIdentifier)
    formatter.currencyCode = storefront.currencyCode
    let text = try #require(formatter.string(from: Decimal(string: "1.23456")! as NSDecimalNumber))
    let separator = formatter.currencyDecimalSeparator ?? formatter.decimalSeparator ?? "."
    let written = text.components(separatedBy: separator).dropFirst().first?.prefix { $0.isNumber }.count ?? 0
    #expect(storefront.minorUnitDigits == written, "\(storefront.currencyCode): \(text)")
  }
}

@Suite("Price formatting", .tags(.pure))
struct PriceFormattingTests {
  @Test(
    "each storefront writes prices in its currency and locale",
    arguments: [
      ("USA", "0.99", "$0.99"),
      ("USA", "1.99", "$1.99"),
      ("JPN", "160", "￥160"),
      ("JPN", "320", "￥320"),
      ("GBR", "0.99", "£0.99"),
      ("DEU", "0.99", "0,99 €"),
      ("FRA", "0.99", "0,99 €"),
      ("CAN", "1.39", "$1.39"),
    ])
  func format(code: String, price: String, expected: String) throws {
    let storefront = try #require(Storefront.named(code))
    #expect(storefront.format(Decimal(string: price)!) == expected)
  }

  @Test("the yen sign is the App Store's fullwidth ￥ (U+FFE5)")
  func fullwidthYen() {
    let text = Storefront.named("JPN")!.format(160)
    #expect(text.unicodeScalars.first == "\u{FFE5}")
  }

  @Test("storefront codes are read in any case, unknown ones are not")
  func storefrontNames() {
    #expect(Storefront.named("jpn")?.code == "JPN")
    #expect(Storefront.named("XYZ") == nil)
    #expect(Storefront.knownCodes.contains("USA"))
  }
}
