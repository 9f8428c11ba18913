import Foundation

/// The shipped hosted content, as the repository holds it and as a purchase unpacks it.
enum HostedPackage {
  static let jungleMap = "com.monkeyshop.jungle-map"

  /// Every file under `root`, by path relative to it.
  static func files(under root: String) -> [String: Data] {
    var found: [String: Data] = [:]
    guard let paths = FileManager.default.enumerator(atPath: root) else { return found }
    for case let path as String in paths {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
        found[path] = FileManager.default.contents(atPath: root + "/" + path)
      }
    }
    return found
  }

  /// The repository's package of a product.
  static func repositoryFiles(_ product: String) -> [String: Data] {
    files(under: Locations.repository.appendingPathComponent("HostedContent/\(product)").path)
  }
}
