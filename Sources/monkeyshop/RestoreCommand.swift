import ArgumentParser
import MonkeyShopApp
import MonkeyShopDomain

/// `monkeyshop restore`: Restore Purchases, as the storefront's `o` key does.
struct Restore: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Restore Purchases, as the app's button would, without a screen.",
    discussion: """
      StoreKit 1: restoreCompletedTransactions(), then paymentQueueRestoreCompletedTransactionsFinished(_:). \
      StoreKit 2: AppStore.sync(), then Transaction.currentEntitlements. Consumables are never \
      restored; non-consumables come back, and StoreKit 1 downloads their hosted content again \
      before the command ends. Prints the event log, then how many purchases came back. Exit \
      status: 0 restored (every restored transaction finished), 1 failed (network down) or a restored \
      transaction left unfinished (its content did not download), 65 unreadable data, 75 another \
      monkeyshop held the data folder too long.
      """)

  @Flag(
    help:
      "Print JSON instead of the event log: outcome, storeKit, restored (transactionIdentifier, originalTransactionIdentifier for StoreKit 1, productIdentifier, finished, content), balance, events, exitStatus, and error when it failed (docs/json/restore.schema.json)."
  )
  var json = false

  @OptionGroup var storeKit: StoreKitOption
  @OptionGroup var options: ShopOptions

  func run() throws {
    let catalog = try options.loadCatalog()
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    try storeKit.apply(to: folder, catalog: catalog)
    let log = HeadlessLog(printing: !json)
    let runtime = Headless.launch(catalog: catalog, folder: folder, log: log)
    runtime.send(.restore)
    Headless.runWhileDownloading(runtime)
    var outcome = RestoreOutcome(runtime.model)
    if json {
      outcome.events = log.events
      try printJSON(outcome)
    } else if let line = outcome.line {
      say(line)
    }
    if let error = outcome.error { throw Failure(error.message, error.errorID) }
  }
}
