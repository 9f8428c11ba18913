import ArgumentParser

struct MonkeyShop: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "monkeyshop",
    abstract: "A terminal App Store sandbox: buy monkey credits through a simulated StoreKit.",
    discussion: """
      With no subcommand, opens the storefront in the terminal. The subcommands drive the same store \
      and wallet without a screen, for scripts, CI and QA.
      """,
    version: version,
    subcommands: [
      StorefrontCommand.self, LaunchCommand.self, Buy.self, Restore.self, WalletCommand.self, Spend.self,
      StoreCommand.self,
      ServerCommand.self,
      CatalogCommand.self,
      WalkthroughCommand.self,
    ],
    defaultSubcommand: StorefrontCommand.self
  )

  /// What `monkeyshop --version` prints.
  static let version = "0.1.0"
}

/// A request for help on this command line, and the catalog it names, for help computed from it.
enum HelpRequest {
  static var arguments: [String] { Array(CommandLine.arguments.dropFirst()) }

  /// `-h`, `--help` or `help`, as the command-line parser takes them.
  static var isAsked: Bool { arguments.contains { $0 == "-h" || $0 == "--help" || $0 == "help" } }

  /// The catalog the command would sell from: `--catalog PATH` or `--catalog=PATH` on the line,
  /// else the usual places.
  static var catalogPlace: DefaultPlaces {
    var place = DefaultPlaces()
    for (index, argument) in arguments.enumerated() {
      if argument == "--catalog", index + 1 < arguments.count { place.catalog = arguments[index + 1] }
      if argument.hasPrefix("--catalog=") { place.catalog = String(argument.dropFirst("--catalog=".count)) }
    }
    return place
  }
}

/// `monkeyshop` followed by storefront options only: the same command line as `MonkeyShop`, with
/// only the storefront to parse, so a refused option reads exactly as it does there.
struct StorefrontLine: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: MonkeyShop.configuration.commandName,
    subcommands: [StorefrontCommand.self],
    defaultSubcommand: StorefrontCommand.self)
}

@main
enum Launch {
  /// `monkeyshop` opens the storefront straight away: with no arguments nothing is parsed, and with
  /// only storefront options just those are, not the whole tree of subcommands; the command-line
  /// parser's first use costs milliseconds of every first frame. A subcommand or a request for
  /// help goes through the full command line. Either way the arguments are parsed once, and a
  /// refusal is reported once.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.isEmpty {
      do {
        try StorefrontCommand.open(DefaultPlaces(), language: nil)
      } catch {
        exit(StorefrontCommand.self, after: error)
      }
      return
    }
    var names: Set<String> = ["help"]
    for command in MonkeyShop.configuration.subcommands {
      if let name = command.configuration.commandName { names.insert(name) }
    }
    let asksForMore = arguments.contains {
      $0 == "-h" || $0 == "--help" || $0 == "--version" || $0.hasPrefix("--generate-")
        || $0.hasPrefix("--experimental-")
    }
    if let first = arguments.first, names.contains(first) || asksForMore {
      run(
        MonkeyShop.self, arguments,
        refused: { misplacedOptions(inGroup: arguments) ?? StoreCommand.dashedTransaction(arguments) })
    } else {
      run(StorefrontLine.self, arguments, refused: { misplacedOptions(arguments, subcommands: names) })
    }
  }

  /// Parses the arguments as `root` does and runs the command they name; a refused command line
  /// is told as `refused` says it, when it has something better to say than the parser.
  private static func run(
    _ root: any ParsableCommand.Type, _ arguments: [String], refused: () -> String? = { nil }
  ) {
    let command: any ParsableCommand
    do {
      command = try root.parseAsRoot(arguments)
    } catch {
      if let line = refused() {
        Output.warn(line)
        root.exit(withError: ExitCode.validationFailure)
      }
      exit(root, after: error)
    }
    do {
      var command = command
      try command.run()
    } catch {
      exit(root, after: error)
    }
    if let failure = Output.outputFailure { exit(root, after: failure) }
  }

  /// Options put before a subcommand (`monkeyshop --data-dir X store transactions`): each
  /// subcommand takes its own options after its name, so the line that says so gives the command
  /// line corrected. Nil when no subcommand follows the first argument.
  static func misplacedOptions(
    _ arguments: [String], subcommands names: Set<String>, command: [String] = ["monkeyshop"]
  ) -> String? {
    guard let place = arguments.firstIndex(where: names.contains), place > 0 else { return nil }
    let options = arguments[..<place].map(shellWord).joined(separator: " ")
    let corrected = (command + arguments[place...] + arguments[..<place]).map(shellWord)
    return "monkeyshop: \(options) belongs after the subcommand: \(corrected.joined(separator: " "))"
  }

  /// The same within a group of subcommands (`monkeyshop wallet --data-dir X show`).
  static func misplacedOptions(inGroup arguments: [String]) -> String? {
    guard let first = arguments.first else { return nil }
    var names: Set<String> = []
    for group in MonkeyShop.configuration.subcommands where group.configuration.commandName == first {
      for command in group.configuration.subcommands {
        if let name = command.configuration.commandName { names.insert(name) }
      }
    }
    guard !names.isEmpty else { return nil }
    return misplacedOptions(Array(arguments.dropFirst()), subcommands: names, command: ["monkeyshop", first])
  }

  /// The one way a command's error reaches the user, through `Output`: a failure of the shop as
  /// `monkeyshop: message — ID` on standard error, with the exit status its ID calls for; the
  /// parser's own as `exit(withError:)` does it, help (a clean exit) on standard output as the
  /// program wrote it and an error's message escaped on standard error. An error echoes what it
  /// refuses, which may come from a file.
  private static func exit(_ command: any ParsableCommand.Type, after error: Error) -> Never {
    if let failure = Failure.of(error) {
      if !failure.description.isEmpty { Output.warn("monkeyshop: \(failure)") }
      command.exit(withError: ExitCode(failure.exitStatus.rawValue))
    }
    let message = command.fullMessage(for: error)
    let status = command.exitCode(for: error)
    if status == .success {
      if !message.isEmpty { Output.sayVerbatim(message) }
      // Help or the version cut short (a full disk) fails as any command's output does.
      if let failure = Output.outputFailure { exit(command, after: failure) }
    } else if !message.isEmpty {
      Output.warn(message)
    }
    command.exit(withError: ExitCode(status.rawValue))
  }
}
