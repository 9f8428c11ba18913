import Foundation

/// The app's side: `wallet.json`, written only by the credit manager (and, for the transaction
/// counter, by the storage that keeps both sides).
public struct Wallet: Codable, Equatable, Sendable {
  /// 4: `credited` as `{through, uncredited}`, which failed purchases do not grow. 3: `clawedBack`,
  /// and a balance below zero (owed) after a refund. 1 to 3 are read and upgraded.
  public static let schemaVersion = 4
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
  public var clawedBack = TransactionRuns()
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

  /// Reads the current schema, schema 3 (`credited` as runs) and schema 2 (no `clawedBack`, no
  /// balance below zero), which `DataFileReader` then upgrades.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    let refunds = schemaVersion >= 3
    let known = CodingKeys.allCases.filter { refunds || $0 != .clawedBack }
    try refuseUnknownKeys(in: decoder, known: known.map(\.rawValue))
    balance = try container.decodeWholeNumber(
      forKey: .balance, in: (refunds ? -Self.balanceLimit : 0)...Self.balanceLimit)
    credited =
      schemaVersion >= 4
      ? try container.decode(CreditedTransactions.self, forKey: .credited)
      : CreditedTransactions(upgrading: try container.decode(TransactionRuns.self, forKey: .credited))
    if refunds { clawedBack = try container.decode(TransactionRuns.self, forKey: .clawedBack) }
    lastTransactionNumber = try container.decodeWholeNumber(
      forKey: .lastTransactionNumber, in: 0...StoreState.transactionNumberLimit)
    for (key, highest) in [(CodingKeys.credited, credited.highest), (.clawedBack, clawedBack.highest)] {
      if let highest, highest > lastTransactionNumber {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription: "lists transaction \(highest), above lastTransactionNumber \(lastTransactionNumber)")
      }
    }
  }
}

extension Wallet {
  /// Records that the app credited this transaction. The numbers it passes over that the store
  /// may still credit (purchasing, deferred, paid for and not delivered), or that were refunded
  /// before delivery, stay watched; failed, cancelled and declined ones are forgotten, so they
  /// never grow the wallet.
  public mutating func recordCredit(_ number: Int, store: StoreState) {
    let low = credited.through
    let refunds = clawedBack.runs.filter { $0.upperBound > low && $0.lowerBound < number }
      .flatMap { max($0.lowerBound, low + 1)...min($0.upperBound, number) }
    credited.insert(number, watching: Self.mayBeCredited(in: store) + refunds)
    settleCredits(store: store)
  }

  /// Forgets the watched numbers settled since: failed, finished, or no longer in the store.
  public mutating func settleCredits(store: StoreState) {
    guard !credited.uncredited.isEmpty else { return }
    let open = Set(Self.mayBeCredited(in: store))
    credited.settle { open.contains($0) || clawedBack.contains($0) }
  }

  /// The transactions the store may still hand the app to credit.
  static func mayBeCredited(in store: StoreState) -> [Int] {
    store.transactions.filter { transaction in
      switch transaction.state {
      case .purchasing, .deferred: true
      case .purchased: !transaction.finished
      case .failed, .restored: false
      }
    }.compactMap(\.number)
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
    if !contains(key) { _ = try decode(Int.self, forKey: key) }  // Missing: the decoder's own error.
    throw DecodingError.dataCorruptedError(
      forKey: key, in: self, debugDescription: "is \(describedValue(forKey: key)), \(expected)")
  }

  /// What a value that is not a number is, in the words of JSON: `"7"` for text, `true`, `null`,
  /// a list or an object.
  func describedValue(forKey key: Key) -> String {
    if (try? decodeNil(forKey: key)) == true { return "null" }
    if let flag = try? decode(Bool.self, forKey: key) { return "\(flag)" }
    if let text = try? decode(String.self, forKey: key) {
      return text.count > 40 ? "the text \"\(text.prefix(40))…\"" : "the text \"\(text)\""
    }
    if (try? nestedUnkeyedContainer(forKey: key)) != nil { return "a list" }
    return "an object"
  }
}
