import Foundation
import Testing

/// What the App Store recorded about a purchase stays as it was recorded: a catalog loaded later
/// (another price, other credits, the product gone) changes neither the signed transaction nor what
/// a refund takes back. Replays the attack on the record as a user made it, with the real binary.
@Suite("The App Store's record stays as recorded", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct RecordStaysTests {
  /// A catalog of the two packs, the 5-credit one at `fivePrice` giving `fiveCredits`; without it
  /// when `fiveCredits` is nil.
  static func catalog(fivePrice: String = "0.99", fiveCredits: Int?) -> String {
    func product(_ id: String, _ credits: Int, _ price: String) -> String {
      """
          <dict>
            <key>productIdentifier</key><string>\(id)</string>
            <key>type</key><string>consumable</string>
            <key>credits</key><integer>\(credits)</integer>
            <key>localizations</key>
            <dict><key>en</key><dict><key>title</key><string>\(credits) credits</string>
              <key>description</key><string>A pack</string></dict></dict>
            <key>prices</key><dict><key>USA</key><string>\(price)</string></dict>
          </dict>
      """
    }
    let five = fiveCredits.map { product(ShippedCatalog.five, $0, fivePrice) } ?? ""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>products</key>
        <array>
      \(five)
      \(product(ShippedCatalog.ten, 10, "1.99"))
        </array>
      </dict>
      </plist>
      """
  }

  func write(_ text: String, _ name: String, in folder: ShopFolder) throws -> String {
    let path = folder.file(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func listed(_ folder: ShopFolder, catalog: String) async throws -> [[String: Any]] {
    let result = try expectSuccess(
      await Child(["store", "transactions", "--json", "--catalog", catalog], in: folder).wait())
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
  }

  func payload(_ jws: String) throws -> [String: Any] {
    let part = String(jws.split(separator: ".")[1])
    var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let data = try #require(Data(base64Encoded: base64))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test("a purchase at $0.01 stays signed at 10 milliunits, byte for byte, after the catalog's price becomes $0.99")
  func priceStays() async throws {
    let folder = try ShopFolder("record-price")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let cheap = try write(Self.catalog(fivePrice: "0.01", fiveCredits: 5), "cheap.plist", in: folder)
    let dear = try write(Self.catalog(fivePrice: "0.99", fiveCredits: 5), "dear.plist", in: folder)
    try expectSuccess(await Child(["buy", ShippedCatalog.five, "--catalog", cheap], in: folder).wait())
    let before = try #require(try await listed(folder, catalog: cheap).first?["jws"] as? String)
    let after = try #require(try await listed(folder, catalog: dear).first?["jws"] as? String)
    #expect(after == before, "the signed transaction is the one signed at purchase")
    #expect(try payload(after)["price"] as? Int == 10)
    #expect(try payload(after)["currency"] as? String == "USD")
    let detail = try expectSuccess(
      await Child(["store", "transactions", "--catalog", dear], in: folder).wait())
    #expect(!detail.stdout.contains("0.99"), "\(detail)")
  }

  @Test("a refund takes back the credits given at purchase, whatever the catalog says now or if the product is gone")
  func refundTakesBackWhatWasGiven() async throws {
    let folder = try ShopFolder("record-credits")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let v1 = try write(Self.catalog(fiveCredits: 5), "v1.plist", in: folder)
    let v2 = try write(Self.catalog(fiveCredits: 1000), "v2.plist", in: folder)
    let v3 = try write(Self.catalog(fiveCredits: nil), "v3.plist", in: folder)
    for product in [ShippedCatalog.five, ShippedCatalog.ten] {
      try expectSuccess(await Child(["buy", product, "--storekit", "2", "--catalog", v1], in: folder).wait())
    }
    try expectSuccess(await Child(["store", "refund", "1", "--catalog", v1], in: folder).wait())
    let launch = try await Child(["launch", "--catalog", v2], in: folder).wait()
    #expect(launch.exitStatus == 0, "\(launch)")
    #expect(launch.stdout.contains("take back #1: -5 credits → balance 10"), "\(launch)")
    #expect(!launch.stdout.contains("1000"), "\(launch)")
    #expect(try await walletBalance(folder) == 10)
    // The product gone from the catalog: a launch finds nothing to do and exits 0.
    for _ in 1...2 {
      let gone = try await Child(["launch", "--catalog", v3], in: folder).wait()
      #expect(gone.exitStatus == 0, "\(gone)")
      #expect(!gone.stderr.contains("stays unfinished"), "\(gone)")
    }
    let listed = try await listed(folder, catalog: v3)
    #expect(listed.map { $0["id"] as? String } == ["1", "2"])
    #expect(try payload(try #require(listed[0]["jws"] as? String))["price"] as? Int == 990)
  }

  @Test("a product gone from the catalog before its refund is taken back as it was given")
  func refundOfAProductGone() async throws {
    let folder = try ShopFolder("record-gone")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let v1 = try write(Self.catalog(fiveCredits: 5), "v1.plist", in: folder)
    let v3 = try write(Self.catalog(fiveCredits: nil), "v3.plist", in: folder)
    try expectSuccess(await Child(["buy", ShippedCatalog.five, "--storekit", "2", "--catalog", v1], in: folder).wait())
    try expectSuccess(await Child(["store", "refund", "1", "--catalog", v3], in: folder).wait())
    let launch = try await Child(["launch", "--catalog", v3], in: folder).wait()
    #expect(launch.exitStatus == 0, "\(launch)")
    #expect(launch.stdout.contains("take back #1: -5 credits → balance 0"), "\(launch)")
    let refunded = try #require(try await listed(folder, catalog: v3).first)
    let payload = try payload(try #require(refunded["jws"] as? String))
    #expect(payload["revocationReason"] != nil && payload["price"] as? Int == 990, "\(payload)")
  }

  @Test("a record edited after the purchase is refused: it disagrees with what the App Store signed")
  func editedRecordIsRefused() async throws {
    let folder = try ShopFolder("record-edited")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, "--quantity", "2", in: folder))
    let path = folder.data.appendingPathComponent("store.json").path
    let original = try String(contentsOfFile: path, encoding: .utf8)
    #expect(original.contains(#""price" : 1980"#), "\(original)")
    try original.replacingOccurrences(of: #""price" : 1980"#, with: #""price" : 10"#)
      .write(toFile: path, atomically: true, encoding: .utf8)
    let listing = try await monkeyshop("store", "transactions", in: folder)
    #expect(listing.exitStatus == 65, "\(listing)")
    #expect(
      listing.stderr.contains(
        "transactions[0] (transaction 1): its record says price 10 while its signedPurchase, what the App Store signed, says 1980"
      ), "\(listing)")
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""price" : 10"#), "the file is left as it is")
  }
}
