import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import PropertyBased
import Testing

// Whatever bytes wallet.json holds — written by monkeyshop, damaged, truncated or random — the data
// folder never crashes on them, never reads a balance the file does not say, and never writes over
// a file it could not read.

/// A fresh folder for the test's files, removed afterwards.
private func inTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("monkeyshop-wallet-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

/// What JSONSerialization finds in the file, when it is a wallet of this schema: the oracle the
/// data folder is checked against.
///
/// JSONDecoder lets through what JSONSerialization refuses inside strings it skips (control
/// characters, invalid UTF-8 in a key it does not know): such text is blanked out first, which
/// changes no number and no structure.
private struct ExpectedWallet: Equatable {
  let balance: Int
  /// `credited` as schema 4 keeps it: settled through a number but for those still watched.
  let credited: Credited
  let clawedBack: [[Int]]

  struct Credited: Equatable {
    let through: Int
    let uncredited: [Int]

    /// Runs of credited numbers (schemas 1 to 3): settled through the highest, but for the gaps.
    init(runs: [[Int]]) {
      through = runs.last?[1] ?? 0
      var gaps: [Int] = []
      var previous = 0
      for run in runs {
        gaps += Array(stride(from: previous + 1, to: run[0], by: 1))
        previous = run[1]
      }
      uncredited = gaps
    }

    init(through: Int, uncredited: [Int]) {
      self.through = through
      self.uncredited = uncredited
    }

    /// Schema 4's `{"through": N, "uncredited": [...]}`: numbers from 1 to `through`, in order.
    init?(_ value: Any?) {
      guard let object = value as? [String: Any], Set(object.keys) == ["through", "uncredited"],
        let through = ExpectedWallet.integer(object["through"]),
        (0...StoreState.transactionNumberLimit).contains(through),
        let list = object["uncredited"] as? [Any]
      else { return nil }
      var numbers: [Int] = []
      for item in list {
        guard let number = ExpectedWallet.integer(item), number >= 1, number <= through,
          numbers.last.map({ $0 < number }) ?? true
        else { return nil }
        numbers.append(number)
      }
      self.init(through: through, uncredited: numbers)
    }
  }
  let lastTransactionNumber: Int

  init?(_ data: Data) {
    let blanked = String(
      String.UnicodeScalarView(
        String(decoding: data, as: UTF8.self).unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
    guard
      let object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])
        ?? (try? JSONSerialization.jsonObject(with: Data(blanked.utf8)) as? [String: Any]),
      let version = Self.integer(object["schemaVersion"]),
      let balance = Self.integer(object["balance"]),
      // From schema 3 on, refunds may leave the balance below zero (owed).
      ((version >= 3 ? -Wallet.balanceLimit : 0)...Wallet.balanceLimit).contains(balance)
    else { return nil }
    self.balance = balance
    switch version {
    case 1:
      // The first format: credited ids kept as strings, upgraded when read.
      guard Set(object.keys) == ["schemaVersion", "balance", "deliveredTransactionIDs"],
        let ids = object["deliveredTransactionIDs"] as? [Any]
      else { return nil }
      var numbers: [Int] = []
      for id in ids {
        guard let text = id as? String, let number = Int(text), number >= 1, "\(number)" == text else { return nil }
        numbers.append(number)
      }
      credited = Credited(runs: Self.runs(numbers))
      clawedBack = []
      lastTransactionNumber = numbers.max() ?? 0
    case 2, 3, 4:
      let keys: Set<String> = ["schemaVersion", "balance", "credited", "lastTransactionNumber"]
      guard Set(object.keys) == (version >= 3 ? keys.union(["clawedBack"]) : keys),
        let credited = version == 4 ? Credited(object["credited"]) : Self.runs(object["credited"]).map(Credited.init),
        let clawedBack = version >= 3 ? Self.runs(object["clawedBack"]) : [],
        let last = Self.integer(object["lastTransactionNumber"]),
        (0...StoreState.transactionNumberLimit).contains(last),
        credited.through <= last, (clawedBack.last?[1] ?? 0) <= last
      else { return nil }
      self.credited = credited
      self.clawedBack = clawedBack
      lastTransactionNumber = last
    default:
      return nil
    }
  }

  /// Runs `[[first, last], …]` as a wallet keeps them: positive, in order, apart and not touching.
  static func runs(_ value: Any?) -> [[Int]]? {
    guard let runs = value as? [Any] else { return nil }
    var pairs: [[Int]] = []
    for run in runs {
      guard let pair = run as? [Any], pair.count == 2, let first = Self.integer(pair[0]),
        let final = Self.integer(pair[1]), first >= 1, first <= final,
        pairs.last.map({ $0[1] + 1 < first }) ?? true
      else { return nil }
      pairs.append([first, final])
    }
    return pairs
  }

  /// Numbers as sorted runs of consecutive numbers.
  static func runs(_ numbers: [Int]) -> [[Int]] {
    var runs: [[Int]] = []
    for number in Set(numbers).sorted() {
      if let last = runs.last, last[1] + 1 == number {
        runs[runs.count - 1][1] = number
      } else {
        runs.append([number, number])
      }
    }
    return runs
  }

  /// The integer a JSON number stands for exactly (`5`, `5.0`, `5e0`), if it fits an Int; not a
  /// boolean, not a fraction.
  static func integer(_ value: Any?) -> Int? {
    guard let value, type(of: value) != Bool.self, let number = value as? NSNumber else { return nil }
    let text = number.stringValue
    if let exact = Int(text) { return exact }
    guard let double = Double(text), double == double.rounded() else { return nil }
    return Int(exactly: double)
  }
}

/// Checks every property for one wallet.json.
private func checkWalletFile(_ bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
  try inTemporaryFolder { root in
    let folder = DataFolder(path: root)
    try bytes.write(to: URL(fileURLWithPath: folder.walletPath))
    let expected = ExpectedWallet(bytes)

    let read = Result { () throws(DataFileError) in try folder.read().wallet }
    switch read {
    case .success(let wallet):
      // Never a balance the file does not hold.
      #expect(
        expected != nil, "read a wallet from \(String(decoding: bytes, as: UTF8.self).debugDescription)",
        sourceLocation: sourceLocation)
      if let expected {
        #expect(wallet.balance == expected.balance, sourceLocation: sourceLocation)
        #expect(
          ExpectedWallet.Credited(through: wallet.credited.through, uncredited: wallet.credited.uncredited)
            == expected.credited, sourceLocation: sourceLocation)
        #expect(
          wallet.clawedBack.runs.map { [$0.lowerBound, $0.upperBound] } == expected.clawedBack,
          sourceLocation: sourceLocation)
        #expect(wallet.lastTransactionNumber == expected.lastTransactionNumber, sourceLocation: sourceLocation)
      }
      // A change that changes nothing writes nothing.
      try folder.update { _, _ in }
    case .failure(let error):
      #expect(error.path == folder.walletPath, sourceLocation: sourceLocation)
      // A wallet that could not be read is never written over, not even by a change to it.
      var ran = false
      #expect(throws: DataFileError.self, sourceLocation: sourceLocation) {
        try folder.update { _, wallet in
          ran = true
          wallet.balance += 1
        }
      }
      #expect(!ran, sourceLocation: sourceLocation)
    }
    #expect(FileManager.default.contents(atPath: folder.walletPath) == bytes, sourceLocation: sourceLocation)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains(".tmp") }
    #expect(leftovers.isEmpty, sourceLocation: sourceLocation)
  }
}

