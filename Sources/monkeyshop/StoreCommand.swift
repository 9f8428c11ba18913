import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

struct StoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store",
    abstract: "Apple's side: list transactions, approve or decline Ask to Buy, resolve interruptions, set conditions.",
    subcommands: [
      Transactions.self, Approve.self, Decline.self, Resolve.self, Refund.self, RefundRequest.self,
      RefundDecide.self, RefundReverse.self, SetCondition.self, Show.self, Reset.self, StoreCertificate.self,
      Notifications.self,
    ])

  struct Transactions: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "transactions",
      abstract: "List every transaction ever made: those in the store and those moved to its history.")

    @Flag(
      help:
        "Print JSON: an array of {id (the App Store's number), transactionIdentifier (purchased only), productIdentifier, quantity, state, finished, purchaseDate (ISO 8601), errorDomain, errorCode, errorMessage, errorID where failed, resolvedFromTransactionID for a resolution, appAccountToken where the app passed one, revocationDate (ISO 8601) and revocationReason where refunded, and jws (the signed transaction) where purchased}, oldest first."
    )
    var json = false

    @OptionGroup var options: ShopOptions

    func run() throws {
      // One reading of the store: the list and its signing storefront come from the same state.
      // The history is streamed from the App Store's record, a batch at a time: a listing of a
      // million transactions starts at once and never holds them all.
      let folder = options.dataFolder
      let store = try folder.readStore()
      var printed = 0
      var batch: [StoreTransaction] = []
      func flush() throws {
        if json {
          let jws = try SignedTransactions.jws(for: batch, store: store, options: options)
          for transaction in batch {
            let text = try JSONOutput.text(TransactionReport(transaction, jws: jws[transaction.id]))
            let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            Output.sayJSON((printed == 0 ? "[\n" : ",\n") + indented.joined(separator: "\n"), ending: false)
            printed += 1
          }
        } else {
          for transaction in batch {
            if printed == 0 { say(row("ID", "PRODUCT", "QTY", "STATE", "FINISHED", "NOTE")) }
            say(line(transaction))
            printed += 1
          }
        }
        batch.removeAll(keepingCapacity: true)
      }
      try EveryTransaction.each(in: folder, store: store) { transaction in
        batch.append(transaction)
        if batch.count == 1000 { try flush() }
      }
      try flush()
      if json {
        Output.sayJSON(printed == 0 ? "[\n\n]" : "\n]")
      } else if printed == 0 {
        say("no transactions")
      }
    }

    private func line(_ transaction: StoreTransaction) -> String {
      var note = transaction.failure.map { "\($0.code.label) \($0.errorID)" } ?? ""
      if transaction.hasPurchaseIssue { note += " (interrupted: resolve it)" }
      if let original = transaction.resolvedFromTransactionID { note = "resolves payment \(original)" }
      if let date = transaction.revocationDate, let reason = transaction.revocationReason {
        note = [note, "refunded \(ISO8601.string(from: date)) (\(reason))"].filter { !$0.isEmpty }
          .joined(separator: ", ")
      }
      return row(
        transaction.id, transaction.productIdentifier, "\(transaction.quantity)", "\(transaction.state)",
        transaction.finished ? "yes" : "no", note)
    }

    private func row(_ columns: String...) -> String {
      let widths = [6, 30, 5, 12, 10]
      return zip(columns, widths + [0]).map { column, width in
        width == 0 ? column : column.padding(toLength: max(width, column.count + 1), withPad: " ", startingAt: 0)
      }.joined()
    }
  }

  struct Approve: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "approve",
      abstract: "A parent approves an Ask to Buy request: the deferred transaction is purchased.",
      discussion: "The app takes delivery at its next launch, or at once if a storefront is open.")
    @Argument(help: "A transaction id, or `last` for the newest deferred one.") var transaction: String
    @OptionGroup var options: ShopOptions
    func run() throws {
      let (done, _) = try changeStore(options) { store, now in try store.approve(transaction, at: now) }
      say("approved: payment \(done.id) is \(done.state)")
    }
  }

  struct Decline: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "decline",
      abstract: "A parent declines an Ask to Buy request: the deferred transaction fails.")
    @Argument(help: "A transaction id, or `last` for the newest deferred one.") var transaction: String
    @OptionGroup var options: ShopOptions
    func run() throws {
      let (done, _) = try changeStore(options) { store, _ in try store.decline(transaction) }
      // The app sees the decline as a failed payment with SKErrorDomain 2 (paymentCancelled).
      let code = done.failure.map { " with \($0.code.label)" } ?? ""
      say("declined: payment \(done.id) failed\(code)")
    }
  }

  struct Resolve: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "resolve",
      abstract: "Resolve an interrupted purchase: the store sends a new purchased transaction.")
    @Argument(help: "A transaction id, or `last` for the newest interrupted one.") var transaction: String
    @OptionGroup var options: ShopOptions
    func run() throws {
      let (done, _) = try changeStore(options) { store, now in try store.resolve(transaction, at: now) }
      say("resolved: the store sends a new payment, payment \(done.id), for the app to receive as purchased")
    }
  }

  struct SetCondition: ParsableCommand {
    /// Made once, when the parser first asks (it asks several times per run): asked for help, it
    /// names the storefronts the catalog the command line would use prices (the others are
    /// refused), and that catalog.
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change a condition or a setting of the simulated store.",
      discussion: "Conditions and their values:\n"
        + Condition.allCases.map {
          "  \($0.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0))\(values($0))"
        }
        .joined(separator: "\n")
        + "\nSettings (App Store Connect's; store reset keeps them):\n"
        + StoreSetting.allCases.map {
          "  \($0.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0))\($0.values)"
        }
        .joined(separator: "\n"))

    private static func values(_ condition: Condition) -> String {
      guard condition == .storefront else { return condition.values }
      // The parser reads every command's configuration on every run: the catalog is read only
      // for the help, where its prices are shown.
      guard HelpRequest.isAsked else { return "a storefront your catalog prices (see --help)" }
      let place = HelpRequest.catalogPlace
      let below = "\n" + String(repeating: " ", count: 30)
      let source = place.catalogSource.path ?? "the shipped catalog"
      guard let catalog = try? place.loadCatalog() else {
        return "a storefront your catalog prices\(below)(\(source) cannot be read)"
      }
      return condition.choices(catalog).joined(separator: "|") + "\(below)(priced in \(source))"
    }
    @Argument(help: "The condition or setting, e.g. network, notificationURL.", transform: SettingName.named)
    var condition: SettingName
    @Argument(help: "Its value, from the condition's list below: network down, latency slow, askToBuy on.")
    var value: String
    @OptionGroup var options: ShopOptions
    func run() throws {
      let condition: Condition
      switch self.condition {
      case .condition(let named): condition = named
      case .setting(let setting):
        let (_, store) = try changeStore(options) { store, _ in try setting.set(value, in: &store.state) }
        say("\(setting) = \(setting.value(in: store.state))")
        return
      }
      let (_, store) = try changeStore(options) { store, now in try store.set(condition, to: value, at: now) }
      let current = condition.value(in: store.state.conditions, defaultStorefront: store.catalog.defaultStorefront)
      // A forced error by its number and its name, as the conditions bar shows it: `2 paymentCancelled`.
      say("\(condition) = \([.failNext, .failAll].contains(condition) ? condition.shown(current, in: .en) : current)")
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print every condition of the store.")
    @Flag(
      help:
        "Print JSON: {conditions: {name: value}, settings: {name: value}, transactions, deferred, purchasing, awaitingFinish, catalog, at (ISO 8601)}, values as store set takes them."
    )
    var json = false
    @OptionGroup var options: ShopOptions
    func run() throws {
      let store = try options.dataFolder.readStore()
      let catalog = try options.loadCatalog()
      let values = Condition.allCases.map { condition in
        (condition, condition.value(in: store.conditions, defaultStorefront: catalog.defaultStorefront))
      }
      let settings = StoreSetting.allCases.map { ($0, $0.value(in: store)) }
      guard json else {
        for (condition, value) in values {
          say("\(condition.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0))\(value)")
        }
        for (setting, value) in settings {
          say("\(setting.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0))\(value)")
        }
        // What a developer's server told the App Store through `monkeyshop server` (docs/server.md).
        for report in try options.dataFolder.readConsumptionReports().reports {
          say("\(report.logLine) \(ISO8601.string(from: report.received)) (\(report.endpoint))")
        }
        return
      }
      try printJSON(
        StoreReport(
          conditions: Dictionary(uniqueKeysWithValues: values.map { ($0.rawValue, $1) }),
          settings: Dictionary(uniqueKeysWithValues: settings.map { ($0.rawValue, $1) }),
          transactions: store.transactions.count, catalog: options.catalogSource.description,
          at: ISO8601.string(from: Date()), waiting: Waiting(store)))
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset",
      abstract:
        "Set every condition back to its default and empty the payment queue but for transactions paid for and not yet delivered. The history keeps every transaction; the wallet stays."
    )
    @OptionGroup var options: ShopOptions
    func run() throws {
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      let catalog = try options.loadCatalog()
      // Only the store is written: the wallet keeps every transaction it credited, so an
      // unfinished one is never credited again.
      let (kept, _) = try folder.changeStore(catalog: catalog) { store in store.reset(at: Date()) }
      if !kept.isEmpty {
        let ids = kept.map(\.logName).joined(separator: ", ")
        say("kept \(ids): paid for and not yet delivered; the app delivers them at its next launch")
      }
      say("store reset: default conditions, the queue emptied; the history keeps every transaction")
    }
  }
}

