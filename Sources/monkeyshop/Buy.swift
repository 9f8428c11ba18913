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
      (see `monkeyshop store set`). Exit status: 0 purchased or deferred, 1 failed, 64 bad \
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
      "Print JSON instead of the event log: outcome, transaction, balance, creditedBy, events (each with an ISO 8601 time), and error when it failed."
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
          exitStatus: .usage)
      }
    } catch let error as UnknownProductError {
      throw Failure.usage(error)
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
    let (line, failure) = report(runtime.model)
    if json {
      printJSON(Self.json(runtime.model, events: log.events, failure: failure))
    } else if let line {
      say(line)
    }
    if let failure { throw failure }
  }

  /// How the purchase ended, from the transaction the store holds: the line to print when it
  /// went through, else the failure to end with. Exit 0 only when it was delivered and finished,
  /// or waits for approval.
  private func report(_ model: ShopModel) -> (line: String?, failure: Failure?) {
    guard let id = model.lastAddedTransactionID else { return (nil, Failure.of(model, "the payment was not added")) }
    guard let transaction = model.store.transaction(id) else {
      return (nil, Failure.of(model, "the purchase did not end"))
    }
    switch transaction.state {
    case .purchased where transaction.finished && model.owned.owns(transaction.productIdentifier):
      let content = model.download(forProduct: transaction.productIdentifier)?.installedAt
      return (
        "purchased: transaction #\(id), \(transaction.productIdentifier) owned"
          + (content.map { ", content in \($0)" } ?? ""), nil
      )
    case .purchased where !transaction.finished && model.download(forProduct: transaction.productIdentifier) != nil:
      let download = model.download(forProduct: transaction.productIdentifier)
      return (
        nil,
        Failure(
          "transaction #\(id): \(transaction.productIdentifier) is owned but its download \(download?.state.description ?? "stopped")"
            + (download?.error.map { " (\($0))" } ?? "")
            + "; the transaction stays unfinished and `monkeyshop launch` downloads it again",
          exitStatus: .failure)
      )
    case .purchased where transaction.finished:
      // Another monkeyshop on the same data folder may have answered, credited or finished it first.
      let how = Self.creditedHere(id, model) ? "" : ", credited by \(Words(.en).anotherMonkeyshop)"
      return ("purchased: transaction #\(id)\(how), balance \(counted(model.balance, "monkey credit"))", nil)
    case .purchased where model.storeKit == .storeKit2 && transaction.failsVerification:
      return (
        nil,
        Failure(
          "transaction #\(id) failed verification (.unverified(invalidSignature)): the app credits nothing and leaves it unfinished",
          exitStatus: .failure)
      )
    case .purchased:
      return (
        nil,
        Failure.of(
          model,
          Self.creditedHere(id, model)
            ? "transaction #\(id) was credited but not finished; it stays unfinished and `monkeyshop launch` finishes it without crediting again"
            : "transaction #\(id) was paid for but not delivered; it stays unfinished and `monkeyshop launch` delivers it"
        )
      )
    case .deferred where model.storeKit == .storeKit2:
      return (
        "pending: Ask to Buy waits for a parent; the app has no transaction yet (the store's payment \(id): monkeyshop store approve \(id))",
        nil
      )
    case .deferred:
      return ("deferred: payment \(id) waits for approval (monkeyshop store approve \(id))", nil)
    case .failed where model.storeKit == .storeKit2 && transaction.failure?.storeKit2Outcome == .pending:
      // What the StoreKit 2 app was given: `.pending`, "The purchase is pending, and requires action
      // from the customer. … If a pending purchase succeeds, StoreKit delivers the resulting
      // Transaction in the transaction updates"
      // (https://developer.apple.com/documentation/storekit/product/purchaseresult/pending). Not a
      // failure: the app was told to wait, as for Ask to Buy.
      return (
        "pending: the App Store interrupted the purchase and it requires action from the customer; the app has no transaction yet (the store's payment \(id): monkeyshop store resolve \(id))",
        nil
      )
    case .failed:
      let failure = transaction.failure ?? .networkLost
      return (
        nil,
        Failure("purchase failed: \(failure.error) (payment \(id))", exitStatus: failure.errorID.exitStatus)
      )
    case .purchasing, .restored:
      return (nil, Failure.of(model, "\(transaction.logName) is still \(transaction.state)"))
    }
  }

  /// Whether this run credited the transaction (not another monkeyshop before it).
  private static func creditedHere(_ id: String, _ model: ShopModel) -> Bool {
    model.log.contains { entry in
      switch entry.event {
      case .delivered(let delivered, _, _), .download(.unlocked(let delivered, _)): delivered == id
      default: false
      }
    }
  }

  /// `--json`: the outcome, the transaction as `store transactions --json` gives it, the balance,
  /// every event of the run, and the error when it failed.
  private static func json(_ model: ShopModel, events: [[String: Any]], failure: Failure?) -> [String: Any] {
    var object: [String: Any] = ["balance": model.balance, "events": events]
    let transaction = model.lastAddedTransactionID.flatMap(model.store.transaction)
    if let transaction {
      object["transaction"] = StoreCommand.Transactions.json(transaction)
      // A StoreKit 2 purchase the App Store interrupted reports no failure: the app saw `.pending`.
      object["outcome"] =
        failure == nil
        ? (transaction.state == .failed ? "pending" : transaction.state.description)
        : transaction.state == .failed ? "failed" : "unfinished"
      if failure == nil, transaction.state == .purchased {
        object["creditedBy"] = creditedHere(transaction.id, model) ? "this command" : "another monkeyshop"
      }
    } else {
      object["outcome"] = "notAdded"
    }
    if let failure {
      object["error"] = ["message": failure.description, "exitStatus": Int(failure.exitStatus.rawValue)]
    }
    return object
  }
}

extension CrashPoint: ExpressibleByArgument {}
