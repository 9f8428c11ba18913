import Foundation

/// A non-consumable's Apple-hosted content: the package App Store Connect hosts and StoreKit 1
/// downloads after the purchase (`SKDownload`). A package is a folder holding `ContentInfo.plist`
/// (its `ContentVersion` and `IAPProductIdentifier`) beside `Contents/`, the files the app receives.
/// Apple documents no layout (the In-App Purchase Content template of Xcode made it); this is the
/// one developers describe ("a structured folder, which contains a ContentInfo.plist in the root
/// level and a sub-folder called 'Contents'",
/// https://www.absoluteripple.com/resources/apple-in-app-purchase-creating-app-store-hosted-content).
public struct HostedContent: Hashable, Sendable {
  /// One file of `Contents/`.
  public struct File: Hashable, Sendable {
    /// Relative to `Contents/`, with `/` between folders.
    public let path: String
    public let data: Data

    public init(path: String, data: Data) {
      self.path = path
      self.data = data
    }
  }

  /// `ContentVersion` of `ContentInfo.plist` (`SKDownload.contentVersion`).
  public let contentVersion: String
  /// `ContentInfo.plist` as the package holds it: unpacked with the content, as Apple's packages are.
  public let contentInfo: Data
  /// The files of `Contents/`, in path order.
  public let files: [File]

  public init(contentVersion: String, contentInfo: Data, files: [File]) {
    self.contentVersion = contentVersion
    self.contentInfo = contentInfo
    self.files = files.sorted { $0.path < $1.path }
  }

  /// `SKDownload.expectedContentLength`: every byte of the package.
  public var byteCount: Int { files.reduce(contentInfo.count) { $0 + $1.data.count } }

  /// The name of the package's description file.
  public static let contentInfoName = "ContentInfo.plist"
  /// The folder of the package's files.
  public static let contentsName = "Contents"
  /// Hosted content is for small packages here: more files or bytes than these are refused.
  public static let fileLimit = 256
  public static let byteLimit = 16 << 20
}

/// Where a catalog's `hostedContent.path` is found.
public enum HostedContentSource: Sendable {
  /// On disk, relative to this folder: the catalog file's. A package not there but built into the
  /// binary at the same path (the shipped catalog's, when a copy of products.plist is used
  /// elsewhere) is taken from `builtIn`: the same bytes the repository holds.
  case folder(String, builtIn: [String: Data] = [:])
  /// Built into the binary, by path relative to the repository's root (where the shipped catalog
  /// sits): `HostedContent/<product id>/ContentInfo.plist`, `…/Contents/…`.
  case builtIn([String: Data])

  /// What a message calls the package at `path`.
  func place(_ path: String) -> String {
    switch self {
    case .folder(let base, _): path.hasPrefix("/") || base.isEmpty ? path : base + "/" + path
    case .builtIn: "\(path) (built into monkeyshop)"
    }
  }

  /// Every file of the package at `path`, by path relative to it; nil when there is no package.
  /// Links and anything but plain files and folders are refused.
  func files(at path: String) throws(PackageProblem) -> [String: Data]? {
    switch self {
    case .builtIn(let all):
      let prefix = path.hasSuffix("/") ? path : path + "/"
      let found = all.filter { $0.key.hasPrefix(prefix) }
      guard !found.isEmpty else { return nil }
      return Dictionary(uniqueKeysWithValues: found.map { (String($0.key.dropFirst(prefix.count)), $0.value) })
    case .folder(_, let builtIn):
      let root = place(path)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
        return path.hasPrefix("/") ? nil : try HostedContentSource.builtIn(builtIn).files(at: path)
      }
      guard isFolder.boolValue else { throw PackageProblem(path: root, problem: "is a file, expected a folder") }
      var found: [String: Data] = [:]
      var total = 0
      try Self.collect(root, relative: "", into: &found, total: &total)
      return found
    }
  }

  private static func collect(
    _ folder: String, relative: String, into found: inout [String: Data], total: inout Int
  ) throws(PackageProblem) {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    } catch {
      throw PackageProblem(path: folder, problem: "cannot be read")
    }
    for name in names {
      let path = folder + "/" + name
      let inside = relative.isEmpty ? name : relative + "/" + name
      // lstat does not follow a link: a link is seen as one, and refused. (Not FileManager's
      // attributesOfItem: its dictionary's first use costs the storefront's start 0.75 million
      // instructions, docs/performance.md.)
      var info = stat()
      let type = lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
      switch type {
      case S_IFDIR:
        try collect(path, relative: inside, into: &found, total: &total)
      case S_IFREG:
        guard found.count < HostedContent.fileLimit else {
          throw PackageProblem(path: path, problem: "is one file more than \(HostedContent.fileLimit)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
          throw PackageProblem(path: path, problem: "cannot be read")
        }
        total += data.count
        guard total <= HostedContent.byteLimit else {
          throw PackageProblem(path: path, problem: "takes the package past \(HostedContent.byteLimit) bytes")
        }
        found[inside] = data
      case S_IFLNK:
        throw PackageProblem(path: path, problem: "is a symbolic link (a package holds files and folders only)")
      default:
        throw PackageProblem(path: path, problem: "is not a file or a folder")
      }
    }
  }
}

