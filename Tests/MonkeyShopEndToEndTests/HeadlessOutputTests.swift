import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the headless commands write, byte for byte: nothing from a catalog, a walkthrough, a data
/// file or the command line reaches the terminal raw (docs/commands.md); lines are written as they happen;
/// numbers out of range are refused with what was expected.
@Suite("Headless output", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct HeadlessOutputTests {
  // MARK: Terminal injection

  /// Retitles the terminal, clears it, writes the clipboard, a one-byte CSI, reversed text.
  static let hostile =
    "Monkey \u{1B}]0;pwned\u{7}\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{7}\u{9B}31m\u{202E}olleh\u{7F}"

  @Test("catalog check shows a hostile title's control characters escaped, and nothing raw")
  func catalogCheckEscapesTitles() async throws {
    let folder = try ShopFolder("hostile-title")
    let path = try writeCatalog(in: folder) { root in
      product(&root, 0) { product in
        var localizations = product["localizations"] as? [String: [String: String]] ?? [:]
        localizations["en", default: [:]]["title"] = Self.hostile
        product["localizations"] = localizations
      }
    }
    let result = try await monkeyshop("catalog", "check", path, in: folder)
    try expectSuccess(result)
    expectNoControls(result)
    #expect(
      result.stdout.contains(
        #"Monkey \u{1B}]0;pwned\u{7}\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{7}\u{9B}31m\u{202E}olleh\u{7F}"#),
      "\(result)")
  }

  @Test("a newline in a catalog's title or product ID cannot fake a line of catalog check's output")
  func catalogCheckEscapesNewlines() async throws {
    let folder = try ShopFolder("newline-title")
    let path = try writeCatalog(in: folder) { root in
      product(&root, 0) { product in
        var localizations = product["localizations"] as? [String: [String: String]] ?? [:]
        localizations["en", default: [:]]["title"] = "Monkey\n  com.fake.product  99 credits  $0.00"
        product["localizations"] = localizations
      }
    }
    let result = try await monkeyshop("catalog", "check", path, in: folder)
    try expectSuccess(result)
    #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("  com.fake.product") }, "\(result)")
    #expect(result.stdout.contains(#"Monkey\n  com.fake.product"#), "\(result)")

    let badID = try writeCatalog(in: folder) { root in
      product(&root, 0) { $0["productIdentifier"] = "com.monkeyshop.credits.5\nmonkeyshop: all is well" }
    }
    let refused = try await monkeyshop("catalog", "check", badID, in: folder)
    #expect(refused.exitStatus == 65, "\(refused)")
    #expect(refused.stderr.split(separator: "\n").count == 1, "one line, the newline shown escaped: \(refused)")
    #expect(refused.stderr.contains(#"credits.5\nmonkeyshop: all is well"#), "\(refused)")
  }

  @Test("a refused catalog names its unknown key escaped")
  func catalogErrorEscapesKeys() async throws {
    let folder = try ShopFolder("hostile-key")
    let path = try writeCatalog(in: folder) { product(&$0, 0) { $0["\u{1B}[2Jcredits"] = 5 } }
    let result = try await monkeyshop("catalog", "check", path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    expectNoControls(result)
    #expect(result.stderr.contains(#"key '\u{1B}[2Jcredits': unknown key"#), "\(result)")
  }

  @Test("buy and the command-line parser show what they refuse escaped")
  func refusalsEscapeArguments() async throws {
    let folder = try ShopFolder("hostile-arguments")
    let buy = try await monkeyshop("buy", "com.monkeyshop.\u{1B}]0;x\u{7}", in: folder)
    #expect(buy.exitStatus == 64, "\(buy)")
    expectNoControls(buy)
    #expect(buy.stderr.contains(#"unknown product 'com.monkeyshop.\u{1B}]0;x\u{7}'"#), "\(buy)")

    let parser = try await monkeyshop("wallet", "show", "\u{1B}[2J\u{9B}", in: folder)
    #expect(parser.exitStatus == 64, "\(parser)")
    expectNoControls(parser)
    #expect(parser.stderr.contains(#"'\u{1B}[2J\u{9B}'"#), "\(parser)")
  }

  @Test("wallet show prints a hostile data folder's name escaped, and --json still reads back exactly")
  func walletPathEscaped() async throws {
    let folder = try ShopFolder("hostile-path")
    let data = folder.root.appendingPathComponent("data\u{1B}[2J\u{9B}\u{202E}").path
    try await expectSuccess(monkeyshop("wallet", "reset", in: folder, environment: ["MONKEYSHOP_DATA_DIR": data]))
    let text = try await monkeyshop("wallet", "show", in: folder, environment: ["MONKEYSHOP_DATA_DIR": data])
    try expectSuccess(text)
    expectNoControls(text)
    #expect(text.stdout.contains(#"data\u{1B}[2J\u{9B}\u{202E}/wallet.json"#), "\(text)")

    let json = try await monkeyshop("wallet", "show", "--json", in: folder, environment: ["MONKEYSHOP_DATA_DIR": data])
    try expectSuccess(json)
    expectNoControls(json)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["path"] as? String == data + "/wallet.json", "\(json)")
  }

  @Test("walkthrough transcripts show names, say: and expected screens escaped")
  func walkthroughTranscriptEscaped() async throws {
    let folder = try ShopFolder("hostile-walkthrough")
    let path = folder.file("hostile.yaml").path
    let yaml = """
      name: "Pwn \\e]0;title\\a"
      steps:
        - say: "clear \\e[2J and \\x9B31m"
        - launch
        - expect: { screen: "Buy \\e]52;c;cHduZWQ=\\a" }
      """
    #expect(FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8)))
    let result = try await monkeyshop("walkthrough", path, in: folder)
    #expect(result.exitStatus == 1, "the screen expectation fails: \(result)")
    expectNoControls(result)
    for fragment in [
      #"Pwn \u{1B}]0;title\u{7}"#, #"say: clear \u{1B}[2J and \u{9B}31m"#, #"Buy \u{1B}]52;c;cHduZWQ=\u{7}"#,
    ] {
      #expect(result.stdout.contains(fragment), "\(fragment): \(result)")
    }
  }

  // MARK: Each line as it happens (finding 14)

  @Test("buy writes each log line as it happens: SIGTERM at slow latency leaves them in the file")
  func buyLogSurvivesSIGTERM() async throws {
    let folder = try ShopFolder("buy-sigterm")
    try await expectSuccess(monkeyshop("store", "set", "latency", "slow", in: folder))
    let child = try Child(["buy", ShippedCatalog.five], in: folder)
    // The purchase is in the store and the answer is seconds away: buy is waiting.
    try await waitUntil("the transaction is purchasing") {
      let store = try? folder.jsonObject(folder.storePath)
      let transactions = store?["transactions"] as? [[String: Any]] ?? []
      return transactions.contains { $0["state"] as? String == "purchasing" }
    }
    // The lines may follow the store's write by a moment; without the fix they never come.
    let stdout = child.stdoutPath
    try? await waitUntil("the log to reach .purchasing", timeout: .seconds(4)) {
      (try? String(contentsOfFile: stdout, encoding: .utf8))?.contains(".purchasing payment 1") == true
    }
    child.kill(SIGTERM)
    let result = try await child.wait()
    #expect(result.killedBy == SIGTERM, "\(result)")
    for line in ["SKPaymentQueue.add(payment com.monkeyshop.credits.5 ×1)", ".purchasing payment 1"] {
      #expect(result.stdout.contains(line), "\(result)")
    }
  }

  // MARK: Negative numbers (finding 15)

  @Test(
    "a negative quantity or amount says what the number must be, exit 64",
    arguments: [
      (["buy", ShippedCatalog.five, "--quantity", "-1"], "1 to 10"),
      (["buy", ShippedCatalog.five, "-q", "-3"], "1 to 10"),
      (["spend", "-1"], "spend 1 or more credits, not -1"),
      (["spend"], "at least 1"),
      (["spend", "two"], "at least 1"),
    ])
  func negativeNumbers(_ arguments: [String], _ fragment: String) async throws {
    let folder = try ShopFolder("negative")
    let result = try await Child(arguments, in: folder).wait()
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains(fragment), "\(result)")
    #expect(!result.stderr.contains("Missing"), "\(result)")
  }

  // MARK: Catalog credits (finding 12)

  @Test(
    "catalog credits 2^63−1, 2^64 and 5.5 are refused with the file, product, key and what was expected, exit 65",
    arguments: [
      ("<integer>9223372036854775807</integer>", "9223372036854775807"),
      ("<integer>18446744073709551616</integer>", "18446744073709551616"),
      ("<real>5.5</real>", "5.5, not a whole number"),
    ])
  func catalogCredits(_ credits: String, _ fragment: String) async throws {
    let folder = try ShopFolder("credits")
    let shipped = try String(contentsOfFile: Locations.catalog, encoding: .utf8)
    let spoiled = shipped.replacingOccurrences(
      of: #"<key>credits</key>\s*<integer>5</integer>"#, with: "<key>credits</key>\(credits)",
      options: .regularExpression)
    #expect(spoiled.contains(credits))
    let path = folder.file("products.plist").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(spoiled.utf8)))
    let result = try await monkeyshop("catalog", "check", path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    for expected in [
      path, "product '\(ShippedCatalog.five)'", "key 'credits'", fragment, "a whole number from 1 to 1000000000",
    ] {
      #expect(result.stderr.contains(expected), "\(result)")
    }
    #expect(!result.stderr.contains("not a property list"), "\(result)")
  }
}

