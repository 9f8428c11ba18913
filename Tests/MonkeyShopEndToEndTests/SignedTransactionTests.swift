import Foundation
import Testing

/// Signed transactions from the built binary, checked by Apple's own verifier: the App Store Server
/// Library for Python (`app-store-server-library` on PyPI), as a server under test would use it.
/// `.ci/run` installs it; without it these tests fail and say how to install it.
@Suite(
  "Signed transactions through Apple's App Store Server Library", .tags(.endToEnd, .needsPython),
  .timeLimit(.minutes(2)))
struct SignedTransactionTests {
  /// What Apple's library said of each signed transaction, after what it is.
  struct Verdicts {
    let library: [String: Any]
    let results: [[String: Any]]

    func payload(_ index: Int) throws -> [String: Any] {
      let result = results[index]
      guard result["verified"] as? Bool == true, let payload = result["payload"] as? [String: Any] else {
        throw E2EFailure("signed transaction \(index) did not verify: \(result)")
      }
      return payload
    }

    func status(_ index: Int) -> String? { results[index]["status"] as? String }
  }

  static let script = Locations.repository.appendingPathComponent("Tests/Verifier/verify_signed_transactions.py").path

  /// Runs Apple's verifier, built with the exported root, online checks off, `environment` and
  /// `bundleID`, over each signed transaction.
  func verify(
    _ signedTransactions: [String], root: String, environment: String = "Sandbox",
    bundleID: String = "com.monkeyshop.app", in folder: ShopFolder
  ) async throws -> Verdicts {
    let python = try Tools.requirePython(for: "Apple's verifier runs in it")
    let list = folder.file("jws").path
    try signedTransactions.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let result = try await Child(
      executable: python, [Self.script, root, environment, bundleID, list], in: folder,
      environment: folder.environment()
    ).wait(timeout: .seconds(60))
    guard result.exitStatus == 0 else {
      throw E2EFailure(
        "Apple's verifier did not run (\(Tools.missingPackage("app-store-server-library==3.1.2"))): \(result)"
      )
    }
    let lines = try result.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result)")
    }
    let verdicts = Verdicts(library: try #require(lines.first, "\(result)"), results: Array(lines.dropFirst()))
    #expect(verdicts.results.count == signedTransactions.count, "\(result)")
    return verdicts
  }

  /// Buys, exports the root (DER) and lists the transactions: their signed transactions.
  func signedTransactions(
    in folder: ShopFolder, buying purchases: [(product: String, quantity: Int)], catalog: String? = nil
  ) async throws -> (root: String, jws: [String]) {
    let catalogOption = catalog.map { ["--catalog", $0] } ?? []
    for (product, quantity) in purchases {
      try expectSuccess(
        await Child(["buy", product, "--quantity", "\(quantity)"] + catalogOption, in: folder).wait())
    }
    let root = folder.file("root.der").path
    let exported = try expectSuccess(
      await Child(["store", "certificate", "--out", root] + catalogOption, in: folder).wait())
    #expect(exported.stdout.contains("written to \(root)"), "\(exported)")
    let listed = try expectSuccess(
      await Child(["store", "transactions", "--json"] + catalogOption, in: folder).wait())
    let transactions = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed)")
    let jws = try transactions.map { try #require($0["jws"] as? String, "no jws: \($0)") }
    return (root, jws)
  }

  /// The shipped catalog's price of a product in a storefront, as written there.
  func shippedPrice(_ product: String, _ storefront: String) throws -> Decimal {
    let data = try #require(FileManager.default.contents(atPath: Locations.catalog))
    let root = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    let products = try #require(root["products"] as? [[String: Any]])
    let entry = try #require(products.first { $0["productIdentifier"] as? String == product })
    let prices = try #require(entry["prices"] as? [String: String])
    let price = try #require(prices[storefront])
    return try #require(Decimal(string: price))
  }

  @Test(
    "Apple's verifier (strict X.509 checks, online checks off) verifies each signed transaction and decodes its payload"
  )
  func verifiesAndDecodes() async throws {
    let folder = try ShopFolder("signed-verify")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "storefront", "JPN", in: folder))
    let (root, jws) = try await signedTransactions(
      in: folder, buying: [(ShippedCatalog.five, 1), (ShippedCatalog.ten, 3)])
    let verdicts = try await verify(jws, root: root, in: folder)
    #expect(verdicts.library["strict"] as? Bool == true, "X509_STRICT on, as Apple's library has it by default")
    #expect(verdicts.library["library"] is String, "the library's version (.ci/run installs 3.1.2)")

    let five = try verdicts.payload(0)
    #expect(five["transactionId"] as? String == "1")
    #expect(five["originalTransactionId"] as? String == "1")
    #expect(five["productId"] as? String == ShippedCatalog.five)
    #expect(five["bundleId"] as? String == "com.monkeyshop.app")
    #expect(five["quantity"] as? Int == 1)
    #expect(five["type"] as? String == "Consumable")
    #expect(five["inAppOwnershipType"] as? String == "PURCHASED")
    #expect(five["transactionReason"] as? String == "PURCHASE")
    #expect(five["environment"] as? String == "Sandbox")
    #expect(five["storefront"] as? String == "JPN")
    #expect(five["storefrontId"] as? String == "143462")
    #expect(five["currency"] as? String == "JPY")
    #expect(
      five["price"] as? Int == NSDecimalNumber(decimal: try shippedPrice(ShippedCatalog.five, "JPN") * 1000).intValue)

    let ten = try verdicts.payload(1)
    #expect(ten["transactionId"] as? String == "2")
    #expect(ten["productId"] as? String == ShippedCatalog.ten)
    #expect(ten["quantity"] as? Int == 3)
    // The total for the quantity, in milliunits.
    #expect(
      ten["price"] as? Int == NSDecimalNumber(decimal: try shippedPrice(ShippedCatalog.ten, "JPN") * 3000).intValue)
    let purchased = try #require(ten["purchaseDate"] as? Int)
    #expect(ten["signedDate"] as? Int == purchased)
    #expect(ten["originalPurchaseDate"] as? Int == purchased)
    #expect(abs(Double(purchased) / 1000 - Date().timeIntervalSince1970) < 600, "a date in milliseconds")
  }

  @Test("one changed character in the header, the payload or the signature: Apple's verifier refuses it")
  func tamperedFails() async throws {
    let folder = try ShopFolder("signed-tamper")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let (root, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.five, 1)])
    let good = try #require(jws.first)
    let parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    #expect(parts.count == 3)
    var tampered: [String] = []
    for index in parts.indices {
      var changed = parts
      var characters = Array(changed[index])
      let middle = characters.count / 2
      characters[middle] = characters[middle] == "A" ? "B" : "A"
      changed[index] = String(characters)
      tampered.append(changed.joined(separator: "."))
    }
    let verdicts = try await verify([good] + tampered, root: root, in: folder)
    _ = try verdicts.payload(0)
    for (index, part) in ["header", "payload", "signature"].enumerated() {
      #expect(
        verdicts.results[index + 1]["verified"] as? Bool == false, "changed \(part): \(verdicts.results[index + 1])")
      #expect(verdicts.status(index + 1) != nil, "changed \(part) raises VerificationException")
    }
    // A changed payload or signature no longer matches the signature.
    #expect(verdicts.status(2) == "VERIFICATION_FAILURE")
    #expect(verdicts.status(3) == "VERIFICATION_FAILURE")
  }

  @Test("a transaction completed under `verification fail` fails Apple's verifier; the one after `pass` verifies")
  func verificationFault() async throws {
    let folder = try ShopFolder("signed-fault")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "verification", "fail", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    try await expectSuccess(monkeyshop("store", "set", "verification", "pass", in: folder))
    let (root, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.ten, 1)])
    let verdicts = try await verify(jws, root: root, in: folder)
    #expect(verdicts.status(0) == "VERIFICATION_FAILURE", "\(verdicts.results)")
    #expect(try verdicts.payload(1)["productId"] as? String == ShippedCatalog.ten)
  }

  @Test(
    "environment Xcode: signed as Xcode signs (x5c of one self-signed certificate, the one store certificate exports); Apple's verifier decodes it as XCODE"
  )
  func xcodeEnvironment() async throws {
    let folder = try ShopFolder("signed-xcode")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "environment", "Xcode", in: folder))
    let (root, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.five, 1)])
    // Apple's library checks no signature for Xcode data ("Data is not signed by the App Store, and
    // verification should be skipped"): only the environment and bundle ID are compared.
    let xcode = try await verify(jws, root: root, environment: "Xcode", in: folder)
    let payload = try xcode.payload(0)
    #expect(payload["environment"] as? String == "Xcode")
    #expect(payload["productId"] as? String == ShippedCatalog.five)
    let sandbox = try await verify(jws, root: root, in: folder)
    // A Sandbox server checks the chain first: one certificate is not Apple's three.
    #expect(sandbox.status(0) == "INVALID_CHAIN_LENGTH", "\(sandbox.results)")
    // The header: one certificate, self-signed (issuer = subject), exactly what store certificate
    // exported for the Xcode environment.
    let first = try #require(jws.first)
    let header = try #require(Self.header(of: first))
    let x5c = try #require(header["x5c"] as? [String])
    #expect(x5c.count == 1, "\(header)")
    #expect(Data(base64Encoded: x5c[0]) == FileManager.default.contents(atPath: root))
    #expect(header["alg"] as? String == "ES256")
    // Sandbox again: the three-certificate chain, whose root is another certificate.
    try await expectSuccess(monkeyshop("store", "set", "environment", "Sandbox", in: folder))
    let sandboxRoot = folder.file("sandbox-root.der").path
    try await expectSuccess(monkeyshop("store", "certificate", "--out", sandboxRoot, in: folder))
    #expect(FileManager.default.contents(atPath: sandboxRoot) != FileManager.default.contents(atPath: root))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, in: folder))
    let listed = try await monkeyshop("store", "transactions", "--json", in: folder)
    let all = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let second = try #require(all.last?["jws"] as? String)
    #expect((Self.header(of: second)?["x5c"] as? [String])?.count == 3)
    let verdicts = try await verify([second], root: sandboxRoot, in: folder)
    #expect(try verdicts.payload(0)["environment"] as? String == "Sandbox")
  }

  @Test("environment LocalTesting: Apple's verifier for LOCAL_TESTING decodes it")
  func localTestingEnvironment() async throws {
    let folder = try ShopFolder("signed-local-testing")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "environment", "LocalTesting", in: folder))
    let (root, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.five, 1)])
    let verdicts = try await verify(jws, root: root, environment: "LocalTesting", in: folder)
    #expect(try verdicts.payload(0)["environment"] as? String == "LocalTesting")
    let first = try #require(jws.first)
    #expect((Self.header(of: first)?["x5c"] as? [String])?.count == 1)
  }

  @Test(
    "appTransactionId on every transaction, one value for the folder; appAccountToken from buy; REFUND_FULL and 100000 on a refund: Apple's verifier decodes them"
  )
  func accountFieldsAndRefund() async throws {
    let folder = try ShopFolder("signed-account")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    try await expectSuccess(
      monkeyshop("buy", ShippedCatalog.five, "--app-account-token", token.uppercased(), in: folder))
    try await expectSuccess(
      monkeyshop("buy", ShippedCatalog.ten, "--storekit", "2", "--app-account-token", token, in: folder))
    try await expectSuccess(monkeyshop("store", "refund", "1", in: folder))
    let (root, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.five, 1)])
    let verdicts = try await verify(jws, root: root, in: folder)
    let refunded = try verdicts.payload(0)
    let second = try verdicts.payload(1)
    let third = try verdicts.payload(2)
    let app = try #require(refunded["appTransactionId"] as? String)
    #expect(!app.isEmpty)
    #expect(second["appTransactionId"] as? String == app)
    #expect(third["appTransactionId"] as? String == app)
    #expect(refunded["appAccountToken"] as? String == token, "StoreKit 1's applicationUsername, a UUID")
    #expect(second["appAccountToken"] as? String == token, "StoreKit 2's .appAccountToken(_:)")
    #expect(third["appAccountToken"] == nil, "no token given: the field is omitted")
    #expect(refunded["revocationType"] as? String == "REFUND_FULL")
    #expect(refunded["revocationPercentage"] as? Int == 100_000)
    #expect(second["revocationType"] == nil)
    #expect(second["revocationPercentage"] == nil)
    let listed = try await monkeyshop("store", "transactions", "--json", in: folder)
    #expect(listed.stdout.contains("\"appAccountToken\""), "\(listed)")
    #expect(listed.stdout.contains("\"\(token)\""), "\(listed)")
  }

  @Test("buy --app-account-token that is not a UUID: exit 64 saying so, nothing bought")
  func badAppAccountToken() async throws {
    let folder = try ShopFolder("signed-bad-token")
    let result = try await monkeyshop("buy", ShippedCatalog.five, "--app-account-token", "alice", in: folder)
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains("--app-account-token 'alice' is not a UUID"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: folder.data.appendingPathComponent("store.json").path))
  }

  /// The JWS header, decoded.
  static func header(of jws: String) -> [String: Any]? {
    guard let part = jws.split(separator: ".").first else { return nil }
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64) else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  @Test("the catalog's bundleIdentifier is the payload's bundleId; a server for another app refuses it")
  func bundleIdentifier() async throws {
    let folder = try ShopFolder("signed-bundle")
    let catalog = try catalogFile(in: folder) { $0["bundleIdentifier"] = "com.example.jungle" }
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", "--catalog", catalog, in: folder))
    let (root, jws) = try await signedTransactions(
      in: folder, buying: [(ShippedCatalog.five, 1)], catalog: catalog)
    let own = try await verify(jws, root: root, bundleID: "com.example.jungle", in: folder)
    #expect(try own.payload(0)["bundleId"] as? String == "com.example.jungle")
    let other = try await verify(jws, root: root, in: folder)
    #expect(other.status(0) == "INVALID_APP_IDENTIFIER", "\(other.results)")
  }

  @Test("another data folder's root does not verify these transactions")
  func otherRoot() async throws {
    let folder = try ShopFolder("signed-root")
    let elsewhere = try ShopFolder("signed-root-other")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let (_, jws) = try await signedTransactions(in: folder, buying: [(ShippedCatalog.five, 1)])
    let otherRoot = elsewhere.file("root.der").path
    try await expectSuccess(monkeyshop("store", "certificate", "--out", otherRoot, in: elsewhere))
    let verdicts = try await verify(jws, root: otherRoot, in: folder)
    #expect(verdicts.status(0) == "VERIFICATION_FAILURE", "\(verdicts.results)")
  }

  /// The shipped catalog with a change, written in the folder.
  func catalogFile(in folder: ShopFolder, _ change: (inout [String: Any]) -> Void) throws -> String {
    let shipped = try #require(FileManager.default.contents(atPath: Locations.catalog))
    var root = try #require(try PropertyListSerialization.propertyList(from: shipped, format: nil) as? [String: Any])
    change(&root)
    let path = folder.file("products.plist").path
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("a bundleIdentifier that is not a string is refused: exit 65 naming the file and the key")
  func badBundleIdentifier() async throws {
    let folder = try ShopFolder("signed-bad-bundle")
    let catalog = try catalogFile(in: folder) { $0["bundleIdentifier"] = 42 }
    let result = try await monkeyshop("catalog", "check", catalog, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains(catalog), "\(result)")
    #expect(result.stderr.contains("key 'bundleIdentifier'"), "\(result)")
    #expect(result.stderr.contains("is a number"), "\(result)")
  }
}

