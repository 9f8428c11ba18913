import Foundation
import HummingbirdCore
import MonkeyShopStorage
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// The fewest descriptors the server can start with and serve one connection by, counted before
  /// it starts: below them it cannot run at all. SwiftNIO starts its event loops on threads of
  /// their own, and one that cannot make its descriptors stops the process with a trap
  /// (`MultiThreadedEventLoopGroup`: "Unexpected error while running SelectableEventLoop"), which
  /// no caller can catch; a little above, the listening socket cannot be made, and above that
  /// every request fails as it reads the folder. What it needs, beside what is open when it starts:
  /// three for each of SwiftNIO's event loops (its epoll, eventfd and timerfd: `Selector` in
  /// swift-nio's `SelectorEpoll.swift`), one loop for each core; seven for libdispatch (its own
  /// epoll, eventfd and timerfd, the signal sources for SIGINT and SIGTERM, a timer, and its reads
  /// of `/proc`); the listening socket and the notification sender's lock; one
  /// connection and what its request opens of the folder (the folder and a file), and as much for
  /// the notification sender's readings of the folder; and, when the
  /// folder has a record, the record's database, WAL and shared memory, held by the API and by the
  /// sender each. A notification that finds no descriptor waits (`DescriptorShortage`), so the
  /// sender's connections are not counted.
  static func needed(eventLoops: Int, hasRecord: Bool) -> Int {
    3 * eventLoops + 7 + 2 + 3 + 2 + (hasRecord ? 6 : 0)
  }

  /// Nil when `openFileLimit` leaves the server what it needs to start (`needed`) beside the
  /// descriptors open now, with the folder at `folderPath`; otherwise the least limit that does.
  static func shortfall(folderPath: String, openFileLimit: Int = OpenFileLimit.current) -> Int? {
    // Every count here is far below a limit this large: nothing to count.
    let highest: Int32 = 1024
    guard openFileLimit < highest else { return nil }
    let hasRecord = FileManager.default.fileExists(atPath: DataFolder(path: folderPath).recordPath)
    let own = needed(eventLoops: NIOSingletons.groupLoopCountSuggestion, hasRecord: hasRecord)
    // New descriptors take the lowest free numbers below the limit: one open (inherited) at or
    // above it takes no place, one below it does. The least limit is the first that leaves `own`.
    let open = (0..<highest).filter { fcntl($0, F_GETFD) != -1 }
    guard let least = (own...Int(highest)).first(where: { limit in limit - open.count { $0 < limit } >= own }),
      least > openFileLimit
    else { return nil }
    return least
  }
}