// MARK: Currencies without minor units, and counts of one

extension HeadlessOutputTests {
  @Test("a fraction of a yen in the catalog is refused with the file, product, key and what was expected, exit 65")
  func fractionOfAYen() async throws {
    let folder = try ShopFolder("yen")
    let path = try writeCatalog(in: folder) { root in
      product(&root, 0) { entry in
        var prices = entry["prices"] as? [String: Any] ?? [:]
        prices["JPN"] = "0.19"
        entry["prices"] = prices
      }
    }
    for arguments in [["catalog", "check", path], ["buy", ShippedCatalog.ten, "--catalog", path]] {
      let result = try await Child(arguments, in: folder).wait()
      #expect(result.exitStatus == 65, "\(result)")
      for expected in [
        path, "product '\(ShippedCatalog.five)'", "key 'prices.JPN'", "'0.19' has 2 decimal places",
        "JPY has no minor unit", "expected a whole number of yen", "MS-E0012",
      ] {
        #expect(result.stderr.contains(expected), "\(result)")
      }
      #expect(result.stdout.isEmpty, "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.walletPath), "nothing written")
  }

  @Test("one credit, one product: singular in wallet show, spend and buy")
  func countsOfOne() async throws {
    let folder = try ShopFolder("one")
    let path = try writeCatalog(in: folder) { root in
      product(&root, 0) { $0["credits"] = 1 }
      root["products"] = (root["products"] as? [Any])?.prefix(1).map { $0 }
    }
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let bought = try await monkeyshop("buy", ShippedCatalog.five, "--quantity", "2", "--catalog", path, in: folder)
    try expectSuccess(bought)
    #expect(bought.stdout.hasSuffix("purchased: transaction #1, balance 2 monkey credits\n"), "\(bought)")
    let spent = try await monkeyshop("spend", "1", "--catalog", path, in: folder)
    #expect(spent.stdout == "spent 1: 1 monkey credit left\n", "\(spent)")
    let shown = try await monkeyshop("wallet", "show", in: folder)
    #expect(shown.stdout.hasPrefix("1 monkey credit\n"), "\(shown)")
    let checked = try await monkeyshop("catalog", "check", path, in: folder)
    #expect(checked.stdout.hasPrefix("\(path): 1 product, storefront USA\n"), "\(checked)")
    #expect(checked.stdout.contains("\(ShippedCatalog.five)  1 credit  $0.99"), "\(checked)")
  }
}

// MARK: Helpers

/// Neither standard output nor standard error holds a byte a terminal would act on: C0 controls
/// but newline, DEL, C1 controls, bidirectional overrides and isolates.
private func expectNoControls(_ result: ChildResult, sourceLocation: SourceLocation = #_sourceLocation) {
  for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
    let raw = text.unicodeScalars.filter { scalar in
      let value = scalar.value
      return (value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value)
    }
    #expect(
      raw.isEmpty, "\(name) holds raw controls \(raw.map { String($0.value, radix: 16) }): \(result)",
      sourceLocation: sourceLocation)
  }
}

/// The shipped catalog, changed, written as a binary property list (XML cannot hold most controls).
private func writeCatalog(in folder: ShopFolder, _ change: (inout [String: Any]) -> Void) throws -> String {
  let shipped = try #require(FileManager.default.contents(atPath: Locations.catalog))
  var root = try #require(try PropertyListSerialization.propertyList(from: shipped, format: nil) as? [String: Any])
  change(&root)
  let path = folder.file("products.plist").path
  let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
  #expect(FileManager.default.createFile(atPath: path, contents: data))
  return path
}

/// Changes product `index` of a catalog's root dictionary.
private func product(_ root: inout [String: Any], _ index: Int, _ change: (inout [String: Any]) -> Void) {
  guard var products = root["products"] as? [[String: Any]], products.indices.contains(index) else { return }
  change(&products[index])
  root["products"] = products
}
