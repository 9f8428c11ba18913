import Foundation

/// Tells the event loop when files in the app's data folder change: another monkeyshop wrote the
/// wallet or the store (a purchase, `store approve` in a second terminal), so the storefront shows
/// it without a key press. On Linux the kernel says so through inotify, and an idle storefront
/// sleeps with no timeout; elsewhere (macOS), and on Linux with `MONKEYSHOP_FOLDER_WATCH=poll`, the
/// folder is looked at four times a second (`PollingFolderWatch`; docs/architecture.md).
final class FolderWatch {
  enum Method: Equatable, Sendable {
    case inotify
    case polling
  }

  /// The environment variable that forces a method: `poll`; anything else leaves the default.
  static let environmentVariable = "MONKEYSHOP_FOLDER_WATCH"

  /// Inotify on Linux unless the environment asks for polling; polling everywhere else.
  static func method(environment: [String: String]) -> Method {
    #if os(Linux)
      environment[environmentVariable] == "poll" ? .polling : .inotify
    #else
      .polling
    #endif
  }

  private enum Backend {
    #if os(Linux)
      case inotify(InotifyFolderWatch)
    #endif
    case polling(PollingFolderWatch)
  }

  private let backend: Backend

  /// Nil when there is no folder to watch (or inotify cannot be had, where it is the method).
  init?(path: String?, environment: [String: String]) {
    guard let path, !path.isEmpty else { return nil }
    switch Self.method(environment: environment) {
    case .inotify:
      #if os(Linux)
        guard let watch = InotifyFolderWatch(path: path) else { return nil }
        backend = .inotify(watch)
      #else
        return nil
      #endif
    case .polling:
      backend = .polling(PollingFolderWatch(path: path))
    }
  }

  var method: Method {
    switch backend {
    #if os(Linux)
      case .inotify: .inotify
    #endif
    case .polling: .polling
    }
  }

  /// A descriptor for poll(2) that becomes readable when the folder changes; nil when polling.
  var pollDescriptor: Int32? {
    switch backend {
    #if os(Linux)
      case .inotify(let watch): watch.pollDescriptor
    #endif
    case .polling: nil
    }
  }

  /// The poll(2) timeout for a loop that would otherwise wait `timeout` milliseconds (-1: forever):
  /// no longer than until the next look at the folder when polling.
  func timeout(limiting timeout: Int32) -> Int32 {
    switch backend {
    #if os(Linux)
      case .inotify: return timeout
    #endif
    case .polling(let watch):
      let limit = watch.sleepLimit()
      return timeout < 0 ? limit : min(timeout, limit)
    }
  }

  /// After a wake-up (`descriptorReady`: poll reported the descriptor): true when the folder
  /// changed, appeared or vanished since the last call.
  func changed(descriptorReady: Bool) -> Bool {
    switch backend {
    #if os(Linux)
      case .inotify(let watch):
        let changed = descriptorReady && watch.drain()
        // retry(): the folder may have appeared since the last wake-up.
        return watch.retry() || changed
    #endif
    case .polling(let watch):
      return watch.changed()
    }
  }
}
