import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopTerminal
import MonkeyShopWalkthrough

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

      --cast OUT.cast also records the one walkthrough given as asciinema plays it (asciicast \
      v2): the storefront and the band --play shows, in the walkthrough's virtual time, each step \
      --auto after the last. Play it with asciinema play OUT.cast. A walkthrough that fails is \
      recorded up to the step that failed.

      Exit status: 0 every walkthrough passed, 1 one failed, 64 bad arguments, 65 a walkthrough \
      file or the catalog was refused.
      """)

  @Argument(help: "Walkthrough files, folders of them, or names of bundled ones (see --list).")
  var files: [String] = []

  @Option(help: ArgumentHelp("Also write a JUnit XML report here.", valueName: "path"))
  var junit: String?

  @Option(
    help: ArgumentHelp(
      "Also record the one walkthrough given to this asciicast v2 file (asciinema play plays it). Replaces only a recording monkeyshop made (never an asciinema recording of your own), and not while another monkeyshop is recording to it.",
      valueName: "path"))
  var cast: String?

  @Option(
    help: ArgumentHelp(
      "With --cast: the recording's terminal size, at least 80x24 (default: the walkthrough's size:, else 80x24).",
      valueName: "WxH"))
  var size: String?

  @Flag(help: "List the bundled walkthroughs (Walkthroughs/ next to the catalog): file, name and description.")
  var list = false

  @Flag(help: "Play the one walkthrough given in the live storefront, a step per Space or Enter, for training.")
  var play = false

  @Option(
    help: ArgumentHelp(
      "With --play or --cast: the language of the band and the storefront, en or ja (default: the band's is the walkthrough's if ja, else from LANG; the storefront's the walkthrough's). The screen checks read the storefront in the walkthrough's language, which they are written in.",
      valueName: "en|ja"))
  var lang: Language?

  @Option(
    help: ArgumentHelp(
      "With --play: the next step comes by itself this long after the last one ended, such as 3s (p pauses). With --cast: the time between steps in the recording (default 2s).",
      valueName: "duration"))
  var auto: String?

  @Flag(name: .shortAndLong, help: "One line per walkthrough, its outcome; only a failure's details follow.")
  var quiet = false

  @Flag(
    help:
      "Print JSON instead of the transcript: every walkthrough, each step with its events and virtual time, every check with what was expected and found (docs/json/walkthrough.schema.json)."
  )
  var json = false

  @OptionGroup var options: CatalogOption

  func validate() throws {
    if list, !files.isEmpty || play {
      throw ValidationError("--list takes no walkthrough files and no --play")
    }
    if play, junit != nil {
      throw ValidationError("--play plays a walkthrough on the screen: it writes no report, so no --junit")
    }
    if play, files.count != 1 {
      let given = files.isEmpty ? "none was given" : "\(files.count) were given"
      throw ValidationError(
        "--play plays one walkthrough: give one file or bundled name (e.g. --play ask-to-buy-approved); \(given)")
    }
    if json, play || list || quiet {
      throw ValidationError("--json prints the runs' report: no --play, --list or --quiet")
    }
    if let cast {
      if play || list {
        throw ValidationError("--cast records a walkthrough as it runs headless: no --play and no --list")
      }
      if files.count != 1 {
        throw ValidationError(
          "--cast \(cast) records one walkthrough: give one file or bundled name (e.g. buy-5 --cast buy-5.cast)")
      }
    }
    if !play, cast == nil, lang != nil || auto != nil {
      throw ValidationError("--lang and --auto are for --play and --cast")
    }
    if size != nil, cast == nil {
      throw ValidationError("--size is the size of a recording: it goes with --cast")
    }
    if let size {
      guard let parsed = WalkthroughParser.screenSize(size) else {
        throw ValidationError("--size '\(size)' is not a screen size (expected WIDTHxHEIGHT, such as 80x24 or 120x40)")
      }
      guard parsed.isLargeEnough else {
        throw ValidationError(
          "--size \(size) is smaller than the storefront's \(ScreenSize.minimum) (expected at least 80x24)")
      }
    }
    if let auto, WalkthroughParser.isTooLong(auto) {
      throw ValidationError("--auto '\(auto)' is too long (expected at most a day: 1440m, 86400s)")
    }
    if let auto, WalkthroughParser.duration(auto) == nil {
      throw ValidationError("--auto '\(auto)' is not a duration (expected a number with ms, s or m, such as 3s)")
    }
    if !list, files.isEmpty {
      throw ValidationError("give walkthrough files to run, e.g. Walkthroughs/*.yaml (see --list)")
    }
  }

  /// The bundled walkthroughs: beside the catalog, in the current folder, or installed with this
  /// executable (`install.sh`), so an installed monkeyshop finds them from any folder.
  var library: String? {
    WalkthroughLibrary.folder(nextToCatalog: options.catalogPath, executable: Bundle.main.executablePath)
  }

  /// A bundled walkthrough's name (`buy-5`) given where no library was found.
  private func missingFromLibrary(_ argument: String) -> WalkthroughError.Problem? {
    WalkthroughLibrary.missing(
      argument, nextToCatalog: options.catalogPath, executable: Bundle.main.executablePath)
  }

  func run() throws {
    if list { return try listLibrary() }
    if play { return try playLive(files[0]) }
    try runAll()
  }

  // MARK: Running

  private func runAll() throws {
    if let junit, let cast, let clash = OutputFile.clash(("--junit", junit), ("--cast", cast)) {
      throw Failure("\(clash); nothing was run", .invalidArgument)
    }
    if let junit {
      do {
        try ReportFile.prepare(junit, dataFolder: options.dataFolder)
      } catch {
        throw Failure("--junit \(error); nothing was run", .invalidArgument)
      }
    }
    let paths = files.flatMap { WalkthroughLibrary.paths(for: $0, library: library) }
    if let cast {
      guard paths.count == 1 else {
        throw Failure(
          "--cast \(cast) records one walkthrough; \(files[0]) holds \(counted(paths.count, "walkthrough")): name one file",
          .invalidArgument)
      }
      do {
        try Cast.prepare(cast, dataFolder: options.dataFolder)
      } catch {
        throw Failure("--cast \(error); nothing was run", .invalidArgument)
      }
    }
    let catalog = try options.loadCatalog()
    var walkthroughs: [Walkthrough] = []
    var rejected: [WalkthroughError.Problem] = []
    for path in paths {
      if let problem = missingFromLibrary(path) {
        rejected.append(problem)
        continue
      }
      do {
        walkthroughs.append(try WalkthroughParser.load(path: path, catalog: catalog, library: library))
      } catch {
        rejected += error.problems
      }
    }
    if !rejected.isEmpty {
      if let junit { try write(JUnitReport.xml([], rejected: rejected, notRun: walkthroughs), to: junit) }
      if json { try printJSON(WalkthroughRunReport([], rejected: rejected)) }
      let files = Set(rejected.map(\.path)).count
      throw Failure(
        "\(counted(files, "walkthrough file")) refused, nothing was run:\n"
          + rejected.map(\.description).joined(separator: "\n"), .invalidWalkthrough)
    }
    let runner = WalkthroughRunner(catalog: catalog)
    var results: [WalkthroughResult] = []
    let clock = ContinuousClock()
    for walkthrough in walkthroughs {
      let began = clock.now
      var result = runner.run(walkthrough)
      result.elapsed = clock.now - began
      results.append(result)
      guard !json else { continue }
      say(Transcript.text(result, steps: !quiet))
      if !quiet { say() }
    }
    if json {
      try printJSON(WalkthroughRunReport(results))
    } else {
      say(Transcript.summary(results))
    }
    if let junit { try write(JUnitReport.xml(results), to: junit) }
    if let cast, let walkthrough = walkthroughs.first { try record(walkthrough, catalog: catalog, to: cast) }
    if results.contains(where: { !$0.passed }) { throw Failure.silent(.walkthroughFailed) }
  }

  private func write(_ text: String, to path: String, what: String = "the JUnit report") throws {
    do {
      try OutputFile.write(Data(text.utf8), to: path)
    } catch {
      throw Failure("cannot write \(what) to \(path): \(error)", .cannotWriteOutput)
    }
  }

  // MARK: Recording

  /// How long a recording leaves each step on the screen before the next, unless `--auto` says.
  static let castPause: TimeInterval = 2

  private func record(_ walkthrough: Walkthrough, catalog: Catalog, to path: String) throws {
    // At least the storefront's minimum: below it the storefront only says the screen is too small.
    let size =
      size.flatMap(WalkthroughParser.screenSize)
      ?? (walkthrough.size.isLargeEnough ? walkthrough.size : .minimum)
    let recording = Cast.record(
      walkthrough, catalog: catalog, language: bandLanguage(for: walkthrough), shopLanguage: lang, size: size,
      pause: auto.flatMap(WalkthroughParser.duration) ?? Self.castPause, colours: !noColour)
    try write(recording.text, to: path, what: "the recording")
    say(
      "Recorded \(walkthrough.path) (\(size), \(String(format: "%.1f", recording.duration)) s) to \(path): "
        + "asciinema play \(shellWord(path))")
  }

  /// https://no-color.org: a recording made with NO_COLOR set has no colours, as the storefront.
  private var noColour: Bool { !(options.environment["NO_COLOR"] ?? "").isEmpty }

  /// The band's language: `--lang`, else the walkthrough's if Japanese, else the environment's.
  private func bandLanguage(for walkthrough: Walkthrough) -> Language {
    lang ?? (walkthrough.language == .ja ? .ja : Language.resolve(explicit: nil, environment: options.environment))
  }

  // MARK: The library

  private func listLibrary() throws {
    guard let library else {
      throw Failure(
        "no walkthrough library: \(WalkthroughLibrary.searched(nextToCatalog: options.catalogPath, executable: Bundle.main.executablePath))",
        .walkthroughFailed)
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
    say("\nRun them all: monkeyshop walkthrough \(shellWord(library))/*.yaml")
    say("Present one:  monkeyshop walkthrough --play NAME")
  }

  // MARK: Playing

  private func playLive(_ name: String) throws {
    let path = WalkthroughLibrary.resolve(name, library: library)
    let catalog = try options.loadCatalog()
    if let problem = missingFromLibrary(path) { throw Failure(problem.description, .invalidWalkthrough) }
    let walkthrough: Walkthrough
    do {
      walkthrough = try WalkthroughParser.load(path: path, catalog: catalog, library: library)
    } catch {
      throw Failure(error.description, .invalidWalkthrough)
    }
    guard Terminal.isInteractive else {
      throw Failure(
        "--play needs a terminal (standard input and output are not a tty); without one, run it: monkeyshop walkthrough \(shellWord(path))",
        .terminalUnavailable)
    }
    let player = WalkthroughPlayer(
      walkthrough: walkthrough, catalog: catalog, language: bandLanguage(for: walkthrough), shopLanguage: lang,
      autoAdvance: auto.flatMap(WalkthroughParser.duration))
    try runInTerminal(player, dataFolder: options.dataFolder)
    // As the headless run: a check that did not hold fails the command.
    if let failure = player.failure { throw Failure("\(walkthrough.path): \(failure)", .walkthroughFailed) }
  }
}
