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
      finished. Prints the event log, then each transaction taken (ID, product, credits, how it \
      arrived), and a summary: the balance, and what still waits (deferred, purchasing, paid for \
      or failed but not finished). Exit status: 0 delivered or nothing waiting, 1 a delivery failed, 65 \
      unreadable data, 75 another monkeyshop held the data folder too long.
      """)

  @Flag(
    help:
      "Print JSON instead: taken (payment, transactionIdentifier unless failed, productIdentifier, credits, arrival, resolvedFromTransactionID for a resolution, content for a non-consumable's content unpacked), balance, deferred, purchasing, awaitingFinish, events."
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
    let model = runtime.model
    let taken = Taken.all(in: model)
    let waiting = Waiting(model.store)
    if json {
      printJSON(
        [
          "taken": taken.map(\.json), "balance": model.balance, "events": log.events,
        ].merging(waiting.json) { $1 })
    } else {
      for transaction in taken { say(transaction.line) }
      say(Self.summary(taken, waiting, balance: model.balance))
    }
    if model.lastFailure != nil { throw Failure.of(model, "a delivery failed") }
  }

  private static func summary(_ taken: [Taken], _ waiting: Waiting, balance: Int) -> String {
    let credited = taken.filter { $0.credits > 0 }.count
    let unlocked = taken.filter { $0.arrival == .unlocked }.count
    let done =
      taken.isEmpty
      ? "nothing was waiting"
      : "\(credited) credited, "
        + (unlocked > 0 ? "\(unlocked) unlocked, " : "") + "\(taken.count - credited - unlocked) only finished"
    var parts = ["balance \(counted(balance, "monkey credit"))", done]
    parts.append(
      "still waiting: \(waiting.deferred) deferred (Ask to Buy), \(waiting.purchasing) purchasing, "
        + "\(waiting.awaitingFinish) to finish")
    return parts.joined(separator: "; ")
  }
}

/// What the store holds for the app and has not ended: after a launch, and in `store show`.
struct Waiting {
  let deferred: Int
  let purchasing: Int
  /// Purchased or failed and not finished: what a delivery failure left behind.
  let awaitingFinish: Int

  init(_ store: StoreState) {
    deferred = store.transactions.filter { $0.state == .deferred }.count
    purchasing = store.transactions.filter { $0.state == .purchasing }.count
    awaitingFinish = store.unfinished.count
  }

  var json: [String: Any] { ["deferred": deferred, "purchasing": purchasing, "awaitingFinish": awaitingFinish] }
}

/// One transaction this launch took from the queue and finished.
private struct Taken {
  /// The App Store's number for the payment.
  let id: String
  /// The app's `transactionIdentifier`: nil for a failed payment.
  let transactionIdentifier: String?
  let productIdentifier: String
  /// What this launch credited: 0 when it was credited already, or failed.
  let credits: Int
  let arrival: Arrival
  /// For a resolution: the interrupted purchase it resolves.
  let resolves: String?
  /// For a non-consumable: where this launch unpacked its content, if it did.
  let content: String?

  enum Arrival: String {
    /// The purchase resolving an interrupted one.
    case resolution
    /// Paid for and not delivered: an Ask to Buy approved, or a purchase whose app stopped
    /// before delivering it (the store keeps no mark of which).
    case awaitingDelivery
    /// Credited before, by an app that stopped before finishing it or by another monkeyshop.
    case alreadyCredited
    /// A failed transaction (a declined Ask to Buy, a cancel, an error) left unfinished.
    case failed
    /// A non-consumable unlocked now: paid for (or restored) and not delivered before.
    case unlocked
    /// A non-consumable the app owned already (an app stopped before finishing it): only its
    /// content downloaded again and the transaction finished.
    case alreadyOwned

    var text: String {
      switch self {
      case .resolution: "resolution"
      case .awaitingDelivery: "an approved Ask to Buy, or a purchase an app stopped before delivering"
      case .alreadyCredited: "credited before an app stopped, or by another monkeyshop: only finished now"
      case .failed: "failed, only finished now"
      case .unlocked: "a non-consumable unlocked now, no credits"
      case .alreadyOwned: "a non-consumable unlocked before an app stopped, no credits: finished now"
      }
    }
  }

  /// The transactions the launch finished, in the order it finished them.
  static func all(in model: ShopModel) -> [Taken] {
    var credited: [String: Int] = [:]
    var unlocked: [String: Bool] = [:]
    var content: [String: String] = [:]
    var taken: [Taken] = []
    for entry in model.log {
      switch entry.event {
      case .delivered(let id, let credits, _):
        credited[id] = credits
      case .download(.unlocked(let id, _)):
        unlocked[id] = true
      case .download(.alreadyOwned(let id, _)):
        unlocked[id] = false
      case .download(.installed(let id, let path)):
        content[id] = path
      case .finished(let finished):
        let id = finished.id
        guard let transaction = model.store.transaction(id) else { continue }
        let arrival: Arrival
        if transaction.state == .failed {
          arrival = .failed
        } else if let now = unlocked[id] {
          arrival = now ? .unlocked : .alreadyOwned
        } else if transaction.resolvedFromTransactionID != nil {
          arrival = .resolution
        } else if credited[id] == nil {
          arrival = .alreadyCredited
        } else {
          arrival = .awaitingDelivery
        }
        taken.append(
          Taken(
            id: id, transactionIdentifier: transaction.transactionIdentifier,
            productIdentifier: transaction.productIdentifier, credits: credited[id] ?? 0, arrival: arrival,
            resolves: transaction.resolvedFromTransactionID, content: content[id]))
      default:
        continue
      }
    }
    return taken
  }

  var name: String { StoreTransaction.logName(id, identified: transactionIdentifier != nil) }

  var line: String {
    let what: String
    switch arrival {
    case .failed, .alreadyCredited, .alreadyOwned: what = "finished \(name)"
    case .resolution, .awaitingDelivery, .unlocked: what = "delivered \(name)"
    }
    let credit = credits > 0 ? "  +\(counted(credits, "credit"))" : ""
    var how = resolves.map { "resolves interrupted payment \($0)" } ?? arrival.text
    if let content { how += "; content downloaded to \(TerminalText.escaped(content))" }
    return "\(what)  \(productIdentifier)\(credit)  (\(how))"
  }

  var json: [String: Any] {
    var object: [String: Any] = [
      "payment": id, "productIdentifier": productIdentifier, "credits": credits, "arrival": arrival.rawValue,
    ]
    if let transactionIdentifier { object["transactionIdentifier"] = transactionIdentifier }
    if let resolves { object["resolvedFromTransactionID"] = resolves }
    if let content { object["content"] = content }
    return object
  }
}
