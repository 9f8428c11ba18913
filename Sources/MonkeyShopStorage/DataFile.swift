import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file in the data folder, reached only through the folder's descriptor and never through a
/// link: a `wallet.json`, `wallet.json.tmp` or `.lock` that is a symbolic link (planted by another
/// user, or made by mistake) is refused, never followed, so a command run by root cannot be made
/// to truncate or create a file elsewhere (docs/data-folder.md).
struct DataFile {
  let folder: Int32
  let name: String
  /// For messages: the folder's path and this name.
  let path: String

  /// Data files hold a wallet or a store; anything bigger is not one.
  static let sizeLimit = 64 << 20

  /// The file's bytes, or nil when it does not exist. `ownerOnly`: a file the group or others may
  /// read is refused, naming the `chmod` that fixes it, as ssh refuses a private key "accessible by
  /// others".
  func read(ownerOnly: Bool = false) throws(DataFileError) -> Data? {
    let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw problem(opening: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("cannot be examined") }
    try checkRegular(info)
    if ownerOnly, info.st_mode & 0o077 != 0 {
      throw DataFileError(
        path: path,
        problem: String(
          format:
            "is a private key that other users can read (mode %o); `chmod 600 %@` to use it, and make a new chain if they may have read it",
          info.st_mode & 0o777, path))
    }
    guard Int(info.st_size) <= Self.sizeLimit else {
      throw DataFileError(path: path, problem: "is \(info.st_size) bytes, far more than a monkeyshop file holds")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("cannot be read")
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
      guard data.count <= Self.sizeLimit else {
        throw DataFileError(path: path, problem: "is larger than a monkeyshop file can be")
      }
    }
    return data
  }

  /// Temporary file created exclusively, fsync, rename over this one, fsync the folder: a crash at
  /// any instant leaves the old file or the new one, never a torn one.
  func replace(with data: Data) throws(DataFileError) {
    guard data.count <= Self.sizeLimit else {
      throw DataFileError(
        path: path, problem: "would grow to \(data.count) bytes, more than monkeyshop reads back; nothing was written",
        errorID: .cannotWriteDataFile)
    }
    let temporary = name + ".tmp"
    // Left by a writer killed mid-write (every write holds the folder's lock, so no other writer
    // is using it now). Unlinking a link removes the link, never its target. If it cannot be
    // removed, the exclusive create below says why.
    unlinkat(folder, temporary, 0)
    let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      // No descriptor left (EMFILE, ENFILE) is a wait for a long-running writer, not a fault.
      let code = errno
      throw DataFileError(
        path: path, problem: "cannot create \(temporary): \(String(cString: strerror(code)))",
        errorID: .cannotWriteDataFile, openingError: code)
    }
    let written = writeAll(fd, data)
    guard written, fsync(fd) == 0 else {
      let error = failure("writing \(temporary) failed", errorID: .cannotWriteDataFile)
      close(fd)
      unlinkat(folder, temporary, 0)
      throw error
    }
    close(fd)
    guard renameat(folder, temporary, folder, name) == 0 else {
      let error = failure("renaming \(temporary) over it failed", errorID: .cannotWriteDataFile)
      unlinkat(folder, temporary, 0)
      throw error
    }
    guard fsync(folder) == 0 else { throw failure("syncing the folder failed", errorID: .cannotWriteDataFile) }
  }

  func checkRegular(_ info: stat) throws(DataFileError) {
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else {
      let kind =
        switch type {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
      throw DataFileError(path: path, problem: "is \(kind), expected a monkeyshop JSON file")
    }
    // 0 links: another monkeyshop renamed a new file over this one after it was opened; what was
    // opened is still the whole old file, as a read without the lock may see.
    guard info.st_nlink <= 1 else {
      throw DataFileError(
        path: path,
        problem: "has \(info.st_nlink) hard links: monkeyshop writes only files that are its own alone")
    }
  }

  func problem(opening code: Int32) -> DataFileError {
    if code == ELOOP {
      return DataFileError(
        path: path, problem: "is a symbolic link: monkeyshop never follows links in its data folder; remove it")
    }
    return DataFileError(
      path: path, problem: "cannot be opened: \(String(cString: strerror(code)))", openingError: code)
  }

  func failure(_ what: String, errorID: ErrorID = .unreadableDataFile) -> DataFileError {
    DataFileError(path: path, problem: "\(what): \(String(cString: strerror(errno)))", errorID: errorID)
  }
}

/// `read(2)` and `write(2)`, named apart from the methods above.
@inline(__always)
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
  #else
    Darwin.read(fd, buffer, count)
  #endif
}

@inline(__always)
/// Writes every byte, retrying after a signal; false when a write fails.
func writeAll(
  _ fd: Int32, _ bytes: some DataProtocol & ContiguousBytes,
  using write: (Int32, UnsafeRawPointer, Int) -> Int = systemWrite
) -> Bool {
  bytes.withUnsafeBytes { buffer -> Bool in
    var offset = 0
    while offset < buffer.count {
      let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += count
    }
    return true
  }
}

func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
  #else
    Darwin.write(fd, buffer, count)
  #endif
}
