import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain

struct LaunchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "launch",
    abstract: "Launch the app without a screen: take delivery of what is waiting, print it, exit.",
    discussion: """
      The app adds its transaction observer, as at every launch, and the queue delivers every \
      unfinished transaction again: a purchase paid for but not finished (a crash, a kill), an Ask \
      to Buy approved or an interrupted purchase resolved from another terminal. Each is credited \
      once and finished; a non-consumable is unlocked once, its content downloaded again, then \
      finished. A refund made while the app was not running is taken back (StoreKit 2). Prints the \
      event log, then each transaction taken (ID, product, credits, how it arrived) and each refund \
      taken back, and a summary: the balance, and what still waits (deferred, purchasing, paid for \
      or failed but not finished). Exit status: 0 delivered or nothing waiting, 1 a delivery failed, 65 \
      unreadable data, 75 another monkeyshop held the data folder too long.
      """)

  @Flag(
    help:
      "Print JSON instead: taken (payment, transactionIdentifier unless failed, productIdentifier, credits, arrival, resolvedFromTransactionID for a resolution, content for a non-consumable's content unpacked), tookBack (payment, productIdentifier, credits, balance, revocationReason: each refund taken back), balance, deferred, purchasing, awaitingFinish, events, exitStatus (docs/json/launch.schema.json)."
  )
  var json = false

  @OptionGroup var options: ShopOptions

  func run() throws {
    let catalog = try options.loadCatalog()
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    let log = HeadlessLog(printing: !json)
    let runtime = Headless.launch(catalog: catalog, folder: folder, log: log)
    // A non-consumable redelivered at launch downloads its content again before it is finished.
    Headless.runWhileDownloading(runtime)
    var outcome = LaunchOutcome(runtime.model)
    if json {
      outcome.events = log.events
      try printJSON(outcome)
    } else {
      for line in outcome.lines { say(line) }
    }
    if let error = outcome.error { throw Failure(error.message, error.errorID) }
  }
}
