import Foundation

/// The app's side: `wallet.json`, written only by the credit manager (and, for the transaction
/// counter, by the storage that keeps both sides).
public struct Wallet: Codable, Equatable, Sendable {
  /// 3: `clawedBack`, and a balance below zero (owed) after a refund. 1 and 2 are read and upgraded.
  public static let schemaVersion = 3
  /// Far above any real balance, and below what `credits × quantity` additions could overflow.
  public static let balanceLimit = 1 << 53

  public var schemaVersion = Wallet.schemaVersion
  /// Below zero when refunds took back credits already spent: the user owes them, and nothing can
  /// be spent until purchases bring the balance back up.
  public var balance = 0
  /// Every transaction credited, so a transaction delivered again (a redelivery at launch, a store
  /// file restored from an older copy) is only finished.
  public var credited = CreditedTransactions()
  /// Every refunded transaction whose credits were taken back (or, never credited, recorded as
  /// refunded), so a refund is taken back once, however often the app hears of it.
  public var clawedBack = CreditedTransactions()
  /// The highest transaction number the app has seen. The store numbers new transactions above
  /// it, so an ID never repeats even if `store.json` is deleted or replaced by an older copy.
  public var lastTransactionNumber = 0

  public init(balance: Int = 0) {
    self.balance = balance
  }

  /// What the user owes: the balance below zero, or 0.
  public var owed: Int { max(0, -balance) }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, balance, credited, clawedBack, lastTransactionNumber
  }

  /// Reads the current schema and schema 2 (no `clawedBack`, no balance below zero), which
  /// `DataFileReader` then upgrades.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    let current = schemaVersion >= 3
    let known = CodingKeys.allCases.filter { current || $0 != .clawedBack }
    try refuseUnknownKeys(in: decoder, known: known.map(\.rawValue))
    balance = try container.decodeWholeNumber(
      forKey: .balance, in: (current ? -Self.balanceLimit : 0)...Self.balanceLimit)
    credited = try container.decode(CreditedTransactions.self, forKey: .credited)
    if current { clawedBack = try container.decode(CreditedTransactions.self, forKey: .clawedBack) }
    lastTransactionNumber = try container.decodeWholeNumber(
      forKey: .lastTransactionNumber, in: 0...StoreState.transactionNumberLimit)
    for (key, runs) in [(CodingKeys.credited, credited), (.clawedBack, clawedBack)] {
      if let highest = runs.highest, highest > lastTransactionNumber {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription: "lists transaction \(highest), above lastTransactionNumber \(lastTransactionNumber)")
      }
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
public func refuseUnknownKeys(in decoder: any Decoder, known: [String]) throws {
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
  public func decodeWholeNumber(forKey key: Key, in range: ClosedRange<Int>) throws -> Int {
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
