import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The Xcode StoreKit configuration files under Tests/Fixtures/StoreKit, one per version of the
/// format whose structure differs.
enum StoreKitFixtures {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/StoreKit")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// 1.0 (Xcode 12): no identifier, no nonRenewingSubscriptions, `_storeKitError` an integer.
  static let version1 = path("Xcode12-1.0.storekit")
  /// 1.2: identifier, nonRenewingSubscriptions, codeOffers, `_timeRate`.
  static let version1Point2 = path("Xcode13-1.2.storekit")
  /// 3.0: `_storeKitErrors`, `_storefront` JPN, `_locale` ja_JP, Japanese localizations.
  static let version3Japan = path("Xcode15-3.0-Japan.storekit")
  /// 4.0: appPolicies, winbackOffers, more settings; a non-consumable.
  static let version4 = path("Xcode16-4.0.storekit")

  static let bananaCredits = ["com.example.bananas.5": 5, "com.example.bananas.12": 12]
}

@Suite("Xcode .storekit files", .tags(.pure))
struct StoreKitConfigurationTests {
  private func load(_ path: String) throws -> StoreKitConfiguration {
    try StoreKitConfiguration.load(path: path)
  }

  /// The catalog as `catalog import` writes it, read back by the real loader.
  private func written(_ configuration: StoreKitConfiguration, credits: [String: Int]) throws -> Catalog {
    let xml = try configuration.catalogPropertyList(credits: credits)
    return try CatalogLoader.parse(Data(xml.utf8), path: "products.plist")
  }

  @Test("1.0 (Xcode 12): consumables with their credits, price and English text; the subscription left out")
  func version1() throws {
    let configuration = try load(StoreKitFixtures.version1)
    #expect(configuration.version == "1.0")
    let catalog = try configuration.catalog(credits: StoreKitFixtures.bananaCredits)
    #expect(catalog.products.map(\.productIdentifier) == ["com.example.bananas.5", "com.example.bananas.12"])
    #expect(catalog.products.map(\.credits) == [5, 12])
    #expect(catalog.defaultStorefront == .usa)
    #expect(catalog.products[0].displayPrice(in: .usa) == "$0.99")
    #expect(catalog.products[1].localization("en").title == "12 Bananas")
    #expect(catalog.products[1].localization("en").description == "A whole bunch of bananas")
    #expect(catalog.product("com.example.club.monthly") == nil)
    #expect(try written(configuration, credits: StoreKitFixtures.bananaCredits) == catalog)
  }

