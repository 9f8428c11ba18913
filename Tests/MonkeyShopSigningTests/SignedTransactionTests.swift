import Crypto
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage
import Testing
import X509

@testable import MonkeyShopSigning

/// A catalog and transactions to sign.
enum PayloadFixture {
  static let five = "com.example.credits.5"
  /// 2023-11-14T22:13:20.123Z
  static let purchase = Date(timeIntervalSince1970: 1_700_000_000.123)

  static let catalog = Catalog(
    products: [
      Product(
        productIdentifier: five, credits: 5, localizations: ["en": .init(title: "5 Monkey Credits", description: "")],
        prices: ["USA": Decimal(string: "0.99")!, "JPN": 160, "GBR": Decimal(string: "0.99")!])
    ], bundleIdentifier: "com.example.monkeys")

  static func transaction(
    _ id: String = "7", quantity: Int = 1, state: TransactionState = .purchased,
    environment: StoreEnvironment? = .sandbox, failsVerification: Bool = false
  ) -> StoreTransaction {
    StoreTransaction(
      id: id, productIdentifier: five, quantity: quantity, state: state, purchaseDate: purchase,
      environment: environment, failsVerification: failsVerification)
  }

  static func payload(_ transaction: StoreTransaction = transaction(), storefront: Storefront = .usa)
    -> SignedTransactionPayload?
  {
    SignedTransactionPayload(transaction, catalog: catalog, storefront: storefront)
  }
}

private func decodeJSON(_ data: Data) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite("Signed transaction payload", .tags(.pure))
struct PayloadTests {
  @Test("a purchase's payload has Apple's fields: ids, bundle, product, dates in ms, Consumable, PURCHASED, PURCHASE")
  func fields() throws {
    let payload = try #require(PayloadFixture.payload(PayloadFixture.transaction(quantity: 2)))
    let json = try decodeJSON(payload.encodedJSON)
    #expect(json["transactionId"] as? String == "7")
    #expect(json["originalTransactionId"] as? String == "7")
    #expect(json["bundleId"] as? String == "com.example.monkeys")
    #expect(json["productId"] as? String == PayloadFixture.five)
    #expect(json["purchaseDate"] as? Int == 1_700_000_000_123)
    #expect(json["originalPurchaseDate"] as? Int == 1_700_000_000_123)
    #expect(json["signedDate"] as? Int == 1_700_000_000_123)
    #expect(json["quantity"] as? Int == 2)
    #expect(json["type"] as? String == "Consumable")
    #expect(json["inAppOwnershipType"] as? String == "PURCHASED")
    #expect(json["transactionReason"] as? String == "PURCHASE")
    #expect(json["environment"] as? String == "Sandbox")
    #expect(json["storefront"] as? String == "USA")
    #expect(json["storefrontId"] as? String == "143441")
    #expect(json["price"] as? Int == 1980, "0.99 × 2 in milliunits")
    #expect(json["currency"] as? String == "USD")
    #expect(json["revocationDate"] == nil)
    #expect(json["revocationReason"] == nil)
  }

