import Foundation
import MonkeyShopCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `MONKEYSHOP_SCREEN_DUMP=FILE`: after each frame, the same frame drawn on the in-memory grid is
/// written to FILE as text, so what the terminal shows (`tmux capture-pane -p`) can be compared
/// with what the storefront meant to draw, cell for cell: evidence for a bug report, and what the
/// end-to-end tests compare.
///
/// FILE is only ever a regular file the dump owns: one that exists and is anything else (a symlink,
/// a FIFO, a device, a folder), or one whose folder does not exist, is refused before the screen
/// opens, so nothing that is not a dump is ever replaced.
struct ScreenDump {
  static let variable = "MONKEYSHOP_SCREEN_DUMP"

  let path: String
  /// Each frame is written here, then renamed over `path`: same folder (rename(2) stays on one
  /// file system), one per process (two storefronts dumping to one FILE do not write into each
  /// other's frame).
  let temporaryPath: String

  /// The dump asked for by the environment; nil when none was. Throws when FILE cannot be used.
  static func fromEnvironment() throws(Terminal.Failure) -> ScreenDump? {
    guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
    return try ScreenDump(path: value)
  }

  init(path: String) throws(Terminal.Failure) {
    if let reason = Self.refusal(of: path) {
      throw .unusableScreenDump(variable: Self.variable, path: path, reason: reason)
    }
    self.path = path
    temporaryPath = "\(path).\(getpid()).partial"
  }

  /// Why `path` cannot be the dump file, or nil when it can.
  static func refusal(of path: String) -> String? {
    var status = stat()
    if lstat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG: return nil
      case S_IFLNK: return "it is a symbolic link, not a regular file"
      case S_IFDIR: return "it is a folder, not a regular file"
      case S_IFIFO: return "it is a FIFO, not a regular file"
      case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
      default: return "it is not a regular file"
      }
    }
    guard errno == ENOENT, !path.hasSuffix("/") else {
      return "it is not a regular file (\(String(cString: strerror(errno))))"
    }
    let folder = (path as NSString).deletingLastPathComponent
    let folderPath = folder.isEmpty ? "." : folder
    var folderStatus = stat()
    guard stat(folderPath, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
      return "its folder \(folderPath) does not exist"
    }
    guard access(folderPath, W_OK) == 0 else { return "its folder \(folderPath) cannot be written" }
    return nil
  }

  /// Writes `text` to the dump file whole: to the temporary file, then renamed over FILE.
  func save(_ text: String) {
    unlink(temporaryPath)
    let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else { return }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      written += count
    }
    close(descriptor)
    guard written == bytes.count, rename(temporaryPath, path) == 0 else {
      unlink(temporaryPath)
      return
    }
  }
}