  @Test("1.2: identifier and non-renewing subscriptions; German kept as de")
  func version1Point2() throws {
    let configuration = try load(StoreKitFixtures.version1Point2)
    let catalog = try configuration.catalog(credits: ["com.example.bananas.5": 5])
    #expect(catalog.products.count == 1)
    #expect(catalog.products[0].localization("de").title == "5 Bananen")
    #expect(catalog.products[0].localizations.keys.sorted() == ["de", "en"])
    #expect(try written(configuration, credits: ["com.example.bananas.5": 5]) == catalog)
    #expect(
      configuration.notes.contains(
        "not sold here (subscriptions): com.example.club.monthly (subscriptionGroups[0].subscriptions[0]), com.example.season.pass (nonRenewingSubscriptions[0])"
      ))
  }

  @Test("3.0 in Japan: yen prices in the JPN storefront, Japanese titles, English from the first when there is none")
  func version3Japan() throws {
    let configuration = try load(StoreKitFixtures.version3Japan)
    let catalog = try configuration.catalog(credits: StoreKitFixtures.bananaCredits)
    let japan = try #require(Storefront.named("JPN"))
    #expect(catalog.defaultStorefront == japan)
    #expect(catalog.products.map { $0.displayPrice(in: japan) } == ["￥160", "￥320"])
    #expect(catalog.products[0].localization("ja").title == "バナナ 5本")
    #expect(catalog.products[0].localization("en").title == "5 Bananas")
    // No English in the file: the Japanese text stands in, and the import says so.
    #expect(catalog.products[1].localization("en").title == "バナナ 12本")
    #expect(
      configuration.notes == [
        "products[1] 'com.example.bananas.12': no English localization; ja_JP's text is shown for English too"
      ])
    #expect(try written(configuration, credits: StoreKitFixtures.bananaCredits) == catalog)
  }

  @Test("4.0: appPolicies and more settings read; two English locales keep the first")
  func version4() throws {
    let configuration = try load(StoreKitFixtures.version4)
    #expect(configuration.version == "4.0")
    #expect(configuration.storefront == Storefront.named("GBR"))
    #expect(configuration.products.map(\.kind) == [.consumable, .nonConsumable])
    #expect(configuration.subscriptions.map(\.productID) == ["com.example.club.monthly", "com.example.club.yearly"])
    #expect(
      configuration.notes.first
        == "products[0] 'com.example.bananas.5': localizations[1] (en_GB) left out: en comes from en_US")
    let xml = try #require(
      String(data: try Data(contentsOf: URL(fileURLWithPath: StoreKitFixtures.version4)), encoding: .utf8))
    #expect(xml.contains("appPolicies"))
    // The catalog gets the non-consumable with the type the loader reads for one.
    let root = configuration.catalogRoot(credits: ["com.example.bananas.5": 5])
    guard case .array(let products)? = root["products"] else {
      Issue.record("no products array")
      return
    }
    let types = products.map { product -> PropertyListValue? in
      guard case .dictionary(let fields) = product else { return nil }
      return fields["type"]
    }
    #expect(types == [.string("consumable"), .string("nonConsumable")])
    guard case .dictionary(let map) = products[1] else {
      Issue.record("the second product is not a dictionary")
      return
    }
    #expect(map["credits"] == nil)
  }

  @Test("4.0: the non-consumable is sold, with no credits")
  func version4NonConsumable() throws {
    let configuration = try load(StoreKitFixtures.version4)
    let catalog = try configuration.catalog(credits: ["com.example.bananas.5": 5])
    let map = try #require(catalog.product("com.example.jungle.map"))
    #expect(map.kind == .nonConsumable)
    #expect(map.displayPrice(in: try #require(Storefront.named("GBR"))) == "£4.99")
    #expect(try written(configuration, credits: ["com.example.bananas.5": 5]) == catalog)
  }

  @Test("a consumable without credits is named, with every other one that needs them")
  func creditsMissing() throws {
    let configuration = try load(StoreKitFixtures.version1)
    let error = try #require(throws: CatalogError.self) {
      try configuration.catalog(credits: ["com.example.bananas.5": 5])
    }
    #expect(error.message.contains("a consumable needs the monkey credits one unit grants: com.example.bananas.12"))
    #expect(error.message.contains("--credits com.example.bananas.12=N"))
    #expect(!error.message.contains("com.example.bananas.5=N"))
    #expect(error.exitStatus == .dataError)
    let none = try #require(throws: CatalogError.self) { try configuration.catalog(credits: [:]) }
    #expect(
      none.message.contains(
        "consumables need the monkey credits one unit grants: com.example.bananas.5, com.example.bananas.12"))
  }

  @Test(
    "credits for what the file does not sell as a consumable are refused",
    arguments: [
      ("com.example.bananas.6", "is not a product of the file"),
      ("com.example.club.monthly", "is a subscription (subscriptionGroups[0].subscriptions[0]), not sold here"),
    ])
  func creditsForOtherProducts(productID: String, problem: String) throws {
    let configuration = try load(StoreKitFixtures.version1)
    var credits = StoreKitFixtures.bananaCredits
    credits[productID] = 3
    let error = try #require(throws: CatalogError.self) { try configuration.catalog(credits: credits) }
    #expect(error.product == productID)
    #expect(error.key == "--credits")
    #expect(error.problem == problem)
    #expect(
      error.message.contains("expected --credits for the consumables: com.example.bananas.5, com.example.bananas.12"))
  }

  @Test("credits for a non-consumable are refused: it grants none")
  func creditsForNonConsumable() throws {
    let configuration = try load(StoreKitFixtures.version4)
    let error = try #require(throws: CatalogError.self) {
      try configuration.catalog(credits: ["com.example.bananas.5": 5, "com.example.jungle.map": 1])
    }
    #expect(error.problem == "is a non-consumable (products[1]), which grants no credits")
  }

  @Test("settings become the conditions they match, as commands store set accepts")
  func settings() throws {
    let version1 = try load(StoreKitFixtures.version1).settings
    #expect(version1.conditions.map(\.command) == ["monkeyshop store set failAll 2"])
    #expect(version1.conditions[0].setting == "_failTransactionsEnabled true, _storeKitError 2")
    #expect(version1.conditions[0].note?.contains("supports only unknown") == true)

    let japan = try load(StoreKitFixtures.version3Japan).settings
    #expect(
      japan.conditions.map(\.command) == [
        "monkeyshop store set askToBuy on", "monkeyshop store set verification fail",
      ])
    #expect(japan.language == .ja)
    #expect(japan.notSimulated.isEmpty)

    let version4 = try load(StoreKitFixtures.version4).settings
    #expect(
      version4.conditions.map(\.command) == [
        "monkeyshop store set skipPaymentSheet on", "monkeyshop store set failAll 0",
      ])
    #expect(version4.conditions[1].setting == "_storeKitErrors 'Purchase' enabled")
    #expect(version4.language == .en)
    // Off switches and the file's own details are not reported; what is on and not simulated is.
    #expect(version4.notSimulated == ["_storeKitErrors 'Load Products' enabled", "_billingIssuesEnabled true"])

    #expect(try load(StoreKitFixtures.version1Point2).settings.notSimulated == ["_timeRate 6"])

    for condition in version1.conditions + japan.conditions + version4.conditions {
      var conditions = Conditions()
      try condition.condition.set(condition.value, in: &conditions)
      #expect(condition.condition.value(in: conditions, defaultStorefront: .usa) == condition.value)
    }
  }

  @Test("line breaks and tabs of a description, and bidirectional marks, are written as references and read back")
  func lineBreaksAndMarks() throws {
    var root = StoreKitJSON.good()
    StoreKitJSON.editProduct(&root, 0) { product in
      product["localizations"] = [
        ["locale": "en_US", "displayName": "Bananas \u{200F}red\u{202E}", "description": "one\ntwo\tthree & <four>"]
      ]
    }
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let xml = try configuration.catalogPropertyList(credits: StoreKitJSON.credits)
    #expect(xml.contains("<string>Bananas &#x200F;red&#x202E;</string>"))
    #expect(xml.contains("<string>one&#xA;two&#x9;three &amp; &lt;four&gt;</string>"))
    #expect(!xml.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" && $0 != "\t" })
    for fast in [true, false] {
      let catalog = try CatalogLoader.parse(Data(xml.utf8), path: "products.plist", fastXML: fast)
      #expect(catalog.products[0].localization("en").title == "Bananas \u{200F}red\u{202E}")
      #expect(catalog.products[0].localization("en").description == "one\ntwo\tthree & <four>")
    }
  }

  @Test("the writer writes no character XML 1.0 refuses: it throws, naming where the text is")
  func writerRefusesWhatXMLCannotHold() throws {
    for scalar: Unicode.Scalar in ["\u{0}", "\u{7}", "\u{1B}", "\u{1F}", "\u{FFFE}", "\u{FFFF}"] {
      let root: PropertyListValue = [
        "products": [
          ["productIdentifier": "com.example.a", "localizations": ["en": ["title": .string("a\(scalar)b")]]]
        ]
      ]
      let error = try #require(throws: PropertyListWriter.IllegalCharacter.self) { try PropertyListWriter.xml(root) }
      #expect(error == .init(scalar: scalar, place: "products[0].localizations.en.title"))
    }
    // What XML 1.0 allows as a reference is written as one.
    let allowed = try PropertyListWriter.xml(["title": "\t\n\r\u{7F}\u{9B}\u{2028}"])
    #expect(allowed.contains("<string>&#x9;&#xA;&#xD;&#x7F;&#x9B;&#x2028;</string>"))
  }

  @Test("a long value from the file is clipped in a message, which says so")
  func longValuesClipped() throws {
    let digits = String(repeating: "9", count: 400)
    var root = StoreKitJSON.good()
    StoreKitJSON.editProduct(&root, 1) { $0["displayPrice"] = digits }
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let error = try #require(throws: CatalogError.self) { try configuration.catalog(credits: StoreKitJSON.credits) }
    let shown = String(repeating: "9", count: TerminalText.clipLength)
    #expect(error.message.contains("key 'products[1].displayPrice': '\(shown)…' has more than 15 significant digits"))
    #expect(!error.message.contains(shown + "9"))

    // A product ID of the file, in the report and in a message.
    let long = "com.example." + String(repeating: "x", count: 300)
    root = StoreKitJSON.good()
    root["subscriptionGroups"] = [["id": "1", "subscriptions": [StoreKitJSON.product(long, "1.99")]]]
    StoreKitJSON.editProduct(&root, 1) { $0["productID"] = long }
    let longIDs = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let clipped = String(long.prefix(TerminalText.clipLength)) + "…"
    #expect(longIDs.notes == ["not sold here (subscriptions): \(clipped) (subscriptionGroups[0].subscriptions[0])"])
    let missing = try #require(throws: CatalogError.self) { try longIDs.catalog(credits: ["com.example.bananas.5": 5]) }
    // Longer than Apple's 100 characters: refused, the ID clipped in the message.
    #expect(missing.message.contains("product '\(clipped)'"), "\(missing)")
    #expect(missing.message.contains("is 312 characters long, more than Apple's limit of 100"), "\(missing)")
    #expect(!missing.message.contains(String(long.prefix(TerminalText.clipLength + 1))))

    // A key of the file, written twice.
    let key = String(repeating: "k", count: 300)
    let twice = try #require(throws: CatalogError.self) {
      try StoreKitConfiguration.parse(
        Data(#"{"products": [], "settings": {"\#(key)": 1, "\#(key)": 2}}"#.utf8), path: "Shop.storekit")
    }
    #expect(twice.message.contains("key 'settings.\(key.prefix(TerminalText.clipLength - 9))…': is written twice"))
    #expect(!twice.message.contains(String(key.prefix(TerminalText.clipLength))))
  }

  @Test("a new product as Xcode writes it (empty displayName and description) is taken, with a warning naming it")
  func emptyLocalizationTexts() throws {
    var root = StoreKitJSON.good()
    StoreKitJSON.editProduct(&root, 1) { product in
      product["referenceName"] = "Twelve bananas"
      product["localizations"] = [["description": "", "displayName": "", "locale": "en_US"]]
    }
    StoreKitJSON.editProduct(&root, 0) { product in
      product["localizations"] = [["description": "", "displayName": "Five", "locale": "en_US"]]
    }
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let catalog = try configuration.catalog(credits: StoreKitJSON.credits)
    #expect(catalog.products[1].localization("en").title == "Twelve bananas")
    #expect(catalog.products[1].localization("en").description == "Twelve bananas")
    #expect(catalog.products[0].localization("en").title == "Five")
    #expect(catalog.products[0].localization("en").description == "Five")
    #expect(
      configuration.notes.contains(
        "products[1] 'com.example.bananas.12': localizations[0] (en_US) has an empty displayName and description, as Xcode writes a new product; the storefront shows 'Twelve bananas' instead"
      ), "\(configuration.notes)")
    #expect(
      configuration.notes.contains {
        $0.hasPrefix("products[0] 'com.example.bananas.5': localizations[0] (en_US) has an empty description,")
      },
      "\(configuration.notes)")
  }

  @Test("every App Store storefront loads with Apple's storefront ID and its currency: CHN, SAU, CHL")
  func everyStorefront() throws {
    #expect(Storefront.all.count == 175)
    #expect(Set(Storefront.all.map(\.code)).count == 175)
    #expect(Set(Storefront.all.map(\.appleID)).count == 175)
    for (code, id, currency, price, shown) in [
      ("CHN", "143465", "CNY", "6.00", "¥6.00"), ("SAU", "143479", "SAR", "3.99", "SAR 3.99"),
      ("CHL", "143483", "CLP", "990", "$990"), ("JPN", "143462", "JPY", "160", "￥160"),
    ] {
      var root = StoreKitJSON.good()
      root["settings"] = ["_storefront": code]
      StoreKitJSON.editProduct(&root, 0) { $0["displayPrice"] = price }
      StoreKitJSON.editProduct(&root, 1) { $0["displayPrice"] = price }
      let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
      let catalog = try configuration.catalog(credits: StoreKitJSON.credits)
      let storefront = try #require(Storefront.named(code))
      #expect(catalog.defaultStorefront == storefront)
      #expect(storefront.appleID == id)
      #expect(storefront.currencyCode == currency)
      #expect(catalog.products[0].displayPrice(in: storefront) == shown)
    }
    // A currency without a minor unit refuses cents, naming it.
    var root = StoreKitJSON.good()
    root["settings"] = ["_storefront": "CHL"]
    let error = try #require(throws: CatalogError.self) {
      try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit").catalog(
        credits: StoreKitJSON.credits)
    }
    #expect(error.message.contains("CLP has no minor unit"), "\(error)")
    #expect(error.message.contains("a whole number of Chilean pesos"), "\(error)")
  }

  @Test("format versions 1 to 5 are read without a word; a newer one is read with a warning", arguments: 1...6)
  func formatVersions(_ major: Int) throws {
    var root = StoreKitJSON.good()
    root["version"] = ["major": major, "minor": 0]
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    #expect(try configuration.catalog(credits: StoreKitJSON.credits).products.count == 2)
    let warned = configuration.notes.contains { $0.hasPrefix("version \(major).0") }
    #expect(warned == (major > 5), "\(configuration.notes)")
  }

  @Test("a long list in a message names the first 20 and counts the rest")
  func cappedLists() throws {
    var root = StoreKitJSON.good()
    root["products"] = (1...30).map { StoreKitJSON.product("com.example.bananas.n\($0)", "0.99") }
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let error = try #require(throws: CatalogError.self) { try configuration.catalog(credits: [:]) }
    #expect(error.message.contains("com.example.bananas.n20, and 10 more"), "\(error)")
    #expect(!error.message.contains("com.example.bananas.n21"), "\(error)")
  }

  @Test("a file with no consumable takes no --credits, and says so without an empty list")
  func creditsForAFileWithoutConsumables() throws {
    var root = StoreKitJSON.good()
    root["products"] = [StoreKitJSON.product("com.example.map", "4.99", type: "NonConsumable")]
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    #expect(try configuration.catalog(credits: [:]).products.count == 1)
    for credits in [["com.example.bananas": 5], ["com.example.map": 5], ["com.example.club": 5]] {
      let error = try #require(throws: CatalogError.self) { try configuration.catalog(credits: credits) }
      #expect(error.expected == "no --credits: the file has no consumable", "\(error)")
      #expect(!error.message.contains("consumables:"), "\(error)")
    }
  }

  @Test("a file of subscriptions only has nothing to sell, and says why")
  func onlySubscriptions() throws {
    var root = StoreKitJSON.good()
    root["products"] = [Any]()
    let configuration = try StoreKitConfiguration.parse(StoreKitJSON.data(root), path: "Shop.storekit")
    let error = try #require(throws: CatalogError.self) { try configuration.catalog(credits: [:]) }
    #expect(error.key == "products")
    #expect(error.problem == "has no consumable or non-consumable (its subscriptions are not sold here)")
  }

  @Test("a missing file is refused as a missing catalog is")
  func missingFile() throws {
    let error = try #require(throws: CatalogError.self) {
      try CatalogLoader.load(path: "/nonexistent/Shop.storekit", credits: [:])
    }
    #expect(error.message.hasPrefix("/nonexistent/Shop.storekit: no such file"))
    #expect(error.exitStatus == .dataError)
  }

  @Test("malformed files name the file, the product and the key path", arguments: badStoreKitFiles)
  func malformed(_ bad: BadStoreKit) throws {
    let data = bad.raw.map { Data($0.utf8) } ?? StoreKitJSON.data(bad.spoiled())
    let error = try #require(throws: CatalogError.self) {
      try StoreKitConfiguration.parse(data, path: "Shop.storekit").catalog(credits: StoreKitJSON.credits)
    }
    #expect(error.path == "Shop.storekit")
    #expect(error.product == bad.product, "\(error)")
    #expect(error.key == bad.key, "\(error)")
    #expect(error.message.contains(bad.problem), "\(error)")
    #expect(error.exitStatus == .dataError)
  }
}