  @Test("price is the total for the quantity in the storefront's currency: 3 × ￥160 = 480000 milliunits of JPY")
  func priceInStorefront() throws {
    let payload = try #require(
      PayloadFixture.payload(PayloadFixture.transaction(quantity: 3), storefront: Storefront.named("JPN")!))
    #expect(payload.price == 480_000)
    #expect(payload.currency == "JPY")
    #expect(payload.storefront == "JPN")
    #expect(payload.storefrontId == "143462")
  }

  @Test("the storefront it was charged in stays, whatever the storefront is when it is signed")
  func chargedStorefrontStays() throws {
    var store = AppStore(state: StoreState(), catalog: PayloadFixture.catalog)
    _ = try store.set(.storefront, to: "JPN", at: PayloadFixture.purchase)
    _ = try store.set(.latency, to: "instant", at: PayloadFixture.purchase)
    _ = try store.add(productIdentifier: PayloadFixture.five, quantity: 1, at: PayloadFixture.purchase)
    let purchased = try #require(store.advance(to: PayloadFixture.purchase).first)
    #expect(purchased.storefront == "JPN")
    let payload = try #require(PayloadFixture.payload(purchased, storefront: .usa))
    #expect(payload.storefront == "JPN")
    #expect(payload.currency == "JPY")
    #expect(payload.price == 160_000)
  }

  @Test("no price in the storefront: neither price nor currency (currency is present only with price)")
  func noPrice() throws {
    let payload = try #require(PayloadFixture.payload(storefront: Storefront.named("DEU")!))
    let json = try decodeJSON(payload.encodedJSON)
    #expect(json["price"] == nil)
    #expect(json["currency"] == nil)
    #expect(json["storefrontId"] as? String == "143443")
  }

  @Test("every storefront the shop simulates has Apple's storefront ID")
  func storefrontIDs() {
    let expected = [
      "USA": "143441", "JPN": "143462", "GBR": "143444", "DEU": "143443", "FRA": "143442", "CAN": "143455",
      "AUS": "143460", "ITA": "143450", "ESP": "143454", "KOR": "143466", "BRA": "143503", "MEX": "143468",
      "IND": "143467",
    ]
    for (code, id) in expected {
      #expect(Storefront.named(code)?.appleID == id, "\(code)")
    }
  }

  @Test("a refunded transaction carries revocationDate and revocationReason and is signed at its refund")
  func refunded() throws {
    var transaction = PayloadFixture.transaction()
    transaction.revocationDate = PayloadFixture.purchase.addingTimeInterval(3600)
    transaction.revocationReason = .developerIssue
    let payload = try #require(PayloadFixture.payload(transaction))
    let json = try decodeJSON(payload.encodedJSON)
    #expect(json["revocationDate"] as? Int == 1_700_003_600_123)
    #expect(json["revocationReason"] as? Int == 1)
    #expect(json["signedDate"] as? Int == 1_700_003_600_123)
    #expect(json["purchaseDate"] as? Int == 1_700_000_000_123)
    // A refund is whole: Apple's REFUND_FULL, and 100% in milliunits.
    #expect(json["revocationType"] as? String == "REFUND_FULL")
    #expect(json["revocationPercentage"] as? Int == 100_000)
  }

  @Test("no refund: no revocationType, no revocationPercentage")
  func notRefunded() throws {
    let payload = try #require(PayloadFixture.payload())
    let json = try decodeJSON(payload.encodedJSON)
    #expect(json["revocationType"] == nil)
    #expect(json["revocationPercentage"] == nil)
  }

  @Test("appTransactionId on every transaction: the one stamped, else the folder's, else derived from the bundle ID")
  func appTransactionId() throws {
    var stamped = PayloadFixture.transaction()
    stamped.appTransactionID = "123456789012345678"
    let stampedPayload = try #require(PayloadFixture.payload(stamped))
    #expect(try decodeJSON(stampedPayload.encodedJSON)["appTransactionId"] as? String == "123456789012345678")
    let older = try #require(
      SignedTransactionPayload(
        PayloadFixture.transaction(), catalog: PayloadFixture.catalog, storefront: .usa, appTransactionID: "42"))
    #expect(older.appTransactionId == "42")
    let derived = try #require(PayloadFixture.payload()).appTransactionId
    #expect(derived == StoreState.derivedAppTransactionID(bundleIdentifier: "com.example.monkeys"))
    #expect(derived.count == 18 && derived.allSatisfy(\.isNumber))
  }

  @Test("appAccountToken: the UUID given, lowercase as Apple writes it; omitted when none was given")
  func appAccountToken() throws {
    var transaction = PayloadFixture.transaction()
    let without = try #require(PayloadFixture.payload(transaction))
    #expect(try decodeJSON(without.encodedJSON)["appAccountToken"] == nil)
    transaction.appAccountToken = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")
    let payload = try #require(PayloadFixture.payload(transaction))
    #expect(try decodeJSON(payload.encodedJSON)["appAccountToken"] as? String == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    #expect(payload.lines.contains("appAccountToken: 7e3fb20b-4cdb-47cc-936d-99d65f608138"))
  }

  @Test("the App Store stamps one appTransactionId on every purchase of a store, and a reset keeps it")
  func appTransactionIdStamped() throws {
    var store = AppStore(state: StoreState(), catalog: PayloadFixture.catalog)
    _ = try store.set(.latency, to: "instant", at: PayloadFixture.purchase)
    _ = try store.add(productIdentifier: PayloadFixture.five, quantity: 1, at: PayloadFixture.purchase)
    let first = try #require(store.advance(to: PayloadFixture.purchase).first)
    let id = try #require(first.appTransactionID)
    #expect(store.state.appTransactionID == id)
    #expect(id != StoreState.derivedAppTransactionID(bundleIdentifier: "com.example.monkeys"), "a new folder's is new")
    store.state.reset()
    _ = try store.set(.latency, to: "instant", at: PayloadFixture.purchase)
    _ = try store.add(
      productIdentifier: PayloadFixture.five, quantity: 1,
      appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"), at: PayloadFixture.purchase)
    let second = try #require(store.advance(to: PayloadFixture.purchase).first)
    #expect(second.appTransactionID == id)
    #expect(second.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
    // Written and read back, the store keeps both.
    let data = try JSONEncoder().encode(store.state)
    let read = try JSONDecoder().decode(StoreState.self, from: data)
    #expect(read.appTransactionID == id)
    #expect(read.transactions.last?.appAccountToken == second.appAccountToken)
  }

  @Test("the environment the transaction was completed in: Xcode, LocalTesting")
  func environments() throws {
    for environment in [StoreEnvironment.xcode, .localTesting] {
      let payload = try #require(PayloadFixture.payload(PayloadFixture.transaction(environment: environment)))
      #expect(try decodeJSON(payload.encodedJSON)["environment"] as? String == environment.rawValue)
    }
  }

  @Test(
    "purchasing, deferred and failed transactions have no signed transaction",
    arguments: [
      TransactionState.purchasing, .deferred, .failed,
    ])
  func unsigned(_ state: TransactionState) {
    #expect(PayloadFixture.payload(PayloadFixture.transaction(state: state)) == nil)
  }

  @Test("the JSON keeps one key order, so the same transaction encodes to the same bytes; lines read key: value")
  func stableEncoding() throws {
    let payload = try #require(PayloadFixture.payload())
    let text = String(decoding: payload.encodedJSON, as: UTF8.self)
    #expect(text.hasPrefix(#"{"transactionId":"7","originalTransactionId":"7","appTransactionId":""#))
    #expect(text.contains(#"","bundleId":"com.example.monkeys","productId":"#))
    #expect(text.hasSuffix(#""price":990,"currency":"USD"}"#))
    #expect(PayloadFixture.payload()?.encodedJSON == payload.encodedJSON)
    #expect(payload.lines.first == "transactionId: 7")
    #expect(payload.lines.contains("purchaseDate: 1700000000123 (2023-11-14T22:13:20.123Z)"))
    #expect(payload.lines.count == payload.fields.count)
  }

  @Test("a product identifier with quotes and control characters stays valid JSON")
  func escaping() throws {
    let odd = "com.example.\"odd\"\\\n\u{1}"
    let catalog = Catalog(products: [
      Product(productIdentifier: odd, credits: 1, localizations: [:], prices: ["USA": 1])
    ])
    let transaction = StoreTransaction(
      id: "1", productIdentifier: odd, quantity: 1, state: .purchased, purchaseDate: PayloadFixture.purchase)
    let payload = try #require(SignedTransactionPayload(transaction, catalog: catalog, storefront: .usa))
    #expect(try decodeJSON(payload.encodedJSON)["productId"] as? String == odd)
  }
}

