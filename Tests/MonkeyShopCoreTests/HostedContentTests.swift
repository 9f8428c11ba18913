import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// A fresh folder for the test's files, removed afterwards.
private func withFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-hosted-\(UUID().uuidString)")
    .path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

private let mapID = "com.example.map"

/// A catalog with one consumable and one non-consumable, changed by `change`, written to `folder`.
private func writeCatalog(in folder: String, _ change: (inout [String: Any]) -> Void = { _ in }) throws -> String {
  let localizations = ["en": ["title": "Map", "description": "A map"]]
  var map: [String: Any] = [
    "productIdentifier": mapID, "type": "nonConsumable", "hostedContent": ["path": "Content/map"],
    "localizations": localizations, "prices": ["USA": "2.99"],
  ]
  change(&map)
  let root: [String: Any] = [
    "products": [
      [
        "productIdentifier": "com.example.credits", "type": "consumable", "credits": 5,
        "localizations": localizations, "prices": ["USA": "0.99"],
      ],
      map,
    ]
  ]
  let path = folder + "/products.plist"
  try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(
    to: URL(fileURLWithPath: path))
  return path
}

/// A hosted-content package at `folder/Content/map`.
private func writePackage(in folder: String, identifier: String = mapID, version: String? = "1.0") throws {
  let package = folder + "/Content/map"
  try FileManager.default.createDirectory(atPath: package + "/Contents", withIntermediateDirectories: true)
  var info: [String: Any] = ["IAPProductIdentifier": identifier]
  if let version { info["ContentVersion"] = version }
  try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(
    to: URL(fileURLWithPath: package + "/ContentInfo.plist"))
  try Data("trails\n".utf8).write(to: URL(fileURLWithPath: package + "/Contents/trails.txt"))
}

@Suite("Catalog: non-consumables and their hosted content", .tags(.pure))
struct HostedContentCatalogTests {
  @Test("a non-consumable's package is read from beside the catalog: version and files")
  func readsPackage() throws {
    try withFolder { folder in
      try writePackage(in: folder)
      let catalog = try CatalogLoader.load(path: try writeCatalog(in: folder))
      let map = try #require(catalog.product(mapID))
      #expect(map.kind == .nonConsumable)
      #expect(map.credits == nil)
      #expect(map.hostedContent?.contentVersion == "1.0")
      #expect(map.hostedContent?.files.map(\.path) == ["trails.txt"])
    }
  }

  @Test("the shipped catalog sells the jungle map pack with its content, in every storefront the credits are sold")
  func shippedJungleMap() throws {
    let catalog = ShopHarness.catalog
    let map = try #require(catalog.product("com.monkeyshop.jungle-map"))
    #expect(map.kind == .nonConsumable)
    #expect(map.localizations.keys.sorted() == ["en", "ja"])
    #expect(Set(map.prices.keys) == Set(catalog.product("com.monkeyshop.credits.5")!.prices.keys))
    #expect(map.hostedContent?.files.map(\.path).contains("legend.txt") == true)
  }

  @Test("a copy of a catalog whose package is built in at the same path takes the built-in one; others are refused")
  func builtInPackage() throws {
    try withFolder { folder in
      let path = try writeCatalog(in: folder)
      let info = try PropertyListSerialization.data(
        fromPropertyList: ["ContentVersion": "2.0", "IAPProductIdentifier": mapID], format: .xml, options: 0)
      let builtIn = ["Content/map/ContentInfo.plist": info, "Content/map/Contents/a.txt": Data("a".utf8)]
      let catalog = try CatalogLoader.load(path: path, builtIn: builtIn)
      #expect(catalog.product(mapID)?.hostedContent?.contentVersion == "2.0")
      let error = #expect(throws: CatalogError.self) { try CatalogLoader.load(path: path) }
      #expect(error?.message.contains("no hosted-content package at \(folder)/Content/map") == true)
    }
  }

