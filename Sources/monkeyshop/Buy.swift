import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain

struct Buy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "buy",
    abstract: "Buy a product through the simulated store, as the app would, without a screen.",
    discussion: """
      Launches the app headless: first takes delivery of every unfinished transaction (as the \
      observer does at launch), then requests the product (SKProductsRequest) and, once the App \
      Store has returned it, adds the payment (no payment sheet), waits for the store's answer in \
      real time (latency), credits the wallet and finishes the transaction. A product that comes \
      back in invalidProductIdentifiers, a failed request (network down) or restricted purchases \
      add no payment. Honours the stored conditions \
      (see `monkeyshop store set`). Exit status: 0 purchased (by this command, or credited by another monkeyshop first) or deferred, 1 failed, 64 bad \
      arguments, 65 unreadable or unwritable data (the purchase stays unfinished), 75 another monkeyshop held the data folder too long.
      """)

  @Argument(help: "The product identifier, e.g. com.monkeyshop.credits.10.")
  var productIdentifier: String

  // `.unconditional`: swift-argument-parser otherwise reads `-1` after `--quantity` as an option
  // and says the value is missing; this way validate() says what the number must be.
  @Option(name: .shortAndLong, parsing: .unconditional, help: "Units to buy, 1 to 10 (SKMutablePayment.quantity).")
  var quantity = 1

  @Option(
    help: ArgumentHelp(
      "Die at this point of the delivery, to see the transaction redelivered next launch.",
      valueName: "beforeDelivery|afterDeliveryBeforeFinish"))
  var crash: CrashPoint?

  @Option(
    name: .customLong("app-account-token"),
    help: ArgumentHelp(
      "A UUID tying the purchase to the app's user: StoreKit 2's .appAccountToken(_:) purchase option, StoreKit 1's applicationUsername; the signed transaction's appAccountToken.",
      valueName: "UUID"))
  var appAccountToken: String?

  @Flag(
    help:
      "Print JSON instead of the event log: outcome, transaction (with its jws), balance, creditedBy, events (each with an ISO 8601 time), exitStatus, and error when it failed (docs/json/buy.schema.json)."
  )
  var json = false

  @OptionGroup var storeKit: StoreKitOption
  @OptionGroup var options: ShopOptions

  func validate() throws {
    // "A UUID you create at the time of purchase"
    // (https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken).
    if let appAccountToken, UUID(uuidString: appAccountToken) == nil {
      throw ValidationError(
        "--app-account-token '\(TerminalText.clipped(appAccountToken))' is not a UUID (expected a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138)"
      )
    }
    guard AppStore.quantityLimit.contains(quantity) else {
      throw ValidationError(PaymentError.invalidQuantity(quantity).description)
    }
  }

  func run() throws {
    let catalog = try options.loadCatalog()
    do {
      let product = try catalog.product(productIdentifier, path: options.catalogSource.description)
      if product.isNonConsumable, quantity != 1 {
        throw Failure(
          "--quantity \(quantity): \(productIdentifier) is a non-consumable, bought one at a time (the quantity applies to consumables)",
          .invalidArgument)
      }
    } catch let error as UnknownProductError {
      throw Failure.refusing(error)
    }
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    try storeKit.apply(to: folder, catalog: catalog)
    let log = HeadlessLog(printing: !json)
    let runtime = Headless.launch(catalog: catalog, folder: folder, armedCrash: crash, log: log)
    // Launch gave up waiting for another monkeyshop's lock: the purchase would wait as long again.
    if let failure = runtime.model.lastFailure, failure.errorID == .dataFolderBusy { throw Failure(failure) }
    if let token = appAccountToken.flatMap(UUID.init(uuidString:)) { runtime.send(.setAppAccountToken(token)) }
    runtime.send(.purchase(productIdentifier: productIdentifier, quantity: quantity))
    Headless.runWhilePurchasing(runtime)
    var outcome = BuyOutcome(runtime.model)
    if json {
      outcome.events = log.events
      if let transaction = BuyOutcome.transaction(of: runtime.model) {
        // The transaction as `store transactions --json` gives it, its signed form included. The
        // purchase happened whatever the signing says: a chain that cannot be read is said on
        // standard error, and the outcome (and exit status) stays the purchase's.
        do {
          outcome.transaction?.jws =
            try SignedTransactions.jws(for: [transaction], store: runtime.model.store, options: options)[
              transaction.id]
        } catch {
          Output.warn(
            "monkeyshop: transaction #\(transaction.id) has no jws here: \(Failure.of(error) ?? Failure("\(error)", .unreadableDataFile))"
          )
        }
      }
      try printJSON(outcome)
    } else if let line = outcome.line {
      say(line)
    }
    if let error = outcome.error { throw Failure(error.message, error.errorID) }
  }
}

extension CrashPoint: ExpressibleByArgument {}