/// `store show --json`: every condition as `store set` takes it, what the store holds and what has
/// not ended (as `launch --json` counts it), the catalog in use and when it was read.
struct StoreReport: Encodable {
  let conditions: [String: String]
  let settings: [String: String]
  let transactions: Int
  let catalog: String
  let at: String
  let waiting: Waiting

  private enum CodingKeys: String, CodingKey {
    case conditions, settings, transactions, catalog, at, deferred, purchasing, awaitingFinish
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(conditions, forKey: .conditions)
    try container.encode(settings, forKey: .settings)
    try container.encode(transactions, forKey: .transactions)
    try container.encode(catalog, forKey: .catalog)
    try container.encode(at, forKey: .at)
    try container.encode(waiting.deferred, forKey: .deferred)
    try container.encode(waiting.purchasing, forKey: .purchasing)
    try container.encode(waiting.awaitingFinish, forKey: .awaitingFinish)
  }
}

/// One locked change of the store. Returns the result and the store as written.
func changeStore<Result>(
  _ options: ShopOptions, _ body: (inout AppStore, Date) throws -> Result
) throws -> (result: Result, store: AppStore) {
  let folder = options.dataFolder
  try options.checkDataFiles(folder)
  let catalog = try options.loadCatalog()
  let now = Date()
  let (result, state) = try folder.changeStore(catalog: catalog) { try body(&$0, now) }
  return (result, AppStore(state: state, catalog: catalog))
}

