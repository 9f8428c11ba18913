import ArgumentParser
import Foundation
import MonkeyShopCore

struct Buy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "buy",
    abstract: "Buy a product through the simulated store, as the app would, without a screen.",
    discussion: """
      Launches the app headless: first takes delivery of every unfinished transaction (as the \
      observer does at launch), then adds the payment, waits for the store's answer in real time \
      (latency), credits the wallet and finishes the transaction. Honours the stored conditions \
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

  @OptionGroup var options: ShopOptions

  func validate() throws {
    guard AppStore.quantityLimit.contains(quantity) else {
      throw ValidationError(PaymentError.invalidQuantity(quantity).description)
    }
  }

  func run() throws {
    let catalog = try options.loadCatalog()
    do {
      _ = try catalog.product(productIdentifier, path: options.catalogSource.description)
    } catch {
      throw Failure.usage(error)
    }
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    let runtime = Headless.launch(catalog: catalog, folder: folder, armedCrash: crash)
    runtime.send(.purchase(productIdentifier: productIdentifier, quantity: quantity))
    Headless.runWhilePurchasing(runtime)
    try report(runtime)
  }

  /// Says how the purchase ended, from the transaction the store holds. Exit 0 only when it was
  /// delivered and finished, or waits for approval.
  private func report(_ runtime: ShopRuntime) throws {
    let model = runtime.model
    guard let id = model.lastAddedTransactionID else { throw Failure.of(model, "the payment was not added") }
    guard let transaction = model.store.transaction(id) else {
      throw Failure.of(model, "the purchase did not end")
    }
    switch transaction.state {
    case .purchased where transaction.finished:
      // Another monkeyshop on the same data folder may have answered, credited or finished it first.
      let creditedHere = model.log.contains { entry in
        if case .delivered(let delivered, _, _) = entry.event { delivered == id } else { false }
      }
      let how = creditedHere ? "" : ", credited by \(HeadlessLog.anotherMonkeyshop)"
      say("purchased: transaction #\(id)\(how), balance \(counted(model.balance, "monkey credit"))")
    case .purchased:
      throw Failure.of(
        model,
        "transaction #\(id) was paid for but not delivered; it stays unfinished and `monkeyshop launch` delivers it")
    case .deferred:
      say("deferred: transaction #\(id) waits for approval (monkeyshop store approve \(id))")
    case .failed:
      let failure = transaction.failure ?? .networkLost
      throw Failure("purchase failed: \(failure.error) (transaction #\(id))", exitStatus: failure.errorID.exitStatus)
    case .purchasing, .restored:
      throw Failure.of(model, "transaction #\(id) is still \(transaction.state)")
    }
  }
}

extension CrashPoint: ExpressibleByArgument {}