/// wallet.json exactly as monkeyshop writes it.
private func writtenWallet(balance: Int, numbers: [Int]) throws -> Data {
  try inTemporaryFolder { root in
    let folder = DataFolder(path: root)
    // Only a change is written: go through another wallet, so that an empty wallet is written too.
    try folder.update { _, wallet in wallet.balance = 1 }
    try folder.update { _, wallet in
      wallet.balance = balance
      // Numbers passed over that are multiples of 5 were still open in the store: watched.
      for number in Set(numbers).sorted() { wallet.credited.insert(number, watching: stride(from: 5, to: 41, by: 5)) }
      for number in numbers where number % 3 == 0 { wallet.clawedBack.insert(number) }
      wallet.lastTransactionNumber = numbers.max() ?? 0
    }
    return try #require(FileManager.default.contents(atPath: folder.walletPath))
  }
}

private let balance = Gen.int(in: -Wallet.balanceLimit...Wallet.balanceLimit)
private let smallBalance = Gen.int(in: -10_000...10_000)
private let transactionNumbers = Gen.int(in: 1...40).array(of: 0...6)
/// Bytes that matter to JSON and UTF-8, to put into a valid file.
private let awkwardByte = Gen<UInt8?>.element(
  of: Array("{}[]\",:0123456789.eE+- \n\\tfnu".utf8) + [0x00, 0x80, 0xC3, 0xFF]
).map { $0! }

