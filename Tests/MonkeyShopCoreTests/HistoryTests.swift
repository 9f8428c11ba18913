import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

private let catalog = ShopHarness.catalog
private let five = "com.monkeyshop.credits.5"
private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// A fresh data folder for the test, removed afterwards.
private func withDataFolder<T>(_ body: (DataFolder) throws -> T) throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-history-\(UUID().uuidString)")
    .path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  chmod(path, 0o700)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(DataFolder(path: path))
}

/// Bought, delivered and finished, as the app does it; returns the transaction.
@discardableResult
private func buyAndFinish(_ storage: any ShopStorage, at index: Int = 0) throws -> StoreTransaction {
  let (transaction, _) = try storage.changeStore(catalog: catalog) { store in
    store.state.conditions.latency = .instant
    let now = t0.addingTimeInterval(Double(index))
    _ = try store.add(productIdentifier: five, quantity: 1, at: now)
    return store.advance(to: now)[0]
  }
  _ = try CreditManager(storage: storage, catalog: catalog).deliver(transaction)
  _ = try storage.changeStore(catalog: catalog) { try $0.finish(transaction.id) }
  return transaction
}

/// The folder as earlier versions left it: the record's transactions in `history.jsonl`, one line
/// each, and no database.
func asHistoryFile(_ folder: DataFolder) throws {
  let history = try folder.readHistory()
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
  try HistoryLines.encode(history, path: folder.historyPath).write(to: URL(fileURLWithPath: folder.historyPath))
}