  @Test(
    "each broken rule names the file, the product and the key",
    arguments: [
      ("credits on a non-consumable", "credits"),
      ("no credits on a consumable", "credits"),
      ("hosted content on a consumable", "hostedContent"),
      ("a subscription", "type"),
      ("a package of another product", "IAPProductIdentifier"),
      ("a package without ContentVersion", "ContentVersion"),
      ("no package at the path", "hostedContent.path"),
    ])
  func refusals(_ case: String, key: String) throws {
    try withFolder { folder in
      try writePackage(
        in: folder, identifier: `case` == "a package of another product" ? "com.example.other" : mapID,
        version: `case` == "a package without ContentVersion" ? nil : "1.0")
      let path = try writeCatalog(in: folder) { map in
        switch `case` {
        case "credits on a non-consumable": map["credits"] = 5
        case "no credits on a consumable":
          map["type"] = "consumable"
          map["hostedContent"] = nil
        case "hosted content on a consumable":
          map["type"] = "consumable"
          map["credits"] = 5
        case "a subscription": map["type"] = "autoRenewableSubscription"
        case "no package at the path": map["hostedContent"] = ["path": "Content/missing"]
        default: break
        }
      }
      let error = #expect(throws: CatalogError.self) { try CatalogLoader.load(path: path) }
      #expect(error?.product == mapID)
      #expect(error?.key == key)
      #expect(error?.errorID.exitStatus.rawValue == 65)
      let file = key == "IAPProductIdentifier" || key == "ContentVersion" ? "ContentInfo.plist" : "products.plist"
      #expect(error?.message.contains(file) == true, "\(error?.message ?? "")")
      if `case` == "a subscription" { #expect(error?.message.contains("subscriptions are not simulated") == true) }
    }
  }
}

extension ShopHarness {
  /// Buys the jungle map pack on the storefront: select it, Buy, confirm on the payment sheet.
  func buyJungleMap() {
    press(.down, .down)
    press(.enter)
    press(.enter)
  }
}

private let jungleMap = "com.monkeyshop.jungle-map"

@Suite("StoreKit 1 downloads of hosted content", .tags(.pure))
struct DownloadTests {
  @Test("after .purchased the app starts the downloads, follows them to the end, unpacks, and only then finishes")
  func downloadToTheEnd() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(1)
    #expect(shop.eventNames.filter { $0 != "note" }.suffix(3) == ["unlocked", "startDownloads", "downloadWaiting"])
    let id = try #require(shop.model.lastAddedTransactionID)
    #expect(shop.storage.store.transaction(id)?.finished == false, "not finished while downloading")
    shop.wait(1.5)
    #expect(shop.screen().text.contains("[██████████░░░░░░░░░░]  50% downloading"))
    shop.wait(5)
    let names = shop.eventNames.drop { $0 != "downloadWaiting" }
    #expect(
      Array(names.filter { $0 != "note" }) == [
        "downloadWaiting", "downloadActive", "downloadActive", "downloadActive", "downloadActive", "downloadActive",
        "downloadFinished", "contentInstalled", "finished",
      ])
    #expect(shop.screen().text.contains("Owned"))
    #expect(shop.storage.installed[jungleMap]?.contentVersion == "1.0")
    #expect(shop.storage.owned.entry(jungleMap)?.contentVersion == "1.0")
    #expect(shop.storage.store.transaction(id)?.finished == true)
    #expect(shop.model.log.contains { $0.text(.en).contains("timeRemaining SKDownloadTimeRemainingUnknown") })
  }

  @Test("the payment sheet calls the jungle map a non-consumable, and a credit pack a consumable")
  func sheetNamesTheType() throws {
    for (language, nonConsumable, consumable) in [
      (Language.en, "In-App Purchase · Non-Consumable", "In-App Purchase · Consumable"),
      (Language.ja, "App 内課金 · 非消耗型", "App 内課金 · 消耗型"),
    ] {
      let shop = ShopHarness(language: language)
      shop.press(.down, .down)
      shop.press(.enter)
      shop.wait(1)
      #expect(shop.screen().text.contains(nonConsumable), "\(shop.screen().text)")
      shop.press(.escape, .up, .up)
      shop.press(.enter)
      shop.wait(1)
      #expect(shop.screen().text.contains(consumable) && !shop.screen().text.contains(nonConsumable))
    }
  }

  @Test("a non-consumable is bought one at a time: + is refused on its row and a quantity set elsewhere does not apply")
  func oneAtATime() throws {
    let shop = ShopHarness()
    shop.press("++")
    #expect(shop.model.quantity == 3)
    shop.press(.down, .down)
    // Its row shows no quantity: there is none to choose.
    let mapRow = shop.screen().lines.first { $0.contains("Jungle Map") } ?? ""
    #expect(!mapRow.contains("qty"), "\(shop.screen().text)")
    shop.press("+")
    #expect(shop.screen().text.contains("a non-consumable is bought one at a time"), "\(shop.screen().text)")
    shop.press(.enter)
    shop.wait(1)
    #expect(shop.screen().text.contains("Quantity        1"), "\(shop.screen().text)")
    shop.press(.enter)
    shop.wait(10)
    #expect(shop.storage.store.transactions.first?.quantity == 1)
  }

  @Test("p pauses the download, time passes without progress, p resumes it to the end")
  func pauseAndResume() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(1.6)
    shop.press("p")
    #expect(shop.screen().text.contains("paused · p resume"))
    let before = shop.model.downloads.last?.progress
    shop.wait(30)
    #expect(shop.model.downloads.last?.progress == before)
    #expect(shop.model.downloads.last?.state == .paused)
    shop.press("p")
    shop.wait(5)
    #expect(shop.eventNames.contains("pauseDownloads") && shop.eventNames.contains("resumeDownloads"))
    #expect(shop.eventNames.last == "finished")
    #expect(shop.storage.installed[jungleMap] != nil)
  }

  @Test("the network going down fails the download with NSURLErrorDomain -1009; p starts it again once it is back")
  func networkLost() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(1.6)
    shop.press("n")
    #expect(shop.model.downloads.last?.state == .failed)
    #expect(shop.model.log.contains { $0.text(.en).contains(".failed #") && $0.text(.en).contains("-1009") })
    #expect(shop.screen().text.contains("failed · p download again"))
    let id = try #require(shop.model.lastAddedTransactionID)
    shop.wait(10)
    #expect(
      shop.storage.store.transaction(id)?.finished == false, "a failed download leaves the transaction unfinished")
    shop.press("n")
    shop.press("p")
    shop.wait(5)
    #expect(shop.storage.installed[jungleMap] != nil)
    #expect(shop.storage.store.transaction(id)?.finished == true)
  }

  @Test("x cancels the download: nothing is unpacked and the transaction stays unfinished")
  func cancel() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(1.6)
    shop.press("x")
    shop.wait(10)
    #expect(shop.model.downloads.last?.state == .cancelled)
    #expect(shop.storage.installed[jungleMap] == nil)
    #expect(shop.screen().text.contains("cancelled · p download again"))
    #expect(shop.storage.store.transaction(shop.model.lastAddedTransactionID!)?.finished == false)
  }

  @Test("a relaunch mid-download gets the transaction again and downloads from the start")
  func relaunchRestarts() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.wait(2)
    shop.launch()
    shop.wait(5)
    #expect(shop.model.log.contains { $0.text(.en).contains(".purchased #1 (redelivered)") })
    #expect(shop.eventNames.contains("alreadyOwned"))
    #expect(shop.storage.installed[jungleMap] != nil)
    #expect(shop.storage.store.transaction("1")?.finished == true)
  }

  @Test(
    "restore brings the non-consumable back .restored with its own id and the purchase as original, and downloads again"
  )
  func restore() throws {
    let shop = ShopHarness()
    shop.buyJungleMap()
    shop.press("5")
    shop.press(.enter)
    shop.wait(6)
    shop.press("o")
    shop.wait(5)
    let restored = try #require(shop.storage.store.transactions.last)
    #expect(restored.state == .restored)
    #expect(restored.restoredTransactionID == "1")
    #expect(restored.id != "1")
    #expect(restored.finished)
    #expect(shop.storage.store.transactions.filter { $0.state == .restored }.count == 1, "consumables never come back")
    #expect(shop.eventNames.contains("restoreFinished"))
    #expect(shop.model.log.contains { $0.text(.en).contains("content of #\(restored.id) moved to") })
  }
}

