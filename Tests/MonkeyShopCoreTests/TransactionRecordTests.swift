import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage

private let catalog = ShopHarness.catalog
private let five = "com.monkeyshop.credits.5"
private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

private func withDataFolder<T>(_ body: (DataFolder) throws -> T) throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-record-\(UUID().uuidString)")
    .path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  chmod(path, 0o700)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(DataFolder(path: path))
}

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

/// A purchase as the record keeps it, finished and signed (a made-up compact JWS, different for
/// each, whose bytes must come back exactly).
private func signedPurchase(_ number: Int) -> StoreTransaction {
  var transaction = StoreTransaction(
    id: "\(number)", productIdentifier: five, quantity: 1, state: .purchased,
    purchaseDate: t0.addingTimeInterval(Double(number)), finished: true)
  transaction.record = PurchaseRecord(
    price: 10, currency: "USD", type: PurchaseRecord.consumable, bundleId: "com.monkeyshop.app", credits: 5)
  transaction.environment = .sandbox
  transaction.signedPurchase = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoi\(number)In0.c2ln_-\(number * 7919)"
  return transaction
}

/// The App Store's record in its SQLite database: what a user of the data folder would notice.
@Suite("The App Store's record (record.sqlite)", .tags(.pure))
struct TransactionRecordTests {
  @Test("a history.jsonl converts on first open: every transaction and its signed bytes kept, the file removed")
  func conversionKeepsEverything() throws {
    try withDataFolder { folder in
      let history = (1...300).map(signedPurchase)
      try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
      try HistoryLines.encode(history, path: folder.historyPath).write(to: URL(fileURLWithPath: folder.historyPath))
      let listed = try folder.readEveryTransaction()
      #expect(listed == history)
      #expect(listed.map(\.signedPurchase) == history.map(\.signedPurchase))
      #expect(!FileManager.default.fileExists(atPath: folder.historyPath))
      #expect(FileManager.default.fileExists(atPath: folder.recordPath))
      #expect(try folder.readHistoryTransaction("123")?.signedPurchase == history[122].signedPurchase)
      // The next purchase counts on from the converted record's highest number.
      #expect(try buyAndFinish(folder, at: 301).id == "301")
      let page = try folder.readHistoryPage(after: 290, limit: 5)
      #expect(page.map(\.id) == ["291", "292", "293", "294", "295"])
      #expect(try folder.historyCount() == 300)
    }
  }

