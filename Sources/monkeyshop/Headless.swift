import Foundation
import MonkeyShopCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Running the storefront's runtime without a screen, on the wall clock.
enum Headless {
  /// Launches the app without a screen on the wall clock, printing its event log as it goes, in
  /// the storefront's lines, times and names. A crash point kills the process, as it would the app.
  static func launch(catalog: Catalog, folder: DataFolder, armedCrash: CrashPoint? = nil) -> ShopRuntime {
    let launchDate = Date()
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: .en, launchDate: launchDate, requestsProducts: false,
      armedCrash: armedCrash, onCrash: { _ in Crash.now() })
    let printer = HeadlessLog(launchDate: launchDate)
    runtime.onLog = { [unowned runtime] entry in
      say(printer.line(for: entry, redelivered: runtime.model.redelivered))
    }
    runtime.start(now: Date())
    return runtime
  }

  /// Sleeps from deadline to deadline while a purchase this run started is in flight.
  static func runWhilePurchasing(_ runtime: ShopRuntime) {
    runtime.runOnWallClock(while: \.isPurchaseInFlight)
  }
}

/// The event log as the headless commands print it: the storefront's lines, times and names.
final class HeadlessLog {
  let launchDate: Date
  /// The transaction of the last delivery that found it already credited.
  private var alreadyCredited: String?

  init(launchDate: Date) { self.launchDate = launchDate }

  /// The line for one entry. `redelivered`: the transactions the queue delivered again at launch.
  func line(for entry: LogEntry, redelivered: Set<String>) -> String {
    var text = entry.event.text(.storeKit1, .en)
    switch entry.event {
    case .alreadyDelivered(let id):
      alreadyCredited = id
    case .note(.creditedBeforeStop):
      // Only a transaction redelivered at launch can have been credited by an app that stopped
      // before finishing it; one this run saw answered was credited by a monkeyshop running now.
      if let id = alreadyCredited, !redelivered.contains(id) {
        text = "  ↳ #\(id) was credited by \(Self.anotherMonkeyshop); finishing it keeps it from coming back"
      }
    default:
      break
    }
    return LogClock.format(entry.time.timeIntervalSince(launchDate)) + "  " + text
  }

  /// Who else delivers from the same data folder.
  static let anotherMonkeyshop = "another monkeyshop (an open storefront or another command)"
}

/// A simulated crash: the process dies at once, as an app killed by the system would.
enum Crash {
  static func now() -> Never {
    fflush(nil)
    kill(getpid(), SIGKILL)
    fatalError("unreachable: SIGKILL was sent")
  }
}