/// `store certificate` refuses what it cannot do sensibly, and writes nothing then.
@Suite("store certificate", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct StoreCertificateTests {
  @Test("--out a folder, a symbolic link or a missing folder: exit 64, the place named, nothing written")
  func refusedPlaces() async throws {
    let folder = try ShopFolder("certificate-places")
    let target = folder.file("target").path
    let link = folder.file("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    for (place, problem) in [
      (folder.root.path, "is a folder"), (link, "is a symbolic link"),
      (folder.root.path + "/missing/root.der", "does not exist"),
    ] {
      let result = try await monkeyshop("store", "certificate", "--out", place, in: folder)
      #expect(result.exitStatus == 64, "\(result)")
      #expect(result.stderr.contains("--out \(place): "), "\(result)")
      #expect(result.stderr.contains(problem), "\(result)")
      #expect(result.stderr.contains("nothing was written"), "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(!FileManager.default.fileExists(atPath: folder.data.path), "the chain is not made for a refused command")
  }

  @Test("--out a file of the data folder (store.json, wallet.json): exit 64, the file untouched")
  func refusedInTheDataFolder() async throws {
    let folder = try ShopFolder("certificate-data-folder")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    for name in ["store.json", "wallet.json"] {
      let path = folder.data.appendingPathComponent(name).path
      let before = FileManager.default.contents(atPath: path)
      let result = try await monkeyshop("store", "certificate", "--out", path, in: folder)
      #expect(result.exitStatus == 64, "\(result)")
      #expect(result.stderr.contains("is in the data folder"), "\(result)")
      #expect(FileManager.default.contents(atPath: path) == before, "\(name) untouched")
    }
  }

  @Test(
    "--out a file that is not a certificate (another folder's wallet, notes): exit 64, the file untouched; an earlier export is replaced"
  )
  func refusedOverAFileOfYours() async throws {
    let folder = try ShopFolder("certificate-over-a-file")
    let wallet = folder.file("wallet.json").path
    let notes = folder.file("notes.txt").path
    try Data(#"{"schemaVersion": 4, "balance": 5}"#.utf8).write(to: URL(fileURLWithPath: wallet))
    try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
    for path in [wallet, notes] {
      let before = FileManager.default.contents(atPath: path)
      let result = try await monkeyshop("store", "certificate", "--out", path, in: folder)
      #expect(result.exitStatus == 64, "\(result)")
      #expect(result.stderr.contains("--out \(path): is not a certificate; it is left as it is"), "\(result)")
      #expect(FileManager.default.contents(atPath: path) == before)
    }
    // A key and a certificate-and-key bundle start as a certificate does; another data folder's
    // chain is its own.
    let key = folder.file("key.der").path
    try Data([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00] + Array(repeating: 0x41, count: 1189)).write(
      to: URL(fileURLWithPath: key))
    let before = FileManager.default.contents(atPath: key)
    let refusedKey = try await monkeyshop("store", "certificate", "--out", key, in: folder)
    #expect(refusedKey.exitStatus == 64 && refusedKey.stderr.contains("is not a certificate"), "\(refusedKey)")
    #expect(FileManager.default.contents(atPath: key) == before)
    let other = try ShopFolder("certificate-other-folder")
    try await expectSuccess(monkeyshop("store", "certificate", "--pem", in: other))
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: other))
    let theirs = other.data.appendingPathComponent("signing/signing-root.der").path
    let theirRoot = FileManager.default.contents(atPath: theirs)
    let intoOther = try await monkeyshop("store", "certificate", "--out", theirs, in: folder)
    #expect(intoOther.exitStatus == 64, "\(intoOther)")
    #expect(intoOther.stderr.contains("a monkeyshop data folder, whose files only monkeyshop writes"), "\(intoOther)")
    #expect(FileManager.default.contents(atPath: theirs) == theirRoot)

    let der = folder.file("root.der").path
    let pem = folder.file("root.pem").path
    try await expectSuccess(monkeyshop("store", "certificate", "--out", der, in: folder))
    try await expectSuccess(monkeyshop("store", "certificate", "--pem", "--out", pem, in: folder))
    try await expectSuccess(monkeyshop("store", "certificate", "--out", der, in: folder))
    try await expectSuccess(monkeyshop("store", "certificate", "--pem", "--out", der, in: folder))
    try await expectSuccess(monkeyshop("store", "certificate", "--out", pem, in: folder))
    #expect(FileManager.default.contents(atPath: pem)?.first == 0x30, "the PEM export was replaced by DER")
    let bundle = folder.file("bundle.pem").path
    try await expectSuccess(monkeyshop("store", "certificate", "--pem", "--out", bundle, in: folder))
    let handle = try #require(FileHandle(forWritingAtPath: bundle))
    handle.seekToEndOfFile()
    handle.write(Data("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n".utf8))
    try handle.close()
    let refusedBundle = try await monkeyshop("store", "certificate", "--out", bundle, in: folder)
    #expect(refusedBundle.exitStatus == 64 && refusedBundle.stderr.contains("is not a certificate"), "\(refusedBundle)")
  }

  @Test("--pem prints the root as PEM; DER to a file or a pipe; all the same certificate, and the same every time")
  func formats() async throws {
    let folder = try ShopFolder("certificate-formats")
    let pem = try expectSuccess(await monkeyshop("store", "certificate", "--pem", in: folder))
    #expect(pem.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"), "\(pem)")
    #expect(pem.stdout.hasSuffix("-----END CERTIFICATE-----\n"), "\(pem)")
    let der = folder.file("root.der").path
    try await expectSuccess(monkeyshop("store", "certificate", "--out", der, in: folder))
    let body = pem.stdout.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    #expect(Data(base64Encoded: body) == FileManager.default.contents(atPath: der))
    // DER to standard output when it is not a terminal (here a file), byte for byte.
    let piped = try Child(["store", "certificate"], in: folder)
    try expectSuccess(await piped.wait())
    #expect(FileManager.default.contents(atPath: piped.stdoutPath) == FileManager.default.contents(atPath: der))
    let again = try expectSuccess(await monkeyshop("store", "certificate", "--pem", in: folder))
    #expect(again.stdout == pem.stdout, "the chain is made once per data folder")
    for name in ["signing-root.der", "signing-intermediate.der", "signing-leaf.der", "signing-leaf-key.pem"] {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: folder.data.appendingPathComponent("signing/" + name).path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
    }
  }

  @Test("a newline in the --out path is shown escaped, never as a line of its own")
  func outPathIsEscaped() async throws {
    let folder = try ShopFolder("certificate-newline")
    let path = folder.file("root\nfaked line.der").path
    let result = try expectSuccess(await monkeyshop("store", "certificate", "--out", path, in: folder))
    #expect(result.stdout.split(separator: "\n").count == 1, "\(result)")
    #expect(result.stdout.contains("root\\nfaked line.der"), "\(result)")
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test("DER is not written to a terminal: exit 64 with what to do instead")
  func derToTerminal() async throws {
    let folder = try ShopFolder("certificate-terminal")
    let session = try await TmuxSession(folder: folder)
    try await session.run("\(try Locations.requireBinary()) store certificate; echo status=$?")
    let screen = try await session.waitForScreen("the refusal", joined: true) {
      $0.lines.contains { $0.hasPrefix("status=") }
    }
    let text = screen.lines.joined(separator: "\n")
    #expect(text.contains("standard output is a terminal; use --out FILE, or --pem to print it"), "\(text)")
    #expect(text.contains("status=64"), "\(text)")
  }
}
