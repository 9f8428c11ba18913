import Foundation
import Testing

/// Which catalog a command sells from (docs/catalogs.md): `--catalog`, else `MONKEYSHOP_CATALOG`, else
/// `./products.plist`, else the catalog built into the binary, so monkeyshop works from any folder.
@Suite("Catalog resolution", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct CatalogResolutionTests {
  /// A folder with no products.plist, and no MONKEYSHOP_CATALOG: only the shipped catalog is left.
  private func elsewhere(_ folder: ShopFolder) throws -> String {
    let directory = folder.root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  private func run(_ arguments: String..., in folder: ShopFolder, directory: String) async throws -> ChildResult {
    try await Child(arguments, in: folder, unsetting: ["MONKEYSHOP_CATALOG"], directory: directory).wait()
  }

  @Test("from a folder without products.plist, every command sells from the shipped catalog")
  func commandsFromAnotherFolder() async throws {
    let folder = try ShopFolder("elsewhere")
    let directory = try elsewhere(folder)
    try expectSuccess(await run("store", "set", "latency", "instant", in: folder, directory: directory))
    let bought = try await run("buy", ShippedCatalog.ten, "--quantity", "2", in: folder, directory: directory)
    try expectSuccess(bought)
    #expect(bought.stdout.contains("balance 20 monkey credits"), "\(bought)")
    try expectSuccess(await run("spend", "3", in: folder, directory: directory))

    // Ask to Buy: deferred, then approved and declined from here.
    try expectSuccess(await run("store", "set", "askToBuy", "on", in: folder, directory: directory))
    try expectSuccess(await run("buy", ShippedCatalog.five, in: folder, directory: directory))
    let approved = try await run("store", "approve", "last", in: folder, directory: directory)
    try expectSuccess(approved)
    #expect(approved.stdout.contains("approved: payment 2 is purchased"), "\(approved)")
    try expectSuccess(await run("buy", ShippedCatalog.five, in: folder, directory: directory))
    try expectSuccess(await run("store", "decline", "last", in: folder, directory: directory))
    try expectSuccess(await run("store", "set", "askToBuy", "off", in: folder, directory: directory))

    // An interrupted purchase, resolved from here.
    try expectSuccess(await run("store", "set", "interruptedPurchases", "on", in: folder, directory: directory))
    let interrupted = try await run("buy", ShippedCatalog.five, in: folder, directory: directory)
    #expect(interrupted.exitStatus == 1, "\(interrupted)")
    try expectSuccess(await run("store", "resolve", "last", in: folder, directory: directory))

    let launched = try await run("launch", in: folder, directory: directory)
    try expectSuccess(launched)
    #expect(try await walletBalance(folder) == 27, "20 − 3 + 5 approved + 5 resolved")
    try expectSuccess(await run("wallet", "reset", in: folder, directory: directory))
    #expect(try await walletBalance(folder) == 0)
    try expectSuccess(await run("store", "show", in: folder, directory: directory))
    try expectSuccess(await run("store", "reset", in: folder, directory: directory))
  }

  @Test("catalog check says it used the shipped catalog, and lists what it sells")
  func catalogCheckNamesTheShippedCatalog() async throws {
    let folder = try ShopFolder("check-shipped")
    let result = try await run("catalog", "check", in: folder, directory: try elsewhere(folder))
    try expectSuccess(result)
    #expect(
      result.stdout.hasPrefix("the shipped catalog (built into monkeyshop): 3 products, storefront USA"), "\(result)")
    for product in [ShippedCatalog.five, ShippedCatalog.ten] { #expect(result.stdout.contains(product), "\(result)") }
    // The built-in catalog is the repository's products.plist, not a copy that could drift.
    let repository = try await monkeyshop("catalog", "check", Locations.catalog, in: folder)
    try expectSuccess(repository)
    #expect(
      result.stdout.split(separator: "\n").dropFirst() == repository.stdout.split(separator: "\n").dropFirst(),
      "\(result)\n\(repository)")
  }

  @Test("the storefront from another folder gets past the catalog: without a terminal it says so, not exit 65")
  func storefrontFromAnotherFolder() async throws {
    let folder = try ShopFolder("storefront-elsewhere")
    let result = try await run(in: folder, directory: try elsewhere(folder))
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stderr.contains("the storefront needs a terminal"), "\(result)")
    #expect(!result.stderr.contains("MS-E0012"), "\(result)")
  }

  @Test("./products.plist wins over the shipped catalog, MONKEYSHOP_CATALOG over it, --catalog over both")
  func precedence() async throws {
    let folder = try ShopFolder("precedence")
    let directory = try elsewhere(folder)
    try writeCatalog(named: "bananas", to: directory + "/products.plist")
    let environmentCatalog = folder.root.appendingPathComponent("env.plist").path
    try writeCatalog(named: "mangos", to: environmentCatalog)
    let optionCatalog = folder.root.appendingPathComponent("option.plist").path
    try writeCatalog(named: "papayas", to: optionCatalog)

    let local = try await run("catalog", "check", in: folder, directory: directory)
    #expect(local.stdout.hasPrefix("products.plist: 1 product, storefront USA"), "\(local)")
    #expect(local.stdout.contains("com.example.bananas  1 credit  $0.99"), "\(local)")

    let fromEnvironment = try await Child(
      ["catalog", "check"], in: folder, environment: ["MONKEYSHOP_CATALOG": environmentCatalog], directory: directory
    ).wait()
    #expect(fromEnvironment.stdout.hasPrefix("\(environmentCatalog): 1 product"), "\(fromEnvironment)")
    #expect(fromEnvironment.stdout.contains("com.example.mangos"), "\(fromEnvironment)")

    let fromOption = try await Child(
      ["buy", "com.example.papayas", "--catalog", optionCatalog], in: folder,
      environment: ["MONKEYSHOP_CATALOG": environmentCatalog], directory: directory
    ).wait()
    try expectSuccess(fromOption)
    #expect(fromOption.stdout.contains("balance 1 monkey credit\n"), "\(fromOption)")
  }

  @Test("a broken ./products.plist is refused with its name, exit 65: never passed over for the shipped one")
  func brokenLocalCatalog() async throws {
    let folder = try ShopFolder("broken-local")
    let directory = try elsewhere(folder)
    #expect(FileManager.default.createFile(atPath: directory + "/products.plist", contents: Data("nope".utf8)))
    let result = try await run("buy", ShippedCatalog.five, in: folder, directory: directory)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains("monkeyshop: products.plist: the root is a string"), "\(result)")
    #expect(result.stderr.contains("MS-E0012"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: folder.walletPath))
  }

  /// A catalog of one product, `com.example.NAME`, 1 credit for $0.99.
  private func writeCatalog(named name: String, to path: String) throws {
    let root: [String: Any] = [
      "products": [
        [
          "productIdentifier": "com.example.\(name)", "type": "consumable", "credits": 1,
          "localizations": ["en": ["title": name, "description": "one \(name)"]],
          "prices": ["USA": "0.99"],
        ]
      ]
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    #expect(FileManager.default.createFile(atPath: path, contents: data))
  }
}
