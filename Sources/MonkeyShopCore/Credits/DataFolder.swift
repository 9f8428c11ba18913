import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data folder on disk: `wallet.json`, `store.json` and the lock file that serialises every
/// read-modify-write between monkeyshop processes.
public final class DataFolder: ShopStorage {
  public let path: String
  public var walletPath: String { path + "/wallet.json" }
  public var storePath: String { path + "/store.json" }
  var lockPath: String { path + "/.lock" }

  public init(path: String) {
    self.path = path
  }

  /// `--data-dir`, else `MONKEYSHOP_DATA_DIR`, else `$XDG_DATA_HOME/monkeyshop`, else
  /// `~/.local/share/monkeyshop`.
  public static func defaultPath(explicit: String?, environment: [String: String]) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let folder = environment["MONKEYSHOP_DATA_DIR"], !folder.isEmpty { return folder }
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/monkeyshop" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/monkeyshop"
  }

  public func read() throws(DataFileError) -> (store: StoreState, wallet: Wallet) {
    let wallet = try load(Wallet.self, from: walletPath, schemaVersion: Wallet.schemaVersion) ?? Wallet()
    let store = try load(StoreState.self, from: storePath, schemaVersion: StoreState.schemaVersion) ?? StoreState()
    return (store, wallet)
  }

  public func update<Result>(_ body: (inout StoreState, inout Wallet) throws -> Result) throws -> Result {
    try createFolder()
    let lock = try FileLock(path: lockPath)
    defer { lock.release() }
    let (store, wallet) = try read()
    var newStore = store
    var newWallet = wallet
    let result = try body(&newStore, &newWallet)
    if newWallet != wallet { try write(newWallet, to: walletPath) }
    if newStore != store { try write(newStore, to: storePath) }
    return result
  }

  // MARK: Reading

  private struct Header: Decodable { let schemaVersion: Int? }

  /// Nil when the file does not exist yet; an error naming the file for anything unreadable.
  func load<Value: Decodable>(_ type: Value.Type, from path: String, schemaVersion: Int) throws(DataFileError) -> Value?
  {
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) {
        throw DataFileError(path: path, problem: "cannot be read (check its permissions)")
      }
      return nil
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw DataFileError(
        path: path, problem: "not a monkeyshop JSON file (\(data.isEmpty ? "it is empty" : "it is not a JSON object"))")
    }
    guard let version = header.schemaVersion else {
      throw DataFileError(path: path, problem: "has no schemaVersion (expected \(schemaVersion))")
    }
    guard version <= schemaVersion else {
      throw DataFileError(
        path: path,
        problem: "schemaVersion \(version) was written by a newer monkeyshop (this one reads \(schemaVersion))")
    }
    guard version == schemaVersion else {
      throw DataFileError(path: path, problem: "schemaVersion \(version) is not supported (expected \(schemaVersion))")
    }
    do {
      return try decoder.decode(Value.self, from: data)
    } catch let error as DecodingError {
      throw DataFileError(path: path, problem: Self.explain(error))
    } catch {
      throw DataFileError(path: path, problem: "\(error)")
    }
  }

  static func explain(_ error: DecodingError) -> String {
    func place(_ path: [any CodingKey]) -> String {
      let key = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return key.isEmpty ? "the top level" : String(key.drop { $0 == "." })
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(place(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context):
      return "\(place(context.codingPath)) has the wrong type (expected \(type))"
    case .valueNotFound(let type, let context):
      return "\(place(context.codingPath)) is null (expected \(type))"
    case .dataCorrupted(let context):
      return "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  // MARK: Writing

  private func createFolder() throws(DataFileError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw DataFileError(
        path: path, problem: "the data folder cannot be created (\(error.localizedDescription))",
        errorID: .cannotWriteDataFile)
    }
  }

  /// Temporary file, fsync, rename over the old one, fsync the folder: a crash at any instant
  /// leaves the old file or the new one, never a torn one.
  func write<Value: Encodable>(_ value: Value, to path: String) throws(DataFileError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    let data: Data
    do {
      data = try encoder.encode(value) + Data("\n".utf8)
    } catch {
      throw DataFileError(path: path, problem: "cannot be encoded (\(error))", errorID: .cannotWriteDataFile)
    }
    // One fixed name: every write holds the exclusive lock, so no two writers share it, and a
    // writer killed mid-write leaves at most this one file, replaced by the next write.
    let temporary = path + ".tmp"
    func fail(_ what: String) -> DataFileError {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      return DataFileError(path: path, problem: "\(what) failed: \(reason)", errorID: .cannotWriteDataFile)
    }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw fail("creating \(temporary)") }
    let written = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let count = rawWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += count
      }
      return true
    }
    guard written, fsync(fd) == 0 else {
      close(fd)
      throw fail("writing")
    }
    close(fd)
    guard rename(temporary, path) == 0 else { throw fail("renaming") }
    let folder = open(self.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }
}

/// `write(2)`, named apart from the method above.
@inline(__always)
private func rawWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
  #else
    Darwin.write(fd, buffer, count)
  #endif
}

/// An exclusive `flock` held for one read-modify-write.
struct FileLock {
  private let fd: Int32

  init(path: String) throws(DataFileError) {
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw DataFileError(path: path, problem: "the lock file cannot be opened: \(String(cString: strerror(errno)))")
    }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw DataFileError(path: path, problem: "cannot be locked: \(reason)")
      }
    }
  }

  func release() {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
