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
  /// Apple's storefront ID, the signed transaction's `storefrontId` ("An Apple-defined value that
  /// uniquely identifies an App Store storefront",
  /// https://developer.apple.com/documentation/appstoreserverapi/storefrontid); where the IDs come
  /// from: `StorefrontTable`.
  public let appleID: String

  public var description: String { code }

  /// The storefronts this shop can simulate: every App Store storefront (`StorefrontTable`).
  public static let all: [Storefront] = {
    // Split as bytes: every storefront's start reads the table (its default storefront is looked
    // up in it), and splitting by Character took a million instructions of that start.
    func rows(_ table: String) -> [[String]] {
      table.utf8.split(separator: UInt8(ascii: "\n")).map { line in
        line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(Substring($0)) }
      }
    }
    var currencies: [String: [String]] = [:]
    for row in rows(StorefrontTable.currencies) { currencies[row[0]] = row }
    return rows(StorefrontTable.storefronts).map { row in
      let currency = currencies[row[2]]!
      return Storefront(
        code: row[0], currencyCode: row[2], localeIdentifier: row[3],
        // The App Store in Japan writes the full-width yen sign.
        currencySymbol: row[2] == "JPY" ? "￥" : nil, minorUnitDigits: Int(currency[1])!,
        unitName: currency[2], appleID: row[1])
    }
  }()

  public static let usa = named("USA")!

  public static func named(_ code: String) -> Storefront? {
    byCode[code] ?? byCode[code.uppercased()]
  }

  /// The storefront whose code is `code` exactly as written, in capitals.
  static func withCode(_ code: String) -> Storefront? { byCode[code] }

  /// Catalogs name a storefront for every price of every product: lookups stay quick.
  private static let byCode = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

  /// For messages: what a storefront code is, with examples (all 175 would bury the message).
  public static var knownCodes: String {
    "the \(all.count) App Store storefronts' ISO 3166-1 alpha-3 codes (\(all.prefix(6).map(\.code).joined(separator: ", ")), …)"
  }

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
