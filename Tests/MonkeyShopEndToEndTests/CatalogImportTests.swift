import Foundation
import Testing

/// Xcode `.storekit` files (docs/catalogs.md): `catalog import`, and the file given as the catalog.
@Suite("Catalog import", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct CatalogImportTests {
  private static let fixtures = Locations.repository.appendingPathComponent("Tests/Fixtures/StoreKit")
  private static let japan = fixtures.appendingPathComponent("Xcode15-3.0-Japan.storekit").path
  private static let version1 = fixtures.appendingPathComponent("Xcode12-1.0.storekit").path
  private static let version4 = fixtures.appendingPathComponent("Xcode16-4.0.storekit").path
  private static let credits = ["--credits", "com.example.bananas.5=5", "--credits", "com.example.bananas.12=12"]

  private func run(_ arguments: [String], in folder: ShopFolder, environment: [String: String] = [:]) async throws
    -> ChildResult
  {
    try await Child(arguments, in: folder, environment: environment).wait()
  }

  /// A `.storekit` file written into the test's folder.
  private func storeKitFile(_ json: String, in folder: ShopFolder) throws -> String {
    let path = folder.file("Shop").path + ".storekit"
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("import writes a products.plist that catalog check accepts; the .storekit file sells as the catalog")
  func importCheckAndBuy() async throws {
    let folder = try ShopFolder("import")
    let out = folder.file("products").path + ".plist"
    let imported = try await run(["catalog", "import", Self.japan, "--out", out] + Self.credits, in: folder)
    try expectSuccess(imported)
    #expect(imported.stdout == "\(out): 2 products (2 consumables, 0 non-consumables), storefront JPN\n", "\(imported)")
    // What the file holds that the catalog does not, and the conditions its settings start in.
    #expect(
      imported.stderr.contains(
        "products[1] 'com.example.bananas.12': no English localization; ja_JP's text is shown for English too"),
      "\(imported)")
    #expect(imported.stderr.contains("  monkeyshop store set askToBuy on    # _askToBuyEnabled true"), "\(imported)")
    #expect(imported.stderr.contains("_locale ja_JP: open the storefront with --lang ja"), "\(imported)")

    let checked = try await monkeyshop("catalog", "check", out, in: folder)
    try expectSuccess(checked)
    #expect(checked.stdout.hasPrefix("\(out): 2 products, storefront JPN\n"), "\(checked)")
    #expect(checked.stdout.contains("  com.example.bananas.5  5 credits  ￥160  5 Bananas"), "\(checked)")
    #expect(checked.stdout.contains("  com.example.bananas.12  12 credits  ￥320  バナナ 12本"), "\(checked)")

    // The .storekit file itself, as the catalog: the same products, and the report.
    let direct = try await run(["catalog", "check", Self.japan] + Self.credits, in: folder)
    try expectSuccess(direct)
    #expect(
      direct.stdout.split(separator: "\n").dropFirst().prefix(6)
        == checked.stdout.split(separator: "\n").dropFirst().prefix(6), "\(direct)\n\(checked)")
    #expect(direct.stdout.contains("  monkeyshop store set verification fail"), "\(direct)")

    try expectSuccess(await monkeyshop("store", "set", "latency", "instant", in: folder))
    let bought = try await run(
      ["buy", "com.example.bananas.12", "--quantity", "2", "--catalog", Self.japan] + Self.credits, in: folder)
    try expectSuccess(bought)
    #expect(bought.stdout.contains("balance 24 monkey credits"), "\(bought)")
    #expect(try await walletBalance(folder) == 24)
  }

  @Test("the commands the import prints are accepted by store set, and apply the file's settings")
  func printedCommandsApply() async throws {
    let folder = try ShopFolder("import-conditions")
    let imported = try await run(["catalog", "import", Self.version1] + Self.credits, in: folder)
    try expectSuccess(imported)
    let commands = imported.stderr.split(separator: "\n").filter { $0.hasPrefix("  monkeyshop store set ") }
    #expect(commands.count == 1, "\(imported)")
    for command in commands {
      let words = command.split(separator: "#")[0].split(separator: " ").dropFirst().map(String.init)
      try expectSuccess(await run(words, in: folder))
    }
    let shown = try await monkeyshop("store", "show", in: folder)
    let failAll = shown.stdout.split(separator: "\n").first { $0.hasPrefix("failAll ") }
    #expect(failAll?.split(separator: " ").last == "2", "\(shown)")
  }

  @Test("the catalog on standard output is the file --out writes; --out never replaces a file unless --force")
  func outputPlaces() async throws {
    let folder = try ShopFolder("import-out")
    let printed = try await run(["catalog", "import", Self.version1] + Self.credits, in: folder)
    try expectSuccess(printed)
    #expect(printed.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), "\(printed)")
    #expect(printed.stderr.contains("not sold here (subscriptions): com.example.club.monthly"), "\(printed)")

    let out = folder.file("products").path + ".plist"
    try Data("mine".utf8).write(to: URL(fileURLWithPath: out))
    let refused = try await run(["catalog", "import", Self.version1, "--out", out] + Self.credits, in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    #expect(refused.stderr.contains("--out \(out): exists (--force replaces it); nothing was written"), "\(refused)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "mine")

    let forced = try await run(
      ["catalog", "import", Self.version1, "--out", out, "--force"] + Self.credits, in: folder)
    try expectSuccess(forced)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == printed.stdout)

    let overSource = try await run(
      ["catalog", "import", Self.version1, "--out", Self.version1, "--force"] + Self.credits, in: folder)
    #expect(overSource.exitStatus == 64, "\(overSource)")
    #expect(overSource.stderr.contains("is the .storekit file being imported"), "\(overSource)")
  }

  @Test("a consumable without credits is named, exit 65, wherever the file is used")
  func creditsMissing() async throws {
    let folder = try ShopFolder("import-credits")
    let expected =
      "consumables need the monkey credits one unit grants: com.example.bananas.5, com.example.bananas.12"
    let imported = try await monkeyshop("catalog", "import", Self.version1, in: folder)
    let bought = try await monkeyshop("buy", "com.example.bananas.5", "--catalog", Self.version1, in: folder)
    let fromEnvironment = try await monkeyshop(
      "buy", "com.example.bananas.5", in: folder, environment: ["MONKEYSHOP_CATALOG": Self.version1])
    for result in [imported, bought, fromEnvironment] {
      #expect(result.exitStatus == 65, "\(result)")
      #expect(result.stderr.contains(expected), "\(result)")
      #expect(result.stderr.contains("MS-E0012"), "\(result)")
    }
    #expect(try await walletBalance(folder) == 0)

    // MONKEYSHOP_CREDITS gives them to a catalog named by MONKEYSHOP_CATALOG.
    try expectSuccess(await monkeyshop("store", "set", "latency", "instant", in: folder))
    let credited = try await monkeyshop(
      "buy", "com.example.bananas.5", in: folder,
      environment: [
        "MONKEYSHOP_CATALOG": Self.version1, "MONKEYSHOP_CREDITS": "com.example.bananas.5=5 com.example.bananas.12=12",
      ])
    try expectSuccess(credited)
    #expect(try await walletBalance(folder) == 5)
  }

  @Test("credits the file cannot take are refused: a typing mistake, a products.plist, a malformed --credits")
  func creditsRefused() async throws {
    let folder = try ShopFolder("import-credits-refused")
    let typo = try await monkeyshop(
      "catalog", "import", Self.version1, "--credits", "com.example.bananas.5=5", "--credits",
      "com.example.banana.12=12", in: folder)
    #expect(typo.exitStatus == 65, "\(typo)")
    #expect(
      typo.stderr.contains("product 'com.example.banana.12', key '--credits': is not a product of the file"),
      "\(typo)")

    let plist = try await monkeyshop(
      "catalog", "check", Locations.catalog, "--credits", "com.monkeyshop.credits.5=50", in: folder)
    #expect(plist.exitStatus == 65, "\(plist)")
    #expect(plist.stderr.contains("key '--credits': is read only with a .storekit catalog"), "\(plist)")

    // N is digits only; a value that starts with a dash is still the option's value, refused as such.
    for word in ["five", "com.example.bananas.5=+5", "com.example.bananas.5= 5", "-5", "--out"] {
      let malformed = try await monkeyshop("catalog", "import", Self.version1, "--credits", word, in: folder)
      #expect(malformed.exitStatus == 64, "\(malformed)")
      #expect(
        malformed.stderr.contains("'\(word)' is not PRODUCT_ID=N with N digits only, from 1 to 1000000000"),
        "\(malformed)")
      #expect(!malformed.stderr.contains("Missing value"), "\(malformed)")
      #expect(malformed.stdout.isEmpty, "\(malformed)")
    }
    let fromEnvironment = try await monkeyshop(
      "catalog", "check", Self.version1, in: folder,
      environment: ["MONKEYSHOP_CREDITS": "com.example.bananas.5=+5 com.example.bananas.12=12"])
    #expect(fromEnvironment.exitStatus == 65, "\(fromEnvironment)")
    #expect(fromEnvironment.stderr.contains("'com.example.bananas.5=+5' is not PRODUCT_ID=N"), "\(fromEnvironment)")
  }

  @Test("a malformed file names the file and the key path, exit 65; a missing one is refused as a missing catalog")
  func malformedFiles() async throws {
    let folder = try ShopFolder("import-malformed")
    let badPrice = try storeKitFile(
      """
      {"products": [{"productID": "com.example.bananas.5", "type": "Consumable", "displayPrice": "0,99",
        "localizations": [{"locale": "en_US", "displayName": "Bananas", "description": "Bananas"}]}],
       "settings": {}, "version": {"major": 3, "minor": 0}}
      """, in: folder)
    let notJSON = try storeKitFile("products = ()", in: folder)
    let missing = folder.file("Missing").path + ".storekit"
    for (file, words) in [
      (
        badPrice,
        "\(badPrice): product 'com.example.bananas.5', key 'products[0].displayPrice': '0,99' is not a decimal number"
      ),
      (notJSON, "\(notJSON): is not JSON (expected an Xcode StoreKit configuration file, which is JSON)"),
      (missing, "\(missing): no such file"),
    ] {
      let imported = try await monkeyshop(
        "catalog", "import", file, "--credits", "com.example.bananas.5=5", in: folder)
      let checked = try await monkeyshop(
        "catalog", "check", file, "--credits", "com.example.bananas.5=5", in: folder)
      for result in [imported, checked] {
        #expect(result.exitStatus == 65, "\(result)")
        #expect(result.stderr.contains(words), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
      }
    }
  }

  @Test("text with control characters is refused where it is, exit 65; nothing of it reaches the terminal raw")
  func controlCharacters() async throws {
    let folder = try ShopFolder("import-controls")
    let file = try storeKitFile(
      #"""
      {"products": [{"productID": "com.example.bananas.5", "type": "Consumable", "displayPrice": "0.99",
        "localizations": [{"locale": "en_US", "displayName": "Bananas", "description": "Bananas"},
                          {"locale": "de_DE", "displayName": "Rot\u001b[31m\u0007", "description": "Bananen"}]}],
       "settings": {}}
      """#, in: folder)
    let out = folder.file("products").path + ".plist"
    let imported = try await monkeyshop(
      "catalog", "import", file, "--credits", "com.example.bananas.5=5", "--out", out, in: folder)
    let checked = try await monkeyshop("catalog", "check", file, "--credits", "com.example.bananas.5=5", in: folder)
    let expected =
      "\(file): product 'com.example.bananas.5', key 'products[0].localizations[1].displayName': holds the control character U+001B (expected one line of text without control characters)"
    for result in [imported, checked] {
      #expect(result.exitStatus == 65, "\(result)")
      #expect(result.stderr.contains(expected), "\(result)")
      #expect(result.stdout.isEmpty, "\(result)")
      #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))

    // An escape in a product ID given to --credits is shown escaped.
    let good = try storeKitFile(
      #"""
      {"products": [{"productID": "com.example.bananas.5", "type": "Consumable", "displayPrice": "0.99",
        "localizations": [{"locale": "en_US", "displayName": "Bananas", "description": "Bananas"}]}],
       "settings": {}}
      """#, in: folder)
    let bad = try await monkeyshop(
      "catalog", "check", good, "--credits", "com.example.bananas.5\u{1B}[2J=5", in: folder)
    #expect(bad.exitStatus == 65, "\(bad)")
    #expect(bad.stderr.contains(#"product 'com.example.bananas.5\u{1B}[2J', key '--credits'"#), "\(bad)")
    #expect(!bad.stderr.contains("\u{1B}"), "\(bad)")
  }

  @Test("long text of the file is clipped where the import reports it")
  func longTextClipped() async throws {
    let folder = try ShopFolder("import-long")
    let locale = "ja_" + String(repeating: "X", count: 300)
    let id = "com.example.club." + String(repeating: "c", count: 300)
    let file = try storeKitFile(
      #"""
      {"products": [{"productID": "com.example.bananas.5", "type": "Consumable", "displayPrice": "0.99",
        "localizations": [{"locale": "en_US", "displayName": "Bananas", "description": "Bananas"}]}],
       "nonRenewingSubscriptions": [{"productID": "\#(id)"}],
       "settings": {"_locale": "\#(locale)", "_timeRate": "\#(String(repeating: "6", count: 300))"}}
      """#, in: folder)
    let imported = try await monkeyshop(
      "catalog", "import", file, "--credits", "com.example.bananas.5=5", in: folder)
    try expectSuccess(imported)
    #expect(
      imported.stderr.contains("_locale \(locale.prefix(100))…: open the storefront with --lang ja"), "\(imported)")
    #expect(
      imported.stderr.contains("not sold here (subscriptions): \(id.prefix(100))… (nonRenewingSubscriptions[0])"),
      "\(imported)")
    #expect(
      imported.stderr.contains("settings not simulated: _timeRate \(String(repeating: "6", count: 100))…\n"),
      "\(imported)")
    #expect(!imported.stderr.contains(String(repeating: "X", count: 100)), "\(imported)")
  }

  @Test(
    "a description's line breaks and tabs are kept, in a products.plist Python's plistlib reads back",
    .tags(.needsPython))
  func lineBreaksReadByOtherTools() async throws {
    let folder = try ShopFolder("import-line-breaks")
    let file = try storeKitFile(
      #"""
      {"products": [{"productID": "com.example.bananas.5", "type": "Consumable", "displayPrice": "0.99",
        "localizations": [{"locale": "en_US", "displayName": "Bananas \u200f", "description": "Line one\n\tLine two"}]}],
       "settings": {}}
      """#, in: folder)
    let out = folder.file("products").path + ".plist"
    try expectSuccess(
      await monkeyshop("catalog", "import", file, "--credits", "com.example.bananas.5=5", "--out", out, in: folder))
    let python = try Tools.requirePython(for: "its plistlib reads the written catalog")
    let read = try await Child(
      executable: python,
      [
        "-c",
        "import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], 'rb'))['products'][0]['localizations']['en']))",
        out,
      ], in: folder, environment: folder.environment()
    ).wait(timeout: .seconds(60))
    try expectSuccess(read)
    #expect(read.stdout == #"{"title": "Bananas \u200f", "description": "Line one\n\tLine two"}"# + "\n", "\(read)")
    let checked = try await monkeyshop("catalog", "check", out, in: folder)
    try expectSuccess(checked)
  }

  @Test("a non-consumable is imported and sold, with no credits")
  func nonConsumable() async throws {
    let folder = try ShopFolder("import-non-consumable")
    let out = folder.file("products").path + ".plist"
    let imported = try await monkeyshop(
      "catalog", "import", Self.version4, "--credits", "com.example.bananas.5=5", "--out", out, in: folder)
    try expectSuccess(imported)
    #expect(imported.stdout.contains("2 products (1 consumable, 1 non-consumable), storefront GBR"), "\(imported)")
    #expect(
      imported.stderr.contains(
        "not sold here (subscriptions): com.example.club.monthly (subscriptionGroups[0].subscriptions[0]), com.example.club.yearly (subscriptionGroups[0].subscriptions[1])"
      ), "\(imported)")
    let checked = try await monkeyshop("catalog", "check", out, in: folder)
    try expectSuccess(checked)
    #expect(checked.stdout.contains("  com.example.jungle.map  non-consumable  £4.99  Jungle Map"), "\(checked)")
  }

}
