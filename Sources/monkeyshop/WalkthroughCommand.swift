import ArgumentParser
import Foundation
import MonkeyShopCore
import MonkeyShopTerminal

struct WalkthroughCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "walkthrough",
    abstract: "Run walkthroughs: scripted purchase paths, checked on the real storefront, headless, in virtual time.",
    discussion: """
      A walkthrough (YAML, see the README) drives the storefront's own model on an \
      in-memory screen and store, with a manual clock: it checks what a person would see, and \
      minutes of store latency cost milliseconds. The transcript shows each step, the StoreKit \
      events it caused, snapshots and every expectation. Files are all checked before any runs. Walkthroughs never read or write the data \
      folder: each starts from its own store and wallet in memory.

      Exit status: 0 every walkthrough passed, 1 one failed, 64 bad arguments, 65 a walkthrough \
      file or the catalog was refused.
      """)

  @Argument(help: "Walkthrough files, folders of them, or names of bundled ones (see --list).")
  var files: [String] = []

  @Option(help: ArgumentHelp("Also write a JUnit XML report here.", valueName: "path"))
  var junit: String?

  @Flag(help: "List the bundled walkthroughs (Walkthroughs/ next to the catalog): file, name and description.")
  var list = false

  @Flag(help: "Play the one walkthrough given in the live storefront, a step per Space or Enter, for training.")
  var play = false

  @Option(
    help: ArgumentHelp(
      "With --play: the band's language, en or ja (default: the walkthrough's if ja, else from LANG). The storefront speaks the walkthrough's language, which its screen checks are written in.",
      valueName: "en|ja"))
  var lang: Language?

  @Option(
    help: ArgumentHelp(
      "With --play: the next step comes by itself this long after the last one ended, such as 3s (p pauses).",
      valueName: "duration"))
  var auto: String?

  @Flag(name: .shortAndLong, help: "One line per walkthrough, its outcome; only a failure's details follow.")
  var quiet = false

  @OptionGroup var options: CatalogOption

  func validate() throws {
    if list, !files.isEmpty || play {
      throw ValidationError("--list takes no walkthrough files and no --play")
    }
    if play, files.count != 1 || junit != nil {
      throw ValidationError(
        "--play plays one walkthrough: give one file or bundled name (e.g. --play ask-to-buy-approved) and no --junit")
    }
    if !play, lang != nil || auto != nil {
      throw ValidationError("--lang and --auto are for --play")
    }
    if let auto, WalkthroughParser.duration(auto) == nil {
      throw ValidationError("--auto '\(auto)' is not a duration (expected a number with ms, s or m, such as 3s)")
    }
    if !list, files.isEmpty {
      throw ValidationError("give walkthrough files to run, e.g. Walkthroughs/*.yaml (see --list)")
    }
  }

  var library: String? { WalkthroughLibrary.folder(nextToCatalog: options.catalogPath) }

  func run() throws {
    if list { return try listLibrary() }
    if play { return try playLive(files[0]) }
    try runAll()
  }

  // MARK: Running

  private func runAll() throws {
    if let junit {
      do {
        try ReportFile.prepare(junit)
      } catch {
        throw Failure("--junit \(error); nothing was run", exitStatus: .usage)
      }
    }
    let paths = files.flatMap { WalkthroughLibrary.paths(for: $0, library: library) }
    let catalog = try options.loadCatalog()
    var walkthroughs: [Walkthrough] = []
    var rejected: [WalkthroughError.Problem] = []
    for path in paths {
      do {
        walkthroughs.append(try WalkthroughParser.load(path: path, catalog: catalog))
      } catch {
        rejected += error.problems
      }
    }
    if !rejected.isEmpty {
      if let junit { try write(JUnitReport.xml([], rejected: rejected), to: junit) }
      let files = Set(rejected.map(\.path)).count
      throw Failure.data(
        "\(counted(files, "walkthrough file")) refused, nothing was run:\n"
          + rejected.map(\.description).joined(separator: "\n"))
    }
    let runner = WalkthroughRunner(catalog: catalog)
    var results: [WalkthroughResult] = []
    let clock = ContinuousClock()
    for walkthrough in walkthroughs {
      let began = clock.now
      var result = runner.run(walkthrough)
      result.elapsed = clock.now - began
      results.append(result)
      say(Transcript.text(result, steps: !quiet))
      if !quiet { say() }
    }
    say(Transcript.summary(results))
    if let junit { try write(JUnitReport.xml(results), to: junit) }
    if results.contains(where: { !$0.passed }) { throw ExitCode.failure }
  }

  private func write(_ text: String, to path: String) throws {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw Failure.failed("cannot write the JUnit report to \(path): \(error.localizedDescription)")
    }
  }

  // MARK: The library

  private func listLibrary() throws {
    guard let library else {
      throw Failure.failed(
        "no walkthrough library: no \(WalkthroughLibrary.folderName)/ folder next to \(options.catalogPath) or in the current folder"
      )
    }
    let paths = WalkthroughLibrary.files(in: library)
    say("\(library)/: \(counted(paths.count, "walkthrough"))")
    let width = paths.map { URL(fileURLWithPath: $0).lastPathComponent.count }.max() ?? 0
    for path in paths {
      let file = URL(fileURLWithPath: path).lastPathComponent
      let padded = file.padding(toLength: width + 2, withPad: " ", startingAt: 0)
      do {
        let walkthrough = try WalkthroughParser.load(path: path)
        say("  \(padded)\(walkthrough.name)")
        // The one-line description, under the name: what the walkthrough shows.
        if let summary = walkthrough.summary { say("  \(String(repeating: " ", count: width + 2))\(summary)") }
      } catch {
        say("  \(padded)(refused: \(error.problems.first?.description ?? "\(error)"))")
      }
    }
    say("\nRun them all: monkeyshop walkthrough \(library)/*.yaml")
    say("Present one:  monkeyshop walkthrough --play NAME")
  }

  // MARK: Playing

  private func playLive(_ name: String) throws {
    let path = WalkthroughLibrary.resolve(name, library: library)
    let catalog = try options.loadCatalog()
    let walkthrough: Walkthrough
    do {
      walkthrough = try WalkthroughParser.load(path: path, catalog: catalog)
    } catch {
      throw Failure.data(error.description)
    }
    guard Terminal.isInteractive else {
      throw Failure.failed(
        "--play needs a terminal (standard input and output are not a tty); without one, run it: monkeyshop walkthrough \(path)"
      )
    }
    let language =
      lang ?? (walkthrough.language == .ja ? .ja : Language.resolve(explicit: nil, environment: options.environment))
    let player = WalkthroughPlayer(
      walkthrough: walkthrough, catalog: catalog, language: language,
      autoAdvance: auto.flatMap(WalkthroughParser.duration))
    try runInTerminal(player)
    // As the headless run: a check that did not hold fails the command.
    if let failure = player.failure { throw Failure.failed("\(walkthrough.path): \(failure)") }
  }
}
