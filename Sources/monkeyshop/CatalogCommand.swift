import ArgumentParser
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopWalkthrough

struct CatalogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "catalog", abstract: "Validate a catalog, or make one from an Xcode .storekit file.",
    subcommands: [Check.self, Import.self])

  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract:
        "Validate a products.plist or a .storekit file and print what it sells. Exit 65 when it is refused.")

    @Argument(
      help:
        "The catalog file (default: --catalog, $MONKEYSHOP_CATALOG, else ./products.plist, else the shipped catalog built into monkeyshop)."
    )
    var file: String?

    @OptionGroup var options: ShopOptions

    func run() throws {
      var options = options
      if let file { options.catalog = file }
      let catalog = try options.loadCatalog()
      say(
        "\(options.catalogSource): \(counted(catalog.products.count, "product")), storefront \(catalog.defaultStorefront)"
      )
      for product in catalog.products {
        let price = product.displayPrice(in: catalog.defaultStorefront) ?? "no price"
        let availability = product.availableInStore ? "" : "  (not available in the store)"
        // The catalog's own text is escaped whole: `say` escapes controls within each line, but a
        // newline in a title would still start a line that looks like the program's.
        let identifier = TerminalText.escaped(product.productIdentifier)
        let title = TerminalText.escaped(product.localization("en").title)
        let grants = product.credits.map { counted($0, "credit") } ?? "non-consumable"
        say("  \(identifier)  \(grants)  \(price)  \(title)\(availability)")
        let storefronts = product.prices.keys.sorted().map { code in
          "\(code) \(Storefront.named(code).map { product.displayPrice(in: $0) ?? "" } ?? "")"
        }
        say("    prices: \(storefronts.joined(separator: ", "))")
        say("    languages: \(product.localizations.keys.sorted().joined(separator: ", "))")
      }
      // A .storekit file: what it holds that the catalog leaves out, and the conditions its settings
      // start in. Read again only once it was read as a catalog.
      if let path = options.catalogSource.path, StoreKitConfiguration.isConfiguration(path: path) {
        for line in StoreKitReport.lines(try StoreKitConfiguration.load(path: path)) { say(line) }
      }
    }
  }
}