private func lines(_ path: String) -> [String] {
  let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

@Suite("History: every transaction stays listed", .tags(.pure))
struct HistoryTests {
  @Test("60 purchases: the store file keeps the newest 20 finished, the history the rest, and all 60 are listed")
  func everyTransactionListed() throws {
    try withDataFolder { folder in
      for index in 0..<60 { try buyAndFinish(folder, at: index) }
      let store = try folder.readStore()
      #expect(store.transactions.count == StoreState.finishedHistoryLimit)
      #expect(store.transactions.first?.id == "41")
      let every = try folder.readEveryTransaction()
      #expect(every.map(\.id) == (1...60).map(String.init))
      #expect(every.allSatisfy { $0.state == .purchased && $0.finished })
      // One row per transaction that left the store, in the App Store's record.
      #expect(try folder.historyCount() == 40)
      #expect(!FileManager.default.fileExists(atPath: folder.historyPath))
      #expect(try folder.readWallet().balance == 300)
    }
  }

  @Test("an approval finished while it is the oldest finished transaction moves to the history finished")
  func oldestFinishedMovesFinished() throws {
    let storage = MemoryStorage()
    let (deferred, _) = try storage.changeStore(catalog: catalog) { store in
      store.state.conditions.latency = .instant
      store.state.conditions.askToBuy = true
      _ = try store.add(productIdentifier: five, quantity: 1, at: t0)
      return store.advance(to: t0)[0]
    }
    _ = try storage.changeStore(catalog: catalog) { $0.state.conditions.askToBuy = false }
    for index in 1...20 { try buyAndFinish(storage, at: index) }
    let (approved, _) = try storage.changeStore(catalog: catalog) { try $0.approve(deferred.id) }
    _ = try CreditManager(storage: storage, catalog: catalog).deliver(approved)
    _ = try storage.changeStore(catalog: catalog) { try $0.finish(approved.id) }
    #expect(storage.store.transaction(deferred.id) == nil)
    #expect(storage.historyLines.map(\.id) == [deferred.id])
    #expect(storage.historyLines.first?.finished == true)
    #expect(try storage.readEveryTransaction().count == 21)
  }

  @Test("a purchase never reads the history, and writes it only when a transaction leaves the store")
  func purchasesDoNotReadHistory() throws {
    let storage = MemoryStorage()
    for index in 0..<25 { try buyAndFinish(storage, at: index) }
    #expect(storage.historyReads == 0)
    #expect(storage.writes.history == 5)
    #expect(storage.historyLines.map(\.id) == ["1", "2", "3", "4", "5"])
  }

  @Test("store reset moves what it takes out of the queue to the history: nothing is forgotten")
  func resetKeepsHistory() throws {
    try withDataFolder { folder in
      for index in 0..<3 { try buyAndFinish(folder, at: index) }
      _ = try folder.changeStore(catalog: catalog) { $0.reset(at: t0.addingTimeInterval(100)) }
      #expect(try folder.readStore().transactions.isEmpty)
      #expect(try folder.readEveryTransaction().map(\.id) == ["1", "2", "3"])
    }
  }

  @Test(
    "a transaction in both the store and the history (a crash between the record's commit and the store's write) is listed once, the store's copy winning"
  )
  func bothFiles() throws {
    try withDataFolder { folder in
      for index in 0..<2 { try buyAndFinish(folder, at: index) }
      // The history got #2 as it was before it was finished; the store still lists it.
      var older = try #require(try folder.readStore().transaction("2"))
      older.finished = false
      let line = try HistoryLines.encode([older], path: folder.historyPath)
      try line.write(to: URL(fileURLWithPath: folder.historyPath))
      let every = try folder.readEveryTransaction()
      #expect(every.map(\.id) == ["1", "2"])
      #expect(every.last?.finished == true)
    }
  }

  @Test("a history.jsonl whose last line is torn (a writer killed mid-append) converts without it")
  func tornLastLine() throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      try asHistoryFile(folder)
      #expect(lines(folder.historyPath).count == 2)
      let handle = try #require(FileHandle(forWritingAtPath: folder.historyPath))
      handle.seekToEndOfFile()
      handle.write(Data(#"{"environment":"Sandbox","finished":tr"#.utf8))
      try handle.close()
      // Never refused, never used.
      #expect(try folder.readEveryTransaction().count == 21)
      #expect(!FileManager.default.fileExists(atPath: folder.historyPath), "converted")
      try buyAndFinish(folder, at: 21)
      #expect(try folder.readEveryTransaction().map(\.id) == (1...22).map(String.init))
    }
  }

  @Test(
    "a bad line is refused with the path, its line number and what was expected",
    arguments: [
      ("not json\n", "line 2: is not a JSON object"),
      ("\n", "line 2: is empty"),
      (
        #"{"id":"x","productIdentifier":"p","quantity":1,"state":"purchased","finished":true,"purchaseDate":0,"hasPurchaseIssue":false}"#
          + "\n", "line 2: id is 'x', not a transaction number"
      ),
      (
        #"{"id":"9","productIdentifier":"p","quantity":11,"state":"purchased","finished":true,"purchaseDate":0,"hasPurchaseIssue":false}"#
          + "\n", "line 2: quantity: is 11, expected a whole number from 1 to 10"
      ),
      (#"{"id":"9","id":"8"}"# + "\n", "line 2: the key \"id\" appears twice"),
    ])
  func badLine(_ text: String, _ expected: String) throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      try asHistoryFile(folder)
      let handle = try #require(FileHandle(forWritingAtPath: folder.historyPath))
      handle.seekToEndOfFile()
      handle.write(Data(text.utf8))
      try handle.close()
      let before = FileManager.default.contents(atPath: folder.historyPath)
      let error = #expect(throws: DataFileError.self) { try folder.readEveryTransaction() }
      #expect(error?.path == folder.historyPath)
      #expect(error?.problem.contains(expected) == true, "\(error?.problem ?? "")")
      #expect(error?.problem.contains("expected one transaction as a JSON object per line") == true)
      #expect(error?.errorID.exitStatus == .dataError)
      #expect(FileManager.default.contents(atPath: folder.historyPath) == before)
    }
  }

  @Test(
    "a line this store cannot have written is refused: a number reused, a date past 9999",
    arguments: [
      (
        #"{"id":"1","productIdentifier":"com.monkeyshop.credits.10","quantity":10,"state":"purchased","finished":true,"purchaseDate":0,"hasPurchaseIssue":false}"#,
        "line 2: transaction 1 is listed again as another purchase (line 1 has its product, quantity and date)"
      ),
      (
        #"{"id":"9","productIdentifier":"p","quantity":1,"state":"purchased","finished":true,"purchaseDate":1e300,"hasPurchaseIssue":false}"#,
        "line 2: purchaseDate: is 1e+300, expected seconds since 1970 up to the year 9999"
      ),
    ])
  func impossibleLine(_ text: String, _ expected: String) throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      try asHistoryFile(folder)
      let handle = try #require(FileHandle(forWritingAtPath: folder.historyPath))
      handle.seekToEndOfFile()
      handle.write(Data((text + "\n").utf8))
      try handle.close()
      let error = #expect(throws: DataFileError.self) { try folder.readEveryTransaction() }
      #expect(error?.path == folder.historyPath)
      #expect(error?.problem.contains(expected) == true, "\(error?.problem ?? "")")
      // A refund reaching back to it is refused the same way, and writes nothing.
      let store = FileManager.default.contents(atPath: folder.storePath)
      #expect(throws: DataFileError.self) {
        try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("9")) {
          try $0.refund("9", reason: .other, at: Date())
        }
      }
      #expect(FileManager.default.contents(atPath: folder.storePath) == store)
    }
  }

  @Test(
    "a history.jsonl that is a link is never followed: the purchase that would convert it is refused, the target untouched"
  )
  func linkNotFollowed() throws {
    try withDataFolder { folder in
      for index in 0..<20 { try buyAndFinish(folder, at: index) }
      let target = folder.path + "-target"
      try Data("mine\n".utf8).write(to: URL(fileURLWithPath: target))
      defer { try? FileManager.default.removeItem(atPath: target) }
      try FileManager.default.createSymbolicLink(atPath: folder.historyPath, withDestinationPath: target)
      let error = #expect(throws: DataFileError.self) { try buyAndFinish(folder, at: 20) }
      #expect(error?.problem.contains("symbolic link") == true, "\(String(describing: error))")
      #expect(FileManager.default.contents(atPath: target) == Data("mine\n".utf8))
      #expect(throws: DataFileError.self) { try folder.readEveryTransaction() }
      // Every read refuses the link; the store file still lists every finished transaction.
      #expect(throws: DataFileError.self) { try folder.readStore() }
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .secondsSince1970
      let store = try decoder.decode(
        StoreState.self, from: try #require(FileManager.default.contents(atPath: folder.storePath)))
      #expect(store.transactions.filter(\.finished).count == 20)
    }
  }

  @Test("a whole last line of a history.jsonl that lost its newline is kept when it is converted")
  func lastLineWithoutNewline() throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      try asHistoryFile(folder)
      // An editor saved the history without its final newline.
      let text = try #require(FileManager.default.contents(atPath: folder.historyPath))
      #expect(text.last == UInt8(ascii: "\n"))
      try text.dropLast().write(to: URL(fileURLWithPath: folder.historyPath))
      #expect(try folder.readEveryTransaction().map(\.id) == (1...21).map(String.init))
      try buyAndFinish(folder, at: 21)
      #expect(try folder.readEveryTransaction().map(\.id) == (1...22).map(String.init))
    }
  }

  @Test("a torn last line of a history.jsonl is said when it is converted, and so is the conversion")
  func tornLineCutWithMessage() throws {
    try withDataFolder { folder in
      var notices: [String] = []
      folder.onNotice = { notices.append($0) }
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      try asHistoryFile(folder)
      let handle = try #require(FileHandle(forWritingAtPath: folder.historyPath))
      handle.seekToEndOfFile()
      handle.write(Data(#"{"environment":"Sandbox","finished":tr"#.utf8))
      try handle.close()
      #expect(notices.isEmpty)
      // A listing leaves the line out and says so: never silently one transaction short.
      #expect(try folder.readEveryTransaction().count == 21)
      #expect(notices.count == 2, "\(notices)")
      #expect(
        notices.first?.hasPrefix(folder.historyPath + ": its last line is cut short (38 bytes") == true, "\(notices)")
      #expect(notices.first?.hasSuffix("it is left out") == true)
      #expect(notices.last == "\(folder.historyPath): converted into \(folder.recordPath) (1 transaction), and removed")
      notices = []
      try buyAndFinish(folder, at: 21)
      #expect(notices.isEmpty)
      #expect(try folder.readEveryTransaction().map(\.id) == (1...22).map(String.init))
    }
  }

  @Test(
    "store and wallet put back from a copy older than the history: numbers go on from the history's, and the older wallet is refused"
  )
  func olderStoreAndWallet() throws {
    try withDataFolder { folder in
      for index in 0..<24 { try buyAndFinish(folder, at: index) }
      let store = try #require(FileManager.default.contents(atPath: folder.storePath))
      let wallet = try #require(FileManager.default.contents(atPath: folder.walletPath))
      for index in 24..<49 { try buyAndFinish(folder, at: index) }
      try store.write(to: URL(fileURLWithPath: folder.storePath))
      try wallet.write(to: URL(fileURLWithPath: folder.walletPath))
      let refused = #expect(throws: DataFileError.self) { try buyAndFinish(folder, at: 49) }
      #expect(refused?.path == folder.walletPath)
      #expect(refused?.problem.contains("is older than the App Store's record") == true, "\(refused?.problem ?? "")")
      #expect(refused?.problem.contains("#29 delivered and finished") == true, "\(refused?.problem ?? "")")
      #expect(refused?.errorID.exitStatus == .dataError)
      #expect(FileManager.default.contents(atPath: folder.walletPath) == wallet, "nothing written over it")
      // Moved away: a new wallet, and the next number is above every one the history holds.
      try FileManager.default.removeItem(atPath: folder.walletPath)
      let next = try buyAndFinish(folder, at: 49)
      #expect((next.number ?? 0) > 29, "above every number the history holds: \(next.id)")
      let every = try folder.readEveryTransaction()
      #expect(Set(every.map(\.id)).count == every.count)
    }
  }

  @Test("store and wallet deleted while the history stays: numbering goes on above the history's")
  func deletedStoreAndWallet() throws {
    try withDataFolder { folder in
      for index in 0..<25 { try buyAndFinish(folder, at: index) }
      try FileManager.default.removeItem(atPath: folder.storePath)
      try FileManager.default.removeItem(atPath: folder.walletPath)
      #expect(try buyAndFinish(folder, at: 25).id == "6")
      #expect(try folder.readEveryTransaction().map(\.id) == (1...6).map(String.init))
    }
  }
}
