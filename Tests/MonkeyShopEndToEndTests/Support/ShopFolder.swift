import Foundation

/// A temporary folder for one test: the data folder (`wallet.json`, `store.json`), the captured
/// output of child processes and anything else the test writes. Removed when the test lets go of it.
final class ShopFolder: Sendable {
  let root: URL
  /// The data folder the test's monkeyshop processes use (not created: monkeyshop creates it).
  let data: URL

  init(_ name: String = "test") throws {
    let unique = "monkeyshop-e2e-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
    root = FileManager.default.temporaryDirectory.appendingPathComponent(unique)
    data = root.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }

  var walletPath: String { data.appendingPathComponent("wallet.json").path }
  var storePath: String { data.appendingPathComponent("store.json").path }

  /// A fresh file name inside the folder.
  func file(_ name: String) -> URL {
    root.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
  }

  /// The environment monkeyshop runs in: this data folder, the shipped catalog, a UTF-8 locale and
  /// nothing from the developer's shell that changes what it shows (NO_COLOR, LANG, LC_*, a
  /// default data folder). `unsetting` removes variables afterwards (`MONKEYSHOP_CATALOG`, to
  /// sell from the current folder's catalog or the shipped one).
  func environment(_ extra: [String: String] = [:], unsetting: [String] = []) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in [
      "MONKEYSHOP_DATA_DIR", "MONKEYSHOP_CATALOG", "NO_COLOR", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANGUAGE",
      "TMUX", "TMUX_PANE", "XDG_DATA_HOME", "COLUMNS", "LINES",
    ] {
      environment[name] = nil
    }
    environment["LANG"] = Self.utf8Locale
    environment["HOME"] = root.path
    environment["MONKEYSHOP_DATA_DIR"] = data.path
    environment["MONKEYSHOP_CATALOG"] = Locations.catalog
    environment.merge(extra) { _, new in new }
    for name in unsetting { environment[name] = nil }
    return environment
  }

  #if os(Linux)
    static let utf8Locale = "C.UTF-8"
  #else
    static let utf8Locale = "en_US.UTF-8"
  #endif

  // MARK: Reading what monkeyshop wrote

  /// The raw bytes of a data file, or nil when it does not exist.
  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// A data file parsed as a JSON object; throws when it is missing or torn.
  func jsonObject(_ path: String) throws -> [String: Any] {
    guard let data = bytes(path) else { throw E2EFailure("\(path) does not exist") }
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw E2EFailure("\(path) is not a JSON object: \(String(decoding: data, as: UTF8.self))")
    }
    return object
  }

  /// Names in the data folder (the lock, temporary files a killed writer left, …).
  func dataFolderNames() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: data.path))?.sorted() ?? []
  }
}

/// What the shipped catalog says each product grants, read with Foundation, not with the code under test.
enum ShippedCatalog {
  static let credits: [String: Int] = {
    guard let data = FileManager.default.contents(atPath: Locations.catalog),
      let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
      let products = root["products"] as? [[String: Any]]
    else { return [:] }
    var credits: [String: Int] = [:]
    for product in products {
      if let id = product["productIdentifier"] as? String, let value = product["credits"] as? Int {
        credits[id] = value
      }
    }
    return credits
  }()

  static let five = "com.monkeyshop.credits.5"
  static let ten = "com.monkeyshop.credits.10"
}
