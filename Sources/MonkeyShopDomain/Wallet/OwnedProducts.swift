import Foundation

/// The app's record of the non-consumables it owns: `owned.json`, beside the wallet. A
/// non-consumable is unlocked once, when its purchase (or a restore) is delivered; its hosted
/// content, once unpacked in the data folder, is recorded with its version.
public struct OwnedProducts: Codable, Equatable, Sendable {
  public static let schemaVersion = 1
  public static let fileName = "owned.json"

  public struct Entry: Codable, Equatable, Sendable {
    public var productIdentifier: String
    /// The transaction that unlocked it: the purchase, or the restore that brought it back.
    public var transactionID: String
    /// The version of the hosted content unpacked in the data folder, once it is.
    public var contentVersion: String?

    public init(productIdentifier: String, transactionID: String, contentVersion: String? = nil) {
      self.productIdentifier = productIdentifier
      self.transactionID = transactionID
      self.contentVersion = contentVersion
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case productIdentifier, transactionID, contentVersion
    }

    public init(from decoder: any Decoder) throws {
      try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
      let container = try decoder.container(keyedBy: CodingKeys.self)
      productIdentifier = try container.decode(String.self, forKey: .productIdentifier)
      transactionID = try container.decode(String.self, forKey: .transactionID)
      contentVersion = try container.decodeIfPresent(String.self, forKey: .contentVersion)
      guard !productIdentifier.isEmpty, !productIdentifier.contains("/"), productIdentifier != ".",
        productIdentifier != ".."
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .productIdentifier, in: container,
          debugDescription: "is '\(productIdentifier)', expected a product identifier")
      }
      guard StoreTransaction.number(transactionID) != nil else {
        throw DecodingError.dataCorruptedError(
          forKey: .transactionID, in: container,
          debugDescription: "is '\(transactionID)', expected a transaction number")
      }
      if contentVersion?.isEmpty == true {
        throw DecodingError.dataCorruptedError(
          forKey: .contentVersion, in: container, debugDescription: "is empty, expected a version such as \"1.0\"")
      }
    }
  }

  public var schemaVersion = OwnedProducts.schemaVersion
  /// In the order they were unlocked, each product once.
  public var products: [Entry] = []

  public init(products: [Entry] = []) {
    self.products = products
  }

  public func entry(_ productIdentifier: String) -> Entry? {
    products.first { $0.productIdentifier == productIdentifier }
  }

  public func owns(_ productIdentifier: String) -> Bool { entry(productIdentifier) != nil }

  /// Unlocks a product; false when it was owned already.
  @discardableResult
  public mutating func unlock(_ productIdentifier: String, by transactionID: String) -> Bool {
    guard !owns(productIdentifier) else { return false }
    products.append(Entry(productIdentifier: productIdentifier, transactionID: transactionID))
    return true
  }

  /// Removes a product the app no longer has access to (its purchase was refunded); false when it
  /// was not owned.
  @discardableResult
  public mutating func revoke(_ productIdentifier: String) -> Bool {
    guard let index = products.firstIndex(where: { $0.productIdentifier == productIdentifier }) else { return false }
    products.remove(at: index)
    return true
  }

  /// Records the content version now unpacked for a product the app owns. The product was
  /// unlocked before its download started; one no longer owned (refunded while it downloaded) is
  /// not owned again by its content arriving.
  public mutating func installed(_ productIdentifier: String, version: String, by transactionID: String) {
    guard let index = products.firstIndex(where: { $0.productIdentifier == productIdentifier }) else { return }
    products[index].contentVersion = version
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, products
  }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // `DataFileReader` has checked the version.
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    products = try container.decode([Entry].self, forKey: .products)
    var seen: Set<String> = []
    for entry in products where !seen.insert(entry.productIdentifier).inserted {
      throw DecodingError.dataCorruptedError(
        forKey: .products, in: container, debugDescription: "lists \(entry.productIdentifier) twice")
    }
  }
}
