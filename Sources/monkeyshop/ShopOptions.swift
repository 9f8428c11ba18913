import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage

/// Where the shop's files are: the catalog and the data folder.
protocol ShopPlaces {
  var catalog: String? { get }
  var dataDir: String? { get }
  /// `--credits`: what each consumable of a `.storekit` catalog grants.
  var credits: [ProductCredits] { get }
}

/// `monkeyshop` with no arguments: the defaults, from the environment (or a catalog given).
struct DefaultPlaces: ShopPlaces {
  var catalog: String?
  var dataDir: String? { nil }
  var credits: [ProductCredits] = []
}

/// Options every command that opens the shop shares: the catalog and the data folder.
struct ShopOptions: ParsableArguments, ShopPlaces {
  @Option(name: .long, help: ArgumentHelp(Self.catalogHelp, valueName: "path"))
  var catalog: String?

  @Option(
    name: .long, parsing: .unconditionalSingleValue, help: ProductCredits.help,
    transform: ProductCredits.init(argument:))
  var credits: [ProductCredits] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Where wallet.json and store.json live (default: $MONKEYSHOP_DATA_DIR, else $XDG_DATA_HOME/monkeyshop, else ~/.local/share/monkeyshop).",
      valueName: "path"))
  var dataDir: String?
}

/// Only the catalog: for walkthroughs, which never touch the data folder.
struct CatalogOption: ParsableArguments, ShopPlaces {
  @Option(name: .long, help: ArgumentHelp(Self.catalogHelp, valueName: "path"))
  var catalog: String?

  @Option(
    name: .long, parsing: .unconditionalSingleValue, help: ProductCredits.help,
    transform: ProductCredits.init(argument:))
  var credits: [ProductCredits] = []

  var dataDir: String? { nil }
}

extension ParsableArguments {
  static var catalogHelp: String {
    "The catalog to sell from, a products.plist or an Xcode .storekit file (default: $MONKEYSHOP_CATALOG, else ./products.plist, else the shipped catalog built into monkeyshop)."
  }
}

extension ShopPlaces {
  var environment: [String: String] { ProcessEnvironment.values }

  /// The data folder; a change that waits for another monkeyshop's lock says so on standard error.
  var dataFolder: DataFolder {
    let folder = DataFolder(path: DataFolder.defaultPath(explicit: dataDir, environment: environment))
    // Each transaction the App Store completes or refunds is signed then, once, and kept.
    folder.signer = FolderSigner()
    folder.onNotice = { text in Output.warn("monkeyshop: \(text)") }
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

  /// Which catalog the shop sells from (docs/catalogs.md): `--catalog`, else `$MONKEYSHOP_CATALOG`, else
  /// `products.plist` in the current folder, else the catalog built into the binary, so an
  /// installed monkeyshop works from any folder. A file that is there but broken is refused, never
  /// passed over for the shipped catalog.
  var catalogSource: CatalogSource {
    if let catalog { return .file(catalog) }
    if let path = environment["MONKEYSHOP_CATALOG"], !path.isEmpty { return .file(path) }
    // lstat: a dangling link named products.plist is there, and is refused as such.
    var status = stat()
    if lstat(CatalogSource.localName, &status) == 0 {
      return .file(CatalogSource.localName)
    }
    return .shipped
  }

  /// The catalog's file, or `products.plist` (the current folder's) for the shipped catalog: where
  /// walkthroughs look for the library beside the catalog.
  var catalogPath: String { catalogSource.path ?? CatalogSource.localName }

  /// The catalog, or a `CatalogError` naming the file, product and key (exit 65).
  func loadCatalog() throws(CatalogError) -> Catalog {
    switch catalogSource {
    case .file(let path):
      try CatalogLoader.load(path: path, credits: try catalogCredits(for: path), builtIn: ShippedContent.files)
    case .shipped:
      try CatalogLoader.parse(
        Data(PackageResources.products_plist), path: CatalogSource.shippedName,
        content: .builtIn(ShippedContent.files))
    }
  }

  /// What each consumable of a `.storekit` catalog grants (its file does not say): `--credits`,
  /// else `$MONKEYSHOP_CREDITS` (`ID=N` words, for a catalog named by `$MONKEYSHOP_CATALOG`). A
  /// products.plist gives its own credits: `--credits` with one is refused, not ignored.
  func catalogCredits(for path: String) throws(CatalogError) -> [String: Int] {
    guard StoreKitConfiguration.isConfiguration(path: path) else {
      if let first = credits.first {
        throw CatalogError(
          path: path, product: first.productID, key: "--credits", problem: "is read only with a .storekit catalog",
          expected: "each product's credits key in a products.plist")
      }
      return [:]
    }
    var given = credits
    if given.isEmpty, let words = environment[ProductCredits.variable] {
      for word in words.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }) {
        guard let parsed = ProductCredits(word: String(word)) else {
          throw CatalogError(
            path: path, key: "$\(ProductCredits.variable)", problem: "'\(word)' is not PRODUCT_ID=N",
            expected: "words such as com.example.credits.5=5, N from 1 to \(Product.maximumCredits)")
        }
        given.append(parsed)
      }
    }
    var result: [String: Int] = [:]
    for item in given {
      if let earlier = result[item.productID] {
        throw CatalogError(
          path: path, product: item.productID, key: "--credits",
          problem: "given twice (\(earlier) and \(item.credits))",
          expected: "one --credits per consumable")
      }
      result[item.productID] = item.credits
    }
    return result
  }

  /// The store and wallet as they are, refusing to go on when either cannot be read.
  func checkDataFiles(_ folder: DataFolder) throws(Failure) {
    do {
      _ = try folder.read()
      _ = try folder.readOwned()
    } catch {
      throw Failure(error, then: Self.advice(after: error))
    }
  }

  /// The line after a data file that cannot be read: its own remedy when it has one (the message
  /// says it), none when the folder is only busy (the message says to try again).
  static func advice(after error: DataFileError) -> String? {
    if error.errorID == .dataFolderBusy { return nil }
    return error.remedy == nil ? "nothing was changed; move the file away or fix it to go on" : "nothing was changed"
  }
}

