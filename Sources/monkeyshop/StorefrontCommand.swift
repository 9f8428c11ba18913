import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopTerminal
import MonkeyShopWalkthrough

struct StorefrontCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storefront",
    abstract: "Open the storefront in the terminal (the default).",
    discussion: "Needs a terminal of at least 80×24. Press ? in the storefront for every key.")

  @Option(help: ArgumentHelp("UI language: en or ja (default: from LANG).", valueName: "en|ja"))
  var lang: Language?

  @Option(
    help: ArgumentHelp(
      "Append every event of the StoreKit event log to this file as JSON Lines: time (ISO 8601), ms since launch, event, text, storeKit, and where there is one: payment, transactionIdentifier (purchased transactions only) and errorID.",
      valueName: "file"))
  var logFile: String?

  @Option(
    help: ArgumentHelp(
      "Record the session to this asciicast v2 file as the terminal shows it, with its real timing (asciinema play FILE plays it; a resize is recorded). Written frame by frame: a kill leaves a recording up to the last frame, a full disk one up to the last frame written whole. Replaces only a recording monkeyshop made (never an asciinema recording of your own), and not while another monkeyshop is recording to it.",
      valueName: "file"))
  var cast: String?

  @OptionGroup var storeKit: StoreKitOption
  @OptionGroup var options: ShopOptions

  func run() throws {
    try Self.open(options, language: lang, logFile: logFile, cast: cast, storeKit: storeKit.api)
  }

  /// Opens the storefront; `monkeyshop` with no arguments comes here without parsing anything.
  static func open(
    _ options: some ShopPlaces, language: Language?, logFile logPath: String? = nil, cast castPath: String? = nil,
    storeKit: StoreKitAPI? = nil
  ) throws {
    let catalog = try options.loadCatalog()
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    try StoreKitOption.apply(storeKit, to: folder, catalog: catalog)
    if let logPath, let dump = options.environment[Terminal.screenDumpVariable], !dump.isEmpty,
      let clash = OutputFile.clash(("--log-file", logPath), (Terminal.screenDumpVariable, dump))
    {
      throw Failure("\(clash); the storefront did not open", .invalidArgument)
    }
    let cast = try castPath.map { path throws(Failure) in
      try recording(to: path, logFile: logPath, environment: options.environment, dataFolder: folder)
    }
    let logFile = try logPath.map { path throws(Failure) in try EventLogFile(path: path, dataFolder: folder) }
    guard Terminal.isInteractive else {
      throw Failure(
        """
        the storefront needs a terminal (standard input and output are not a tty).
        Without a screen, use the headless commands: monkeyshop buy, wallet show, store transactions,
        walkthrough (see monkeyshop --help).
        """, .terminalUnavailable)
    }
    let language = language ?? Language.resolve(explicit: nil, environment: options.environment)
    folder.waiting.onWaiting = { text in BlockedWait.show(text + "… Ctrl-C quits") }
    folder.waiting.betweenTries = { BlockedWait.leaveIfAsked() }
    let runtime = ShopRuntime(
      catalog: catalog, storage: folder, language: language, launchDate: Date(), watchedFolder: folder.path,
      onCrash: { point in
        Terminal.restoreForCrash()
        Crash.now(telling: Words(language).crashPointKilled(point))
      })
    if let logFile {
      runtime.onLog = { [unowned runtime] entry in logFile.append(entry, of: runtime.model) }
    }
    try runInTerminal(runtime, dataFolder: folder, cast: cast)
    if let failure = logFile?.lossFailure { throw failure }
  }
}

extension StorefrontCommand {
  /// `--cast FILE`, made ready before the screen opens (`OutputFile`'s rule, and only a recording
  /// monkeyshop made, that no other monkeyshop is recording to, is replaced: `Cast.prepare`);
  /// refused when it names the file `--log-file` or `MONKEYSHOP_SCREEN_DUMP` writes.
  static func recording(
    to path: String, logFile: String?, environment: [String: String], dataFolder: DataFolder
  ) throws(Failure) -> LiveCast {
    let others = [("--log-file", logFile), (Terminal.screenDumpVariable, environment[Terminal.screenDumpVariable])]
    for case (let option, let other?) in others where !other.isEmpty {
      if let clash = OutputFile.clash(("--cast", path), (option, other)) {
        throw Failure("\(clash); the storefront did not open", .invalidArgument)
      }
    }
    do {
      try Cast.prepare(path, example: "session.cast", dataFolder: dataFolder)
    } catch {
      throw Failure("--cast \(TerminalText.escaped(error.description)); the storefront did not open", .invalidArgument)
    }
    return LiveCast(path: path)
  }
}

/// `--lang en` or `--lang JA`.
extension Language: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
