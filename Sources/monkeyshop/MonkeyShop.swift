import ArgumentParser

@main
struct MonkeyShop: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "monkeyshop",
    abstract: "A terminal App Store sandbox: buy monkey credits through a simulated StoreKit.",
    discussion: """
      With no subcommand, opens the storefront in the terminal. The subcommands drive the same store \
      and wallet without a screen, for scripts, CI and QA.
      """,
    subcommands: [
      StorefrontCommand.self, Buy.self, WalletCommand.self, Spend.self, StoreCommand.self, CatalogCommand.self,
      WalkthroughCommand.self,
    ],
    defaultSubcommand: StorefrontCommand.self
  )
}
