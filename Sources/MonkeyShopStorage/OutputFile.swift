import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a person names for monkeyshop to write: `--out`, `--junit`, `--cast`,
/// `MONKEYSHOP_SCREEN_DUMP`. One rule for all of them: only a regular file is ever replaced, never
/// a folder, a symbolic link (it could lead anywhere, the data folder included), a FIFO or a
/// device; and it is replaced whole, written to a new file beside it and then moved into place,
/// so a reader never sees half of it and a link put there meanwhile is replaced, not followed. A
/// file that grows while monkeyshop runs (the storefront's `--cast`) is moved into place the same
/// way with its first part, then appended to (`startAppending`).
public enum OutputFile {
  /// Why nothing may be written at `path` as it is, in words that follow the path ("is a folder
  /// (expected a file name, such as root.der)"); nil when it names a regular file or nothing yet.
  /// Nothing is ever written in the data folder, whose files only monkeyshop writes.
  public static func obstacle(at path: String, example: String, dataFolder: DataFolder) -> String? {
    guard !path.isEmpty, !path.hasSuffix("/") else {
      return "names no file (expected a file name, such as \(example))"
    }
    if dataFolder.holds(path) { return "is in the data folder, whose files only monkeyshop writes" }
    if let other = dataFolderAround(path) {
      return "is in \(other), a monkeyshop data folder, whose files only monkeyshop writes"
    }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      return errno == ENOENT || errno == ENOTDIR ? nil : "cannot be looked at (\(String(cString: strerror(errno))))"
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a folder (expected a file name, such as \(example))"
    case S_IFLNK: return "is a symbolic link; monkeyshop does not write through it"
    case S_IFIFO: return "is a FIFO, not a regular file"
    case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
    default: return "is not a regular file"
    }
  }

  /// The monkeyshop data folder `path` would be written in, when it is another than the one in use
  /// (its `signing/` and `content/` included): a folder holding a store or a wallet and another of
  /// the files monkeyshop keeps beside them (one `store.json` alone may be anyone's).
  static func dataFolderAround(_ path: String) -> String? {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().resolvingSymlinksInPath()
    for candidate in [folder, folder.deletingLastPathComponent()] {
      let found = ["store.json", "wallet.json", "notifications.jsonl", "record.sqlite", "signing"].filter {
        access(candidate.appendingPathComponent($0).path, F_OK) == 0
      }
      if found.count >= 2, found.contains("store.json") || found.contains("wallet.json") { return candidate.path }
    }
    return nil
  }

  /// The first bytes (up to `count`) of a file already at `path`, for a command to tell whether it
  /// is one it may replace (an earlier report, recording or certificate); nil when there is none
  /// or it is empty. A file that cannot be read is refused: one monkeyshop cannot look into is
  /// never taken for its own.
  public static func existingStart(_ path: String, upTo count: Int) throws(PlaceError) -> Data? {
    guard access(path, F_OK) == 0 else { return nil }
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw PlaceError(
        path: path,
        problem: "cannot be read to tell what it is (\(String(cString: strerror(errno)))); it is left as it is")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    let start = (try? handle.read(upToCount: count)) ?? Data()
    return start.isEmpty ? nil : start
  }

  /// The last bytes (up to `count`) of the file at `path`, for telling whether it ends as a file a
  /// command wrote does; empty when it cannot be read.
  public static func existingEnd(_ path: String, upTo count: Int) -> Data {
    guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd() else { return Data() }
    try? handle.seek(toOffset: end - min(end, UInt64(count)))
    return (try? handle.readToEnd()) ?? Data()
  }

  /// Why a file cannot be written at a path; the message names the path and what is in the way.
  public struct PlaceError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path): \(problem)" }

    public init(path: String, problem: String) {
      self.path = path
      self.problem = problem
    }
  }

  /// Makes `path` ready before anything runs, the one rule for every file a person names for
  /// monkeyshop to write into (`--junit`, `--cast`, `--log-file`): what is in the way is refused
  /// (`obstacle`), the missing folders are created, as `mkdir -p` would, and a file is tried in the
  /// folder, so a place that cannot be written is refused now, not after the run. `example` is a
  /// file name the messages suggest.
  public static func prepare(_ path: String, example: String, dataFolder: DataFolder) throws(PlaceError) {
    if let problem = obstacle(at: path, example: example, dataFolder: dataFolder) {
      throw PlaceError(path: path, problem: problem)
    }
    let folder = folder(of: path)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw PlaceError(path: path, problem: "cannot create the folder \(folder): \(whyNotCreated(folder))")
    }
    // A file is written in the folder (a report is renamed over `path`, a log appended to it): try just that.
    let name = (path as NSString).lastPathComponent
    let probe = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).probe")
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw PlaceError(path: path, problem: "cannot write in the folder \(folder): \(whyNoFile(errno, in: folder))")
    }
    close(descriptor)
    unlink(probe)
  }

  /// Why no file could be created in `folder`, from open(2)'s `code`. ENOENT where the folder is
  /// there means its file system makes no new files (/proc), not that something is missing, as
  /// the system's words ("No such file or directory") would say.
  private static func whyNoFile(_ code: Int32, in folder: String) -> String {
    var info = stat()
    guard code == ENOENT, stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      return String(cString: strerror(code))
    }
    return "it takes no new files (its file system makes none there)"
  }

  /// The first part of `folder` that is a file, or the system's reason.
  private static func whyNotCreated(_ folder: String) -> String {
    var ancestor = folder
    while !ancestor.isEmpty, ancestor != "/" {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isFolder) {
        return isFolder.boolValue ? "\(ancestor) cannot be written to" : "\(ancestor) is a file, not a folder"
      }
      let parent = PathText.folder(of: ancestor)
      if parent == "." || parent == ancestor { break }
      ancestor = parent
    }
    return "the folder cannot be created"
  }

  /// The folder a file at `path` goes in: "." for a bare name.
  public static func folder(of path: String) -> String {
    PathText.folder(of: path)
  }

  /// Why no file can be made in the folder of `path` (it does not exist, or cannot be written
  /// to), or nil.
  public static func folderObstacle(of path: String) -> String? {
    let folder = folder(of: path)
    var info = stat()
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      return "the folder \(folder) does not exist"
    }
    guard access(folder, W_OK) == 0 else {
      return "the folder \(folder) cannot be written to (\(String(cString: strerror(errno))))"
    }
    return nil
  }

  /// Why two outputs of one command cannot be `first` and `second`: they name the same file, so
  /// one would be lost. Nil when they differ.
  public static func clash(_ first: (option: String, path: String), _ second: (option: String, path: String))
    -> String?
  {
    func resolved(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    guard resolved(first.path) == resolved(second.path) else { return nil }
    return "\(first.option) and \(second.option) name the same file, \(first.path): one would be lost"
  }

  /// Why a file could not be written.
  public enum WriteError: Error, Sendable, CustomStringConvertible {
    /// Without `replacing`, something appeared at the path meanwhile; it was kept.
    case exists
    /// Another monkeyshop holds the file at the path as it grows (`isBeingRecorded`); it was kept.
    case recording
    case failed(String)

    public var description: String {
      switch self {
      case .exists: "exists"
      case .recording: "another monkeyshop is recording to it"
      case .failed(let reason): "cannot be written: \(reason)"
      }
    }
  }

  /// write(2), or what a test puts in its place to play a full disk.
  public typealias SystemWrite = (_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int

  /// Starts a file that grows while monkeyshop runs (a recording of the storefront): `bytes` are
  /// written to a new file beside `path` (never through a link), which is then moved over `path`
  /// as `write` does, and left open for appending (`Growing`). From the start `path` holds a whole
  /// file, and each later append is whole or not there at all, so a process killed at any moment
  /// leaves everything appended before.
  ///
  /// The file is held with an exclusive flock(2) from before it is moved into place until it is
  /// closed (the lock stays with the open file, whatever its name), so another monkeyshop sees
  /// it is being recorded (`isBeingRecorded`) and leaves it be: a file that another monkeyshop
  /// is recording at `path` is not replaced (`WriteError.recording`).
  public static func startAppending(_ bytes: Data, to path: String, write: SystemWrite? = nil) throws(WriteError)
    -> Growing
  {
    let temporary = (folder(of: path) as NSString).appendingPathComponent(
      ".\((path as NSString).lastPathComponent).\(getpid()).tmp")
    unlink(temporary)
    let descriptor = open(temporary, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else { throw .failed(String(cString: strerror(errno))) }
    var failure: Int32 = flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
    if failure == 0, !writeAll(descriptor, bytes, using: write ?? systemWrite) { failure = errno }
    var replaced = stat()
    if failure == 0, lstat(path, &replaced) == 0, replaced.st_mode & S_IFMT == S_IFREG,
      fchmod(descriptor, replaced.st_mode & 0o7777) != 0
    {
      failure = errno
    }
    let recorded = failure == 0 && isBeingRecorded(path)
    if failure == 0, !recorded, rename(temporary, path) != 0 { failure = errno }
    guard failure == 0, !recorded else {
      close(descriptor)
      unlink(temporary)
      throw recorded ? .recording : .failed(String(cString: strerror(failure)))
    }
    return Growing(descriptor: descriptor, length: off_t(bytes.count), write: write ?? systemWrite)
  }

  /// Whether another monkeyshop holds the regular file at `path` as it grows (`startAppending`):
  /// it is locked exclusively.
  public static func isBeingRecorded(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
  }

  /// A file `startAppending` began, open for appending (and locked) until closed (or
  /// deinitialised).
  public final class Growing {
    private var descriptor: Int32
    /// How long the file is: the bytes of every append that was written whole.
    private var length: off_t
    private let write: SystemWrite

    init(descriptor: Int32, length: off_t, write: @escaping SystemWrite) {
      self.descriptor = descriptor
      self.length = length
      self.write = write
    }

    deinit { close() }

    /// Appends `bytes` at the end of the file, whole or not at all: when they cannot all be
    /// written (a full disk), the part that was is cut off again, so the file ends where the
    /// last append ended. Not synced (what is written survives the process, not the machine).
    public func append(_ bytes: Data) throws(WriteError) {
      guard descriptor >= 0 else { throw .failed("the file is closed") }
      guard writeAll(descriptor, bytes, using: write) else {
        let reason = String(cString: strerror(errno))
        _ = ftruncate(descriptor, length)
        throw .failed(reason)
      }
      length += off_t(bytes.count)
    }

    public func close() {
      guard descriptor >= 0 else { return }
      _ = closeDescriptor(descriptor)
      descriptor = -1
    }
  }

  /// Writes `bytes` to a new file beside `path` (never through a link), syncs it when `sync`, then
  /// moves it into place: renamed over what is there when `replacing`, else linked, so a file that
  /// appeared at `path` meanwhile is kept (`WriteError.exists`). Nothing is left behind when it
  /// fails.
  public static func write(_ bytes: Data, to path: String, replacing: Bool = true, sync: Bool = true)
    throws(WriteError)
  {
    let temporary = (folder(of: path) as NSString).appendingPathComponent(
      ".\((path as NSString).lastPathComponent).\(getpid()).tmp")
    unlink(temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else { throw .failed(String(cString: strerror(errno))) }
    defer { unlink(temporary) }
    var failure: Int32 = writeAll(descriptor, bytes) ? 0 : errno
    // A file replaced keeps its permissions: a notes file of mode 0600 is not made readable by all.
    var replaced = stat()
    if failure == 0, lstat(path, &replaced) == 0, replaced.st_mode & S_IFMT == S_IFREG,
      fchmod(descriptor, replaced.st_mode & 0o7777) != 0
    {
      failure = errno
    }
    if failure == 0, sync, fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    guard failure == 0 else { throw .failed(String(cString: strerror(failure))) }
    if replacing {
      guard rename(temporary, path) == 0 else { throw .failed(String(cString: strerror(errno))) }
    } else {
      guard link(temporary, path) == 0 else {
        throw errno == EEXIST ? .exists : .failed(String(cString: strerror(errno)))
      }
    }
  }
}

/// close(2), under a name a type's own `close()` does not hide.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.close(descriptor)
  #else
    Darwin.close(descriptor)
  #endif
}
