import Foundation

/// What the App Store records about a purchase when it completes it, read as written ever after:
/// loading another catalog (a new price, other credits, the product gone) changes none of it.
///
/// Apple's `price` is "The price you configured in App Store Connect, which the system records on
/// the purchase date (purchaseDate)" and, for a consumable, "the total amount of the transaction for
/// the quantity the customer purchased"
/// (https://developer.apple.com/documentation/appstoreservernotifications/price). The product's
/// `type` is fixed with it (https://developer.apple.com/documentation/appstoreserverapi/type).
public struct PurchaseRecord: Codable, Equatable, Sendable {
  /// Milliunits of `currency` for the whole quantity, as the signed transaction gives it; nil (and
  /// no currency) when it overflows Apple's int64.
  public let price: Int64?
  /// ISO 4217, present only with `price` (https://developer.apple.com/documentation/appstoreserverapi/currency).
  public let currency: String?
  /// Apple's `type`: "Consumable" or "Non-Consumable".
  public let type: String
  /// The bundle ID the signed transaction names.
  public let bundleId: String
  /// The monkey credits the app is due for it: `credits × quantity` of the catalog at purchase; nil
  /// for a non-consumable. The credit manager gives exactly this, and a refund takes back exactly
  /// this
  public let credits: Int?

  public static let consumable = "Consumable"
  public static let nonConsumable = "Non-Consumable"

  public init(price: Int64?, currency: String?, type: String, bundleId: String, credits: Int?) {
    self.price = price
    self.currency = price == nil ? nil : currency
    self.type = type
    self.bundleId = bundleId
    self.credits = credits
  }

  /// The record of `product` bought `quantity` times in `storefront`, as the catalog says now; nil
  /// when its credits overflow (the credit manager then refuses the delivery).
  public init?(product: Product, quantity: Int, storefront: Storefront, bundleId: String) {
    let price = product.price(in: storefront).flatMap { SignedTransactionPayload.milliunits($0, quantity: quantity) }
    var credits: Int?
    if let perUnit = product.credits {
      let (total, overflow) = perUnit.multipliedReportingOverflow(by: quantity)
      guard !overflow, total <= Product.maximumCredits * 10 else { return nil }
      credits = total
    }
    self.init(
      price: price, currency: storefront.currencyCode,
      type: product.isNonConsumable ? Self.nonConsumable : Self.consumable, bundleId: bundleId, credits: credits)
  }

  public var isNonConsumable: Bool { type == Self.nonConsumable }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case price, currency, type, bundleId, credits
  }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    price = try container.decodeIfPresent(Int64.self, forKey: .price)
    currency = try container.decodeIfPresent(String.self, forKey: .currency)
    type = try container.decode(String.self, forKey: .type)
    bundleId = try container.decode(String.self, forKey: .bundleId)
    if container.contains(.credits) {
      credits = try container.decodeWholeNumber(forKey: .credits, in: 1...(Product.maximumCredits * 10))
    } else {
      credits = nil
    }
    guard type == Self.consumable || type == Self.nonConsumable else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "is '\(type)', expected Consumable or Non-Consumable")
    }
    if let price, price < 0 {
      throw DecodingError.dataCorruptedError(
        forKey: .price, in: container, debugDescription: "is \(price), expected milliunits of 0 or more")
    }
    guard (price == nil) == (currency == nil) else {
      throw DecodingError.dataCorruptedError(
        forKey: .currency, in: container, debugDescription: "price and currency come together")
    }
    guard (type == Self.consumable) == (credits != nil) else {
      throw DecodingError.dataCorruptedError(
        forKey: .credits, in: container,
        debugDescription: type == Self.consumable
          ? "is missing: a consumable's record says the credits it gives" : "is set on a non-consumable")
    }
  }
}

extension StoreTransaction {
  /// Whether it is for a non-consumable: as recorded at purchase, else (a transaction completed
  /// before transactions kept a record) as the catalog says now.
  public func isNonConsumable(in catalog: Catalog) -> Bool {
    record?.isNonConsumable ?? catalog.isNonConsumable(productIdentifier)
  }

  /// The credits the app is due for it: as recorded at purchase, else as the catalog says now.
  public func creditsDue(in catalog: Catalog) -> Int? {
    if let record { return record.credits }
    guard let perUnit = catalog.product(productIdentifier)?.credits else { return nil }
    let (credits, overflow) = perUnit.multipliedReportingOverflow(by: quantity)
    return overflow ? nil : credits
  }

  /// The signed transaction as it stands now: the refund's once refunded, else the purchase's.
  public var storedJWS: String? { isRevoked ? signedRefund : signedPurchase }

  /// Compact serialization: "three Base64URL-encoded components separated by a period"
  /// (https://developer.apple.com/documentation/appstoreservernotifications/jwstransaction).
  public static func isCompactJWS(_ text: String) -> Bool { DottedParts.count(text) == 3 }

  /// Where the record disagrees with what the App Store signed for the purchase (its
  /// `signedPurchase`): the field, the record's value and the signed one; nil when they agree or
  /// there is nothing to compare. The record is written with the signature and never changes, so a
  /// difference means the file was edited. The credits are the app's and are not signed.
  public var recordDisagreement: (field: String, recorded: String, signed: String)? {
    guard let record, let jws = signedPurchase,
      let signed = SignedPurchaseFields(compactJWS: jws)
    else { return nil }
    let pairs: [(String, String, String)] = [
      ("productId", productIdentifier, signed.productId),
      ("quantity", "\(quantity)", "\(signed.quantity)"),
      ("bundleId", record.bundleId, signed.bundleId),
      ("type", record.type, signed.type),
      ("price", record.price.map { "\($0)" } ?? "none", signed.price.map { "\($0)" } ?? "none"),
      ("currency", record.currency ?? "none", signed.currency ?? "none"),
    ]
    return pairs.first { $0.1 != $0.2 }.map { (field: $0.0, recorded: $0.1, signed: $0.2) }
  }

  /// Completed (purchased or restored) and not yet signed in its current state.
  public var needsSignature: Bool {
    SignedTransactionPayload.isSigned(self) && storedJWS == nil
  }
}

/// The fields of a signed purchase that its record also holds, read from the JWS's payload (its
/// second Base64URL part; the signature is the verifier's business, not this reader's).
struct SignedPurchaseFields: Decodable {
  let productId: String
  let quantity: Int
  let bundleId: String
  let type: String
  let price: Int64?
  let currency: String?

  init?(compactJWS: String) {
    let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64),
      let fields = try? JSONDecoder().decode(Self.self, from: data)
    else { return nil }
    self = fields
  }
}
