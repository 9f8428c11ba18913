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
}