/// A good `.storekit` file as JSON values, for each malformed case to spoil one way.
enum StoreKitJSON {
  static let credits = ["com.example.bananas.5": 5, "com.example.bananas.12": 12]

  static func product(_ id: String, _ price: String, type: String = "Consumable") -> [String: Any] {
    [
      "displayPrice": price, "familyShareable": false, "internalID": "1", "productID": id,
      "referenceName": id, "type": type,
      "localizations": [["description": "Bananas", "displayName": "Bananas", "locale": "en_US"]],
    ]
  }

  static func good() -> [String: Any] {
    [
      "identifier": "ABCD1234",
      "products": [product("com.example.bananas.5", "0.99"), product("com.example.bananas.12", "1.99")],
      "settings": [
        "_storefront": "USA", "_storeKitErrors": [["current": NSNull(), "enabled": false, "name": "Purchase"]],
      ],
      "subscriptionGroups": [
        [
          "id": "1", "name": "Club",
          "subscriptions": [product("com.example.club", "2.99", type: "RecurringSubscription")],
        ]
      ],
      "nonRenewingSubscriptions": [Any](),
      "version": ["major": 3, "minor": 0],
    ]
  }

  static func editProduct(_ root: inout [String: Any], _ index: Int, _ edit: (inout [String: Any]) -> Void) {
    var products = root["products"] as! [Any]
    var product = products[index] as! [String: Any]
    edit(&product)
    products[index] = product
    root["products"] = products
  }