@Suite("JWS", .tags(.pure))
struct JWSTests {
  let identity: SigningIdentity
  init() throws { identity = try SigningIdentity.make() }

  private func parts(_ jws: String) -> [Substring] { jws.split(separator: ".", omittingEmptySubsequences: false) }

  @Test("compact JWS: header {alg ES256, x5c [leaf, intermediate, root] in standard base64 DER}, payload, 64-byte r‖s")
  func shape() throws {
    let payload = try #require(PayloadFixture.payload())
    let jws = try identity.sign(payload)
    let parts = parts(jws)
    #expect(parts.count == 3)
    #expect(!jws.contains("="), "base64url without padding")
    let header = try decodeJSON(try #require(Base64URL.decode(parts[0])))
    #expect(header["alg"] as? String == "ES256")
    let x5c = try #require(header["x5c"] as? [String])
    let chain = try x5c.map { try Certificate(derEncoded: Array(try #require(Data(base64Encoded: $0)))) }
    #expect(chain == [identity.leaf, identity.intermediate, identity.root])
    #expect(try #require(Base64URL.decode(parts[1])) == payload.encodedJSON)
    let signature = try #require(Base64URL.decode(parts[2]))
    #expect(signature.count == 64)
    let key = try #require(P256.Signing.PublicKey(identity.leaf.publicKey))
    let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
    #expect(key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
  }

  @Test("a signed transaction verifies against the root and gives back the payload")
  func verifies() throws {
    let payload = try #require(PayloadFixture.payload())
    let result = SignedTransactionVerifier.verify(try identity.sign(payload), trusting: identity.root)
    #expect(try result.get() == payload.encodedJSON)
  }

  @Test("a transaction completed under `verification fail` is signed so its signature does not match")
  func failsVerification() throws {
    let transaction = PayloadFixture.transaction(failsVerification: true)
    let jws = try #require(
      try EnvironmentSigner.appStore(identity).signedTransaction(
        transaction, catalog: PayloadFixture.catalog, storefront: .usa))
    #expect(SignedTransactionVerifier.verify(jws, trusting: identity.root) == .failure(.invalidSignature))
    let good = try #require(
      try EnvironmentSigner.appStore(identity).signedTransaction(
        PayloadFixture.transaction(), catalog: PayloadFixture.catalog, storefront: .usa))
    #expect((try? SignedTransactionVerifier.verify(good, trusting: identity.root).get()) != nil)
  }

  @Test("one changed character in the header, the payload or the signature fails verification")
  func tampered() throws {
    let jws = try identity.sign(try #require(PayloadFixture.payload()))
    let parts = parts(jws)
    for (index, part) in parts.enumerated() {
      var changed = parts.map(String.init)
      var characters = Array(part)
      let middle = characters.count / 2
      characters[middle] = characters[middle] == "A" ? "B" : "A"
      changed[index] = String(characters)
      let result = SignedTransactionVerifier.verify(changed.joined(separator: "."), trusting: identity.root)
      #expect((try? result.get()) == nil, "part \(index) changed")
    }
  }

  @Test("another data folder's root does not verify this one's transactions")
  func otherRoot() throws {
    let jws = try identity.sign(try #require(PayloadFixture.payload()))
    let other = try SigningIdentity.make()
    #expect(SignedTransactionVerifier.verify(jws, trusting: other.root) == .failure(.invalidCertificateChain))
  }
}
