import Foundation
import Testing

/// Each headless command of docs/commands.md through the built binary, as a script or CI job runs it: exit
/// statuses, what it prints, and what it leaves in the data folder.
@Suite("Headless commands", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct HeadlessCommandTests {
  // MARK: buy

  @Test("buy: the purchase goes through the StoreKit steps, credits the wallet and is finished")
  func buy() async throws {
    let folder = try ShopFolder("buy")
    // Default conditions: normal latency, about a second for the App Store to answer.
    let result = try await monkeyshop("buy", ShippedCatalog.ten, "--quantity", "3", in: folder)
    try expectSuccess(result)
    let lines = result.stdout.components(separatedBy: "\n")
    let steps = [
      "SKPaymentQueue.add(payment com.monkeyshop.credits.10 ×3)", ".purchasing payment 1", ".purchased #1",
      "deliver #1: +30 credits → balance 30", "finishTransaction(#1)",
      "purchased: transaction #1, balance 30 monkey credits",
    ]
    var position = lines.startIndex
    for step in steps {
      guard let found = lines[position...].firstIndex(where: { $0.contains(step) }) else {
        Issue.record("no '\(step)' after line \(position) of the output:\n\(result.stdout)")
        return
      }
      position = found
    }
    #expect(try await walletBalance(folder) == 30)
    let transactions = try await storeTransactions(folder)
    #expect(transactions.count == 1)
    let transaction = try #require(transactions.first)
    #expect(transaction.id == "1")
    #expect(transaction.productIdentifier == ShippedCatalog.ten)
    #expect(transaction.quantity == 3)
    #expect(transaction.state == "purchased")
    #expect(transaction.finished)
    #expect(transaction.errorCode == nil)
    // The wallet file carries its schema version.
    #expect(try folder.jsonObject(folder.walletPath)["schemaVersion"] as? Int == 4)
    #expect(try folder.jsonObject(folder.storePath)["schemaVersion"] as? Int == 1)
  }

  @Test("--data-dir wins over MONKEYSHOP_DATA_DIR")
  func dataDirOption() async throws {
    let folder = try ShopFolder("data-dir")
    let other = folder.root.appendingPathComponent("other").path
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", "--data-dir", other, in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, "--data-dir", other, in: folder))
    #expect(FileManager.default.fileExists(atPath: other + "/wallet.json"))
    #expect(!FileManager.default.fileExists(atPath: folder.walletPath), "nothing in MONKEYSHOP_DATA_DIR")
    let shown = try await monkeyshop("wallet", "show", "--json", "--data-dir", other, in: folder)
    #expect(try balance(fromJSON: shown.stdout) == 5, "\(shown)")
  }

  @Test("--data-dir before the subcommand: one line saying it goes after, with the command line corrected")
  func optionBeforeTheSubcommand() async throws {
    let folder = try ShopFolder("option-before")
    let other = folder.root.appendingPathComponent("my data").path
    let refused = try await monkeyshop("--data-dir", other, "store", "transactions", in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    let corrected = "monkeyshop store transactions --data-dir '\(other)'"
    #expect(
      refused.stderr == "monkeyshop: --data-dir '\(other)' belongs after the subcommand: \(corrected)\n", "\(refused)")
    // The corrected line runs.
    try await expectSuccess(monkeyshop("store", "transactions", "--data-dir", other, in: folder))
    // Within a group of subcommands too.
    let inGroup = try await monkeyshop("wallet", "--data-dir", other, "show", in: folder)
    #expect(inGroup.exitStatus == 64, "\(inGroup)")
    #expect(
      inGroup.stderr
        == "monkeyshop: --data-dir '\(other)' belongs after the subcommand: monkeyshop wallet show --data-dir '\(other)'\n",
      "\(inGroup)")
  }

  static let refusedPurchases: [(arguments: [String], fragments: [String])] = [
    (["buy", ShippedCatalog.five, "--quantity", "0"], ["invalid quantity 0", "1 to 10", "MS-E0009"]),
    (["buy", ShippedCatalog.ten, "--quantity", "11"], ["invalid quantity 11", "1 to 10", "MS-E0009"]),
    (
      ["buy", "com.monkeyshop.bananas"], ["unknown product 'com.monkeyshop.bananas'", ShippedCatalog.five, "MS-E0008"]
    ),
  ]

  @Test(
    "buy refuses a quantity outside 1…10 and an unknown product: exit 64, a message, nothing written",
    arguments: refusedPurchases)
  func refusedPurchase(_ arguments: [String], _ fragments: [String]) async throws {
    let folder = try ShopFolder("refused")
    // Without a data folder: none is created.
    var result = try await Child(arguments, in: folder).wait()
    #expect(result.exitStatus == 64, "\(result)")
    for fragment in fragments { #expect(result.stderr.contains(fragment), "\(result)") }
    #expect(!FileManager.default.fileExists(atPath: folder.data.path), "\(folder.dataFolderNames())")

    // With one: not a byte changes.
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    let before = try snapshot(folder)
    result = try await Child(arguments, in: folder).wait()
    #expect(result.exitStatus == 64, "\(result)")
    #expect(try snapshot(folder) == before)
  }

  // MARK: store set

  struct Condition: Sendable, CustomTestStringConvertible {
    let name: String
    /// Values to set, each with what `store show` then says.
    let valid: [(value: String, shown: String)]
    let invalid: String
    /// What the refusal says is expected.
    let expected: String

    var testDescription: String { name }
  }

  static let conditions: [Condition] = [
    Condition(
      name: "purchasesAllowed", valid: [("false", "false"), ("true", "true")], invalid: "maybe",
      expected: "expected true|false"),
    Condition(
      name: "network", valid: [("down", "down"), ("up", "up")], invalid: "sideways", expected: "expected up|down"),
    Condition(
      name: "askToBuy", valid: [("on", "on"), ("off", "off")], invalid: "perhaps", expected: "expected on|off"),
    Condition(
      name: "interruptedPurchases", valid: [("on", "on"), ("off", "off")], invalid: "2", expected: "expected on|off"),
    Condition(
      name: "failNext",
      valid: [("5002", "5002"), ("paymentCancelled", "2"), ("overlayTimeout", "17"), ("off", "off")], invalid: "42",
      expected: "21 paymentMethodBindingConfigurationRequired (by number or name); SSServerErrorDomain 5002, 5020"),
    Condition(
      name: "failAll", valid: [("5020", "5020"), ("0", "0"), ("21", "21"), ("off", "off")], invalid: "22",
      expected: "SKErrorDomain 0 unknown, 1 clientInvalid"),
    Condition(
      name: "latency", valid: [("instant", "instant"), ("slow", "slow"), ("normal", "normal")], invalid: "fast",
      expected: "expected instant|normal|slow"),
    Condition(
      name: "storefront", valid: [("JPN", "JPN"), ("GBR", "GBR"), ("USA", "USA")], invalid: "XYZ",
      expected: "USA, JPN, GBR"),
    Condition(
      name: "skipPaymentSheet", valid: [("true", "on"), ("off", "off"), ("on", "on")], invalid: "maybe",
      expected: "expected on|off"),
    Condition(
      name: "crashPoint", valid: [("beforeDelivery", "beforeDelivery"), ("off", "off")], invalid: "nowhere",
      expected: "expected beforeDelivery|afterDeliveryBeforeFinish|off"),
  ]

  @Test("store set: every condition takes its values and refuses others with what it expects", arguments: conditions)
  func storeSet(_ condition: Condition) async throws {
    let folder = try ShopFolder("set-\(condition.name)")
    for (value, shown) in condition.valid {
      let result = try await monkeyshop("store", "set", condition.name, value, in: folder)
      try expectSuccess(result)
      #expect(result.stdout.contains("\(condition.name) = \(shown)"), "\(result)")
      let show = try await monkeyshop("store", "show", in: folder)
      #expect(showsCondition(show.stdout, condition.name, shown), "\(show)")
    }
    let before = try snapshot(folder)
    let refused = try await monkeyshop("store", "set", condition.name, condition.invalid, in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    #expect(refused.stderr.contains("'\(condition.invalid)'"), "\(refused)")
    #expect(refused.stderr.contains(condition.expected), "\(refused)")
    #expect(refused.stderr.contains("MS-E0014"), "\(refused)")
    #expect(try snapshot(folder) == before, "a refused value changes nothing")
  }

  @Test("store set failNext by name echoes the error's number and name")
  func storeSetFailNextByName() async throws {
    let folder = try ShopFolder("set-fail-name")
    let result = try await monkeyshop("store", "set", "failNext", "paymentCancelled", in: folder)
    try expectSuccess(result)
    #expect(result.stdout.contains("failNext = 2 paymentCancelled"), "\(result)")
  }

  @Test("store set refuses an unknown condition, and a storefront the catalog has no prices for")
  func storeSetRefusals() async throws {
    let folder = try ShopFolder("set-refusals")
    let unknown = try await monkeyshop("store", "set", "bananas", "on", in: folder)
    #expect(unknown.exitStatus == 64, "\(unknown)")
    #expect(unknown.stderr.contains("unknown condition or setting 'bananas' (expected one of"), "\(unknown)")
    for condition in [
      "purchasesAllowed", "network", "askToBuy", "continueOnStorefrontChange", "skipPaymentSheet", "crashPoint",
    ] {
      #expect(unknown.stderr.contains(condition), "the conditions there are: \(unknown)")
    }
    // A misspelt one: the name it may be, as a walkthrough's `set` says it.
    let misspelt = try await monkeyshop("store", "set", "netwrok", "down", in: folder)
    #expect(misspelt.exitStatus == 64, "\(misspelt)")
    #expect(misspelt.stderr.contains("unknown condition or setting 'netwrok' (did you mean 'network'?)"), "\(misspelt)")
    // ITA is a storefront monkeyshop knows, but the shipped catalog has no Italian prices.
    let unpriced = try await monkeyshop("store", "set", "storefront", "ITA", in: folder)
    #expect(unpriced.exitStatus == 64, "\(unpriced)")
    #expect(unpriced.stderr.contains("ITA"), "\(unpriced)")
    let show = try await monkeyshop("store", "show", in: folder)
    #expect(showsCondition(show.stdout, "storefront", "USA"), "\(show)")
  }

  // MARK: Failures

  @Test("network down: buy fails at the product request, exit 1 with SKErrorDomain 0 unknown and MS-E0001, no payment")
  func networkDown() async throws {
    let folder = try ShopFolder("network")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "network", "down", in: folder))
    let result = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stdout.contains("request(_:didFailWithError:) SKErrorDomain 0 unknown"), "\(result)")
    #expect(result.stderr.contains("SKErrorDomain 0 unknown"), "\(result)")
    #expect(result.stderr.contains("MS-E0001"), "\(result)")
    #expect(result.stderr.contains("Cannot connect to iTunes Store"), "\(result)")
    #expect(try await walletBalance(folder) == 0)
    #expect(try await storeTransactions(folder).isEmpty, "the app pays only for a product the App Store returned")

    try await expectSuccess(monkeyshop("store", "set", "network", "up", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 5)
  }

  @Test("failNext 5002 fails one purchase with \"An unknown error has occurred\"; failAll fails every one")
  func forcedErrors() async throws {
    let folder = try ShopFolder("forced")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "failNext", "5002", in: folder))
    let failed = try await monkeyshop("buy", ShippedCatalog.ten, in: folder)
    #expect(failed.exitStatus == 1, "\(failed)")
    #expect(failed.stderr.contains("An unknown error has occurred"), "\(failed)")
    #expect(failed.stderr.contains("SSServerErrorDomain 5002"), "\(failed)")
    #expect(failed.stderr.contains("MS-E0007"), "\(failed)")
    // failNext is spent: the next purchase goes through.
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, in: folder))
    #expect(try await walletBalance(folder) == 10)

    try await expectSuccess(monkeyshop("store", "set", "failAll", "5020", in: folder))
    for _ in 0..<2 {
      let result = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
      #expect(result.exitStatus == 1, "\(result)")
      #expect(result.stderr.contains("Forget Your Password?"), "\(result)")
    }
    try await expectSuccess(monkeyshop("store", "set", "failAll", "off", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 15)
    let codes = try await storeTransactions(folder).map(\.errorCode)
    #expect(codes == [5002, nil, 5020, 5020, nil])
  }

  @Test("restrictions: canMakePayments is false, buy adds no payment and exits 1 with MS-E0003")
  func restricted() async throws {
    let folder = try ShopFolder("restricted")
    try await expectSuccess(monkeyshop("store", "set", "purchasesAllowed", "false", in: folder))
    let result = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stderr.contains("MS-E0003"), "\(result)")
    // Said once: the payment was not added, and why.
    #expect(
      result.stderr.contains(
        "the payment was not added: canMakePayments() is false: purchases are restricted (\(ShippedCatalog.five))"),
      "\(result)")
    #expect(result.stderr.components(separatedBy: "added").count == 2, "\(result)")
    #expect(result.stdout.contains("SKPaymentQueue.canMakePayments() → false"), "\(result)")
    #expect(try await storeTransactions(folder).isEmpty)
    #expect(try await walletBalance(folder) == 0)
  }

  // MARK: Ask to Buy and interruptions

  @Test("Ask to Buy: deferred, approved, then delivered by the next launch")
  func askToBuyApproved() async throws {
    let folder = try ShopFolder("ask-approve")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "on", in: folder))
    let deferred = try await monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", in: folder)
    try expectSuccess(deferred)
    #expect(deferred.stdout.contains("deferred: payment 1"), "\(deferred)")
    #expect(try await walletBalance(folder) == 0)
    #expect(try await storeTransactions(folder).map(\.state) == ["deferred"])
    #expect(try await storeTransactions(folder).first?.finished == false, "a deferred transaction is not finished")

    let approved = try await monkeyshop("store", "approve", "last", in: folder)
    try expectSuccess(approved)
    #expect(approved.stdout.contains("payment 1 is purchased"), "\(approved)")
    #expect(try await walletBalance(folder) == 0, "the app takes delivery at its next launch")

    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "off", in: folder))
    let launch = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try expectSuccess(launch)
    #expect(launch.stdout.contains("deliver #1: +20 credits"), "\(launch)")
    #expect(try await walletBalance(folder) == 25)
    #expect(try await storeTransactions(folder).allSatisfy { $0.finished })
  }

  @Test("Ask to Buy declined: the next launch finishes the failed transaction, nothing credited")
  func askToBuyDeclined() async throws {
    let folder = try ShopFolder("ask-decline")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "on", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, in: folder))
    let declined = try await monkeyshop("store", "decline", "1", in: folder)
    try expectSuccess(declined)
    #expect(declined.stdout == "declined: payment 1 failed with SKErrorDomain 2 paymentCancelled\n", "\(declined)")
    // Nothing left to approve.
    let again = try await monkeyshop("store", "approve", "1", in: folder)
    #expect(again.exitStatus == 1, "\(again)")
    #expect(again.stderr.contains("MS-E0013"), "\(again)")

    try await expectSuccess(monkeyshop("store", "set", "askToBuy", "off", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 5)
    let transactions = try await storeTransactions(folder)
    #expect(transactions.first?.state == "failed" && transactions.first?.errorID == "MS-E0005", "\(transactions)")
    #expect(transactions.allSatisfy { $0.finished }, "\(transactions)")
  }

  @Test("interrupted purchase: buy fails, store resolve sends a purchased transaction, the next launch delivers it")
  func interruptedThenResolved() async throws {
    let folder = try ShopFolder("interrupted")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "interruptedPurchases", "on", in: folder))
    let interrupted = try await monkeyshop("buy", ShippedCatalog.ten, in: folder)
    #expect(interrupted.exitStatus == 1, "\(interrupted)")
    #expect(interrupted.stderr.contains("MS-E0006"), "\(interrupted)")
    #expect(try await walletBalance(folder) == 0)

    let resolved = try await monkeyshop("store", "resolve", "last", in: folder)
    try expectSuccess(resolved)
    #expect(resolved.stdout.contains("the store sends a new payment, payment 2"), "\(resolved)")
    try await expectSuccess(monkeyshop("store", "set", "interruptedPurchases", "off", in: folder))
    let launch = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try expectSuccess(launch)
    #expect(launch.stdout.contains("deliver #2: +10 credits"), "\(launch)")
    #expect(try await walletBalance(folder) == 15)

    let transactions = try await storeTransactions(folder)
    #expect(transactions.map(\.state) == ["failed", "purchased", "purchased"], "\(transactions)")
    #expect(transactions[1].resolvedFromTransactionID == "1", "\(transactions)")
    #expect(transactions.allSatisfy { $0.finished }, "\(transactions)")
    // Resolved once: nothing left to resolve.
    let again = try await monkeyshop("store", "resolve", "last", in: folder)
    #expect(again.exitStatus == 1, "\(again)")
  }

  @Test("store transactions --json: id, productIdentifier, quantity, state, finished, and errorCode where failed")
  func transactionsJSON() async throws {
    let folder = try ShopFolder("json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, "-q", "4", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "failNext", "2", in: folder))
    _ = try await monkeyshop("buy", ShippedCatalog.ten, in: folder)
    let result = try await monkeyshop("store", "transactions", "--json", in: folder)
    try expectSuccess(result)
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(objects.count == 2)
    for object in objects {
      #expect(object["id"] is String, "\(object)")
      #expect(object["productIdentifier"] is String, "\(object)")
      #expect(object["quantity"] is Int, "\(object)")
      #expect(object["state"] is String, "\(object)")
      #expect(object["finished"] is Bool, "\(object)")
    }
    #expect(objects[0]["quantity"] as? Int == 4)
    #expect(objects[0]["state"] as? String == "purchased")
    #expect(objects[0]["errorCode"] == nil)
    #expect(objects[1]["state"] as? String == "failed")
    #expect(objects[1]["errorCode"] as? Int == 2)

    let table = try await monkeyshop("store", "transactions", in: folder)
    try expectSuccess(table)
    #expect(table.stdout.contains("ID") && table.stdout.contains("STATE"), "\(table)")
  }

  // MARK: The wallet

  @Test(
    "spend --json: spent with the balance left, exit 0; refused with the balance that refused it, exit 1, nothing taken"
  )
  func spendJSON() async throws {
    let folder = try ShopFolder("spend-json")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))

    let spent = try await monkeyshop("spend", "2", "--json", in: folder)
    try expectSuccess(spent)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(spent.stdout.utf8)) as? [String: Any])
    #expect(report["outcome"] as? String == "spent" && report["credits"] as? Int == 2, "\(spent)")
    #expect(report["balance"] as? Int == 3 && report["exitStatus"] as? Int == 0, "\(spent)")
    #expect(report["error"] == nil, "\(spent)")

    let refused = try await monkeyshop("spend", "4", "--json", in: folder)
    #expect(refused.exitStatus == 1, "\(refused)")
    let refusal = try #require(try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])
    #expect(refusal["outcome"] as? String == "refused" && refusal["balance"] as? Int == 3, "\(refused)")
    #expect(refusal["exitStatus"] as? Int == 1, "\(refused)")
    #expect((refusal["error"] as? [String: Any])?["errorID"] as? String == "MS-E0010", "\(refused)")
    #expect(refused.stderr.contains("4 requested, 3 in the wallet"), "\(refused)")
    #expect(try await walletBalance(folder) == 3, "a refused spend takes nothing")
  }

  @Test("wallet reset and spend: the balance goes to 0; spending more than there is exits 1 with MS-E0010")
  func walletResetAndSpend() async throws {
    let folder = try ShopFolder("wallet")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", in: folder))

    let spent = try await monkeyshop("spend", "3", in: folder)
    try expectSuccess(spent)
    #expect(spent.stdout.contains("17 monkey credits left"), "\(spent)")

    let before = try snapshot(folder)
    let tooMuch = try await monkeyshop("spend", "18", in: folder)
    #expect(tooMuch.exitStatus == 1, "\(tooMuch)")
    #expect(tooMuch.stderr.contains("MS-E0010"), "\(tooMuch)")
    #expect(tooMuch.stderr.contains("18 requested, 17 in the wallet"), "\(tooMuch)")
    #expect(try snapshot(folder) == before)

    let zero = try await monkeyshop("spend", "0", in: folder)
    #expect(zero.exitStatus == 64, "\(zero)")

    let shown = try await monkeyshop("wallet", "show", in: folder)
    #expect(shown.stdout.contains("17 monkey credits"), "\(shown)")
    #expect(shown.stdout.contains(folder.walletPath), "\(shown)")

    try await expectSuccess(monkeyshop("wallet", "reset", in: folder))
    #expect(try await walletBalance(folder) == 0)
    // A launch does not credit anything again.
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 5)
  }

  // MARK: The catalog

  @Test("catalog check: the shipped catalog, its products, prices and languages")
  func catalogCheck() async throws {
    let folder = try ShopFolder("catalog")
    let result = try await monkeyshop("catalog", "check", Locations.catalog, in: folder)
    try expectSuccess(result)
    for fragment in [
      "3 products, storefront USA", ShippedCatalog.five, ShippedCatalog.ten, "$0.99", "$1.99", "￥160", "£0.99",
      "0,99 €", "languages: en, ja",
    ] {
      #expect(result.stdout.contains(fragment), "\(result)")
    }
  }

  struct BrokenCatalog: Sendable, CustomTestStringConvertible {
    let name: String
    /// Changes the shipped catalog's root dictionary; nil writes `contents` instead.
    let change: (@Sendable (inout [String: Any]) -> Void)?
    var contents: Data?
    /// What the refusal names: the product and the key at fault.
    let fragments: [String]

    var testDescription: String { name }
  }

  static let brokenCatalogs: [BrokenCatalog] = [
    BrokenCatalog(
      name: "credits 0", change: { product(&$0, 1) { $0["credits"] = 0 } },
      fragments: ["product 'com.monkeyshop.credits.10'", "key 'credits'"]),
    BrokenCatalog(
      name: "credits a string", change: { product(&$0, 0) { $0["credits"] = "five" } },
      fragments: ["product 'com.monkeyshop.credits.5'", "key 'credits'"]),
    BrokenCatalog(
      name: "duplicate identifiers",
      change: { root in product(&root, 1) { $0["productIdentifier"] = ShippedCatalog.five } },
      fragments: ["product 'com.monkeyshop.credits.5'", "key 'productIdentifier'", "duplicate"]),
    BrokenCatalog(
      name: "no price for the storefront",
      change: { product(&$0, 1) { $0["prices"] = ["JPN": "320"] } },
      fragments: ["product 'com.monkeyshop.credits.10'", "key 'prices'", "USA"]),
    BrokenCatalog(
      name: "negative price", change: { product(&$0, 0) { $0["prices"] = ["USA": "-0.99"] } },
      fragments: ["product 'com.monkeyshop.credits.5'", "key 'prices.USA'"]),
    BrokenCatalog(
      name: "price not a number", change: { product(&$0, 0) { $0["prices"] = ["USA": "cheap"] } },
      fragments: ["product 'com.monkeyshop.credits.5'", "key 'prices.USA'"]),
    BrokenCatalog(
      name: "not a consumable", change: { product(&$0, 0) { $0["type"] = "autoRenewable" } },
      fragments: ["product 'com.monkeyshop.credits.5'", "key 'type'"]),
    BrokenCatalog(name: "no products", change: { $0["products"] = [[String: Any]]() }, fragments: ["key 'products'"]),
    BrokenCatalog(
      name: "not a property list", change: nil, contents: Data("<?xml version=\"1.0\"?><plist><dict><key>".utf8),
      fragments: ["not a property list"]),
    BrokenCatalog(
      name: "a string, not a dictionary", change: nil, contents: Data("bananas".utf8), fragments: ["dictionary"]),
  ]

  @Test(
    "catalog check refuses a broken catalog: exit 65 naming the file, the product and the key",
    arguments: brokenCatalogs)
  func brokenCatalog(_ broken: BrokenCatalog) async throws {
    let folder = try ShopFolder("broken-catalog")
    let path = folder.file("products.plist").path
    var data = broken.contents ?? Data()
    if let change = broken.change {
      let shipped = try #require(FileManager.default.contents(atPath: Locations.catalog))
      var root = try #require(try PropertyListSerialization.propertyList(from: shipped, format: nil) as? [String: Any])
      change(&root)
      data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    }
    #expect(FileManager.default.createFile(atPath: path, contents: data))

    let result = try await monkeyshop("catalog", "check", path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains(path), "\(result)")
    #expect(result.stderr.contains("MS-E0012"), "\(result)")
    for fragment in broken.fragments { #expect(result.stderr.contains(fragment), "\(result)") }

    // Every command refuses it before doing anything.
    let buy = try await monkeyshop("buy", ShippedCatalog.five, "--catalog", path, in: folder)
    #expect(buy.exitStatus == 65, "\(buy)")
    #expect(!FileManager.default.fileExists(atPath: folder.walletPath))
  }

  @Test("catalog check: a missing file is refused with its path")
  func missingCatalog() async throws {
    let folder = try ShopFolder("missing-catalog")
    let path = folder.root.appendingPathComponent("nowhere.plist").path
    let result = try await monkeyshop("catalog", "check", path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains(path), "\(result)")
  }

  // MARK: Unreadable data files

  struct Corruption: Sendable, CustomTestStringConvertible {
    let name: String
    let file: String
    let contents: String
    var testDescription: String { name }
  }

  static let corruptions: [Corruption] = [
    Corruption(name: "wallet not JSON", file: "wallet.json", contents: "{\"schemaVersion\": 1, \"balance\": 5"),
    Corruption(name: "wallet empty", file: "wallet.json", contents: ""),
    Corruption(name: "wallet an array", file: "wallet.json", contents: "[1, 2, 3]\n"),
    Corruption(
      name: "wallet schemaVersion 0", file: "wallet.json",
      contents: "{\"schemaVersion\": 0, \"balance\": 5, \"deliveredTransactionIDs\": []}\n"),
    Corruption(name: "wallet without schemaVersion", file: "wallet.json", contents: "{\"balance\": 5}\n"),
    Corruption(
      name: "wallet from the future", file: "wallet.json",
      contents: "{\"schemaVersion\": 5, \"balance\": 5, \"deliveredTransactionIDs\": [], \"gems\": 3}\n"),
    Corruption(
      name: "balance beyond Int64", file: "wallet.json",
      contents: "{\"schemaVersion\": 1, \"balance\": 9223372036854775808, \"deliveredTransactionIDs\": []}\n"),
    Corruption(
      name: "balance not a number", file: "wallet.json",
      contents: "{\"schemaVersion\": 1, \"balance\": \"lots\", \"deliveredTransactionIDs\": []}\n"),
    Corruption(name: "store not JSON", file: "store.json", contents: "\u{0}\u{0}\u{0}garbage"),
    Corruption(name: "store from the future", file: "store.json", contents: "{\"schemaVersion\": 9}\n"),
  ]

  /// Every command that reads the data folder, storefront included (it checks the files before it
  /// looks for a terminal).
  static let dataCommands: [[String]] = [
    ["wallet", "show"], ["wallet", "show", "--json"], ["wallet", "reset"], ["spend", "1"],
    ["buy", ShippedCatalog.five],
    ["store", "transactions"], ["store", "transactions", "--json"], ["store", "set", "network", "down"],
    ["store", "approve", "last"], ["store", "decline", "last"], ["store", "resolve", "last"], ["store", "show"],
    ["store", "reset"], ["storefront"], [],
  ]

  @Test(
    "an unreadable wallet or store: every command exits 65 naming the path, and the file stays as it was",
    arguments: corruptions)
  func unreadableDataFile(_ corruption: Corruption) async throws {
    let folder = try ShopFolder("corrupt")
    // A healthy store and wallet first, then one file spoiled.
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    let path = folder.data.appendingPathComponent(corruption.file).path
    let bytes = Data(corruption.contents.utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: bytes))
    let before = try snapshot(folder)

    for arguments in Self.dataCommands {
      let result = try await Child(arguments, in: folder).wait()
      #expect(result.exitStatus == 65, "\(result)")
      #expect(result.stderr.contains(path), "the message names the file: \(result)")
      #expect(result.stderr.contains("MS-E0011"), "\(result)")
      #expect(FileManager.default.contents(atPath: path) == bytes, "\(corruption.file) was rewritten by \(arguments)")
    }
    #expect(try snapshot(folder) == before, "nothing in the data folder changed")
  }

  // MARK: Help

  static let subcommands: [[String]] = [
    [], ["storefront"], ["buy"], ["wallet"], ["wallet", "show"], ["wallet", "reset"], ["spend"], ["store"],
    ["store", "transactions"], ["store", "approve"], ["store", "decline"], ["store", "resolve"], ["store", "set"],
    ["store", "show"], ["store", "reset"], ["catalog"], ["catalog", "check"], ["walkthrough"],
  ]

  @Test("--help works for every command and says how to use it", arguments: subcommands)
  func help(_ command: [String]) async throws {
    let folder = try ShopFolder("help")
    let result = try await Child(command + ["--help"], in: folder).wait()
    try expectSuccess(result)
    let usage = (["USAGE: monkeyshop"] + command).joined(separator: " ")
    #expect(result.stdout.contains(usage), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: folder.data.path), "--help touches no data")
  }

  @Test("--version prints the version and exits 0")
  func version() async throws {
    let folder = try ShopFolder("version")
    let result = try await monkeyshop("--version", in: folder)
    try expectSuccess(result)
    #expect(result.stdout == "0.1.0\n", "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
  }

  @Test("store set --help gives examples of a value for more than one condition, not a network value alone")
  func storeSetHelpValueExamples() async throws {
    let folder = try ShopFolder("set-help-values")
    let help = try await monkeyshop("store", "set", "--help", in: folder)
    try expectSuccess(help)
    #expect(!help.stdout.contains("e.g. down."), "\(help)")
    #expect(help.stdout.contains("latency slow"), "\(help)")
  }

  @Test("store set --help lists the storefronts the catalog prices, and only those")
  func storeSetHelpStorefronts() async throws {
    let folder = try ShopFolder("set-help")
    let shipped = try await monkeyshop("store", "set", "--help", in: folder)
    try expectSuccess(shipped)
    let line = try #require(shipped.stdout.components(separatedBy: "\n").first { $0.hasPrefix("  storefront ") })
    #expect(line.hasSuffix(" USA|JPN|GBR|DEU|FRA|CAN|AUS"), "ITA and the others have no price: \(shipped)")
    #expect(shipped.stdout.contains("(priced in \(Locations.catalog))"), "\(shipped)")

    // A catalog with prices in two storefronts, named on the command line.
    let data = try Data(contentsOf: URL(fileURLWithPath: Locations.catalog))
    var root = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    for index in 0..<3 { product(&root, index) { $0["prices"] = ["JPN": "160", "USA": "0.99"] } }
    let path = folder.file("two-storefronts.plist").path
    let written = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    #expect(FileManager.default.createFile(atPath: path, contents: written))
    let two = try await monkeyshop("store", "set", "--catalog", path, "--help", in: folder)
    try expectSuccess(two)
    #expect(two.stdout.contains("  storefront                  USA|JPN\n"), "\(two)")
    #expect(two.stdout.contains("(priced in"), "\(two)")
    #expect(two.stdout.contains(path), "\(two)")
  }
}

// MARK: Helpers

/// Every file in the data folder with its bytes (the lock file included; it stays empty).
private func snapshot(_ folder: ShopFolder) throws -> [String: Data] {
  var files: [String: Data] = [:]
  for name in folder.dataFolderNames() {
    files[name] = FileManager.default.contents(atPath: folder.data.appendingPathComponent(name).path)
  }
  return files
}

/// Whether `store show` lists `name` with `value`.
private func showsCondition(_ output: String, _ name: String, _ value: String) -> Bool {
  output.components(separatedBy: "\n").contains { line in
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    return fields.count == 2 && fields[0] == name && fields[1] == value
  }
}

/// Changes product `index` of a catalog's root dictionary.
private func product(_ root: inout [String: Any], _ index: Int, _ change: (inout [String: Any]) -> Void) {
  guard var products = root["products"] as? [[String: Any]], products.indices.contains(index) else { return }
  change(&products[index])
  root["products"] = products
}
