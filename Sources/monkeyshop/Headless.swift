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
  static func launch(
    catalog: Catalog, folder: DataFolder, armedCrash: CrashPoint? = nil, log: HeadlessLog = HeadlessLog()
  ) -> ShopRuntime {
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: .en, launchDate: Date(), requestsProducts: false,
      armedCrash: armedCrash, onCrash: { _ in Crash.now() })
    runtime.onLog = { [unowned runtime] entry in log.record(entry, of: runtime.model) }
    runtime.start(now: Date())
    return runtime
  }

  /// Sleeps from deadline to deadline while a purchase this run started is in flight.
  static func runWhilePurchasing(_ runtime: ShopRuntime) {
    runtime.runOnWallClock(while: \.isPurchaseInFlight)
  }
}

/// The event log of a headless command: printed line by line as it happens, in the storefront's
/// lines, times and names, or kept as JSON objects for `--json`.
final class HeadlessLog {
  let printing: Bool
  /// The entries as JSON objects, when not printing.
  private(set) var events: [[String: Any]] = []
  /// The transaction of the last delivery that found it already credited.
  private var alreadyCredited: String?

  init(printing: Bool = true) { self.printing = printing }

  func record(_ entry: LogEntry, of model: ShopModel) {
    let text = text(for: entry, redelivered: model.redelivered)
    if printing {
      say(LogClock.format(entry.time.timeIntervalSince(model.launchDate)) + "  " + text)
    } else {
      var object = entry.jsonObject(launchDate: model.launchDate, vocabulary: .storeKit1, language: .en)
      object["text"] = text
      events.append(object)
    }
  }

  /// The text of one entry. `redelivered`: the transactions the queue delivered again at launch.
  private func text(for entry: LogEntry, redelivered: Set<String>) -> String {
    switch entry.event {
    case .alreadyDelivered(let id):
      alreadyCredited = id
    case .note(.creditedBeforeStop):
      // Only a transaction redelivered at launch can have been credited by an app that stopped
      // before finishing it; one this run saw answered was credited by a monkeyshop running now.
      if let id = alreadyCredited, !redelivered.contains(id) {
        return "  ↳ #\(id) was credited by \(Self.anotherMonkeyshop); finishing it keeps it from coming back"
      }
    default:
      break
    }
    return entry.event.text(.storeKit1, .en)
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
