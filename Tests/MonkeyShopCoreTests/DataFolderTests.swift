import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Synchronization
import Testing

private let five = "com.monkeyshop.credits.5"

private let catalog = Catalog(products: [
  Product(
    productIdentifier: five, credits: 5, localizations: ["en": .init(title: "5 Monkey Credits", description: "")],
    prices: ["USA": Decimal(string: "0.99")!])
])

private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// A fresh folder for the test's files, removed afterwards.
private func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("monkeyshop-data-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

private func jsonObject(_ path: String) throws -> [String: Any] {
  let data = try #require(contents(path))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

private func leftovers(in folder: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }
}

private func transaction(_ id: String) -> StoreTransaction {
  StoreTransaction(id: id, productIdentifier: five, quantity: 1, state: .purchased, purchaseDate: t0)
}

/// A purchased transaction the store holds, as the App Store has it before the app delivers.
/// A purchased transaction added to the store under the next transaction number.
private func purchased(in storage: any ShopStorage) throws -> StoreTransaction {
  try storage.update { state, _ in
    state.lastTransactionNumber += 1
    let purchase = transaction("\(state.lastTransactionNumber)")
    state.transactions.append(purchase)
    return purchase
  }
}

/// A wallet.json that must not be used, nor written over.
struct BadWalletFile: Sendable, CustomTestStringConvertible {
  let name: String
  let bytes: Data
  var testDescription: String { name }

  init(_ name: String, _ text: String) {
    self.name = name
    self.bytes = Data(text.utf8)
  }

  init(_ name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = Data(bytes)
  }
}

private let badWallets: [BadWalletFile] = [
  BadWalletFile("garbage bytes", bytes: [0xFF, 0xFE, 0x00, 0x13, 0x37, 0x80, 0x0A]),
  BadWalletFile("empty file", ""),
  BadWalletFile("truncated JSON", #"{"schemaVersion": 1, "balance": 4"#),
  BadWalletFile("a JSON array", "[1, 2, 3]"),
  BadWalletFile("balance a string", #"{"schemaVersion": 1, "balance": "lots", "deliveredTransactionIDs": []}"#),
  BadWalletFile("balance a fraction", #"{"schemaVersion": 1, "balance": 2.5, "deliveredTransactionIDs": []}"#),
  BadWalletFile("balance missing", #"{"schemaVersion": 1, "deliveredTransactionIDs": []}"#),
  BadWalletFile("a negative balance", #"{"schemaVersion": 1, "balance": -5, "deliveredTransactionIDs": []}"#),
  BadWalletFile(
    "a negative balance in schema 2 (before refunds)",
    #"{"schemaVersion": 2, "balance": -5, "credited": [], "lastTransactionNumber": 0}"#),
  BadWalletFile(
    "clawedBack in schema 2",
    #"{"schemaVersion": 2, "balance": 5, "credited": [], "clawedBack": [], "lastTransactionNumber": 0}"#
  ),
  BadWalletFile(
    "clawedBack above lastTransactionNumber",
    #"{"schemaVersion": 3, "balance": 5, "credited": [], "clawedBack": [[4, 4]], "lastTransactionNumber": 3}"#),
  BadWalletFile("future schemaVersion", #"{"schemaVersion": 4, "balance": 5, "deliveredTransactionIDs": []}"#),
  BadWalletFile("old schemaVersion", #"{"schemaVersion": 0, "balance": 5, "deliveredTransactionIDs": []}"#),
  BadWalletFile("schemaVersion a string", #"{"schemaVersion": "1", "balance": 5, "deliveredTransactionIDs": []}"#),
  BadWalletFile("no schemaVersion", #"{"balance": 5, "deliveredTransactionIDs": []}"#),
  BadWalletFile(
    "balance beyond Int64", #"{"schemaVersion": 1, "balance": 99999999999999999999, "deliveredTransactionIDs": []}"#),
]

@Suite("Data folder", .tags(.pure))
struct DataFolderTests {
  @Test("missing files read as an empty wallet and a fresh store, and reading creates nothing")
  func missingFiles() throws {
    try withTemporaryFolder { root in
      let path = root + "/monkeyshop"
      let folder = DataFolder(path: path)
      let (store, wallet) = try folder.read()
      #expect(wallet == Wallet())
      #expect(wallet.balance == 0)
      #expect(store == StoreState())
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  @Test("an update writes wallet.json as pretty JSON with its schemaVersion; a new instance reads it back")
  func writesWallet() throws {
    try withTemporaryFolder { root in
      let path = root + "/nested/monkeyshop"
      let folder = DataFolder(path: path)
      try folder.update { _, wallet in wallet.balance = 42 }
      #expect(folder.walletPath == path + "/wallet.json")
      let json = try jsonObject(folder.walletPath)
      #expect(json["schemaVersion"] as? Int == Wallet.schemaVersion)
      #expect(json["balance"] as? Int == 42)
      let text = String(decoding: try #require(contents(folder.walletPath)), as: UTF8.self)
      #expect(text.contains("\"balance\""))
      #expect(text.split(separator: "\n").count > 3, "one key a line, for a person reading it")
      #expect(text.hasSuffix("\n"))
      // Only what changed is written: the store was not touched.
      #expect(!FileManager.default.fileExists(atPath: folder.storePath))
      #expect(try DataFolder(path: path).readWallet().balance == 42)
    }
  }

  @Test("the store state goes to store.json beside the wallet and survives a relaunch")
  func writesStore() throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      let purchased = try folder.update { state, _ in
        var store = AppStore(state: state, catalog: catalog)
        _ = try store.set(.askToBuy, to: "on", at: t0)
        _ = try store.set(.latency, to: "instant", at: t0)
        _ = try store.add(productIdentifier: five, quantity: 2, at: t0)
        _ = store.advance(to: t0)
        state = store.state
        return store.state
      }
      let json = try jsonObject(folder.storePath)
      #expect(json["schemaVersion"] as? Int == StoreState.schemaVersion)
      let text = String(decoding: try #require(contents(folder.storePath)), as: UTF8.self)
      #expect(text.contains("\"deferred\""))
      // The wallet holds no credits, only the highest transaction number given (IDs never repeat).
      #expect(try folder.readWallet().balance == 0)
      #expect(try folder.readWallet().lastTransactionNumber == 1)
      let relaunched = try DataFolder(path: root).readStore()
      #expect(relaunched == purchased)
      #expect(relaunched.conditions.askToBuy)
      #expect(relaunched.transactions.map(\.state) == [.deferred])
    }
  }

  @Test("a wallet that cannot be read is named and never written over", arguments: badWallets)
  func unreadableWallet(_ bad: BadWalletFile) throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      try bad.bytes.write(to: URL(fileURLWithPath: folder.walletPath))

      let readError = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(readError?.path == folder.walletPath)
      #expect(readError?.description.contains(folder.walletPath) == true)
      #expect(readError?.description.contains("MS-E0011") == true)

      var ran = false
      let updateError = #expect(throws: DataFileError.self) {
        try folder.update { _, wallet in
          ran = true
          wallet.balance += 1
        }
      }
      #expect(updateError?.path == folder.walletPath)
      #expect(!ran, "the change must not be computed from a wallet that was not read")

      let manager = CreditManager(storage: folder, catalog: catalog)
      #expect(throws: DataFileError.self) { try manager.deliver(transaction("1")) }
      #expect(throws: DataFileError.self) { try manager.spend(1) }
      #expect(throws: DataFileError.self) { try manager.reset() }

      #expect(contents(folder.walletPath) == bad.bytes)
      #expect(!FileManager.default.fileExists(atPath: folder.storePath))
      #expect(try leftovers(in: root).isEmpty)
    }
  }

  @Test(
    "a value of the wrong kind is said in JSON's words, not by a Swift type's name",
    arguments: [
      (
        #"{"schemaVersion": 3, "balance": "lots", "credited": [], "clawedBack": [], "lastTransactionNumber": 0}"#,
        #"balance: is the text "lots", expected a whole number from"#
      ),
      (
        #"{"schemaVersion": 3, "balance": true, "credited": [], "clawedBack": [], "lastTransactionNumber": 0}"#,
        "balance: is true, expected a whole number"
      ),
      (
        #"{"schemaVersion": 3, "balance": 1, "credited": [], "clawedBack": [], "lastTransactionNumber": null}"#,
        "lastTransactionNumber: is null, expected a whole number"
      ),
      (
        #"{"schemaVersion": 3, "balance": 1, "credited": {}, "clawedBack": [], "lastTransactionNumber": 0}"#,
        "credited has the wrong type (expected a list)"
      ),
    ])
  func wrongKindInWords(_ text: String, _ said: String) throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder.walletPath))
      let error = #expect(throws: DataFileError.self) { try folder.read() }
      let message = error?.description ?? ""
      #expect(message.contains(said), "\(message)")
      for swiftName in ["Int", "Array<", "Dictionary<", "String"] {
        #expect(!message.contains(swiftName), "\(message)")
      }
    }
  }

  @Test("a store file that cannot be read stops the wallet from changing too")
  func unreadableStore() throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      try folder.update { _, wallet in wallet.balance = 9 }
      let wallet = try #require(contents(folder.walletPath))
      let store = Data(#"{"schemaVersion": 1, "transactions": "#.utf8)
      try store.write(to: URL(fileURLWithPath: folder.storePath))
      let error = #expect(throws: DataFileError.self) {
        try CreditManager(storage: folder, catalog: catalog).deliver(transaction("1"))
      }
      #expect(error?.path == folder.storePath)
      #expect(contents(folder.walletPath) == wallet)
      #expect(contents(folder.storePath) == store)
    }
  }

  @Test("a change that throws writes nothing")
  func failedChange() throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      try folder.update { _, wallet in wallet.balance = 2 }
      let before = try #require(contents(folder.walletPath))
      #expect(throws: CreditError.insufficientBalance(balance: 2, requested: 3)) {
        try CreditManager(storage: folder, catalog: catalog).spend(3)
      }
      #expect(contents(folder.walletPath) == before)
    }
  }

  @Test("a wallet that cannot be written keeps the old one, and says it could not be written")
  func writeFails() throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      try folder.update { _, wallet in wallet.balance = 4 }
      let before = try #require(contents(folder.walletPath))
      // A directory where the temporary file goes: creating it fails, even for root.
      let blocker = folder.walletPath + ".tmp"
      try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
      let error = #expect(throws: DataFileError.self) { try folder.update { _, wallet in wallet.balance = 5 } }
      #expect(error?.path == folder.walletPath)
      #expect(error?.errorID == .cannotWriteDataFile)
      #expect(error?.description.hasSuffix("— MS-E0015") == true)
      #expect(error?.description.contains("MS-E0011") == false)
      #expect(contents(folder.walletPath) == before)
      #expect(try folder.readWallet().balance == 4)
    }
  }

  @Test("writes leave no temporary files behind")
  func noTemporaryFiles() throws {
    try withTemporaryFolder { root in
      let folder = DataFolder(path: root)
      let manager = CreditManager(storage: folder, catalog: catalog)
      for _ in 1...5 {
        _ = try manager.deliver(purchased(in: folder))
      }
      try manager.spend(3)
      try folder.update { state, _ in state.conditions.networkUp = false }
      #expect(try folder.readWallet().balance == 22)
      #expect(try leftovers(in: root).isEmpty)
      let names = Set(try FileManager.default.contentsOfDirectory(atPath: root))
      #expect(names.isSubset(of: ["wallet.json", "store.json", ".lock"]))
    }
  }

  @Test("several writers on one folder lose no delivery")
  func concurrentWriters() throws {
    let threads = 8
    let deliveries = 50
    try withTemporaryFolder { root in
      let failures = Mutex<[String]>([])
      let group = DispatchGroup()
      for _ in 0..<threads {
        group.enter()
        Thread {
          defer { group.leave() }
          // Each writer its own instance, as two monkeyshop processes would have. The lock is not
          // handed out in turn, so on a loaded machine one writer can wait longer than a command
          // would: this test is about lost updates, not the wait's limit (LockWaiting's tests).
          let folder = DataFolder(path: root)
          folder.waiting.giveUpAfter = .seconds(600)
          let manager = CreditManager(storage: folder, catalog: catalog)
          for _ in 0..<deliveries {
            do {
              _ = try manager.deliver(purchased(in: manager.storage))
            } catch {
              failures.withLock { $0.append("\(error)") }
            }
          }
        }.start()
      }
      group.wait()
      let failed = failures.withLock { $0 }
      #expect(failed.isEmpty, "\(failed.count) deliveries failed, the first with: \(failed.first ?? "")")
      let wallet = try DataFolder(path: root).readWallet()
      #expect(wallet.balance == threads * deliveries * 5)
      #expect(try leftovers(in: root).isEmpty)
    }
  }

  @Test("the folder is --data-dir, else MONKEYSHOP_DATA_DIR, else XDG_DATA_HOME, else ~/.local/share")
  func defaultPath() {
    let environment = ["MONKEYSHOP_DATA_DIR": "/env/shop", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ada"]
    #expect(DataFolder.defaultPath(explicit: "/flag", environment: environment) == "/flag")
    #expect(DataFolder.defaultPath(explicit: nil, environment: environment) == "/env/shop")
    var noOverride = environment
    noOverride["MONKEYSHOP_DATA_DIR"] = nil
    #expect(DataFolder.defaultPath(explicit: nil, environment: noOverride) == "/xdg/monkeyshop")
    // The XDG spec ignores a relative XDG_DATA_HOME.
    noOverride["XDG_DATA_HOME"] = "relative"
    #expect(DataFolder.defaultPath(explicit: nil, environment: noOverride) == "/home/ada/.local/share/monkeyshop")
    noOverride["XDG_DATA_HOME"] = nil
    #expect(DataFolder.defaultPath(explicit: "", environment: noOverride) == "/home/ada/.local/share/monkeyshop")
  }
}
