import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Running the storefront's runtime without a screen, on the wall clock.
enum Headless {
  /// Launches the app without a screen on the wall clock, printing its event log as it goes, in
  /// the storefront's lines, times and names. A crash point kills the process, as it would the app.
  static func launch(
    catalog: Catalog, folder: DataFolder, armedCrash: CrashPoint? = nil, log: HeadlessLog
  ) -> ShopRuntime {
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: .en, launchDate: Date(), requestsProducts: false,
      armedCrash: armedCrash, onCrash: { _ in Crash.now() })
    runtime.onLog = { [unowned runtime] entry in log.record(entry, of: runtime.model) }
    runtime.start(now: Date())
    return runtime
  }

  /// Sleeps from deadline to deadline while a purchase this run started is in flight, then while
  /// its hosted content downloads.
  static func runWhilePurchasing(_ runtime: ShopRuntime) {
    runtime.runOnWallClock(while: { $0.isPurchaseInFlight || $0.isDownloading })
  }

  /// Sleeps from deadline to deadline while hosted content downloads (a launch that redelivered
  /// a non-consumable, a restore).
  static func runWhileDownloading(_ runtime: ShopRuntime) {
    runtime.runOnWallClock(while: \.isDownloading)
  }
}

/// The event log of a headless command: printed line by line as it happens, in the storefront's
/// lines, times and names, or kept as JSON objects for `--json`.
final class HeadlessLog {
  let printing: Bool
  /// The entries as JSON records, when not printing.
  private(set) var events: [LogRecord] = []

  init(printing: Bool) { self.printing = printing }

  func record(_ entry: LogEntry, of model: ShopModel) {
    let text = entry.text(.en)
    if printing {
      say(LogClock.format(from: model.launchDate, to: entry.time) + "  " + text)
    } else {
      events.append(LogRecord(entry, launchDate: model.launchDate, language: .en))
    }
  }
}

/// A simulated crash: the process dies at once, as an app killed by the system would. `telling`:
/// a line for standard error first, where nothing else said it (the shell's own says only
/// `Killed`); a headless command's log has said `CRASH at …` already.
enum Crash {
  static func now(telling line: String? = nil) -> Never {
    fflush(nil)
    if let line { Output.warn(line) }
    kill(getpid(), SIGKILL)
    fatalError("unreachable: SIGKILL was sent")
  }
}
