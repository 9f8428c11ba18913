import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CatalogCommand {
  /// `monkeyshop catalog import FILE.storekit`: an Xcode StoreKit configuration file made into a
  /// products.plist (docs/catalogs.md).
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Make a products.plist from an Xcode StoreKit configuration file (.storekit).",
      discussion: """
        Consumables and non-consumables are kept, with their localizations and their price in the \
        file's storefront (settings._storefront, default USA); each consumable needs --credits. \
        Subscriptions are reported and left out. Settings that match a condition are printed as the \
        monkeyshop store set commands that apply them. The catalog goes to standard output, or to \
        --out, which is never replaced unless --force is given. Exit 65 when the file is refused.
        """)

    @Argument(help: "The Xcode StoreKit configuration file.")
    var file: String

    @Option(
      name: .long, parsing: .unconditionalSingleValue, help: ProductCredits.help,
      transform: ProductCredits.init(argument:))
    var credits: [ProductCredits] = []

    @Option(help: ArgumentHelp("Write the catalog to this file instead of standard output.", valueName: "file"))
    var out: String?

    @Flag(help: "Replace the --out file if it exists.")
    var force = false

    func run() throws {
      // A place that cannot take the catalog is refused before the file is read.
      if let out { try Self.checkPlace(out, replacing: force, source: file) }
      let configuration: StoreKitConfiguration
      let catalog: String
      do {
        configuration = try StoreKitConfiguration.load(path: file)
        // The same credits rules as a .storekit file given as the catalog.
        let credits = try DefaultPlaces(catalog: file, credits: credits).catalogCredits(for: file)
        catalog = try configuration.catalogPropertyList(credits: credits)
      } catch {
        throw Failure(error, then: out.map { "--out \(TerminalText.escaped($0)): nothing was written" })
      }
      for line in StoreKitReport.lines(configuration) {
        Output.warn(line.hasPrefix(" ") ? line : "monkeyshop: \(file): \(line)")
      }
      guard let out else {
        // The writer wrote every control character of the file as a character reference: the
        // catalog goes out exactly as it would be saved.
        Output.sayVerbatim(catalog)
        return
      }
      try Self.save(catalog, to: out, replacing: force)
      let products = configuration.products
      let consumables = configuration.consumables.count
      say(
        "\(TerminalText.escaped(out)): \(counted(products.count, "product")) (\(counted(consumables, "consumable")), \(counted(products.count - consumables, "non-consumable"))), storefront \(configuration.storefront)"
      )
    }

    private static func refusal(_ path: String, _ problem: String) -> Failure {
      Failure("--out \(TerminalText.escaped(path)): \(problem); nothing was written", .invalidArgument)
    }

    /// Where `--out` may write: a new file, or with `--force` a regular file; never the file being
    /// imported, never one of the data folder's files.
    static func checkPlace(_ path: String, replacing: Bool, source: String) throws {
      let environment = ProcessInfo.processInfo.environment
      let dataFolder = DataFolder(path: DataFolder.defaultPath(explicit: nil, environment: environment))
      try StoreCertificate.checkPlace(path, example: "products.plist", dataFolder: dataFolder)
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      if target == URL(fileURLWithPath: source).resolvingSymlinksInPath().path {
        throw refusal(path, "is the .storekit file being imported")
      }
      var info = stat()
      if !replacing, lstat(path, &info) == 0 {
        throw refusal(path, "exists (--force replaces it)")
      }
    }

    /// Written whole beside `path` and moved there (`OutputFile.write`): a reader never sees half a
    /// catalog. Without `--force` it is linked into place rather than renamed over it, so a file
    /// that appeared at `path` meanwhile is kept, and the catalog refused.
    static func save(_ catalog: String, to path: String, replacing: Bool) throws {
      do {
        try OutputFile.write(Data(catalog.utf8), to: path, replacing: replacing)
      } catch .exists {
        throw refusal(path, "exists (--force replaces it)")
      } catch {
        throw Failure("--out \(TerminalText.escaped(path)): \(error)", .cannotWriteOutput)
      }
    }
  }
}

/// What a `.storekit` file's import left out or stood in for, and the conditions its settings
/// start the store in: printed by `catalog import` and `catalog check`.
enum StoreKitReport {
  static func lines(_ configuration: StoreKitConfiguration) -> [String] {
    var lines = configuration.notes
    let settings = configuration.settings
    if !settings.conditions.isEmpty {
      lines.append("its settings start the store in these conditions; apply them with:")
      for condition in settings.conditions {
        let note = condition.note.map { ": \($0)" } ?? ""
        lines.append("  \(condition.command)    # \(TerminalText.escaped(condition.setting))\(note)")
      }
    }
    if let language = settings.language, language != .en, let locale = settings.locale {
      lines.append("_locale \(TerminalText.clipped(locale)): open the storefront with --lang \(language.rawValue)")
    }
    if !settings.notSimulated.isEmpty {
      lines.append("settings not simulated: \(settings.notSimulated.map(TerminalText.escaped).joined(separator: ", "))")
    }
    return lines
  }
}
