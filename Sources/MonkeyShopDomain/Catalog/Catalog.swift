import Foundation

/// What the shop sells: the products of `products.plist` and the storefront it opens in.
public struct Catalog: Sendable, Equatable {
  public let products: [Product]
  public let defaultStorefront: Storefront
  /// The app's bundle ID, written into signed transactions (`bundleId`, docs/signing.md): a server's
  /// verifier refuses a transaction signed for another app.
  public let bundleIdentifier: String
  /// Where each product is in `products`: lookups stay quick in a catalog of thousands.
  private let positions: [String: Int]

  public static let defaultBundleIdentifier = "com.monkeyshop.app"

  public init(
    products: [Product], defaultStorefront: Storefront = .usa, bundleIdentifier: String = defaultBundleIdentifier
  ) {
    self.products = products
    self.defaultStorefront = defaultStorefront
    self.bundleIdentifier = bundleIdentifier
    positions = Dictionary(
      products.enumerated().map { ($1.productIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Whether the catalog sells this product as a non-consumable (a product it no longer sells was
  /// a consumable: the only kind sold before non-consumables).
  public func isNonConsumable(_ identifier: String) -> Bool { product(identifier)?.isNonConsumable == true }

  public func product(_ identifier: String) -> Product? {
    positions[identifier].map { products[$0] }
  }

  /// The product, or an error naming the catalog's file and every product it sells.
  public func product(_ identifier: String, path: String) throws(UnknownProductError) -> Product {
    guard let product = product(identifier) else {
      throw UnknownProductError(identifier: identifier, path: path, known: products.map(\.productIdentifier))
    }
    return product
  }

  public func position(of identifier: String) -> Int? { positions[identifier] }

  /// The storefronts the account can move to: those the catalog prices at least one product in,
  /// in `Storefront.all`'s order. A product without a price there comes back in
  /// `invalidProductIdentifiers` after the change.
  public var pricedStorefronts: [Storefront] {
    Storefront.all.filter { storefront in
      products.contains { $0.availableInStore && $0.price(in: storefront) != nil }
    }
  }

  /// Every product must have a price in the storefront the shop opens in or switches to.
  public func checkPrices(in storefront: Storefront, path: String) throws(CatalogError) {
    for product in products where product.availableInStore && product.price(in: storefront) == nil {
      throw CatalogError(
        path: path, product: product.productIdentifier, key: "prices",
        problem: "no price for storefront \(storefront.code)",
        expected: "a price string under \(storefront.code)")
    }
  }
}

/// A catalog that cannot be sold from, with the file, product and key at fault.
public struct CatalogError: ShopError, Equatable {
  public let path: String
  public let product: String?
  public let key: String?
  public let problem: String
  public let expected: String?

  public init(path: String, product: String? = nil, key: String? = nil, problem: String, expected: String? = nil) {
    self.path = path
    self.product = product
    self.key = key
    self.problem = problem
    self.expected = expected
  }

  public var errorID: ErrorID { .invalidCatalog }

  public var message: String {
    var place = path
    if let product { place += ": product '\(TerminalText.clipped(product))'" }
    if let key { place += ", key '\(key)'" }
    var text = "\(place): \(problem)"
    if let expected { text += " (expected \(expected))" }
    // Product IDs, keys and values are the file's text, quoted in the message: a newline in them
    // must not start a line that looks like the program's own.
    return TerminalText.escaped(text)
  }
}

/// A product identifier the catalog does not sell.
public struct UnknownProductError: ShopError, Equatable {
  public let identifier: String
  /// The catalog's file.
  public let path: String
  /// Every product the catalog sells.
  public let known: [String]

  public var errorID: ErrorID { .productNotAvailable }

  public var message: String {
    let known = known.map(TerminalText.escaped)
    return
      "unknown product '\(TerminalText.escaped(identifier))' in \(path) (expected one of: \(known.joined(separator: ", ")))"
  }
}
