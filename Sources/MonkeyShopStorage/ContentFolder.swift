import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where downloaded hosted content is unpacked: `content/<product id>/` in the data folder, laid
/// out as the package was (`ContentInfo.plist` beside `Contents/`), as `SKDownload.contentURL`
/// points at a package. A package is unpacked into a temporary folder beside it, every file and
/// folder synced, then renamed into place: a kill at any instant leaves the old content, the new
/// content or none, never half of it.
public enum ContentFolder {
  public static let name = "content"

  static func unpacking(_ product: String) -> String { ".\(product).unpacking" }
  static func replaced(_ product: String) -> String { ".\(product).replaced" }
}

extension DataFolder {
  public var ownedPath: String { path + "/" + OwnedProducts.fileName }
  public var contentPath: String { path + "/" + ContentFolder.name }

  /// Where a product's content is once unpacked.
  public func contentPath(of productIdentifier: String) -> String { contentPath + "/" + productIdentifier }

  /// Whether a product's content is unpacked: `content/` and `content/<id>/` are folders (not
  /// links) and the package's `ContentInfo.plist` is a regular file in it.
  public func hasContent(of productIdentifier: String) -> Bool {
    func isKind(_ path: String, _ kind: mode_t) -> Bool {
      var info = stat()
      return lstat(path, &info) == 0 && info.st_mode & S_IFMT == kind
    }
    let package = contentPath(of: productIdentifier)
    return isKind(contentPath, S_IFDIR) && isKind(package, S_IFDIR)
      && isKind(package + "/" + HostedContent.contentInfoName, S_IFREG)
  }

  public func readOwned() throws(DataFileError) -> OwnedProducts {
    try opened { folder throws(DataFileError) in try readOwned(in: folder) } ?? OwnedProducts()
  }

  func readOwned(in folder: Int32) throws(DataFileError) -> OwnedProducts {
    try file(OwnedProducts.fileName, in: folder).read().map { data throws(DataFileError) in
      try DataFileReader(path: ownedPath, data: data).owned()
    } ?? OwnedProducts()
  }

  public func updateOwned<Result>(_ body: (inout OwnedProducts, StoreState, Wallet) throws -> Result) throws -> Result {
    try locked { folder in
      let (store, wallet, _) = try read(in: folder, locked: true)
      let owned = try readOwned(in: folder)
      var changed = owned
      let result = try body(&changed, store, wallet)
      if changed != owned { try write(changed, in: folder) }
      return result
    }
  }

  private func write(_ owned: OwnedProducts, in folder: Int32) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(owned) + Data("\n".utf8)
    } catch {
      throw DataFileError(path: ownedPath, problem: "cannot be encoded (\(error))", errorID: .cannotWriteDataFile)
    }
    try file(OwnedProducts.fileName, in: folder).replace(with: data)
  }

  public func installContent(_ content: HostedContent, productIdentifier: String, transactionID: String) throws
    -> String
  {
    // A product identifier is reverse-DNS (the catalog checked it): never a path of its own.
    guard !productIdentifier.contains("/"), !productIdentifier.hasPrefix(".") else {
      throw DataFileError(
        path: contentPath, problem: "'\(productIdentifier)' cannot name a content folder", errorID: .cannotWriteDataFile
      )
    }
    return try locked { folder in
      let contents = try openOrMakeFolder(ContentFolder.name, in: folder, path: contentPath)
      defer { close(contents) }
      let unpacking = ContentFolder.unpacking(productIdentifier)
      let replaced = ContentFolder.replaced(productIdentifier)
      // Left by a run killed while unpacking or replacing: never used, removed.
      try removeTree(contentPath + "/" + unpacking)
      try removeTree(contentPath + "/" + replaced)
      do {
        let package = try openOrMakeFolder(unpacking, in: contents, path: contentPath + "/" + unpacking)
        defer { close(package) }
        try writeFile(
          HostedContent.contentInfoName, content.contentInfo, in: package, path: contentPath + "/" + unpacking)
        for item in content.files {
          try writeFile(
            HostedContent.contentsName + "/" + item.path, item.data, in: package, path: contentPath + "/" + unpacking)
        }
        guard fsync(package) == 0 else { throw failure(contentPath + "/" + unpacking, "syncing failed") }
      } catch {
        // A package that could not be unpacked whole (a full disk) is not left half-written.
        try? removeTree(contentPath + "/" + unpacking)
        throw error
      }
      // The old content steps aside, the new one takes its name, then the old one goes.
      if renameat(contents, productIdentifier, contents, replaced) != 0, errno != ENOENT {
        throw failure(contentPath(of: productIdentifier), "cannot be moved aside")
      }
      guard renameat(contents, unpacking, contents, productIdentifier) == 0 else {
        throw failure(contentPath(of: productIdentifier), "cannot be put in place")
      }
      guard fsync(contents) == 0 else { throw failure(contentPath, "syncing failed") }
      try removeTree(contentPath + "/" + replaced)
      // The content is whole in place: now the app records it.
      var owned = try readOwned(in: folder)
      let before = owned
      owned.installed(productIdentifier, version: content.contentVersion, by: transactionID)
      if owned != before { try write(owned, in: folder) }
      return contentPath(of: productIdentifier)
    }
  }

  /// A folder inside `parent`, made if need be, opened without following a link.
  private func openOrMakeFolder(_ name: String, in parent: Int32, path: String) throws -> Int32 {
    if mkdirat(parent, name, 0o700) == 0 {
      guard fsync(parent) == 0 else { throw failure(path, "syncing failed") }
    } else if errno != EEXIST {
      throw failure(path, "cannot be made")
    }
    let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ELOOP || errno == ENOTDIR {
        throw DataFileError(
          path: path, problem: "is not a folder of monkeyshop's (a link or a file): remove it",
          errorID: .cannotWriteDataFile)
      }
      throw failure(path, "cannot be opened")
    }
    return fd
  }

  /// Writes a new file at `relative` inside the folder `package`, its folders made on the way,
  /// each synced.
  private func writeFile(_ relative: String, _ data: Data, in package: Int32, path: String) throws {
    let parts = relative.split(separator: "/").map(String.init)
    var folder = dup(package)
    defer { close(folder) }
    var place = path
    for part in parts.dropLast() {
      place += "/" + part
      let next = try openOrMakeFolder(part, in: folder, path: place)
      close(folder)
      folder = next
    }
    place += "/" + (parts.last ?? "")
    let fd = openat(folder, parts.last ?? "", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(place, "cannot be created") }
    defer { close(fd) }
    guard writeAll(fd, data), fsync(fd) == 0 else { throw failure(place, "cannot be written") }
    guard fsync(folder) == 0 else { throw failure(place, "syncing its folder failed") }
  }

  /// Removes a file or folder and everything in it; links are removed, never followed.
  private func removeTree(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw DataFileError(path: path, problem: "cannot be removed (\(error))", errorID: .cannotWriteDataFile)
    }
  }

  private func failure(_ path: String, _ what: String) -> DataFileError {
    DataFileError(path: path, problem: "\(what): \(String(cString: strerror(errno)))", errorID: .cannotWriteDataFile)
  }
}
