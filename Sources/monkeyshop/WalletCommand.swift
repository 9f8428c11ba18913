import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain

struct WalletCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "wallet", abstract: "Show or reset the wallet of monkey credits.",
    subcommands: [Show.self, Reset.self])

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Print the balance. Works while a storefront is open: it takes no lock.")

    @Flag(
      help:
        "Print JSON: {\"balance\": N, \"owed\": N, \"owned\": [{productIdentifier, transactionID, contentVersion, content, contentPresent}], \"path\": …}; after refunds the balance may be below zero, owed."
    )
    var json = false

    @OptionGroup var options: ShopOptions

    func run() throws {
      let folder = options.dataFolder
      let wallet = try folder.readWallet()
      let owned = try folder.readOwned()
      if json {
        try printJSON(
          WalletReport(
            balance: wallet.balance, owed: wallet.owed, path: folder.walletPath, schemaVersion: wallet.schemaVersion,
            owned: owned.products.map { entry in
              let content = entry.contentVersion != nil
              return WalletReport.Owned(
                productIdentifier: entry.productIdentifier, transactionID: entry.transactionID,
                contentVersion: entry.contentVersion,
                content: content ? folder.contentPath(of: entry.productIdentifier) : nil,
                contentPresent: content ? folder.hasContent(of: entry.productIdentifier) : nil)
            }))
      } else {
        if wallet.owed > 0 {
          say(
            "\(counted(wallet.owed, "monkey credit")) owed: refunds took back credits already spent; "
              + "nothing can be spent until purchases pay them back")
        } else {
          say(counted(wallet.balance, "monkey credit"))
        }
        for entry in owned.products {
          let place = TerminalText.escaped(folder.contentPath(of: entry.productIdentifier))
          let content = entry.contentVersion.map {
            folder.hasContent(of: entry.productIdentifier)
              ? " (content v\($0) in \(place))"
              : " (content v\($0) is missing from \(place): `monkeyshop restore` downloads it again)"
          }
          say("owned: \(TerminalText.escaped(entry.productIdentifier))\(content ?? "")")
        }
        say("wallet: \(TerminalText.escaped(folder.walletPath))")
      }
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset",
      abstract: "Set the balance to 0. Transactions already credited are not credited again.")

    @OptionGroup var options: ShopOptions

    func run() throws {
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      let catalog = try options.loadCatalog()
      try CreditManager(storage: folder, catalog: catalog).reset()
      say("0 monkey credits")
    }
  }
}

struct Spend: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "spend",
    abstract: "Spend monkey credits (feed the monkey); refused when the balance is too low.",
    usage: "monkeyshop spend <credits> [--json] [--catalog <path>] [--data-dir <path>]",
    discussion: """
      Takes the credits from the wallet, as the storefront's spend key does, or refuses when the \
      balance is lower and takes nothing. Exit status: 0 spent, 1 refused (not enough credits, \
      MS-E0010), 64 bad arguments, 65 unreadable or unwritable data, 75 another monkeyshop held \
      the data folder too long.
      """)

  // swift-argument-parser reads `-1` as a short option, never as the value of a positional
  // argument, and says "Missing expected argument"; a single @Argument has no parsing strategy
  // (ArgumentArrayParsingStrategy is for arrays). So the argument is an array that also takes
  // unrecognized dash-prefixed input (`.allUnrecognized`), and validate() wants one whole number.
  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp("How many credits to spend (1 or more).", valueName: "credits"))
  var amount: [String] = []

  /// The number of credits, once validate() has accepted `amount`.
  var credits: Int { amount.first.flatMap { Int($0) } ?? 0 }

  @Flag(
    help:
      "Print JSON instead: outcome (spent, refused, failed), credits, balance (after spending, or the balance that refused it), exitStatus, and error when it did not spend (docs/json/spend.schema.json)."
  )
  var json = false

  @OptionGroup var options: ShopOptions

  func validate() throws {
    guard let text = amount.first else {
      throw ValidationError("say how many credits to spend: a whole number, at least 1")
    }
    guard amount.count == 1 else {
      throw ValidationError("unexpected '\(amount[1])': spend takes one number of credits, at least 1")
    }
    guard let credits = Int(text) else {
      throw ValidationError("'\(text)' is not a number of credits: spend a whole number, at least 1")
    }
    guard credits >= 1 else { throw ValidationError("spend 1 or more credits, not \(credits)") }
  }

  func run() throws {
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    let catalog = try options.loadCatalog()
    let outcome = try SpendOutcome(credits: credits, spendingFrom: CreditManager(storage: folder, catalog: catalog))
    if json {
      try printJSON(outcome)
    } else if let line = outcome.line {
      say(line)
    }
    if let error = outcome.error { throw Failure(error.message, error.errorID) }
  }
}

/// `wallet show --json`: the balance, what is owed, where the wallet is, and each non-consumable
/// owned with its content.
struct WalletReport: Encodable {
  struct Owned: Encodable {
    let productIdentifier: String
    let transactionID: String
    let contentVersion: String?
    let content: String?
    let contentPresent: Bool?
  }

  let balance: Int
  let owed: Int
  let path: String
  let schemaVersion: Int
  let owned: [Owned]
}

/// Prints a `--json` document, through the one encoder (`JSONOutput`). A value that cannot be
/// encoded whole is an error the command ends with, never an empty output and exit 0.
func printJSON(_ value: some Encodable) throws {
  let text: String
  do {
    text = try JSONOutput.text(value)
  } catch {
    throw Failure("the JSON output cannot be made: \(error); nothing was printed", .cannotWriteOutput)
  }
  Output.sayJSON(text)
}