  static func data(_ root: [String: Any]) -> Data {
    try! JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
  }
}

/// One way to spoil a `.storekit` file, with the product, key path and words the error must give.
struct BadStoreKit: Sendable, CustomTestStringConvertible {
  let name: String
  let product: String?
  let key: String?
  let problem: String
  /// The file's text, for what JSON values cannot make.
  let raw: String?
  let spoil: @Sendable (inout [String: Any]) -> Void

  var testDescription: String { name }

  init(
    _ name: String, product: String? = nil, key: String?, _ problem: String, raw: String? = nil,
    spoil: @escaping @Sendable (inout [String: Any]) -> Void = { _ in }
  ) {
    self.name = name
    self.product = product
    self.key = key
    self.problem = problem
    self.raw = raw
    self.spoil = spoil
  }

  func spoiled() -> [String: Any] {
    var root = StoreKitJSON.good()
    spoil(&root)
    return root
  }

  /// A case that spoils the second product (`com.example.bananas.12`, `products[1]`).
  static func second(
    _ name: String, key: String, _ problem: String, product: String? = "com.example.bananas.12",
    _ spoil: @escaping @Sendable (inout [String: Any]) -> Void
  ) -> BadStoreKit {
    BadStoreKit(name, product: product, key: key, problem) { root in StoreKitJSON.editProduct(&root, 1, spoil) }
  }

