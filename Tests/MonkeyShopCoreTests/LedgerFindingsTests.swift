import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

// Each finding of the attack on the first version's ledger, reproduced: these failed before the
// fix they name.

private func withDataFolder<T>(_ body: (DataFolder, String) throws -> T) throws -> T {
  let root = NSTemporaryDirectory() + "monkeyshop-findings-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  chmod(root, 0o700)
  defer { try? FileManager.default.removeItem(atPath: root) }
  return try body(DataFolder(path: root), root)
}

private func write(_ text: String, to path: String) {
  _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
}

/// The problem the data folder reports for this store.json.
private func storeProblem(_ json: String) throws -> String? {
  try withDataFolder { folder, _ -> String? in
    write(json, to: folder.storePath)
    do throws(DataFileError) {
      _ = try folder.read()
      return nil
    } catch {
      #expect(error.path == folder.storePath)
      return error.problem
    }
  }
}

/// A store.json with one transaction whose fields are replaced by `fields`.
private func storeWith(_ fields: String = "", last: String = "1", conditions: String = "") -> String {
  """
  {"schemaVersion": 1, "lastTransactionNumber": \(last),
   "conditions": {"purchasesAllowed": true, "networkUp": true, "askToBuy": false,
                  "interruptedPurchases": false, "latency": "instant"\(conditions)},
   "transactions": [{"id": "1", "productIdentifier": "com.monkeyshop.credits.5", "quantity": 1,
                     "state": "purchased", "finished": false, "hasPurchaseIssue": false,
                     "purchaseDate": 1800000000\(fields)}]}
  """
}

private let wallet = #"{"schemaVersion": 2, "balance": BALANCE, "credited": [], "lastTransactionNumber": 0}"#

