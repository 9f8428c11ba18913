import ArgumentParser
import Foundation
import MonkeyShopCore

struct WalletCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "wallet", abstract: "Show or reset the wallet of monkey credits.",
    subcommands: [Show.self, Reset.self])

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Print the balance. Works while a storefront is open: it takes no lock.")

    @Flag(help: "Print JSON: {\"balance\": N, \"path\": …}.")
    var json = false

    @OptionGroup var options: ShopOptions

    func run() throws {
      try reporting {
        let folder = options.dataFolder
        let wallet: Wallet
        do {
          wallet = try folder.readWallet()
        } catch {
          throw Failure.data("\(error)")
        }
        if json {
          printJSON(["balance": wallet.balance, "path": folder.walletPath, "schemaVersion": wallet.schemaVersion])
        } else {
          say("\(wallet.balance) monkey credits")
          say("wallet: \(folder.walletPath)")
        }
      }
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset",
      abstract: "Set the balance to 0. Transactions already credited are not credited again.")

    @OptionGroup var options: ShopOptions

    func run() throws {
      try reporting {
        let folder = options.dataFolder
        try options.checkDataFiles(folder)
        let catalog = try options.loadCatalog()
        do {
          try CreditManager(storage: folder, catalog: catalog).reset()
        } catch {
          throw Failure.data("\(error)")
        }
        say("0 monkey credits")
      }
    }
  }
}

struct Spend: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "spend",
    abstract: "Spend monkey credits (feed the monkey); refused when the balance is too low.")

  @Argument(help: "How many credits to spend (1 or more).")
  var credits: Int

  @OptionGroup var options: ShopOptions

  func validate() throws {
    guard credits >= 1 else { throw ValidationError("spend 1 or more credits, not \(credits)") }
  }

  func run() throws {
    try reporting {
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      let catalog = try options.loadCatalog()
      do {
        let balance = try CreditManager(storage: folder, catalog: catalog).spend(credits)
        say("spent \(credits): \(balance) monkey credits left")
      } catch let error as CreditError {
        throw Failure.failed(error.description)
      } catch {
        throw Failure.data("\(error)")
      }
    }
  }
}

/// Prints a JSON value with sorted keys, one object per line for scripts.
func printJSON(_ value: Any) {
  guard
    let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
  else {
    return
  }
  Output.sayJSON(String(decoding: data, as: UTF8.self))
}