/// Where the catalog comes from: a file, or the one built into the binary.
enum CatalogSource: Equatable, CustomStringConvertible {
  case file(String)
  /// The repository's products.plist, embedded when monkeyshop was built.
  case shipped

  /// The catalog in the current folder, used when there is one.
  static let localName = "products.plist"
  /// How messages name the embedded catalog.
  static let shippedName = "the shipped catalog (built into monkeyshop)"

  var path: String? {
    switch self {
    case .file(let path): path
    case .shipped: nil
    }
  }

  /// The path, or "the shipped catalog (built into monkeyshop)".
  var description: String { path ?? Self.shippedName }
}

/// `--credits PRODUCT_ID=N`: the monkey credits one unit of a `.storekit` catalog's consumable grants.
struct ProductCredits: Equatable {
  let productID: String
  let credits: Int

  /// Where credits come from when the command line gives none.
  static let variable = "MONKEYSHOP_CREDITS"

  static let help = ArgumentHelp(
    "Monkey credits per unit of a consumable of a .storekit catalog, as PRODUCT_ID=N (repeat for each; default: $MONKEYSHOP_CREDITS, such words separated by spaces).",
    valueName: "id=n")

  /// `com.example.credits.5=5`; nil for anything else. The ID is whatever comes before the last
  /// `=`: the file's own IDs are checked against it when the catalog is read. N is digits only
  /// (`Int` would also take `+5`).
  init?(word: String) {
    guard let equals = word.lastIndex(of: "="), equals != word.startIndex else { return nil }
    let digits = word[word.index(after: equals)...]
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let credits = Int(digits),
      (1...Product.maximumCredits).contains(credits)
    else { return nil }
    productID = String(word[..<equals])
    self.credits = credits
  }

  /// For the command-line parser: a refusal says what was expected. The option takes the next
  /// argument whatever it starts with (`parsing: .unconditionalSingleValue`), so `--credits -5`
  /// is told it is not PRODUCT_ID=N rather than that its value is missing.
  init(argument: String) throws {
    guard let parsed = ProductCredits(word: argument) else {
      throw ValidationError(
        "'\(TerminalText.escaped(argument))' is not PRODUCT_ID=N with N digits only, from 1 to \(Product.maximumCredits), such as com.example.credits.5=5"
      )
    }
    self = parsed
  }
}

/// The environment monkeyshop was started with, read once: Foundation builds the whole dictionary
/// again on every `ProcessInfo.processInfo.environment`, half a million instructions of a
/// storefront's start each time.
enum ProcessEnvironment {
  static let values = ProcessInfo.processInfo.environment
}