/// What is wrong in a hosted-content package, at a path inside it.
struct PackageProblem: Error {
  let path: String
  let problem: String
}

extension HostedContent {
  /// Reads and checks the package at `path` for `productIdentifier`. Errors name the catalog's
  /// product and, for what is wrong inside the package, the package's file and key.
  static func read(
    _ path: String, from source: HostedContentSource, productIdentifier: String, catalogPath: String
  ) throws(CatalogError) -> HostedContent {
    let expectedPackage = "a folder holding \(contentInfoName) beside \(contentsName)/"
    let place = source.place(path)
    let all: [String: Data]
    do {
      guard let found = try source.files(at: path) else {
        throw CatalogError(
          path: catalogPath, product: productIdentifier, key: "hostedContent.path",
          problem: "no hosted-content package at \(place)", expected: expectedPackage)
      }
      all = found
    } catch let problem as PackageProblem {
      throw CatalogError(path: problem.path, product: productIdentifier, problem: problem.problem)
    } catch let error as CatalogError {
      throw error
    } catch {
      throw CatalogError(path: place, product: productIdentifier, problem: "cannot be read")
    }
    let infoPath = place + "/" + contentInfoName
    guard let info = all[contentInfoName] else {
      throw CatalogError(path: infoPath, product: productIdentifier, problem: "missing", expected: expectedPackage)
    }
    // Read as the catalog is: the strict XML reader first, Foundation for anything else.
    let read = XMLPropertyList.parse(info) ?? (try? PropertyListValue.foundationReading(info))
    guard case .dictionary(let fields)? = read else {
      throw CatalogError(
        path: infoPath, product: productIdentifier, problem: "not a property list dictionary",
        expected: "ContentVersion and IAPProductIdentifier")
    }
    guard case .string(let version)? = fields["ContentVersion"], !version.isEmpty else {
      throw CatalogError(
        path: infoPath, product: productIdentifier, key: "ContentVersion",
        problem: fields["ContentVersion"] == nil ? "missing" : "is not a non-empty string",
        expected: "the content's version string, such as \"1.0\"")
    }
    guard case .string(let identifier)? = fields["IAPProductIdentifier"] else {
      throw CatalogError(
        path: infoPath, product: productIdentifier, key: "IAPProductIdentifier",
        problem: fields["IAPProductIdentifier"] == nil ? "missing" : "is not a string", expected: productIdentifier)
    }
    guard identifier == productIdentifier else {
      throw CatalogError(
        path: infoPath, product: productIdentifier, key: "IAPProductIdentifier",
        problem: "is '\(identifier)': the package is another product's", expected: productIdentifier)
    }
    var files: [File] = []
    for (inside, data) in all where inside != contentInfoName {
      guard inside.hasPrefix(contentsName + "/") else {
        throw CatalogError(
          path: place + "/" + inside, product: productIdentifier,
          problem: "is beside \(contentsName)/: a package holds only \(contentInfoName) and \(contentsName)/")
      }
      files.append(File(path: String(inside.dropFirst(contentsName.count + 1)), data: data))
    }
    guard !files.isEmpty else {
      throw CatalogError(
        path: place + "/" + contentsName, product: productIdentifier, problem: "missing or empty",
        expected: "the content's files")
    }
    return HostedContent(contentVersion: version, contentInfo: info, files: files)
  }
}