  @Test("a refund of the oldest of 3,000 transactions finds it in the record and brings it back into the store")
  func refundAtManyTransactions() throws {
    try withDataFolder { folder in
      try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
      try folder.update { store, wallet in
        store.leaving = (1...3000).map(signedPurchase)
        store.lastTransactionNumber = 3000
        wallet.lastTransactionNumber = 3000
      }
      let (refunded, store) = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("1")) {
        try $0.refund("1", reason: .developerIssue, at: t0.addingTimeInterval(5000))
      }
      #expect(refunded.id == "1" && refunded.isRevoked)
      #expect(store.transaction("1")?.revocationReason == .developerIssue)
      #expect(try folder.readTransaction("1")?.isRevoked == true, "the store's copy wins")
      #expect(try folder.readHistoryTransaction("1")?.isRevoked == false, "the record's row is as it was recorded")
      #expect(throws: TransactionError.unknown("3001")) {
        try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("3001")) {
          try $0.refund("3001", reason: .other, at: t0)
        }
      }
    }
  }

  @Test(
    "a record put back from an older copy is refused, naming it and the store, until the newest is back or the store moved away; numbers never repeat"
  )
  func numbersAfterRecordRestored() throws {
    try withDataFolder { first in
      /// The record's bytes as a backup would copy them, all of its changes in the file.
      func copy(_ folder: DataFolder) throws -> Data {
        try folder.openedRecord?.database.writeWithoutTransaction {
          try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return try #require(FileManager.default.contents(atPath: folder.recordPath))
      }
      /// `data` put in the record's place, as a restore from a backup does (a new file).
      func putBack(_ data: Data) throws -> DataFolder {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: first.recordPath + suffix) }
        try data.write(to: URL(fileURLWithPath: first.recordPath))
        return DataFolder(path: first.path)
      }
      for index in 0..<25 { try buyAndFinish(first, at: index) }
      let older = try copy(first)
      for index in 25..<50 { try buyAndFinish(first, at: index) }
      let newest = try copy(first)
      var folder = try putBack(older)
      // Transactions #6 to #30 left the store for the record after the copy was made: neither holds
      // them. Every reading says so, and nothing is written.
      let store = FileManager.default.contents(atPath: folder.storePath)
      for attempt in [{ _ = try buyAndFinish(folder, at: 50) }, { _ = try folder.readEveryTransaction() }] {
        let error = #expect(throws: DataFileError.self) { try attempt() }
        #expect(error?.path == folder.recordPath, "\(String(describing: error))")
        #expect(
          error?.message.contains(
            "is older than \(folder.storePath): the store was written beside a record of 30 changes, and this one holds only 5"
          ) == true, "\(String(describing: error))")
        #expect(error?.errorID.exitStatus == .dataError)
      }
      #expect(FileManager.default.contents(atPath: folder.storePath) == store)
      // The newest put back: every transaction is there.
      folder = try putBack(newest)
      #expect(try folder.readEveryTransaction().map(\.id) == (1...50).map(String.init))
      // An empty file in its place (a copy cut short) holds none of them: said so, nothing written.
      folder = try putBack(Data())
      for attempt in [{ _ = try buyAndFinish(folder, at: 50) }, { _ = try folder.readEveryTransaction() }] {
        let error = #expect(throws: DataFileError.self) { try attempt() }
        #expect(error?.path == folder.recordPath, "\(String(describing: error))")
        #expect(error?.message.contains("and this one holds only 0") == true, "\(String(describing: error))")
      }
      #expect(FileManager.default.contents(atPath: folder.storePath) == store)
      folder = try putBack(newest)
      // The older one kept and the store moved away: numbers go on from the wallet's.
      folder = try putBack(older)
      try FileManager.default.removeItem(atPath: folder.storePath)
      #expect(try buyAndFinish(folder, at: 50).id == "51")
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
      #expect(try buyAndFinish(folder, at: 51).id == "52")
      for index in 52..<75 { try buyAndFinish(folder, at: index) }
      // And with only the record left, above its highest number.
      try FileManager.default.removeItem(atPath: folder.storePath)
      try FileManager.default.removeItem(atPath: folder.walletPath)
      let highest = try #require(try folder.readHistory().compactMap(\.number).max())
      #expect(try buyAndFinish(folder, at: 52).number == highest + 1)
    }
  }

  @Test("a record.sqlite that is a symbolic link is refused, naming it; its target is untouched")
  func symlinkRefused() throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      let target = folder.path + "-elsewhere.sqlite"
      defer { try? FileManager.default.removeItem(atPath: target) }
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
      try Data("mine\n".utf8).write(to: URL(fileURLWithPath: target))
      try FileManager.default.createSymbolicLink(atPath: folder.recordPath, withDestinationPath: target)
      let error = #expect(throws: DataFileError.self) { try buyAndFinish(folder, at: 21) }
      #expect(error?.path == folder.recordPath)
      #expect(
        error?.message.contains("\(folder.recordPath): is a symbolic link") == true, "\(String(describing: error))")
      #expect(error?.errorID.exitStatus == .dataError)
      #expect(FileManager.default.contents(atPath: target) == Data("mine\n".utf8))
    }
  }

  @Test("a file that is not a database in the record's place is refused, naming it, and nothing is written")
  func notADatabase() throws {
    try withDataFolder { folder in
      for index in 0..<21 { try buyAndFinish(folder, at: index) }
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
      try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: folder.recordPath))
      let store = FileManager.default.contents(atPath: folder.storePath)
      let error = #expect(throws: DataFileError.self) { try folder.readEveryTransaction() }
      #expect(error?.path == folder.recordPath, "\(String(describing: error))")
      #expect(FileManager.default.contents(atPath: folder.storePath) == store)
    }
  }

  @Test(
    "a record copied from another data folder is refused, naming both files, and nothing is written; moved store.json away, the folder takes the record's account"
  )
  func recordOfAnotherFolder() throws {
    try withDataFolder { other in
      try withDataFolder { folder in
        // Two folders, two accounts: each made its appTransactionId at its first purchase.
        for index in 0..<25 { try buyAndFinish(other, at: index) }
        for index in 100..<125 { try buyAndFinish(folder, at: index) }
        let othersApp = try #require(try other.readStore().appTransactionID)
        let ownApp = try #require(try folder.readStore().appTransactionID)
        #expect(othersApp != ownApp)
        try other.openedRecord?.database.writeWithoutTransaction {
          try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let copied = try #require(FileManager.default.contents(atPath: other.recordPath))
        folder.openedRecord = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
        try copied.write(to: URL(fileURLWithPath: folder.recordPath))
        let files = [folder.storePath, folder.walletPath].map { FileManager.default.contents(atPath: $0) }
        for attempt in [
          { _ = try buyAndFinish(folder, at: 125) }, { _ = try folder.readEveryTransaction() },
          {
            _ = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("1")) {
              try $0.refund("1", reason: .other, at: t0.addingTimeInterval(500))
            }
          },
        ] {
          let error = #expect(throws: DataFileError.self) { try attempt() }
          #expect(error?.path == folder.recordPath, "\(String(describing: error))")
          #expect(
            error?.problem.contains(
              "belongs to another data folder: it records the purchases of app transaction \(othersApp), and \(folder.storePath) is the store of app transaction \(ownApp)"
            ) == true, "\(String(describing: error))")
          #expect(error?.remedy?.contains("put back this folder's own record.sqlite") == true)
          #expect(error?.errorID.exitStatus == .dataError)
        }
        #expect([folder.storePath, folder.walletPath].map { FileManager.default.contents(atPath: $0) } == files)
        // store.json moved away: the new store takes the record's account, and goes on with it.
        try FileManager.default.removeItem(atPath: folder.storePath)
        #expect(try folder.readEveryTransaction().map(\.id) == (1...5).map(String.init))
        #expect(try buyAndFinish(folder, at: 125).id == "26")
        #expect(try folder.readStore().appTransactionID == othersApp)
      }
    }
  }

  @Test("a record written before records kept their folder's account takes the folder's at the next change")
  func recordTakesFolderAccount() throws {
    try withDataFolder { folder in
      for index in 0..<25 { try buyAndFinish(folder, at: index) }
      let app = try #require(try folder.readStore().appTransactionID)
      let record = try #require(folder.openedRecord)
      #expect(try record.owner() == app)
      try record.database.write { try $0.execute(sql: "DROP TABLE folder") }
      #expect(try record.owner() == nil)
      try buyAndFinish(folder, at: 25)
      #expect(try record.owner() == app)
    }
  }

  @Test(
    "a record put back without its -wal, beside a newer record.sqlite-wal, is refused before SQLite reads the two together: nothing read or written"
  )
  func olderRecordBesideNewerLog() throws {
    try withDataFolder { folder in
      func checkpoint(_ mode: String) throws {
        try #require(folder.openedRecord).database.writeWithoutTransaction {
          try $0.execute(sql: "PRAGMA wal_checkpoint(\(mode))")
        }
      }
      for index in 0..<25 { try buyAndFinish(folder, at: index) }
      try checkpoint("TRUNCATE")
      let older = try #require(FileManager.default.contents(atPath: folder.recordPath))
      for index in 25..<45 { try buyAndFinish(folder, at: index) }
      // Copied into the database file: the next change starts the log anew, on top of it.
      try checkpoint("PASSIVE")
      for index in 45..<65 { try buyAndFinish(folder, at: index) }
      let log = try #require(FileManager.default.contents(atPath: folder.recordPath + "-wal"))
      // Closed, SQLite copies the log into the file and removes it; the copy goes back beside the
      // older file, as a user who put back only record.sqlite leaves them.
      folder.openedRecord = nil
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
      try older.write(to: URL(fileURLWithPath: folder.recordPath))
      try log.write(to: URL(fileURLWithPath: folder.recordPath + "-wal"))
      let restored = DataFolder(path: folder.path)
      let paths = [folder.storePath, folder.walletPath, folder.recordPath, folder.recordPath + "-wal"]
      let files = paths.map { FileManager.default.contents(atPath: $0) }
      for attempt in [{ _ = try restored.readEveryTransaction() }, { _ = try buyAndFinish(restored, at: 65) }] {
        let error = #expect(throws: DataFileError.self) { try attempt() }
        #expect(error?.path == folder.recordPath, "\(String(describing: error))")
        #expect(
          error?.problem.contains("is older than the record.sqlite-wal beside it") == true,
          "\(String(describing: error))")
        #expect(
          error?.remedy?.contains("put back the record.sqlite-wal and -shm copied with this record.sqlite") == true)
        #expect(error?.errorID.exitStatus == .dataError)
      }
      #expect(paths.map { FileManager.default.contents(atPath: $0) } == files)
      // The log moved away: the older record alone is told as older than the store.
      for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.recordPath + suffix) }
      let error = #expect(throws: DataFileError.self) { try DataFolder(path: folder.path).readEveryTransaction() }
      #expect(error?.problem.contains("is older than \(folder.storePath)") == true, "\(String(describing: error))")
    }
  }

  @Test(
    "a row of the record edited after its purchase is refused when read, naming the record, the transaction and both values: a refund never copies it into store.json"
  )
  func editedRowRefused() throws {
    try withDataFolder { folder in
      /// A purchase signed with the fields its record must agree with.
      func signed(_ number: Int) -> StoreTransaction {
        var transaction = signedPurchase(number)
        let payload =
          #"{"bundleId":"com.monkeyshop.app","currency":"USD","price":10,"productId":"\#(five)","quantity":1,"type":"Consumable"}"#
        transaction.signedPurchase = "eyJhbGciOiJFUzI1NiJ9.\(Base64URLText.encode(Data(payload.utf8))).c2ln"
        return transaction
      }
      #expect(signed(1).recordDisagreement == nil)
      try folder.update { store, wallet in
        store.leaving = (1...3).map(signed)
        store.lastTransactionNumber = 3
        wallet.lastTransactionNumber = 3
      }
      #expect(try folder.readHistoryTransaction("2")?.quantity == 1)
      try #require(folder.openedRecord).database.write {
        try $0.execute(
          sql: #"UPDATE storeTransaction SET json = replace(json, '"quantity":1', '"quantity":7') WHERE number = 2"#)
      }
      let store = FileManager.default.contents(atPath: folder.storePath)
      for attempt in [
        { _ = try folder.readHistoryTransaction("2") },
        {
          _ = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("2")) {
            try $0.refund("2", reason: .other, at: t0.addingTimeInterval(500))
          }
        },
      ] {
        let error = #expect(throws: DataFileError.self) { try attempt() }
        #expect(error?.path == folder.recordPath, "\(String(describing: error))")
        #expect(
          error?.problem
            == "transaction #2: its record says quantity 7 while its signedPurchase, what the App Store signed, says 1; the record never changes after a purchase, so this row was edited",
          "\(String(describing: error))")
        #expect(error?.remedy == TransactionRecord.damaged)
        #expect(error?.errorID.exitStatus == .dataError)
      }
      #expect(FileManager.default.contents(atPath: folder.storePath) == store)
      // The rows no one edited are read as ever.
      #expect(try folder.readHistoryTransaction("3")?.quantity == 1)
    }
  }
}
