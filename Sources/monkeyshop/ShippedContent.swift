import Foundation

/// The hosted content of the shipped catalog, built into the binary with it, by the path the
/// catalog's `hostedContent.path` names (relative to the repository's root, where products.plist
/// is). SwiftPM embeds a folder's files by their names alone (`PackageResources.legend_txt`), so
/// each file's place in its package is said here; an end-to-end test checks that what a purchase
/// unpacks matches the repository's folder byte for byte.
enum ShippedContent {
  static let jungleMap = "HostedContent/com.monkeyshop.jungle-map/"

  static let files: [String: Data] = [
    jungleMap + "ContentInfo.plist": Data(PackageResources.ContentInfo_plist),
    jungleMap + "Contents/jungle-map.txt": Data(PackageResources.jungle_map_txt),
    jungleMap + "Contents/legend.txt": Data(PackageResources.legend_txt),
    jungleMap + "Contents/routes/river-walk.txt": Data(PackageResources.river_walk_txt),
  ]
}
