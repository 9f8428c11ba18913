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
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: .en, now: Date(), requestsProducts: false,
      armedCrash: armedCrash, onCrash: { _ in Crash.now() })
    runtime.onLog = { entry in
      say(LogClock.format(entry.time.timeIntervalSince(runtime.model.launchDate)) + "  " + entry.event.text(.storeKit1))
    }
    runtime.start(now: Date())
    return runtime
  }

  /// Sleeps from deadline to deadline while a purchase this run started is in flight.
  static func runWhilePurchasing(_ runtime: ShopRuntime) {
    while !runtime.isFinished, runtime.model.isPurchaseInFlight, let deadline = runtime.nextDeadline {
      let wait = deadline.timeIntervalSinceNow
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      runtime.tick(now: Date())
    }
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
