import Foundation
import HummingbirdCore
import MonkeyShopStorage

/// How many connections the server holds at once: never so many that it runs out of file
/// descriptors. A process out of them fails far from the connections: on Linux, libdispatch (which
/// runs the folder's reads, `Blocking`) reads `/proc/[tid]/stat` to count its busy workers and
/// crashes the process when it cannot open it ("workq: registered worker exited prematurely",
/// `_dispatch_workq_count_runnable_workers` in swift-corelibs-libdispatch's
/// `src/event/workqueue.c`); the notification sender cannot open the folder; and SwiftNIO's accept
/// loop backs off a second at a time while clients wait.
///
/// Hummingbird's way to bound them is its server configuration's `availableConnectionsDelegate`,
/// `MaximumAvailableConnections`: "If we are not accepting connections the requests will be added
/// to the backlog until the server is accepting connections again. If the backlog fills up then
/// the server will start refusing requests" (`ServerConfiguration` in hummingbird-project/hummingbird,
/// `Sources/HummingbirdCore/Server/ServerConfiguration.swift`). The server stops reading its
/// listening socket (no spinning), the kernel holds the next clients in the backlog, and each
/// connection closed lets one more in.
enum ConnectionLimit {
  /// Descriptors kept for what is not a connection: standard streams, the listening socket, the
  /// event loops' epoll and eventfd descriptors, the record's database and its WAL and shared
  /// memory, the notification sender's lock, log and HTTP client, a request's reading of the data
  /// folder, and libdispatch's `/proc` reads. About twenty are open at rest.
  static let reserved = 32

  /// The connections `openFileLimit` descriptors allow: half of what the reserve leaves (a
  /// connection's request briefly opens folder files of its own), at least one.
  static func connections(openFileLimit: Int) -> Int {
    max(1, (openFileLimit - reserved) / 2)
  }

  /// The process's soft limit on open files (`ulimit -n`).
  static var openFileLimit: Int { OpenFileLimit.current }

  /// The delegate that bounds the server's connections by the process's limit.
  static func delegate() -> MaximumAvailableConnections {
    MaximumAvailableConnections(connections(openFileLimit: openFileLimit))
  }
}
