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
    runtime.onLog = { entry in
      say(LogClock.format(entry.time.timeIntervalSince(launchDate)) + "  " + entry.event.text(.storeKit1, .en))
    }
    runtime.start(now: Date())
    return runtime
  }

  /// Sleeps from deadline to deadline while a purchase this run started is in flight.
  static func runWhilePurchasing(_ runtime: ShopRuntime) {
    runtime.runOnWallClock(while: \.isPurchaseInFlight)
  }
}

/// A simulated crash: the process dies at once, as an app killed by the system would.
enum Crash {
  static func now() -> Never {
    fflush(nil)
    kill(getpid(), SIGKILL)
    fatalError("unreachable: SIGKILL was sent")
  }
}
