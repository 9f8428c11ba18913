import Foundation

/// The app's side: `wallet.json`, written only by the credit manager (and, for the transaction
/// counter, by the storage that keeps both sides).
public struct Wallet: Codable, Equatable, Sendable {
  public static let schemaVersion = 2
  /// Far above any real balance, and below what `credits × quantity` additions could overflow.
  public static let balanceLimit = 1 << 53

  public var schemaVersion = Wallet.schemaVersion
  public var balance = 0
  /// Every transaction credited, so a transaction delivered again (a redelivery at launch, a store
  /// file restored from an older copy) is only finished.
  public var credited = CreditedTransactions()
  /// The highest transaction number the app has seen. The store numbers new transactions above
  /// it, so an ID never repeats even if `store.json` is deleted or replaced by an older copy.
  public var lastTransactionNumber = 0

  public init(balance: Int = 0) {
    self.balance = balance
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, balance, credited, lastTransactionNumber
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    balance = try container.decodeWholeNumber(forKey: .balance, in: 0...Self.balanceLimit)
    credited = try container.decode(CreditedTransactions.self, forKey: .credited)
    lastTransactionNumber = try container.decodeWholeNumber(
      forKey: .lastTransactionNumber, in: 0...StoreState.transactionNumberLimit)
    if let highest = credited.highest, highest > lastTransactionNumber {
      throw DecodingError.dataCorruptedError(
        forKey: .credited, in: container,
        debugDescription: "lists transaction \(highest), above lastTransactionNumber \(lastTransactionNumber)")
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

/// A field a type does not know would be dropped by the next write, and JSONDecoder does not even
/// check its text: refuse it instead.
func refuseUnknownKeys(in decoder: any Decoder, known: [String]) throws {
  for key in try decoder.container(keyedBy: AnyKey.self).allKeys where !known.contains(key.stringValue) {
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: decoder.codingPath + [key],
        debugDescription: "unknown field (expected \(known.joined(separator: ", ")))"))
  }
}

extension KeyedDecodingContainer {
  /// A whole number in a range, with a message that says what was found: JSONDecoder says only
  /// "expected Int" for 5.5, and "not representable" for 2^63.
  func decodeWholeNumber(forKey key: Key, in range: ClosedRange<Int>) throws -> Int {
    let expected = "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
    if let number = try? decode(Int.self, forKey: key) {
      guard range.contains(number) else {
        throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "is \(number), \(expected)")
      }
      return number
    }
    if let number = try? decode(Double.self, forKey: key) {
      let shown = number.rounded() == number && abs(number) < 1e21 ? String(format: "%.0f", number) : "\(number)"
      throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "is \(shown), \(expected)")
    }
    _ = try decode(Int.self, forKey: key)  // Missing or not a number: the decoder's own error.
    throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: expected)
  }
}
