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

  /// The catalog, or a `CatalogError` naming the file, product and key (exit 65).
  func loadCatalog() throws(CatalogError) -> Catalog {
    try CatalogLoader.load(path: catalogPath)
  }

  /// The store and wallet as they are, refusing to go on when either cannot be read.
  func checkDataFiles(_ folder: DataFolder) throws(Failure) {
    do {
      _ = try folder.read()
    } catch {
      throw Failure(error, then: "nothing was changed; move the file away or fix it to go on")
    }
  }
}
