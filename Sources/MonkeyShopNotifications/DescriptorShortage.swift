import MonkeyShopStorage
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection the sender could not open because this process has no file descriptor left
/// (`EMFILE`: its open-file limit, `ulimit -n`, is reached) or the system has none (`ENFILE`). The
/// want is the sender's own, not the receiver's: no attempt is recorded and none of Apple's retry
/// schedule is used; the notification waits `pause` and is tried again. Apple's `sendAttemptResult`
/// has no value for an attempt that never left the App Store
/// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult): Apple is
/// silent on it, and `SOCKET_ISSUE` would blame a receiver that was never reached.
struct DescriptorShortage: Sendable, Equatable {
  /// `EMFILE` or `ENFILE`.
  let code: Int32

  /// How long a notification that found no descriptor waits before it is tried again.
  static let pause: Duration = .seconds(1)

  /// The shortage `error` reports, from a socket or a name lookup, as SwiftNIO throws it; nil for
  /// any other failure.
  init?(_ error: any Error) {
    guard let code = Self.code(in: error) else { return nil }
    self.code = code
  }

  private static func code(in error: any Error) -> Int32? {
    if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
      return error.errnoCode
    }
    // The data folder, or a file of it, that could not be opened for want of one.
    if let error = error as? DataFileError, let code = error.openingError, code == EMFILE || code == ENFILE {
      return code
    }
    if let error = error as? NIOConnectionError {
      let causes = [error.dnsAError, error.dnsAAAAError].compactMap { $0 } + error.connectionErrors.map(\.error)
      return causes.lazy.compactMap { code(in: $0) }.first
    }
    return nil
  }

  /// Whose descriptors ran out, naming the limit reached.
  private var whose: String {
    code == EMFILE
      ? "this process has no file descriptor left: its limit is \(OpenFileLimit.current) open files"
        + " (`ulimit -n`; raise it before starting monkeyshop server)"
      : "the system has no file descriptor left: every process's open files together reached its"
        + " limit (/proc/sys/fs/file-max)"
  }

  /// What is told on standard error, naming the limit reached.
  func warning(url: String) -> String {
    "notifications: cannot connect to \(url): \(whose); this is not counted as an attempt, and each"
      + " notification waiting is tried again every \(Self.pause.components.seconds) s until one is free"
  }

  /// What is told on standard error when the data folder (its lock file, its notifications) could
  /// not be opened to check or read: the sending is kept, and waits.
  func folderWarning(path: String) -> String {
    "notifications: cannot open the data folder \(path) to check the sending's lock or read what is due: \(whose);"
      + " the sending is kept, not taken for lost, and is tried again every \(Self.pause.components.seconds) s"
      + " until one is free"
  }
}