/// `store set CONDITION`: `--help` and shell completion list every condition.
extension Condition: ExpressibleByArgument {}

/// What `store set` sets: a condition, or a setting of another kind (`StoreSetting`).
enum SettingName: ExpressibleByArgument {
  case condition(Condition)
  case setting(StoreSetting)

  init?(argument: String) {
    if let condition = Condition(rawValue: argument) {
      self = .condition(condition)
    } else if let setting = StoreSetting(rawValue: argument) {
      self = .setting(setting)
    } else {
      return nil
    }
  }

  static var allValueStrings: [String] {
    Condition.allCases.map(\.rawValue) + StoreSetting.allCases.map(\.rawValue)
  }

  /// The condition or setting a name names; a misspelt one is refused with the name it may be, as a
  /// walkthrough's are.
  static func named(_ name: String) throws -> SettingName {
    if let named = SettingName(argument: name) { return named }
    throw ValidationError(
      "unknown condition or setting '\(name)'\(DidYouMean.suggestion(name, allValueStrings)) (expected one of \(allValueStrings.joined(separator: ", ")))"
    )
  }
}

/// A store operation on one transaction, named by its id or `last`.
protocol NamesATransaction: ParsableCommand {}

extension StoreCommand {
  /// `store approve -1`: the command-line parser takes `-1` for an option and says the transaction
  /// is missing. No store operation has an option spelled as a number, so the line says what `-1`
  /// is not; `store approve -- -1` reaches the store, which says the same.
  static func dashedTransaction(_ arguments: [String]) -> String? {
    guard arguments.first == "store", arguments.count > 2,
      let command = configuration.subcommands.first(where: { $0.configuration.commandName == arguments[1] }),
      command is any NamesATransaction.Type,
      let dashed = arguments.dropFirst(2).first(where: {
        $0.count > 1 && $0.hasPrefix("-") && $0.utf8.dropFirst().allSatisfy { (48...57).contains($0) }
      })
    else { return nil }
    return "monkeyshop: " + TransactionError.unknown(dashed).message
  }
}
