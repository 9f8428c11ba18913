import ArgumentParser

struct MonkeyShop: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "monkeyshop",
    abstract: "A terminal App Store sandbox: buy monkey credits through a simulated StoreKit.",
    discussion: """
      With no subcommand, opens the storefront in the terminal. The subcommands drive the same store \
      and wallet without a screen, for scripts, CI and QA.
      """,
    subcommands: [
      StorefrontCommand.self, LaunchCommand.self, Buy.self, WalletCommand.self, Spend.self, StoreCommand.self,
      CatalogCommand.self,
      WalkthroughCommand.self,
    ],
    defaultSubcommand: StorefrontCommand.self
  )
}

@main
enum Launch {
  /// `monkeyshop` opens the storefront straight away: with no arguments nothing is parsed, and with
  /// only storefront options just those are, not the whole tree of subcommands; the command-line
  /// parser's first use costs milliseconds of every first frame. Anything else (a subcommand, help,
  /// a mistake) goes through the full command line.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.isEmpty {
      do {
        try StorefrontCommand.open(DefaultPlaces(), lang: nil)
      } catch {
        StorefrontCommand.exit(withError: error)
      }
      return
    }
    var names: Set<String> = ["help"]
    for command in MonkeyShop.configuration.subcommands {
      if let name = command.configuration.commandName { names.insert(name) }
    }
    let asksForMore = arguments.contains { $0 == "-h" || $0 == "--help" || $0.hasPrefix("--generate-") }
    if let first = arguments.first, names.contains(first) || asksForMore {
      MonkeyShop.main()
    } else if let storefront = try? StorefrontCommand.parse(arguments) {
      do {
        try storefront.run()
      } catch {
        StorefrontCommand.exit(withError: error)
      }
    } else {
      MonkeyShop.main()
    }
  }
}
