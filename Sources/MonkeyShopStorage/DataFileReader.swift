import Foundation
import MonkeyShopDomain

/// Reads a wallet or store file in full, or refuses it with its path and what is wrong: not
/// JSON, a key written twice, nesting no monkeyshop file has, a schema this monkeyshop does not
/// read, or a value out of place (the types' own readers check every field).
struct DataFileReader {
  let path: String
  let data: Data

  func wallet() throws(DataFileError) -> Wallet {
    switch try schemaVersion(reads: Wallet.schemaVersion, upgrades: [1, 2, 3]) {
    case 1: return try decode(WalletVersion1.self).upgraded()
    case 2, 3:
      // 2: the same fields less `clawedBack` (nothing was refunded yet). 3: `credited` as runs,
      // read as settled up to its highest but for the numbers the runs left out.
      var wallet = try decode(Wallet.self)
      wallet.schemaVersion = Wallet.schemaVersion
      return wallet
    default: return try decode(Wallet.self)
    }
  }

  /// `owned.json`: the non-consumables the app owns.
  func owned() throws(DataFileError) -> OwnedProducts {
    _ = try schemaVersion(reads: OwnedProducts.schemaVersion, upgrades: [])
    return try decode(OwnedProducts.self)
  }

  func store() throws(DataFileError) -> StoreState {
    _ = try schemaVersion(reads: StoreState.schemaVersion, upgrades: [])
    return try decode(StoreState.self)
  }

  private struct Header: Decodable { let schemaVersion: Int? }

  private func schemaVersion(reads current: Int, upgrades older: [Int]) throws(DataFileError) -> Int {
    // JSONDecoder also takes UTF-16 and UTF-32 (recognised by their zero bytes), which the key
    // check below does not read; JSON text never holds a zero byte.
    guard String(validating: data, as: UTF8.self) != nil, !data.starts(with: [0xEF, 0xBB, 0xBF]), !data.contains(0)
    else {
      throw DataFileError(path: path, problem: "is not UTF-8 text without a byte-order mark, as monkeyshop writes it")
    }
    do {
      try JSONShape.check(data)
    } catch {
      switch error {
      case .duplicateKey(let key, let place):
        throw DataFileError(path: path, problem: "the key \"\(key)\" appears twice in \(place) (expected each once)")
      case .tooDeep(let place):
        throw DataFileError(
          path: path, problem: "nests deeper than \(JSONShape.depthLimit) levels at \(place); no monkeyshop file does")
      }
    }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      if data.isEmpty { throw DataFileError(path: path, problem: "not a monkeyshop JSON file (it is empty)") }
      if let problem = Self.invalidJSON(data) {
        throw DataFileError(path: path, problem: "is not valid JSON: \(problem)")
      }
      throw DataFileError(path: path, problem: "not a monkeyshop JSON file (it is not a JSON object)")
    }
    guard let version = header.schemaVersion else {
      throw DataFileError(path: path, problem: "has no schemaVersion (expected \(current))")
    }
    guard version <= current else {
      throw DataFileError(
        path: path,
        problem: "schemaVersion \(version) was written by a newer monkeyshop (this one reads \(current))")
    }
    guard version == current || older.contains(version) else {
      throw DataFileError(path: path, problem: "schemaVersion \(version) is not supported (expected \(current))")
    }
    return version
  }

  private func decode<Value: Decodable>(_ type: Value.Type) throws(DataFileError) -> Value {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    do {
      return try decoder.decode(Value.self, from: data)
    } catch let error as DecodingError {
      throw DataFileError(path: path, problem: Self.explain(error))
    } catch {
      throw DataFileError(path: path, problem: "\(error)")
    }
  }

  /// Why data is not JSON at all (a file cut short, or not one monkeyshop wrote), as Foundation's
  /// parser says it, with the line and column of the place it names; nil for valid JSON.
  static func invalidJSON(_ data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      var said = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
      while said.hasSuffix(".") { said.removeLast() }
      if said.hasPrefix("Unexpected end of file") {
        return "it ends in the middle of a value (the file is cut short)"
      }
      if let range = said.range(of: "around character "), let offset = Int(said[range.upperBound...]),
        offset <= data.count
      {
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "\(said) (line \(line), column \(column))"
      }
      return said
    }
  }

  /// A JSON value's kind as the file's reader knows it, not Swift's name for the type it becomes.
  static func kind(of type: Any.Type) -> String {
    switch type {
    case is any BinaryInteger.Type: return "a whole number"
    case is any BinaryFloatingPoint.Type, is Decimal.Type: return "a number"
    case is any StringProtocol.Type: return "text in quotes"
    case is Bool.Type: return "true or false"
    case is [Any].Type: return "a list"
    default: return String(describing: type).hasPrefix("Array<") ? "a list" : "an object"
    }
  }

  static func explain(_ error: DecodingError) -> String {
    func place(_ path: [any CodingKey]) -> String {
      let key = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return key.isEmpty ? "the top level" : String(key.drop { $0 == "." })
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(place(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context):
      return "\(place(context.codingPath)) has the wrong type (expected \(kind(of: type)))"
    case .valueNotFound(let type, let context):
      return "\(place(context.codingPath)) is null (expected \(kind(of: type)))"
    case .dataCorrupted(let context):
      return "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}

/// The first wallet format: credited transactions kept by id only until the store showed them
/// finished. Read once and written back in the current format.
private struct WalletVersion1: Decodable {
  let balance: Int
  let deliveredTransactionIDs: [String]

  enum CodingKeys: String, CodingKey, CaseIterable { case schemaVersion, balance, deliveredTransactionIDs }

  init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    balance = try container.decodeWholeNumber(forKey: .balance, in: 0...Wallet.balanceLimit)
    deliveredTransactionIDs = try container.decode([String].self, forKey: .deliveredTransactionIDs)
    for id in deliveredTransactionIDs where !StoreTransaction.canBeID(id) {
      throw DecodingError.dataCorruptedError(
        forKey: .deliveredTransactionIDs, in: container,
        debugDescription: "'\(id)' is not a transaction number from 1 to \(StoreState.transactionNumberLimit)")
    }
  }

  func upgraded() -> Wallet {
    var wallet = Wallet(balance: balance)
    var runs = TransactionRuns()
    for number in deliveredTransactionIDs.compactMap(StoreTransaction.number) { runs.insert(number) }
    wallet.credited = CreditedTransactions(upgrading: runs)
    wallet.lastTransactionNumber = runs.highest ?? 0
    return wallet
  }
}