  /// A case that sets `settings[key]`; the error names `settings.KEY`, or `settings.AT` within it.
  static func setting(_ name: String, key: String, at place: String? = nil, _ problem: String, _ value: Any)
    -> BadStoreKit
  {
    nonisolated(unsafe) let value = value
    return BadStoreKit(name, key: "settings.\(place ?? key)", problem) { root in
      var settings = root["settings"] as! [String: Any]
      settings[key] = value
      root["settings"] = settings
    }
  }
}

let badStoreKitFiles: [BadStoreKit] = [
  BadStoreKit("not JSON", key: nil, "is not JSON", raw: "<?xml version=\"1.0\"?><plist/>"),
  BadStoreKit("a property list's text", key: nil, "is not JSON", raw: "{ products = (); }"),
  BadStoreKit("top level an array", key: nil, "the top level is an array", raw: "[]"),
  BadStoreKit(
    "a key written twice", key: "settings._storefront", "is written twice",
    raw: #"{"products": [], "settings": {"_storefront": "USA", "_storefront": "JPN"}}"#),
  BadStoreKit("no products", key: "products", "missing") { $0["products"] = nil },
  BadStoreKit("products an object", key: "products", "is an object") { $0["products"] = ["a": 1] },
  BadStoreKit("a product a string", key: "products[1]", "is a string") {
    $0["products"] = [StoreKitJSON.product("com.example.bananas.5", "0.99"), "bananas"]
  },
  .second("productID missing", key: "products[1].productID", "missing", product: nil) { $0["productID"] = nil },
  .second("productID a number", key: "products[1].productID", "is a number", product: nil) { $0["productID"] = 12 },
  .second("productID not reverse-DNS", key: "products[1].productID", "is not reverse-DNS", product: "bananas12") {
    $0["productID"] = "bananas12"
  },
  .second(
    "duplicate product IDs", key: "products[1].productID", "is also the ID of products[0]",
    product: "com.example.bananas.5"
  ) { $0["productID"] = "com.example.bananas.5" },
  .second("type unknown", key: "products[1].type", "is 'Consumible' (expected Consumable or NonConsumable)") {
    $0["type"] = "Consumible"
  },
  .second("type missing", key: "products[1].type", "missing") { $0["type"] = nil },
  .second("displayPrice missing", key: "products[1].displayPrice", "missing") { $0["displayPrice"] = nil },
  .second("displayPrice a number", key: "products[1].displayPrice", "is a number") { $0["displayPrice"] = 1.99 },
  .second("displayPrice not a number", key: "products[1].displayPrice", "'free' is not a decimal number") {
    $0["displayPrice"] = "free"
  },
  .second("displayPrice negative", key: "products[1].displayPrice", "'-1.99' is negative") {
    $0["displayPrice"] = "-1.99"
  },
  .second("displayPrice a fraction of a cent", key: "products[1].displayPrice", "has 3 decimal places") {
    $0["displayPrice"] = "1.999"
  },
  .second("localizations missing", key: "products[1].localizations", "missing") { $0["localizations"] = nil },
  .second("localizations empty", key: "products[1].localizations", "is empty") { $0["localizations"] = [Any]() },
  .second("a localization without displayName", key: "products[1].localizations[0].displayName", "missing") {
    $0["localizations"] = [["description": "Bananas", "locale": "en_US"]]
  },
  .second("a localization's locale a number", key: "products[1].localizations[0].locale", "is a number") {
    $0["localizations"] = [["description": "Bananas", "displayName": "Bananas", "locale": 1]]
  },
  .second("a locale that is none", key: "products[1].localizations[0].locale", "'english' is not a locale") {
    $0["localizations"] = [["description": "Bananas", "displayName": "Bananas", "locale": "english"]]
  },
  // Text with control characters: refused where it is, whatever would have read it.
  .second(
    "an escape in a displayName", key: "products[1].localizations[1].displayName",
    "holds the control character U+001B (expected one line of text without control characters)"
  ) {
    $0["localizations"] = [
      ["description": "Bananas", "displayName": "Bananas", "locale": "en_US"],
      ["description": "Bananen", "displayName": "Rot\u{1B}[31m", "locale": "de_DE"],
    ]
  },
  .second("a line break in a displayName", key: "products[1].localizations[0].displayName", "U+000A") {
    $0["localizations"] = [["description": "Bananas", "displayName": "Two\nlines", "locale": "en_US"]]
  },
  .second(
    "NUL in a description", key: "products[1].localizations[0].description",
    "holds the control character U+0000 (expected text without control characters other than line breaks and tabs)"
  ) {
    $0["localizations"] = [["description": "a\u{0}b", "displayName": "Bananas", "locale": "en_US"]]
  },
  .second("a carriage return in a description", key: "products[1].localizations[0].description", "U+000D") {
    $0["localizations"] = [["description": "a\r\nb", "displayName": "Bananas", "locale": "en_US"]]
  },
  .second("a C1 control in a description", key: "products[1].localizations[0].description", "U+009B") {
    $0["localizations"] = [["description": "a\u{9B}31m", "displayName": "Bananas", "locale": "en_US"]]
  },
  .second("DEL in a displayName", key: "products[1].localizations[0].displayName", "U+007F") {
    $0["localizations"] = [["description": "Bananas", "displayName": "a\u{7F}", "locale": "en_US"]]
  },
  .second(
    "a noncharacter in a description", key: "products[1].localizations[0].description",
    "holds the noncharacter U+FFFF (expected text without noncharacters)"
  ) {
    $0["localizations"] = [["description": "a\u{FFFF}", "displayName": "Bananas", "locale": "en_US"]]
  },
  .second("BEL in a productID", key: "products[1].productID", "holds the control character U+0007", product: nil) {
    $0["productID"] = "com.example.bananas.12\u{7}"
  },
  .second("an escape in a displayPrice", key: "products[1].displayPrice", "holds the control character U+001B") {
    $0["displayPrice"] = "1.99\u{1B}[2J"
  },
  BadStoreKit(
    "an escape in a subscription's productID", key: "subscriptionGroups[0].subscriptions[0].productID",
    "holds the control character U+001B"
  ) {
    $0["subscriptionGroups"] = [["id": "1", "subscriptions": [["productID": "com.example.club\u{1B}[2J"]]]]
  },
  .setting("an escape in the locale", key: "_locale", "holds the control character U+001B", "en_US\u{1B}]0;x\u{7}"),
  .setting(
    "BEL in an error's name", key: "_storeKitErrors", at: "_storeKitErrors[0].name",
    "holds the control character U+0007", [["current": NSNull(), "enabled": true, "name": "Load\u{7}"]]),
  .setting("an escape in a setting's value", key: "_timeRate", "holds the control character U+001B", "6\u{1B}[1m"),
  BadStoreKit(
    "an escape in a setting's name", key: #"settings._timeRate\u{1B}[1m"#,
    "its name holds the control character U+001B"
  ) { root in
    root["settings"] = ["_timeRate\u{1B}[1m": 6]
  },
  .setting("an unknown storefront", key: "_storefront", "unknown storefront 'ZZZ'", "ZZZ"),
  .setting("a storefront a number", key: "_storefront", "is a number", 840),
  .setting("ask to buy a string", key: "_askToBuyEnabled", "is a string (expected true or false)", "yes"),
  .setting("failing a number", key: "_failTransactionsEnabled", "is a number (expected true or false)", 1),
  .setting("the 1.0 error a string", key: "_storeKitError", "is a string", "2"),
  .setting("the errors an object", key: "_storeKitErrors", "is an object", ["Purchase": true]),
  .setting(
    "an error's enabled a string", key: "_storeKitErrors", at: "_storeKitErrors[0].enabled", "is a string",
    [
      ["current": NSNull(), "enabled": "yes", "name": "Purchase"]
    ]),
  .setting("the locale a boolean", key: "_locale", "is a boolean", true),
  BadStoreKit(
    "a price in yen with cents", product: "com.example.bananas.5", key: "products[0].displayPrice",
    "'0.99' has 2 decimal places, but JPY has no minor unit"
  ) { root in
    root["settings"] = ["_storefront": "JPN"]
  },
  BadStoreKit("settings an array", key: "settings", "is an array") { $0["settings"] = [Any]() },
  BadStoreKit("version a string", key: "version", "is a string") { $0["version"] = "3.0" },
  BadStoreKit("identifier a number", key: "identifier", "is a number") { $0["identifier"] = 1234 },
  BadStoreKit("subscription groups an object", key: "subscriptionGroups", "is an object") {
    $0["subscriptionGroups"] = ["id": "1"]
  },
  BadStoreKit("a subscription without productID", key: "subscriptionGroups[0].subscriptions[0].productID", "missing") {
    $0["subscriptionGroups"] = [["id": "1", "subscriptions": [["type": "RecurringSubscription"]]]]
  },
  BadStoreKit("non-renewing subscriptions a string", key: "nonRenewingSubscriptions", "is a string") {
    $0["nonRenewingSubscriptions"] = "none"
  },
]
