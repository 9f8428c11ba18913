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
    if let error = error as? NIOConnectionError {
      let causes = [error.dnsAError, error.dnsAAAAError].compactMap { $0 } + error.connectionErrors.map(\.error)
      return causes.lazy.compactMap { code(in: $0) }.first
    }
    return nil
  }

  /// What is told on standard error, naming the limit reached.
  func warning(url: String) -> String {
    let whose =
      code == EMFILE
      ? "this process has no file descriptor left: its limit is \(OpenFileLimit.current) open files"
        + " (`ulimit -n`; raise it before starting monkeyshop server)"
      : "the system has no file descriptor left: every process's open files together reached its"
        + " limit (/proc/sys/fs/file-max)"
    return
      "notifications: cannot connect to \(url): \(whose); this is not counted as an attempt, and each"
      + " notification waiting is tried again every \(Self.pause.components.seconds) s until one is free"
  }
}
