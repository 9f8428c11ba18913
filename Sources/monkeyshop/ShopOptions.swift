import ArgumentParser
import Foundation
import MonkeyShopCore

/// Where the shop's files are: the catalog and the data folder.
protocol ShopPlaces {
  var catalog: String? { get }
  var dataDir: String? { get }
}

/// `monkeyshop` with no arguments: the defaults, from the environment.
struct DefaultPlaces: ShopPlaces {
  var catalog: String? { nil }
  var dataDir: String? { nil }
}

/// Options every command that opens the shop shares: the catalog and the data folder.
struct ShopOptions: ParsableArguments, ShopPlaces {
  @Option(name: .long, help: ArgumentHelp("The catalog to sell from.", valueName: "path"))
  var catalog: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Where wallet.json and store.json live (default: $MONKEYSHOP_DATA_DIR, else $XDG_DATA_HOME/monkeyshop, else ~/.local/share/monkeyshop).",
      valueName: "path"))
  var dataDir: String?
}

/// Only the catalog: for walkthroughs, which never touch the data folder.
struct CatalogOption: ParsableArguments, ShopPlaces {
  @Option(name: .long, help: ArgumentHelp("The catalog to sell from.", valueName: "path"))
  var catalog: String?

  var dataDir: String? { nil }
}

extension ShopPlaces {
  var environment: [String: String] { ProcessInfo.processInfo.environment }

  var dataFolder: DataFolder {
    DataFolder(path: DataFolder.defaultPath(explicit: dataDir, environment: environment))
  }

  /// `--catalog`, else `$MONKEYSHOP_CATALOG`, else `products.plist` in the current folder.
  var catalogPath: String {
    if let catalog { return catalog }
    if let path = environment["MONKEYSHOP_CATALOG"], !path.isEmpty { return path }
    return "products.plist"
  }

  /// The catalog, or a message naming the file, product and key, and exit 65.
  func loadCatalog() throws -> Catalog {
    do {
      return try CatalogLoader.load(path: catalogPath)
    } catch {
      throw Failure.data("\(error) — \(ErrorID.invalidCatalog)")
    }
  }

  /// The store and wallet as they are, refusing to go on when either cannot be read.
  func checkDataFiles(_ folder: DataFolder) throws {
    do {
      _ = try folder.read()
    } catch {
      throw Failure.data("\(error)\nnothing was changed; move the file away or fix it to go on")
    }
  }
}

/// How a command fails: a message on standard error and an exit status scripts can test.
enum Failure: Error, CustomStringConvertible {
  /// Bad data: a catalog, wallet or store file (EX_DATAERR).
  case data(String)
  /// A purchase or operation that did not succeed.
  case failed(String)
  /// Wrong use of the command line (EX_USAGE).
  case usage(String)

  var description: String {
    switch self {
    case .data(let text), .failed(let text), .usage(let text): text
    }
  }

  var exitCode: Int32 {
    switch self {
    case .data: 65
    case .failed: 1
    case .usage: 64
    }
  }
}

extension ParsableCommand {
  /// Runs a command body, turning a `Failure` into its message and exit status.
  func reporting(_ body: () throws -> Void) throws { try reportingFailures(body) }
}

/// Turns a `Failure` into its message on standard error and its exit status.
func reportingFailures(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let failure as Failure {
    Output.warn("monkeyshop: \(failure)")
    throw ExitCode(failure.exitCode)
  }
}
