import Foundation

/// What a signed transaction says (docs/signing.md): the fields of Apple's `JWSTransactionDecodedPayload`
/// that apply to a consumable bought in this shop, built from the store's transaction, the catalog
/// and the storefront. The JWS signs `encodedJSON`; the transaction manager shows `lines`.
///
/// Apple's field list and types:
/// https://developer.apple.com/documentation/appstoreservernotifications/jwstransactiondecodedpayload
/// Dates are "UNIX time, in milliseconds" and identifiers are strings, as in Apple's payloads.
public struct SignedTransactionPayload: Equatable, Sendable {
  /// A field's value as JSON writes it.
  public enum Value: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    /// UNIX time in milliseconds, written as an integer.
    case date(Int64)

    public var description: String {
      switch self {
      case .string(let text): text
      case .integer(let number): "\(number)"
      case .date(let milliseconds):
        "\(milliseconds) (\(Self.iso8601(milliseconds)))"
      }
    }

    /// `2023-11-14T22:13:20.123Z`, from the milliseconds themselves (a `Date` in between could show
    /// .122 for .123).
    static func iso8601(_ milliseconds: Int64) -> String {
      let millisecond = (milliseconds % 1000 + 1000) % 1000
      let seconds = (milliseconds - millisecond) / 1000
      let whole = Date(timeIntervalSince1970: Double(seconds))
        .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
      return whole.dropLast() + String(format: ".%03dZ", Int(millisecond))
    }
  }

  public let transactionId: String
  public let originalTransactionId: String
  public let bundleId: String
  public let productId: String
  public let purchaseDate: Int64
  public let originalPurchaseDate: Int64
  public let quantity: Int
  public let type: String
  public let inAppOwnershipType: String
  public let signedDate: Int64
  public let environment: StoreEnvironment
  public let transactionReason: String
  public let storefront: String
  public let storefrontId: String
  /// Milliunits of `currency` for the whole quantity; nil (and no `currency`) where the product has
  /// no price in the storefront.
  public let price: Int64?
  public let currency: String?
  public let revocationDate: Int64?
  public let revocationReason: RevocationReason?
  public let appTransactionId: String
  public let appAccountToken: UUID?
  public let revocationType: String?
  public let revocationPercentage: Int?

  /// Whether the App Store signs the transaction: only purchased (or restored) transactions carry a
  /// signed transaction; purchasing, deferred and failed ones have none (StoreKit 2's `purchase()`
  /// returns no transaction for pending or cancelled purchases).
  public static func isSigned(_ transaction: StoreTransaction) -> Bool {
    transaction.transactionIdentifier != nil
  }

  /// The payload of a transaction the App Store signs (`isSigned`); nil for the others. What the
  /// App Store recorded when it completed the transaction is what it signs, whatever the catalog
  /// says now; for one completed before transactions kept a record, the catalog and storefront
  /// given fill in what it lacks. `appTransactionID`: the data folder's
  /// (`StoreState.appTransactionID`), for a transaction completed before transactions were stamped
  /// with it.
  public init?(
    _ transaction: StoreTransaction, catalog: Catalog, storefront current: Storefront,
    appTransactionID: String? = nil
  ) {
    if let recorded = Self(recorded: transaction, appTransactionID: appTransactionID) {
      self = recorded
      return
    }
    guard Self.isSigned(transaction) else { return nil }
    // The storefront it was charged in; one completed before transactions kept it: the current one.
    let storefront = transaction.storefront.flatMap(Storefront.named) ?? current
    let record =
      catalog.product(transaction.productIdentifier).flatMap {
        PurchaseRecord(
          product: $0, quantity: transaction.quantity, storefront: storefront, bundleId: catalog.bundleIdentifier)
      }
      // A product the catalog no longer sells was a consumable: the only kind sold before
      // non-consumables.
      ?? PurchaseRecord(
        price: nil, currency: nil, type: PurchaseRecord.consumable, bundleId: catalog.bundleIdentifier, credits: nil)
    self.init(transaction, record: record, storefront: storefront, appTransactionID: appTransactionID)
  }

  /// The payload from what the transaction recorded alone; nil when it is not signed or has no
  /// record.
  public init?(recorded transaction: StoreTransaction, appTransactionID: String? = nil) {
    guard Self.isSigned(transaction), let record = transaction.record,
      let storefront = transaction.storefront.flatMap(Storefront.named)
    else { return nil }
    self.init(transaction, record: record, storefront: storefront, appTransactionID: appTransactionID)
  }

  private init(
    _ transaction: StoreTransaction, record: PurchaseRecord, storefront: Storefront, appTransactionID: String?
  ) {
    transactionId = transaction.id
    // "This value is identical to the transaction identifier (`transactionId`) except when the user
    // restores or renews a subscription": a restored non-consumable names the purchase it restores
    // (https://developer.apple.com/documentation/appstoreservernotifications/originaltransactionid).
    originalTransactionId = transaction.restoredTransactionID ?? transaction.id
    bundleId = record.bundleId
    productId = transaction.productIdentifier
    // `purchaseDate`: "The time that the App Store charged the customer's account for a purchase, a
    // restored product, a subscription, or a subscription renewal after a lapse"
    // (https://developer.apple.com/documentation/appstoreservernotifications/purchasedate): a
    // restored transaction's own date, the restore's. `originalPurchaseDate`: "The purchase date of
    // the transaction associated with the original transaction identifier"
    // (https://developer.apple.com/documentation/appstoreservernotifications/originalpurchasedate):
    // the purchase's, which the restored transaction carries. A restored transaction written before
    // it carried that date gives its own.
    purchaseDate = Self.milliseconds(transaction.purchaseDate)
    originalPurchaseDate = Self.milliseconds(transaction.originalPurchaseDate ?? transaction.purchaseDate)
    quantity = transaction.quantity
    // Apple's `type` values include "Consumable" and "Non-Consumable"
    // (https://developer.apple.com/documentation/appstoreserverapi/type), fixed at purchase.
    type = record.type
    // "The transaction belongs to the purchaser": this shop shares nothing through Family Sharing
    // (https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct/purchased).
    inAppOwnershipType = "PURCHASED"
    // The moment of the transaction's latest change, so the same transaction always says the same
    // thing: its purchase, or its refund once refunded. Apple's verifier, with online checks off,
    // checks the certificate chain at this date (research: `effective_date` from `signedDate`), and
    // the chain is valid from 2000 to 2099, around any date the virtual clock gives.
    signedDate = Self.milliseconds(transaction.revocationDate ?? transaction.purchaseDate)
    environment = transaction.environment ?? .sandbox
    // "A transaction reason that indicates a purchase is initiated by a customer"; the other,
    // "RENEWAL", is for auto-renewable subscriptions
    // (https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct/purchase).
    transactionReason = "PURCHASE"
    self.storefront = storefront.code
    storefrontId = storefront.appleID
    price = record.price
    currency = record.currency
    revocationDate = transaction.revocationDate.map(Self.milliseconds)
    revocationReason = transaction.refundReason
    // "The unique identifier of the app download transaction"
    // (https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload);
    // StoreKit declares `Transaction.appTransactionID` a non-optional String
    // (https://developer.apple.com/documentation/storekit/transaction/apptransactionid): on every
    // transaction, one value per account and app (`StoreState.appTransactionID`).
    appTransactionId =
      transaction.appTransactionID ?? appTransactionID
      ?? StoreState.derivedAppTransactionID(bundleIdentifier: record.bundleId)
    // "A UUID you create at the time of purchase that associates the transaction with a customer on
    // your own service. If your app doesn't provide an appAccountToken, this field is omitted."
    // (same page; https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken).
    appAccountToken = transaction.appAccountToken
    // A refund here is always whole: `REFUND_FULL`, Apple's value for "a full refund"
    // (https://developer.apple.com/documentation/appstoreservernotifications/revocationtype; the
    // others are `REFUND_PRORATED` and `FAMILY_REVOKE`). `revocationPercentage`: "This field is
    // present in the JWSTransactionDecodedPayload for refunded transactions", in milliunits, "100%
    // → 100000" in Apple's examples
    // (https://developer.apple.com/documentation/appstoreservernotifications/revocationpercentage).
    // Apple does not say whether a REFUND_FULL carries it; a refund of the whole purchase is 100%.
    revocationType = transaction.isRevoked ? "REFUND_FULL" : nil
    revocationPercentage = transaction.isRevoked ? 100_000 : nil
  }

  /// Every field in the order Apple's payloads list them, optional ones only when present.
  public var fields: [(key: String, value: Value)] {
    var fields: [(key: String, value: Value)] = [
      ("transactionId", .string(transactionId)),
      ("originalTransactionId", .string(originalTransactionId)),
      ("appTransactionId", .string(appTransactionId)),
      ("bundleId", .string(bundleId)),
      ("productId", .string(productId)),
      ("purchaseDate", .date(purchaseDate)),
      ("originalPurchaseDate", .date(originalPurchaseDate)),
      ("quantity", .integer(Int64(quantity))),
      ("type", .string(type)),
      ("inAppOwnershipType", .string(inAppOwnershipType)),
      ("signedDate", .date(signedDate)),
      ("environment", .string(environment.rawValue)),
      ("transactionReason", .string(transactionReason)),
      ("storefront", .string(storefront)),
      ("storefrontId", .string(storefrontId)),
    ]
    if let appAccountToken {
      // Apple's UUIDs are written in lowercase (`"appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"`
      // in the App Store Server Library's test data); Foundation writes uppercase.
      fields.append(("appAccountToken", .string(appAccountToken.uuidString.lowercased())))
    }
    if let price, let currency {
      fields.append(("price", .integer(price)))
      fields.append(("currency", .string(currency)))
    }
    if let revocationDate, let revocationReason {
      fields.append(("revocationDate", .date(revocationDate)))
      fields.append(("revocationReason", .integer(Int64(revocationReason.rawValue))))
    }
    if let revocationType { fields.append(("revocationType", .string(revocationType))) }
    if let revocationPercentage { fields.append(("revocationPercentage", .integer(Int64(revocationPercentage)))) }
    return fields
  }

  /// `key: value` lines, dates with their ISO 8601 form: for the transaction manager.
  public var lines: [String] { fields.map { "\($0.key): \($0.value)" } }

  /// The JSON the JWS signs: one object, keys in `fields`' order, no spaces, dates and numbers as
  /// integers. The same payload always encodes to the same bytes.
  public var encodedJSON: Data {
    let members = fields.map { key, value in
      let text =
        switch value {
        case .string(let string): TerminalText.jsonString(string)
        case .integer(let number), .date(let number): "\(number)"
        }
      return TerminalText.jsonString(key) + ":" + text
    }
    return Data(("{" + members.joined(separator: ",") + "}").utf8)
  }

  // MARK: Apple's values

  /// "The price, in milliunits … multiplied by 1000" and, for a consumable, "the total amount of
  /// the transaction for the quantity" (https://developer.apple.com/documentation/appstoreservernotifications/price).
  /// Nil for a total beyond Apple's int64.
  public static func milliunits(_ price: Decimal, quantity: Int) -> Int64? {
    let total = price * 1000 * Decimal(quantity)
    guard total <= Decimal(Int64.max) else { return nil }
    var rounded = Decimal()
    var exact = total
    NSDecimalRound(&rounded, &exact, 0, .plain)
    return Int64(exactly: NSDecimalNumber(decimal: rounded).int64Value)
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  }
}
