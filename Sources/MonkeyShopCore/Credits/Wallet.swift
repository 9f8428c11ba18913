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
