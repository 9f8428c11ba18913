import Foundation
import Synchronization

/// An App Store storefront: the country a user's account belongs to, which sets the currency and
/// how prices are written.
public struct Storefront: Hashable, Sendable, Codable, CustomStringConvertible {
  /// ISO 3166-1 alpha-3 code, as `Storefront.countryCode` and `SKStorefront.countryCode` give it.
  public let code: String
  public let currencyCode: String
  /// The locale prices are formatted in.
  public let localeIdentifier: String
  /// Set where the App Store writes a symbol other than the locale's default (Japan shows `￥`).
  let currencySymbol: String?
  /// Digits of the currency's minor unit, ISO 4217's "minor unit": 2 for cents and pence, 0 for
  /// yen and won, which have none. A price with more decimal places than this cannot be charged.
  public let minorUnitDigits: Int
  /// The currency's unit in English, for messages: "a whole number of yen".
  let unitName: String
  /// Apple's storefront ID, the signed transaction's `storefrontId`. Apple defines the field ("An
  /// Apple-defined value that uniquely identifies an App Store storefront",
  /// https://developer.apple.com/documentation/appstoreserverapi/storefrontid) but its current
  /// documentation lists no values beyond its samples (USA "143441" in the App Store Server
  /// Library's Xcode test data). These are the IDs of Apple's former iTunes affiliate
  /// documentation's appendix ("linking-to-the-itunes-music-store", as kept at
  /// https://gist.github.com/hmml/8942940 and https://gist.github.com/atnan/47807), the values the
  /// App Store sends in its `X-Apple-Store-Front` header.
  public let appleID: String

  public var description: String { code }

  /// The storefronts this shop can simulate.
  public static let all: [Storefront] = [
    Storefront(
      code: "USA", currencyCode: "USD", localeIdentifier: "en_US", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "US dollars", appleID: "143441"),
    Storefront(
      code: "JPN", currencyCode: "JPY", localeIdentifier: "ja_JP", currencySymbol: "￥", minorUnitDigits: 0,
      unitName: "yen", appleID: "143462"),
    Storefront(
      code: "GBR", currencyCode: "GBP", localeIdentifier: "en_GB", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "pounds", appleID: "143444"),
    Storefront(
      code: "DEU", currencyCode: "EUR", localeIdentifier: "de_DE", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "euros", appleID: "143443"),
    Storefront(
      code: "FRA", currencyCode: "EUR", localeIdentifier: "fr_FR", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "euros", appleID: "143442"),
    Storefront(
      code: "CAN", currencyCode: "CAD", localeIdentifier: "en_CA", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "Canadian dollars", appleID: "143455"),
    Storefront(
      code: "AUS", currencyCode: "AUD", localeIdentifier: "en_AU", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "Australian dollars", appleID: "143460"),
    Storefront(
      code: "ITA", currencyCode: "EUR", localeIdentifier: "it_IT", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "euros", appleID: "143450"),
    Storefront(
      code: "ESP", currencyCode: "EUR", localeIdentifier: "es_ES", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "euros", appleID: "143454"),
    Storefront(
      code: "KOR", currencyCode: "KRW", localeIdentifier: "ko_KR", currencySymbol: nil, minorUnitDigits: 0,
      unitName: "won", appleID: "143466"),
    Storefront(
      code: "BRA", currencyCode: "BRL", localeIdentifier: "pt_BR", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "reais", appleID: "143503"),
    Storefront(
      code: "MEX", currencyCode: "MXN", localeIdentifier: "es_MX", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "Mexican pesos", appleID: "143468"),
    Storefront(
      code: "IND", currencyCode: "INR", localeIdentifier: "en_IN", currencySymbol: nil, minorUnitDigits: 2,
      unitName: "rupees", appleID: "143467"),
  ]

  public static let usa = named("USA")!

  public static func named(_ code: String) -> Storefront? {
    byCode[code.uppercased()]
  }

  /// The storefront whose code is `code` exactly as written, in capitals.
  static func withCode(_ code: String) -> Storefront? { byCode[code] }

  /// Catalogs name a storefront for every price of every product: lookups stay quick.
  private static let byCode = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

  public static var knownCodes: String { all.map(\.code).joined(separator: ", ") }

  /// `$0.99`, `￥160`, `£0.99`, `0,99 €`: the price as this storefront's App Store writes it.
  public func format(_ price: Decimal) -> String {
    let key = FormattedPrice(storefront: code, price: price)
    if let known = Self.formatted.withLock({ $0[key] }) { return known }
    let text = formatWithoutCache(price)
    Self.formatted.withLock { $0[key] = text }
    return text
  }

  /// Formatting a price builds an ICU formatter; the screen redraws the same prices on every key,
  /// so each is formatted once.
  private static let formatted = Mutex<[FormattedPrice: String]>([:])

  private struct FormattedPrice: Hashable {
    var storefront: String
    var price: Decimal
  }

  private func formatWithoutCache(_ price: Decimal) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Locale(identifier: localeIdentifier)
    formatter.currencyCode = currencyCode
    if let currencySymbol { formatter.currencySymbol = currencySymbol }
    let text = formatter.string(from: price as NSDecimalNumber) ?? "\(price) \(currencyCode)"
    // Terminals draw a no-break space like any other; a plain space keeps copy and paste simple.
    return text.replacingOccurrences(of: "\u{00A0}", with: " ")
      .replacingOccurrences(of: "\u{202F}", with: " ")
  }
}