@Suite("StoreKit 2 and non-consumables", .tags(.pure))
struct StoreKit2OwnershipTests {
  @Test("the StoreKit 2 app owns what it buys, downloads nothing, and says there is no hosted-content API")
  func noHostedContentAPI() throws {
    let shop = ShopHarness(conditions: { $0.storeKit = .storeKit2 })
    shop.buyJungleMap()
    shop.wait(2)
    #expect(shop.storage.owned.owns(jungleMap))
    #expect(shop.storage.installed[jungleMap] == nil)
    #expect(shop.model.downloads.isEmpty)
    #expect(shop.model.log.contains { $0.text(.en).contains("StoreKit 2 has no hosted-content API") })
    #expect(shop.screen().text.contains("StoreKit 2 has no hosted-content API"))
    #expect(shop.storage.store.transaction("1")?.finished == true)
  }

  @Test("AppStore.sync() then currentEntitlements holds the non-consumable, never the consumables")
  func syncHoldsIt() throws {
    let shop = ShopHarness(conditions: { $0.storeKit = .storeKit2 })
    shop.buyJungleMap()
    shop.press("5")
    shop.press(.enter)
    shop.wait(2)
    shop.press("o")
    #expect(shop.model.log.contains { $0.text(.en).contains("Transaction.currentEntitlements → 1 transaction") })
  }
}

@Suite("Content folder", .tags(.pure))
struct ContentFolderTests {
  @Test("a package that cannot be unpacked whole leaves no half-unpacked folder and no content")
  func failedUnpackLeavesNothing() throws {
    let path = NSTemporaryDirectory() + "monkeyshop-content-\(UUID().uuidString)"
    let folder = DataFolder(path: path)
    // "map" is a file, so "map/legend.txt" cannot be written under it: the unpack fails half-way.
    let content = HostedContent(
      contentVersion: "1.0", contentInfo: Data("<plist/>".utf8),
      files: [.init(path: "map", data: Data("a".utf8)), .init(path: "map/legend.txt", data: Data("b".utf8))])
    #expect(throws: (any Error).self) {
      try folder.installContent(content, productIdentifier: "com.example.map", transactionID: "1")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.contentPath).isEmpty)
    #expect(!folder.hasContent(of: "com.example.map"))
  }
}
