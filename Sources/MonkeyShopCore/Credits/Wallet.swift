/// The app's side: `wallet.json`, written only by the credit manager.
public struct Wallet: Codable, Equatable, Sendable {
  public static let schemaVersion = 1

  public var schemaVersion = Wallet.schemaVersion
  public var balance = 0
  /// Transactions credited whose finish the wallet has not yet seen in the store. Delivery checks
  /// this list so a redelivered transaction is never credited twice; once the store shows a
  /// transaction finished it can never come back, so its id is dropped and the list stays short.
  public var deliveredTransactionIDs: [String] = []

  public init(balance: Int = 0) {
    self.balance = balance
  }

  public init(from decoder: any Decoder) throws {
    // A field the wallet does not know would be dropped by the next write, and JSONDecoder does not
    // even check its text: refuse it instead.
    for key in try decoder.container(keyedBy: AnyKey.self).allKeys where CodingKeys(stringValue: key.stringValue) == nil
    {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: [key],
          debugDescription: "unknown field (expected schemaVersion, balance, deliveredTransactionIDs)"))
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    balance = try container.decode(Int.self, forKey: .balance)
    deliveredTransactionIDs = try container.decode([String].self, forKey: .deliveredTransactionIDs)
    guard balance >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .balance, in: container, debugDescription: "is \(balance), expected 0 or more")
    }
  }
}

/// Any key of a JSON object, to see the ones a type does not know.
struct AnyKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
