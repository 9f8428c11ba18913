import Foundation

/// One product of the catalog: a pack of monkey credits (a consumable) or something the app owns
/// once bought (a non-consumable).
public struct Product: Hashable, Sendable {
  /// What buying the product gives, as the catalog's `type` says.
  public enum Kind: Hashable, Sendable {
    /// Bought again and again; each unit grants this many monkey credits.
    case consumable(credits: Int)
    /// Bought once and owned from then on; never credits.
    case nonConsumable
  }

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
  public let kind: Kind

  /// Monkey credits granted for each unit bought, 1…`maximumCredits`; nil for a non-consumable.
  public var credits: Int? {
    if case .consumable(let credits) = kind { credits } else { nil }
  }

  /// The most credits a product may grant per unit: 10⁹. A payment of the largest quantity (10)
  /// is then worth at most 10¹⁰ credits, so `credits × quantity` can never overflow, and a wallet
  /// holds hundreds of millions of such payments before it nears `Int.max`.
  public static let maximumCredits = 1_000_000_000
  /// Apple's limit on a product ID: "can be as long as 100 characters"
  /// (https://developer.apple.com/help/app-store-connect/reference/in-app-purchase-information).
  public static let maximumIdentifierLength = 100
  public let localizations: [String: Localization]
  /// Price per storefront code.
  public let prices: [String: Decimal]
  /// False simulates an identifier the app asks for but the App Store does not know.
  public let availableInStore: Bool
  /// A non-consumable's Apple-hosted content, downloaded after the purchase (StoreKit 1).
  public let hostedContent: HostedContent?

  public init(
    productIdentifier: String, kind: Kind, localizations: [String: Localization],
    prices: [String: Decimal], availableInStore: Bool = true, hostedContent: HostedContent? = nil
  ) {
    self.productIdentifier = productIdentifier
    self.kind = kind
    self.localizations = localizations
    self.prices = prices
    self.availableInStore = availableInStore
    self.hostedContent = hostedContent
  }

  /// Bought once and owned from then on.
  public var isNonConsumable: Bool { kind == .nonConsumable }

  /// A consumable granting `credits` per unit.
  public init(
    productIdentifier: String, credits: Int, localizations: [String: Localization],
    prices: [String: Decimal], availableInStore: Bool = true
  ) {
    self.init(
      productIdentifier: productIdentifier, kind: .consumable(credits: credits), localizations: localizations,
      prices: prices, availableInStore: availableInStore)
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
