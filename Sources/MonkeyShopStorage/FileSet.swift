import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that are only good together (the signing chain: three certificates and a key), kept in a
/// folder of their own inside the data folder and made in one step: written into a temporary
/// folder, each file and the folder synced, then the folder renamed into place. A kill or a full
/// disk at any instant leaves the whole set or none of it, never a folder that refuses every
/// command.
extension DataFolder {
  /// The set in `setName/` (made by `make` when it is not there), read under the folder's lock, and
  /// the folder it was read from.
  ///
  /// An older monkeyshop wrote the same files one by one beside the wallet: when all of them are
  /// there they are used where they are (a server may trust that root). When only some are, the
  /// set was never whole (a run stopped between two writes, or a file was removed): it is refused,
  /// naming what is missing and what to do, and nothing is written.
  ///
  /// `privateNames` are files only their owner may read: one that the group or others can read is
  /// refused with the `chmod` that fixes it, as ssh refuses a private key "accessible by others".
  public func fileSet(
    _ setName: String, _ names: [String], privateNames: Set<String>, makingAll make: () throws -> [String: Data]
  ) throws -> (files: [String: Data], place: String) {
    let set = KeySet(folderName: setName, fileNames: names, privateNames: privateNames)
    return try locked { folder in try fileSet(set, in: folder, makingAll: make) }
  }

  /// `fileSet` in the open data folder `folder`, whose lock the caller holds.
  func fileSet(_ set: KeySet, in folder: Int32, makingAll make: () throws -> [String: Data]) throws -> (
    files: [String: Data], place: String
  ) {
    let setName = set.folderName
    let names = set.fileNames
    let privateNames = set.privateNames
    let setPath = path + "/" + setName
    if let set = try openSet(setName, in: folder, path: setPath) {
      defer { close(set) }
      var found: [String: Data] = [:]
      for name in names {
        let file = DataFile(folder: set, name: name, path: setPath + "/" + name)
        guard let data = try file.read(ownerOnly: privateNames.contains(name)) else {
          throw DataFileError(
            path: file.path,
            problem:
              "is missing from \(setName)/, which monkeyshop only ever puts in place whole; put it back, or remove \(setName)/ to make a new set"
          )
        }
        found[name] = data
      }
      return (found, setPath)
    }
    var found: [String: Data] = [:]
    for name in names {
      if let data = try file(name, in: folder).read(ownerOnly: privateNames.contains(name)) { found[name] = data }
    }
    if found.count == names.count { return (found, path) }
    if let missing = names.first(where: { found[$0] == nil }), !found.isEmpty {
      throw DataFileError(
        path: path + "/" + missing,
        problem:
          "is missing while \(found.keys.sorted().joined(separator: ", ")) are here: an older monkeyshop wrote them one at a time and was stopped between two (nothing was signed with them then), or one was removed; put it back, or remove all of \(names.joined(separator: ", ")) to make a new set in \(setName)/"
      )
    }
    let made = try make()
    try install(made, names: names, as: setName, in: folder)
    return (made, setPath)
  }

  /// The set's folder, or nil when there is none. A link or a file in its place is refused.
  private func openSet(_ name: String, in folder: Int32, path: String) throws(DataFileError) -> Int32? {
    let fd = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd < 0 else { return fd }
    let code = errno
    if code == ENOENT { return nil }
    if code == ELOOP || code == ENOTDIR {
      throw DataFileError(path: path, problem: "is not a folder of monkeyshop's (a link or a file); remove it")
    }
    throw DataFileError(
      path: path, problem: "cannot be opened: \(String(cString: strerror(code)))", openingError: code)
  }

  /// Writes the files into `.NAME.making/`, syncs them and it, renames it to `NAME`, syncs the
  /// data folder. A temporary folder left by a run killed before the rename is never used: removed.
  private func install(_ files: [String: Data], names: [String], as name: String, in folder: Int32) throws {
    let temporary = ".\(name).making"
    let temporaryPath = path + "/" + temporary
    func failure(_ what: String) -> DataFileError {
      DataFileError(
        path: temporaryPath, problem: "\(what): \(String(cString: strerror(errno)))", errorID: .cannotWriteDataFile)
    }
    var info = stat()
    if fstatat(folder, temporary, &info, AT_SYMLINK_NOFOLLOW) == 0 {
      do {
        try FileManager.default.removeItem(atPath: temporaryPath)
      } catch {
        throw DataFileError(
          path: temporaryPath, problem: "is left from a stopped run and cannot be removed (\(error))",
          errorID: .cannotWriteDataFile)
      }
    }
    guard mkdirat(folder, temporary, 0o700) == 0 else { throw failure("cannot be made") }
    let set = openat(folder, temporary, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard set >= 0 else { throw failure("cannot be opened") }
    defer { close(set) }
    for file in names {
      guard let data = files[file] else {
        throw DataFileError(
          path: path + "/" + name + "/" + file, problem: "was not made", errorID: .cannotWriteDataFile)
      }
      let fd = openat(set, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw failure("cannot create \(file) in it") }
      let written = writeAll(fd, data) && fsync(fd) == 0
      close(fd)
      guard written else { throw failure("writing \(file) failed") }
    }
    guard fsync(set) == 0 else { throw failure("syncing failed") }
    guard renameat(folder, temporary, folder, name) == 0 else { throw failure("renaming it to \(name) failed") }
    guard fsync(folder) == 0 else {
      throw DataFileError(
        path: path, problem: "syncing the data folder failed: \(String(cString: strerror(errno)))",
        errorID: .cannotWriteDataFile)
    }
  }
}
