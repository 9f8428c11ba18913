import Foundation
import MonkeyShopStorage

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
/// opens, so nothing that is not a dump is ever replaced (`OutputFile`). Two storefronts dumping to
/// one FILE each write their own temporary file beside it, named by process.
struct ScreenDump {
  static let variable = "MONKEYSHOP_SCREEN_DUMP"

  let path: String

  /// The dump asked for by the environment; nil when none was. Throws when FILE cannot be used.
  static func fromEnvironment(dataFolder: DataFolder) throws(Terminal.Failure) -> ScreenDump? {
    guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
    return try ScreenDump(path: value, dataFolder: dataFolder)
  }

  init(path: String, dataFolder: DataFolder) throws(Terminal.Failure) {
    if let reason = Self.refusal(of: path, dataFolder: dataFolder) {
      throw .unusableScreenDump(variable: Self.variable, path: path, reason: reason)
    }
    self.path = path
  }

  /// Why `path` cannot be the dump file, or nil when it can (`OutputFile`'s rule).
  static func refusal(of path: String, dataFolder: DataFolder) -> String? {
    OutputFile.obstacle(at: path, example: "screen.txt", dataFolder: dataFolder).map { "it \($0)" }
      ?? OutputFile.folderObstacle(of: path)
  }

  /// Writes `text` to the dump file whole, moved over FILE; a frame that cannot be written is
  /// skipped (the next one tries again). Not synced: a dump is evidence of the screen, not data.
  func save(_ text: String) {
    try? OutputFile.write(Data(text.utf8), to: path, sync: false)
  }
}
