import Foundation

/// One product of the catalog: a pack of monkey credits.
public struct Product: Hashable, Sendable {
  public struct Localization: Hashable, Sendable {
    public let title: String
    public let description: String

    public init(title: String, description: String) {
      self.title = title
      self.description = description
    }
  }

  /// Reverse-DNS identifier, as App Store Connect knows it.
  public let productIdentifier: String
  /// Monkey credits granted for each unit bought, 1…`maximumCredits`.
  public let credits: Int

  /// The most credits a product may grant per unit: 10⁹. A payment of the largest quantity (10)
  /// is then worth at most 10¹⁰ credits, so `credits × quantity` can never overflow, and a wallet
  /// holds hundreds of millions of such payments before it nears `Int.max`.
  public static let maximumCredits = 1_000_000_000
  public let localizations: [String: Localization]
  /// Price per storefront code.
  public let prices: [String: Decimal]
  /// False simulates an identifier the app asks for but the App Store does not know.
  public let availableInStore: Bool

  public init(
    productIdentifier: String, credits: Int, localizations: [String: Localization],
    prices: [String: Decimal], availableInStore: Bool = true
  ) {
    self.productIdentifier = productIdentifier
    self.credits = credits
    self.localizations = localizations
    self.prices = prices
    self.availableInStore = availableInStore
  }

  /// The localization for a language, falling back to English.
  public func localization(_ language: String) -> Localization {
    localizations[language] ?? localizations["en"] ?? Localization(title: productIdentifier, description: "")
  }

  public func price(in storefront: Storefront) -> Decimal? { prices[storefront.code] }

  public func displayPrice(in storefront: Storefront) -> String? {
    price(in: storefront).map(storefront.format)
  }
}