private enum Damage: CaseIterable, Sendable {
  case truncate, replace, insert, delete
}

private func damaged(_ data: Data, _ damage: Damage, at position: Int, byte: UInt8) -> Data {
  var bytes = Array(data)
  let index = position % bytes.count
  switch damage {
  case .truncate: bytes.removeSubrange(index...)
  case .replace: bytes[index] = byte
  case .insert: bytes.insert(byte, at: index)
  case .delete: bytes.remove(at: index)
  }
  return Data(bytes)
}

@Suite("Wallet decoding, property-based", .tags(.pure))
struct WalletDecodingPropertyTests {
  @Test("a wallet as monkeyshop writes it is read back exactly, and left as it is")
  func writtenWallets() async throws {
    await propertyCheck(count: 100, input: balance, transactionNumbers) { balance, numbers in
      let bytes = try writtenWallet(balance: balance, numbers: numbers)
      #expect(ExpectedWallet(bytes) != nil)
      try checkWalletFile(bytes)
      let wallet = try inTemporaryFolder { root in
        let folder = DataFolder(path: root)
        try bytes.write(to: URL(fileURLWithPath: folder.walletPath))
        return try folder.read().wallet
      }
      #expect(wallet.balance == balance)
      let through = numbers.max() ?? 0
      #expect(wallet.credited.through == through)
      #expect(
        wallet.credited.uncredited
          == (1...max(1, through)).filter { $0 % 5 == 0 && $0 < through && !numbers.contains($0) })
    }
  }

  @Test("a damaged or truncated wallet never crashes, never gives a wrong balance, and is never written over")
  func damagedWallets() async throws {
    await propertyCheck(
      count: 300, input: smallBalance, transactionNumbers, Gen<Damage>.case, Gen.int(in: 0...10_000), awkwardByte
    ) { balance, numbers, damage, position, byte in
      let bytes = try writtenWallet(balance: balance, numbers: numbers)
      try checkWalletFile(damaged(bytes, damage, at: position, byte: byte))
    }
  }

  @Test("a compact or hand-edited wallet is judged the same way")
  func handEditedWallets() async throws {
    await propertyCheck(
      count: 200, input: smallBalance, Gen<Damage>.case, Gen.int(in: 0...10_000), awkwardByte
    ) { balance, damage, position, byte in
      let variants = [
        #"{"schemaVersion":2,"balance":\#(balance),"credited":[],"lastTransactionNumber":0}"#,
        #"{"balance": \#(balance), "credited": [[1, 3], [5, 5]], "lastTransactionNumber": 7, "schemaVersion": 2}"#,
        #"{"schemaVersion": 2, "balance": \#(balance).0, "credited": [[2, 2]], "lastTransactionNumber": 2e0}"#,
        #"{"schemaVersion":3,"balance":\#(balance),"credited":[[1,4]],"clawedBack":[[2,2]],"lastTransactionNumber":4}"#,
        #"{"schemaVersion": 2, "balance": \#(balance), "credited": [], "clawedBack": [], "lastTransactionNumber": 0}"#,
        #"{"schemaVersion": 1, "balance": \#(balance)e0, "deliveredTransactionIDs": ["4", "5"]}"#,
        #"{"schemaVersion":4,"balance":\#(balance),"credited":{"through":9,"uncredited":[2,7]},"clawedBack":[[7,7]],"lastTransactionNumber":9}"#,
        #"{"schemaVersion": 4, "balance": \#(balance), "credited": {"uncredited": [], "through": 0}, "clawedBack": [], "lastTransactionNumber": 3}"#,
        #"{"balance": \#(balance), "deliveredTransactionIDs": ["a"], "schemaVersion": 1, "note": "x"}"#,
      ]
      for text in variants {
        try checkWalletFile(Data(text.utf8))
        try checkWalletFile(damaged(Data(text.utf8), damage, at: position, byte: byte))
      }
    }
  }

  @Test("random bytes in wallet.json never crash, never read as a wallet, and are never written over")
  func randomBytes() async throws {
    await propertyCheck(count: 200, input: Gen.uint8(in: 0...255).array(of: 0...64)) { bytes in
      try checkWalletFile(Data(bytes))
    }
  }
}
