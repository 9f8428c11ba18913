import Foundation

/// The walkthroughs the repository ships, in `Walkthroughs/` beside the catalog.
public enum WalkthroughLibrary {
  public static let folderName = "Walkthroughs"

  /// Where `install.sh` puts the library, from the folder the executable is installed in:
  /// `PREFIX/share/monkeyshop/Walkthroughs` beside `PREFIX/bin/monkeyshop`.
  public static let installedFolder = "../share/monkeyshop/\(folderName)"

  /// `Walkthroughs/` next to the catalog, else in the current folder, else the one installed with
  /// `executable` (`installedFolder`); nil when there is none.
  public static func folder(nextToCatalog catalogPath: String, executable: String? = nil) -> String? {
    for candidate in places(nextToCatalog: catalogPath, executable: executable).map(\.path)
    where isFolder(candidate) {
      return candidate == folderName ? folderName : relative(candidate)
    }
    return nil
  }

  /// Where the library is looked for, in order, each with how that place is found.
  static func places(nextToCatalog catalogPath: String, executable: String?) -> [(path: String, place: String)] {
    let besideCatalog = URL(fileURLWithPath: catalogPath).deletingLastPathComponent()
      .appendingPathComponent(folderName).path
    var places = [(besideCatalog, "beside the catalog"), (folderName, "in the current folder")]
    if let executable {
      places.append(
        (
          URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(installedFolder).standardizedFileURL.path, "installed with monkeyshop"
        ))
    }
    return places
  }

  /// Where the library was looked for, each folder once, whole: "no folder
  /// /work/Walkthroughs (beside the catalog and in the current folder) or
  /// /usr/local/share/monkeyshop/Walkthroughs (installed with monkeyshop)".
  public static func searched(nextToCatalog catalogPath: String, executable: String?) -> String {
    var folders: [(path: String, places: [String])] = []
    for (path, place) in places(nextToCatalog: catalogPath, executable: executable) {
      let whole = URL(fileURLWithPath: path).standardizedFileURL.path
      if let known = folders.firstIndex(where: { $0.path == whole }) {
        folders[known].places.append(place)
      } else {
        folders.append((whole, [place]))
      }
    }
    let named = folders.map { "\($0.path) (\($0.places.joined(separator: " and ")))" }
    return "no folder " + (named.count > 1 ? named.dropLast().joined(separator: ", ") + " or " : "") + named.last!
  }

  /// Why `argument`, a name with no folder that is no file here (`buy-5`), cannot be a bundled
  /// walkthrough: there is no library to look it up in. The message says where the library was
  /// looked for and how to name a file instead. Nil for a path, a file that is there, or when the
  /// library was found.
  public static func missing(_ argument: String, nextToCatalog catalogPath: String, executable: String?)
    -> WalkthroughError.Problem?
  {
    guard !argument.contains("/"), !FileManager.default.fileExists(atPath: argument),
      folder(nextToCatalog: catalogPath, executable: executable) == nil
    else { return nil }
    let name = (argument as NSString).deletingPathExtension
    return .init(
      path: argument, line: nil,
      message:
        "no such file, and the library of bundled walkthroughs was not found: \(searched(nextToCatalog: catalogPath, executable: executable)) (expected a walkthrough YAML file: name its path, such as monkeyshop walkthrough path/to/\(name).yaml)"
    )
  }

  /// The walkthrough files of a folder (`.yaml`, `.yml`), by name.
  public static func files(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
      .map { (folder as NSString).appendingPathComponent($0) }
  }

  /// The walkthroughs a command-line argument names: every walkthrough of a folder
  /// (`monkeyshop walkthrough Walkthroughs`), else the one file `resolve` finds.
  public static func paths(for argument: String, library: String?) -> [String] {
    isFolder(argument) ? files(in: argument) : [resolve(argument, library: library)]
  }

  /// A path as given, or a library walkthrough named without its folder or extension
  /// (`ask-to-buy-approved`).
  public static func resolve(_ name: String, library: String?) -> String {
    guard !FileManager.default.fileExists(atPath: name), let library else { return name }
    for candidate in [name, name + ".yaml", name + ".yml"] {
      let path = (library as NSString).appendingPathComponent(candidate)
      if FileManager.default.fileExists(atPath: path) { return path }
    }
    return name
  }

  /// ` (did you mean 'ask-to-buy-approved'?)` when a walkthrough not found is named one or two
  /// edits from one of the library's, by the rule the reader suggests names by.
  static func suggestion(for path: String, library: String?) -> String {
    guard let library else { return "" }
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    let known = files(in: library).map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
    return WalkthroughReader.suggestion(name, known)
  }

  private static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  /// Shorter to read when it is under the current folder.
  private static func relative(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return standardized.hasPrefix(current + "/") ? String(standardized.dropFirst(current.count + 1)) : standardized
  }
}
