import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The portable folder watch, for systems without inotify (macOS) or when asked for
/// (`MONKEYSHOP_FOLDER_WATCH=poll`): every `interval` the event loop wakes up and compares what the
/// folder holds — each entry's name, inode, size, modification and change time, and the folder's
/// own — with what it held the last time. monkeyshop replaces a file by renaming a new one over it,
/// so every write gives the entry a new inode and change time.
///
/// What it costs: the loop can no longer sleep with no timeout while nothing is pending; it wakes
/// four times a second and makes one `lstat` per entry of the folder (about ten), measured in
/// docs/performance.md. A change shows within `interval`. Between two looks the folder may change
/// and change back to the same names, inodes, sizes and times only if two writes fall within one
/// tick of the kernel's file clock and reuse an inode; the next change is then the one seen.
final class PollingFolderWatch {
  /// How often the folder is looked at.
  static let interval: Duration = .milliseconds(250)

  private let path: String
  private let every: Duration
  private let clock = ContinuousClock()
  private var seen: FolderState?
  private var nextLook: ContinuousClock.Instant

  init(path: String, every: Duration = interval) {
    self.path = path
    self.every = every
    seen = FolderState(path: path)
    nextLook = clock.now + every
  }

  /// Milliseconds the loop may sleep before the next look (0 when it is due).
  func sleepLimit() -> Int32 {
    let left = nextLook - clock.now
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
  }

  /// Looks at the folder when a look is due; true when it changed (appeared, vanished, or a file
  /// in it was written, created, renamed or removed) since the last look. A wake-up before the
  /// look is due (a key) costs nothing.
  func changed() -> Bool {
    let now = clock.now
    guard now >= nextLook else { return false }
    nextLook = now + every
    return look()
  }

  /// Looks now, whenever the last look was; true when the folder changed since it.
  func look() -> Bool {
    let state = FolderState(path: path)
    defer { seen = state }
    return state != seen
  }
}

/// What a look at a folder found: nil for a folder that is not there.
struct FolderState: Equatable {
  struct Entry: Equatable {
    var name: String
    var file: FileState
  }

  var folder: FileState
  var entries: [Entry]

  init?(path: String) {
    guard let folder = FileState(path: path),
      let names = try? FileManager.default.contentsOfDirectory(atPath: path)
    else { return nil }
    self.folder = folder
    // A file removed between the listing and its lstat is left out: the folder's own times say so.
    entries = names.sorted().compactMap { name in
      FileState(path: path + "/" + name).map { Entry(name: name, file: $0) }
    }
  }
}

/// One file's identity and times, as `lstat` gives them (a link is not followed).
struct FileState: Equatable {
  var inode: UInt64
  var size: Int64
  var modified: timespec
  var changed: timespec

  init?(path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = info.st_mtimespec
      changed = info.st_ctimespec
    #else
      modified = info.st_mtim
      changed = info.st_ctim
    #endif
  }

  static func == (a: FileState, b: FileState) -> Bool {
    a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
      && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec
      && a.changed.tv_nsec == b.changed.tv_nsec
  }
}
