import Foundation

/// The order ID of a purchase: what the customer's App Store receipt email shows, and what the App
/// Store Server API's Look Up Order ID takes
/// (https://developer.apple.com/documentation/appstoreserverapi/look-up-order-id, "The customer's
/// order ID from an App Store receipt for In-App Purchases"). Apple's are ten uppercase letters and
/// digits (`MK5TTTVWJH` in Apple's example, https://developer.apple.com/documentation/appstoreserverapi/orderid).
///
/// monkeyshop keeps none on disk: each purchase's order ID is derived from what never changes in its
/// record (its transaction ID, product and purchase date), so every command and the server give the
/// same one, for transactions made before order IDs existed too.
public enum OrderID {
  /// The ten characters an order ID is made of.
  static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
  public static let length = 10

  /// The purchase's order ID; nil for a transaction without a transaction ID (no purchase was made).
  /// A restored transaction belongs to the order of the purchase it restores.
  public static func of(_ transaction: StoreTransaction) -> String? {
    guard transaction.transactionIdentifier != nil else { return nil }
    let original = transaction.restoredTransactionID ?? transaction.id
    let date = transaction.originalPurchaseDate ?? transaction.purchaseDate
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    return make(from: "order \(original) \(transaction.productIdentifier) \(milliseconds)")
  }

  /// Ten characters from a 64-bit FNV-1a hash of `text`: the same text gives the same ID.
  static func make(from text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    var characters: [Character] = []
    for _ in 0..<length {
      characters.append(alphabet[Int(hash % UInt64(alphabet.count))])
      hash /= UInt64(alphabet.count)
      // 36^10 exceeds 2^64 only slightly: mix the hash again so the last characters vary too.
      hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
    }
    return String(characters)
  }

  /// Whether `text` has the form of an order ID.
  public static func isWellFormed(_ text: String) -> Bool {
    text.count == length && text.allSatisfy { alphabet.contains($0) }
  }
}