@Suite("Findings of the attack on the ledger", .tags(.pure))
struct LedgerFindingsTests {
  @Test("a store.json whose content is out of place is refused with its path and what was expected")
  func storeValidation() throws {
    #expect(try storeProblem(storeWith()) == nil)
    let cases: [(String, String)] = [
      (storeWith().replacingOccurrences(of: #""quantity": 1"#, with: #""quantity": -8"#), "from 1 to 10"),
      (storeWith().replacingOccurrences(of: #""quantity": 1"#, with: #""quantity": 1000000"#), "from 1 to 10"),
      (storeWith(#", "colour": "red""#), "unknown field"),
      (storeWith(conditions: #", "storefront": "ZZZ""#), "expected one of"),
      (storeWith(last: "9223372036854775807"), "lastTransactionNumber"),
      (storeWith(last: "0"), "expected a transaction number from 1 to lastTransactionNumber"),
      (
        storeWith().replacingOccurrences(
          of: #""purchaseDate": 1800000000}]"#,
          with:
            #""purchaseDate": 1800000000}, {"id": "1", "productIdentifier": "com.monkeyshop.credits.5", "quantity": 1, "state": "purchased", "finished": false, "hasPurchaseIssue": false, "purchaseDate": 1800000000}]"#
        ),
        "listed twice"
      ),
    ]
    for (json, expected) in cases {
      let problem = try storeProblem(json)
      #expect(problem?.contains(expected) == true, "\(problem ?? "accepted") for \(expected)")
    }
  }

  @Test(
    "wallet numbers and shapes get messages that say what was found and what was expected",
    arguments: [
      (wallet.replacingOccurrences(of: "BALANCE", with: "5.5"), "balance: is 5.5, expected a whole number"),
      (
        wallet.replacingOccurrences(of: "BALANCE", with: "9223372036854775808"),
        "balance: is 9223372036854775808, expected a whole number"
      ),
      (wallet.replacingOccurrences(of: "BALANCE", with: "1, \"balance\": 2"), "the key \"balance\" appears twice"),
      (String(repeating: "[", count: 100_000), "nests deeper than 32 levels"),
    ])
  func walletMessages(_ json: String, _ expected: String) throws {
    try withDataFolder { folder, _ in
      write(json, to: folder.walletPath)
      let error = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(error?.path == folder.walletPath)
      #expect(error?.problem.contains(expected) == true, "\(error?.problem ?? "")")
    }
  }

  @Test("a folder, a FIFO or a symbolic link in place of wallet.json is refused, never followed or replaced")
  func walletNotAFile() throws {
    try withDataFolder { folder, root in
      mkdir(folder.walletPath, 0o700)
      #expect((try? folder.read()) == nil)
      rmdir(folder.walletPath)
      mkfifo(folder.walletPath, 0o600)
      // A FIFO would block a reader forever; it is refused at once.
      let fifo = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(fifo?.problem.contains("a FIFO") == true)
      unlink(folder.walletPath)
      let target = root + "-target"
      write("{}", to: target)
      defer { unlink(target) }
      symlink(target, folder.walletPath)
      let link = #expect(throws: DataFileError.self) { try folder.update { _, wallet in wallet.balance = 1 } }
      #expect(link?.problem.contains("symbolic link") == true)
      #expect(String(decoding: FileManager.default.contents(atPath: target) ?? Data(), as: UTF8.self) == "{}")
      var info = stat()
      lstat(folder.walletPath, &info)
      #expect(info.st_mode & S_IFMT == S_IFLNK, "the link was replaced by a file")
    }
  }

  @Test("a planted wallet.json.tmp link is removed, not written through")
  func plantedTemporaryLink() throws {
    try withDataFolder { folder, root in
      let target = root + "-victim"
      write("precious", to: target)
      defer { unlink(target) }
      symlink(target, folder.walletPath + ".tmp")
      try folder.update { _, wallet in wallet.balance = 3 }
      #expect(String(decoding: FileManager.default.contents(atPath: target) ?? Data(), as: UTF8.self) == "precious")
      #expect(try folder.readWallet().balance == 3)
    }
  }

  @Test("a data folder others can write to, or a file in its place, is refused with its path")
  func looseFolder() throws {
    try withDataFolder { folder, root in
      chmod(root, 0o777)
      let loose = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(loose?.problem.contains("writable by other users") == true)
      #expect(loose?.problem.contains("chmod go-w") == true)
      chmod(root, 0o700)
      write("", to: root + "/file")
      let file = #expect(throws: DataFileError.self) { try DataFolder(path: root + "/file").read() }
      #expect(file?.problem.contains("is a file, expected the data folder") == true)
    }
  }

  @Test("a wallet.json with a second hard link is refused")
  func hardLink() throws {
    try withDataFolder { folder, root in
      try folder.update { _, wallet in wallet.balance = 2 }
      link(folder.walletPath, root + "-elsewhere")
      defer { unlink(root + "-elsewhere") }
      let error = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(error?.problem.contains("hard links") == true)
    }
  }

  @Test("a lock held by another process is announced, naming the wait, and given up with MS-E0018")
  func heldLock() throws {
    try withDataFolder { folder, root in
      let holder = open(root, O_RDONLY | O_DIRECTORY)
      defer { close(holder) }
      #expect(flock(holder, LOCK_EX) == 0)
      let told = Told()
      folder.waiting.noticeAfter = .milliseconds(50)
      folder.waiting.giveUpAfter = .milliseconds(300)
      folder.waiting.onWaiting = { text in told.add(text) }
      let error = #expect(throws: DataFolderBusy.self) { try folder.update { _, wallet in wallet.balance = 1 } }
      #expect(error?.errorID == .dataFolderBusy)
      #expect(error?.description.contains("MS-E0018") == true)
      #expect(told.lines.count == 1)
      #expect(told.lines.first?.contains("waiting for the lock on \(root)") == true)
      flock(holder, LOCK_UN)
      try folder.update { _, wallet in wallet.balance = 1 }
      #expect(try folder.readWallet().balance == 1)
    }
  }

  @Test("deleting a lock file cannot let two writers in: the folder itself is locked")
  func noLockFile() throws {
    try withDataFolder { folder, root in
      try folder.update { _, wallet in wallet.balance = 1 }
      let names = try FileManager.default.contentsOfDirectory(atPath: root)
      #expect(Set(names) == ["wallet.json"], "no lock file to delete")
    }
  }

  @Test("a store write that fails during a purchase is shown with its error ID, and the app stops waiting")
  func failedStoreWrite() throws {
    let harness = ShopHarness(conditions: { $0.latency = .normal })
    harness.press("5")
    harness.press(.enter)
    #expect(harness.model.isPurchaseInFlight)
    harness.disk.failWrites = true
    harness.wait(2)
    #expect(harness.model.lastFailure?.errorID == .cannotWriteDataFile)
    #expect(!harness.model.isPurchaseInFlight)
    #expect(harness.runtime.nextDeadline == nil, "nothing left to wait for: no busy loop")
    #expect(harness.screen().text.contains("MS-E0015"))
    // Once the folder can be written and read again, the answer comes.
    harness.disk.failWrites = false
    harness.runtime.folderChanged(now: harness.now)
    harness.wait(2)
    #expect(harness.model.balance == 5)
  }

  @Test(
    "an approval made elsewhere is logged and delivered even when the app writes the store before it reads the folder")
  func approvalBeforeOwnWrite() throws {
    let harness = ShopHarness(conditions: {
      $0.askToBuy = true
      $0.latency = .normal
    })
    harness.press("5")
    harness.press(.enter)
    harness.wait(2)
    let deferred = try #require(harness.model.store.transactions.last)
    #expect(deferred.state == .deferred)
    try harness.changeStore { store in store.state.conditions.askToBuy = false }
    harness.press("5")
    harness.press(.enter)
    // `monkeyshop store approve` from another terminal; the app has not read the folder yet when
    // its own purchase is answered (the tick comes first), a write that sees the approval.
    _ = try harness.storage.changeStore(catalog: ShopHarness.catalog) { store in try store.approve(deferred.id) }
    harness.wait(2)
    harness.runtime.folderChanged(now: harness.now)
    harness.wait(1)
    #expect(harness.model.balance == 10)
    #expect(harness.eventNames.filter { $0 == "approved" }.count == 1)
    #expect(harness.storage.store.transaction(deferred.id)?.finished == true)
  }

  @Test("a purchase in flight whose transaction leaves the store ends with MS-E0013 instead of waiting forever")
  func vanishedPurchase() throws {
    let harness = ShopHarness(conditions: { $0.latency = .slow })
    harness.press("5")
    harness.press(.enter)
    try harness.changeStore { store in store.state.reset() }
    harness.wait(10)
    #expect(!harness.model.isPurchaseInFlight)
    #expect(harness.model.lastFailure?.errorID == .unknownTransaction)
    #expect(harness.runtime.nextDeadline == nil)
  }

  @Test(
    "what an attack on the new ledger found is refused with the path, not crashed on or followed",
    arguments: [
      (
        #"{"schemaVersion":2,"balance":0,"credited":[[1,9223372036854775807],[5,6]],"lastTransactionNumber":5}"#,
        "runs must be of numbers from 1"
      ),
      (
        #"{"schemaVersion":1,"balance":7,"deliveredTransactionIDs":["9999999999999999"]}"#,
        "is not a transaction number"
      ),
      ("{" + (0..<80_000).map { "\"k\($0)\":1" }.joined(separator: ",") + "}", "has no schemaVersion"),
    ])
  func attackedWallets(_ json: String, _ expected: String) throws {
    try withDataFolder { folder, _ in
      write(json, to: folder.walletPath)
      let error = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(error?.problem.contains(expected) == true, "\(error?.problem ?? "")")
    }
  }

  @Test("a wallet in UTF-16 is refused: the repeated-key check reads UTF-8")
  func utf16Wallet() throws {
    try withDataFolder { folder, _ in
      let text = #"{"schemaVersion":2,"balance":5,"credited":[],"lastTransactionNumber":0,"b\u0061lance":7}"#
      _ = FileManager.default.createFile(atPath: folder.walletPath, contents: text.data(using: .utf16LittleEndian))
      let error = #expect(throws: DataFileError.self) { try folder.read() }
      #expect(error?.problem.contains("UTF-8") == true)
    }
  }

  @Test("a data folder inside a folder others can write to is refused")
  func looseParent() throws {
    try withDataFolder { _, root in
      chmod(root, 0o777)
      defer { chmod(root, 0o700) }
      let error = #expect(throws: DataFileError.self) { try DataFolder(path: root + "/data").read() }
      #expect(error?.problem.contains("which other users can write to") == true)
    }
  }

  @Test("MONKEYSHOP_LOCK_TIMEOUT that is not a number of seconds up to a day is refused, not crashed on")
  func lockTimeout() throws {
    for value in ["inf", "1e300", "9223372036854775807", "nan", "-1", "abc"] {
      #expect(throws: LockTimeoutError.self) { try LockWaiting(environment: ["MONKEYSHOP_LOCK_TIMEOUT": value]) }
    }
    #expect(try LockWaiting(environment: ["MONKEYSHOP_LOCK_TIMEOUT": "2.5"]).giveUpAfter == .milliseconds(2500))
  }

  @Test("a payment charged while no app ran is answered at the next launch, and store reset keeps it")
  func answeredAtLaunch() throws {
    let harness = ShopHarness(conditions: { $0.latency = .slow })
    harness.press("5")
    harness.press(.enter)
    // The app is killed before the store answers; time passes; the next launch answers and credits.
    harness.now = harness.now.addingTimeInterval(60)
    harness.launch()
    #expect(harness.model.balance == 5)
    #expect(harness.storage.store.unfinished.isEmpty)
    var store = AppStore(state: StoreState(), catalog: ShopHarness.catalog)
    try Condition.latency.set("slow", in: &store.state.conditions)
    let charged = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: ShopHarness.start)
    let kept = store.reset(at: ShopHarness.start.addingTimeInterval(60))
    #expect(kept.map(\.id) == [charged.id])
    #expect(kept.first?.state == .purchased)
  }

  @Test("a transaction finished after more than 20 others are finished does not crash the store")
  func finishAfterPruning() throws {
    var store = AppStore(state: StoreState(), catalog: ShopHarness.catalog)
    try Condition.latency.set("instant", in: &store.state.conditions)
    try Condition.askToBuy.set("on", in: &store.state.conditions)
    let deferred = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: ShopHarness.start)
    _ = store.advance(to: ShopHarness.start)
    try Condition.askToBuy.set("off", in: &store.state.conditions)
    for _ in 1...21 {
      let transaction = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: ShopHarness.start)
      _ = store.advance(to: ShopHarness.start)
      try store.finish(transaction.id)
    }
    _ = try store.approve(deferred.id)
    let finished = try store.finish(deferred.id)
    #expect(finished.id == deferred.id)
    #expect(finished.finished)
  }
}

/// What a lock wait announced, from whichever thread announced it.
private final class Told: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  var lines: [String] { lock.withLock { stored } }
  func add(_ line: String) { lock.withLock { stored.append(line) } }
}
