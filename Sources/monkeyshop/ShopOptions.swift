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

  /// The data folder; a change that waits for another monkeyshop's lock says so on standard error.
  var dataFolder: DataFolder {
    let folder = DataFolder(path: DataFolder.defaultPath(explicit: dataDir, environment: environment))
    do {
      folder.waiting = try LockWaiting(environment: environment)
    } catch {
      Output.warn("monkeyshop: \(error); waiting the default 30 s")
    }
    folder.waiting.onWaiting = { text in
      Output.warn("monkeyshop: \(text)…")
    }
    return folder
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

extension Failure {
  /// How a headless run of the app ended badly: what happened (`what`), then the app's last error,
  /// with the exit status that error calls for.
  static func of(_ model: ShopModel, _ what: String) -> Failure {
    guard let failure = model.lastFailure else { return .failed(what) }
    return Failure(failure.id, "\(what): \(failure)")
  }

  /// An error from the store, the wallet or the data folder as a command's failure.
  static func of(_ error: any Error) -> Failure {
    error as? Failure ?? Failure(ErrorID.of(error), "\(error)")
  }

  /// The one rule from an error ID to an exit status: data that cannot be read or written is 65,
  /// a lock held too long by another monkeyshop 75, anything else a failed operation.
  init(_ id: ErrorID, _ message: String) {
    switch id {
    case .unreadableDataFile, .cannotWriteDataFile: self = .data(message)
    case .dataFolderBusy: self = .busy(message)
    default: self = .failed(message)
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
  /// Another monkeyshop held the data folder's lock for longer than a command waits (EX_TEMPFAIL).
  case busy(String)

  var description: String {
    switch self {
    case .data(let text), .failed(let text), .usage(let text), .busy(let text): text
    }
  }

  var exitCode: Int32 {
    switch self {
    case .data: 65
    case .failed: 1
    case .usage: 64
    case .busy: 75
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
  } catch let error where error is Failure || error is DataFolderBusy {
    let failure = Failure.of(error)
    Output.warn("monkeyshop: \(failure)")
    throw ExitCode(failure.exitCode)
  }
}
