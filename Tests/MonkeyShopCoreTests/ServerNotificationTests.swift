import Foundation
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopStorage

private let catalog = ShopHarness.catalog
private let five = "com.monkeyshop.credits.5"
private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// Bought at `seconds`, the App Store answering at once.
@discardableResult
private func buy(_ storage: any ShopStorage, at seconds: Double = 0) throws -> StoreTransaction {
  try storage.changeStore(catalog: catalog) { store in
    store.state.conditions.latency = .instant
    let now = t0.addingTimeInterval(seconds)
    _ = try store.add(productIdentifier: five, quantity: 1, at: now)
    return store.advance(to: now)[0]
  }.result
}

private func change<Result>(_ storage: any ShopStorage, _ body: (inout AppStore) throws -> Result) throws -> Result {
  // Every product: the whole history, as any of these changes may reach back to any transaction.
  try storage.changeStoreSeeingHistory(
    catalog: catalog, reaching: .products(Set(catalog.products.map(\.productIdentifier))), body
  ).result
}

/// Signs as the data folder's signer would, without the crypto: the payload itself, readable.
private final class PlainSigner: TransactionSigner {
  func keySet(for environment: StoreEnvironment) -> KeySet {
    KeySet(folderName: "plain-keys", fileNames: ["key"], privateNames: ["key"])
  }
  func makeKeys(for environment: StoreEnvironment) throws -> [String: Data] { ["key": Data("key".utf8)] }
  func sign(_ payload: SignedTransactionPayload, failingVerification: Bool, keys: [String: Data], place: String)
    throws -> String
  {
    "transaction." + Base64URLText.encode(payload.encodedJSON) + ".plain"
  }
  func sign(notificationPayload json: Data, environment: StoreEnvironment, keys: [String: Data], place: String)
    throws -> String
  {
    "notification." + Base64URLText.encode(json) + ".plain"
  }
}

private func withDataFolder<T>(_ body: (DataFolder) throws -> T) throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("monkeyshop-notify-\(UUID().uuidString)")
    .path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  chmod(path, 0o700)
  defer { try? FileManager.default.removeItem(atPath: path) }
  let folder = DataFolder(path: path)
  folder.signer = PlainSigner()
  return try body(folder)
}

/// The payload a PlainSigner's `signedPayload` carries.
private func payload(_ signed: String?) throws -> [String: Any] {
  let text = try #require(signed)
  #expect(text.hasPrefix("notification."))
  let parts = text.split(separator: ".")
  let data = try #require(Base64URLText.decode(String(parts[1])))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

private func attempt(_ result: SendAttemptResult, at seconds: Double, status: Int? = nil) -> SendAttempt {
  SendAttempt(date: t0.addingTimeInterval(seconds), result: result, url: "http://127.0.0.1:9/", httpStatus: status)
}

@Suite("App Store Server Notifications: what the store records, when", .tags(.pure))
struct ServerNotificationTests {
  @Test("a purchase records ONE_TIME_CHARGE; `store refund` records REFUND; each has its own UUID")
  func purchaseAndRefund() throws {
    let storage = MemoryStorage()
    let bought = try buy(storage)
    _ = try change(storage) { try $0.refund(bought.id, reason: .developerIssue, at: t0.addingTimeInterval(5)) }
    let types = storage.notifications.map(\.notificationType)
    #expect(types == [.oneTimeCharge, .refund])
    #expect(storage.notifications.allSatisfy { $0.transactionID == bought.id })
    #expect(Set(storage.notifications.map(\.notificationUUID)).count == 2)
    #expect(storage.notifications.allSatisfy { UUID(uuidString: $0.notificationUUID) != nil })
    // Both wait to be sent, as the transaction manager lists them.
    let listed = try storage.readNotifications(about: bought.id)
    #expect(listed.map(\.notification.number) == [1, 2] && listed.allSatisfy { $0.pending != nil })
  }

  @Test("a refund request records CONSUMPTION_REQUEST with its reason; granted it refunds as `store refund` does")
  func requestThenGrant() throws {
    let storage = MemoryStorage()
    let bought = try buy(storage)
    let (request, decided) = try change(storage) {
      try $0.requestRefund(bought.id, reason: .fulfillmentIssue, at: t0.addingTimeInterval(10))
    }
    #expect(decided == nil)
    #expect(request.consumptionDeadline == t0.addingTimeInterval(10 + 12 * 3600))
    #expect(storage.notifications.last?.notificationType == .consumptionRequest)
    #expect(storage.notifications.last?.consumptionRequestReason == .fulfillmentIssue)
    // One open request per transaction.
    #expect(throws: TransactionError.refundRequested(id: bought.id, on: t0.addingTimeInterval(10))) {
      try change(storage) { try $0.requestRefund(bought.id, reason: .other, at: t0.addingTimeInterval(11)) }
    }
    let refunded = try change(storage) {
      try $0.decideRefund(bought.id, grant: true, reason: .other, at: t0.addingTimeInterval(20))
    }
    #expect(refunded.revocationDate == t0.addingTimeInterval(20))
    #expect(refunded.revocationReason == .other)
    #expect(storage.store.notifications.refundRequests.isEmpty)
    #expect(storage.notifications.map(\.notificationType) == [.oneTimeCharge, .consumptionRequest, .refund])
    #expect(throws: TransactionError.noRefundRequest(id: bought.id)) {
      try change(storage) { try $0.decideRefund(bought.id, grant: false, reason: .other, at: t0) }
    }
  }

  @Test("declined, the transaction stays purchased and REFUND_DECLINED goes out; refundDecision decides at once")
  func declineAndDecideAtOnce() throws {
    let storage = MemoryStorage()
    let first = try buy(storage)
    _ = try change(storage) { try $0.requestRefund(first.id, reason: .other, at: t0.addingTimeInterval(1)) }
    let declined = try change(storage) {
      try $0.decideRefund(first.id, grant: false, reason: .other, at: t0.addingTimeInterval(2))
    }
    #expect(!declined.isRevoked)
    #expect(storage.notifications.last?.notificationType == .refundDeclined)

    _ = try change(storage) { store in try store.set(.refundDecision, to: "grant", at: t0) }
    let second = try buy(storage, at: 3)
    let (_, decided) = try change(storage) {
      try $0.requestRefund(second.id, reason: .legal, at: t0.addingTimeInterval(4))
    }
    #expect(decided?.isRevoked == true)
    #expect(storage.notifications.suffix(2).map(\.notificationType) == [.consumptionRequest, .refund])
    // Made in one change, the REFUND is signed a millisecond after its CONSUMPTION_REQUEST: a
    // server keeping the notification with the latest signedDate, as Apple advises, keeps it.
    let dates = storage.notifications.suffix(2).map { ServerNotification.milliseconds($0.signedDate) }
    #expect(dates == [ServerNotification.milliseconds(t0.addingTimeInterval(4)), dates[0] + 1])
  }

  @Test("`last` decides the newest transaction with a request open, as every `last` is; with none it says so")
  func decideLast() throws {
    let storage = MemoryStorage()
    for seconds in 0..<3 { try buy(storage, at: Double(seconds)) }
    // Asked for #3 first, then #1: the newest transaction is #3, whenever its request was made.
    for (id, seconds) in [("3", 10.0), ("1", 11.0)] {
      _ = try change(storage) { try $0.requestRefund(id, reason: .other, at: t0.addingTimeInterval(seconds)) }
    }
    let granted = try change(storage) { try $0.decideRefund("last", grant: true, reason: .other, at: t0) }
    #expect(granted.id == "3" && granted.isRevoked)
    let declined = try change(storage) { try $0.decideRefund("last", grant: false, reason: .other, at: t0) }
    #expect(declined.id == "1" && !declined.isRevoked)
    #expect(storage.notifications.suffix(2).map(\.transactionID) == ["3", "1"])
    #expect(throws: TransactionError.noRefundRequestOpen) {
      try change(storage) { try $0.decideRefund("last", grant: true, reason: .other, at: t0) }
    }
    // The refusal names no transaction `last` could not stand for.
    #expect(!TransactionError.noRefundRequestOpen.message.contains("last"))
  }

  @Test("a purchase with a refund request open stays in the store while later purchases finish, for `last` to find")
  func requestedStaysForLast() throws {
    let storage = MemoryStorage()
    func buyAndFinish(at seconds: Double) throws -> StoreTransaction {
      let bought = try buy(storage, at: seconds)
      return try storage.changeStore(catalog: catalog) { try $0.finish(bought.id) }.result
    }
    let first = try buyAndFinish(at: 0)
    _ = try change(storage) { try $0.requestRefund(first.id, reason: .other, at: t0.addingTimeInterval(1)) }
    for seconds in 2...(StoreState.finishedHistoryLimit + 3) { _ = try buyAndFinish(at: Double(seconds)) }
    #expect(storage.store.transaction(first.id) != nil)
    // As `store refund-decide last grant` reaches the history: for the name it was given.
    let granted = try storage.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("last")) {
      try $0.decideRefund("last", grant: true, reason: .other, at: t0.addingTimeInterval(60))
    }.result
    #expect(granted.id == first.id && granted.isRevoked)
  }

  @Test("a reversed refund leaves the transaction unrevoked, REFUND_REVERSED; only a refund can be reversed")
  func reverse() throws {
    let storage = MemoryStorage()
    let bought = try buy(storage)
    #expect(throws: TransactionError.notRefunded(id: bought.id)) {
      try change(storage) { try $0.reverseRefund(bought.id, at: t0) }
    }
    _ = try change(storage) { try $0.refund(bought.id, reason: .other, at: t0.addingTimeInterval(5)) }
    let reversed = try change(storage) { try $0.reverseRefund(bought.id, at: t0.addingTimeInterval(6)) }
    #expect(reversed.revocationDate == nil && reversed.revocationReason == nil && reversed.signedRefund == nil)
    #expect(storage.notifications.last?.notificationType == .refundReversed)
    // Purchased again, it can be refunded again.
    #expect(try change(storage) { try $0.refund(bought.id, reason: .other, at: t0.addingTimeInterval(7)) }.isRevoked)
  }

  @Test("a restore charges nothing and records no ONE_TIME_CHARGE; a TEST needs a notificationURL")
  func restoreAndTest() throws {
    let storage = MemoryStorage()
    #expect(try change(storage) { $0.requestTestNotification(at: t0) } == nil)
    _ = try change(storage) { store in try StoreSetting.notificationURL.set("http://127.0.0.1:9000/", in: &store.state)
    }
    let test = try #require(try change(storage) { $0.requestTestNotification(at: t0) })
    #expect(test.notificationType == .test && test.transactionID == nil && test.testNotificationToken != nil)
  }

  @Test("the payload is Apple's: version 2.0, signedDate in milliseconds, data without appAppleId in sandbox")
  func payloadShape() throws {
    var notification = ServerNotification(
      number: 1, notificationUUID: "002e14d5-51f5-4503-b5a8-c3a1af68eb20", notificationType: .consumptionRequest,
      transactionID: "7", consumptionRequestReason: .unintendedPurchase, signedDate: t0.addingTimeInterval(0.123),
      environment: .sandbox, bundleId: "com.monkeyshop.app", signedTransactionInfo: "a.b/c")
    notification.subtype = nil
    let object = try #require(try JSONSerialization.jsonObject(with: notification.payloadJSON) as? [String: Any])
    #expect(Set(object.keys) == ["notificationType", "notificationUUID", "version", "signedDate", "data"])
    #expect(object["version"] as? String == "2.0")
    #expect(object["signedDate"] as? Int == 1_800_000_000_123)
    let data = try #require(object["data"] as? [String: Any])
    #expect(
      Set(data.keys) == [
        "bundleId", "bundleVersion", "environment", "signedTransactionInfo", "consumptionRequestReason",
      ])
    #expect(data["environment"] as? String == "Sandbox")
    #expect(data["signedTransactionInfo"] as? String == "a.b/c")
    #expect(data["consumptionRequestReason"] as? String == "UNINTENDED_PURCHASE")
  }
}

@Suite("App Store Server Notifications: retries and attempts", .tags(.pure))
struct NotificationRetryTests {
  @Test("HTTP 200 to 206 delivers; 207, 3xx, 4xx and 5xx are failed attempts")
  func successRule() {
    for status in 200...206 { #expect(SendAttemptResult.forStatus(status) == .success) }
    for status in [199, 207, 301, 400, 404, 500, 503] {
      #expect(SendAttemptResult.forStatus(status) == .unsuccessfulHTTPResponseCode)
    }
  }

  @Test("apple retries 5 times, 1, 12, 24, 48 and 72 hours after the previous attempt; fast in seconds; none never")
  func schedule() {
    #expect(NotificationRetry.apple.waits == [3600, 43200, 86400, 172_800, 259_200])
    #expect(NotificationRetry.fast.waits == [1, 12, 24, 48, 72])
    #expect(NotificationRetry.none.nextAttempt(after: 1, lastAt: t0) == nil)
    #expect(NotificationRetry.apple.nextAttempt(after: 2, lastAt: t0) == t0.addingTimeInterval(12 * 3600))
    #expect(NotificationRetry.apple.nextAttempt(after: 6, lastAt: t0) == nil)
  }

  @Test("every failed attempt is kept with the next retry; the sixth failure, or a success, ends it")
  func attemptsUntilEnd() throws {
    var queue = NotificationQueue()
    let made = queue.record(.refund, transactionID: "1", at: t0, environment: .sandbox, bundleId: "b")
    queue.pending = [PendingNotification(made)]
    queue.pending[0].signed = true
    var seconds = 0.0
    for number in 1...5 {
      let recorded = queue.recordAttempt(
        attempt(.unsuccessfulHTTPResponseCode, at: seconds, status: 500), number: 1, retry: .fast)
      let waiting = try #require(recorded)
      #expect(waiting.sendAttempts.count == number)
      #expect(waiting.nextAttemptDate == t0.addingTimeInterval(seconds + NotificationRetry.fast.waits[number - 1]))
      #expect(!waiting.isDue(at: t0.addingTimeInterval(seconds)))
      seconds += NotificationRetry.fast.waits[number - 1]
      #expect(queue.pending.count == 1 && queue.finishing.isEmpty)
    }
    let ended = queue.recordAttempt(attempt(.timedOut, at: seconds), number: 1, retry: .fast)
    let last = try #require(ended)
    #expect(last.sendAttempts.count == 6 && last.nextAttemptDate == nil)
    #expect(queue.pending.isEmpty)
    #expect(queue.finishing.map(\.sendAttempts.count) == [6])
    let again = queue.recordAttempt(attempt(.success, at: seconds), number: 1, retry: .fast)
    #expect(again == nil)
  }

  @Test("under notificationRetry none (the sandbox's one attempt) a failure ends it; a success ends it delivered")
  func oneAttempt() {
    var queue = NotificationQueue()
    for number in 1...2 {
      let made = queue.record(.test, transactionID: nil, at: t0, environment: .sandbox, bundleId: "b")
      #expect(made.number == number)
      queue.pending.append(PendingNotification(made))
    }
    _ = queue.recordAttempt(attempt(.socketIssue, at: 1), number: 1, retry: .none)
    _ = queue.recordAttempt(attempt(.success, at: 1, status: 200), number: 2, retry: .none)
    #expect(queue.pending.isEmpty)
    #expect(queue.finishing.map(\.delivered) == [false, true])
  }

  @Test("Send Consumption Information is kept with the open request, and whether it came within 12 hours")
  func consumptionWindow() {
    var queue = NotificationQueue()
    queue.refundRequests = [RefundRequest(transactionID: "3", date: t0, reason: .other)]
    let late = ConsumptionInformation(
      customerConsented: true, deliveryStatus: "DELIVERED", sampleContentProvided: false,
      receivedDate: t0.addingTimeInterval(12 * 3600 + 1))
    #expect(queue.recordConsumption(late, for: "3")?.consumption?.inWindow == false)
    var early = late
    early.receivedDate = t0.addingTimeInterval(60)
    #expect(queue.recordConsumption(early, for: "3")?.consumption?.inWindow == true)
    #expect(queue.recordConsumption(early, for: "4") == nil)
  }

  @Test("notificationURL takes an http or https URL, or none; anything else is refused naming what was expected")
  func urlSetting() throws {
    var state = StoreState()
    try StoreSetting.notificationURL.set("https://example.com/asn", in: &state)
    #expect(StoreSetting.notificationURL.value(in: state) == "https://example.com/asn")
    for bad in ["ftp://example.com/", "example.com", "http://", "http://a b/", "", "http://user@host/"] {
      #expect(throws: ConditionError.self) { try StoreSetting.notificationURL.set(bad, in: &state) }
    }
    #expect(state.notifications.url == "https://example.com/asn")
    try StoreSetting.notificationURL.set("none", in: &state)
    #expect(state.notifications.url == nil)
    #expect(StoreSetting.notificationURL.value(in: state) == "none")
  }
}

@Suite("App Store Server Notifications in the data folder", .tags(.pure))
struct NotificationFilesTests {
  @Test(
    "a notification is written with the change that makes it: signed, waiting in notifications.jsonl")
  func sameWrite() throws {
    try withDataFolder { folder in
      let bought = try buy(folder)
      let store = try folder.readStore()
      // It waits in the file, where the waiting ones start: store.json lists none.
      #expect(store.notifications.pending.isEmpty && store.notifications.waitingOffset == 0)
      let (listings, _) = try folder.readNotifications()
      let listed = try #require(listings.first)
      #expect(listed.notification.notificationType == .oneTimeCharge)
      #expect(listed.pending?.signed == true && listed.pending?.offset == 0 && listed.sendAttempts.isEmpty)
      let signed = try payload(listed.notification.signedPayload)
      #expect(signed["notificationType"] as? String == "ONE_TIME_CHARGE")
      let data = try #require(signed["data"] as? [String: Any])
      // The transaction as signed in the same change.
      #expect(data["signedTransactionInfo"] as? String == store.transaction(bought.id)?.signedPurchase)
      #expect(listed.waitsFor(url: nil) == "no notificationURL set")
      #expect(listed.waitsFor(url: "http://127.0.0.1:9/") == "waiting for `monkeyshop server` to deliver")
    }
  }

  @Test("bytes a change appended but never committed (killed before store.json) are not read and are cut off")
  func uncommittedCut() throws {
    try withDataFolder { folder in
      try buy(folder)
      let file = folder.path + "/notifications.jsonl"
      let committed = try folder.readStore().notifications.notificationsLength
      // A later change that died after its append: a whole line store.json never counted.
      let handle = try #require(FileHandle(forWritingAtPath: file))
      handle.seekToEndOfFile()
      handle.write(Data("{\"not\":\"committed\"}\n".utf8))
      try handle.close()
      #expect(try folder.readNotifications().notifications.count == 1)
      try buy(folder, at: 1)
      let (listings, store) = try folder.readNotifications()
      #expect(listings.map(\.notification.number) == [1, 2])
      #expect(listings.last?.pending?.offset == committed)
      let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
      #expect(size == store.notifications.notificationsLength)
    }
  }

  @Test("a line of notifications.jsonl that is not a notification is refused by its line number, as an editor shows it")
  func refusedLineNamedByNumber() throws {
    try withDataFolder { folder in
      try buy(folder)
      try buy(folder, at: 1)
      let file = folder.path + "/notifications.jsonl"
      let data = try #require(FileManager.default.contents(atPath: file))
      let second = try #require(data.firstIndex(of: UInt8(ascii: "\n"))) + 1
      // The second line's first byte made something that is not JSON, its length kept.
      var edited = data
      edited[second] = UInt8(ascii: "x")
      try edited.write(to: URL(fileURLWithPath: file))
      let error = #expect(throws: DataFileError.self) { try folder.readNotifications() }
      #expect(error?.path == file, "\(String(describing: error))")
      #expect(error?.problem.hasPrefix("line 2 (byte \(second)): ") == true, "\(String(describing: error))")
    }
  }

  @Test("store.json moved away: the new store takes notifications.jsonl as it is, and numbers new ones after it")
  func newStoreKeepsNotifications() throws {
    try withDataFolder { folder in
      try buy(folder)
      try buy(folder, at: 1)
      let file = folder.path + "/notifications.jsonl"
      let sent = try #require(FileManager.default.contents(atPath: file))
      try FileManager.default.removeItem(atPath: folder.storePath)
      #expect(try folder.readNotifications().notifications.map(\.notification.number) == [1, 2])
      try buy(folder, at: 2)
      #expect(try #require(FileManager.default.contents(atPath: file)).starts(with: sent))
      let (listings, store) = try folder.readNotifications()
      #expect(listings.map(\.notification.number) == [1, 2, 3])
      #expect(Set(listings.map(\.notification.notificationUUID)).count == 3)
      #expect(store.notifications.notificationsLength == FileManager.default.contents(atPath: file)?.count)
      // What the old store kept of them is gone: only the new store's own notification waits.
      #expect(listings.map { $0.pending != nil } == [false, false, true])
      // They say the store that kept them was replaced, not that no attempt is left.
      #expect(
        listings.map { $0.standing(url: "http://127.0.0.1:9/") } == [
          .storeReplaced, .storeReplaced, .waitingForServer,
        ])
      #expect(
        listings[0].waitsFor(url: nil)
          == "not delivered: the store.json that kept it waiting, with its attempts so far, was replaced")
      try folder.setNotificationURL("http://127.0.0.1:9/")
      #expect(try folder.notificationWork(at: t0).due.map(\.pending.number) == [3])
    }
  }

  @Test(
    "an edited notificationsLength or attemptsLength is refused as the store is read, naming store.json: nothing is written, no notification cut"
  )
  func editedLengthsRefused() throws {
    try withDataFolder { folder in
      try folder.setNotificationURL("http://127.0.0.1:9/")
      for index in 0..<2 {
        try buy(folder, at: Double(index))
        for delivery in try folder.notificationWork(at: t0).due {
          try folder.recordSendAttempt(attempt(.success, at: 0, status: 200), number: delivery.pending.number)
        }
      }
      let names = ["store.json", "wallet.json", "notifications.jsonl", "notification-attempts.jsonl"]
      let files = names.map { FileManager.default.contents(atPath: folder.path + "/" + $0) }
      let written = String(decoding: try #require(files[0]), as: UTF8.self)
      func lines(_ index: Int) throws -> [Int] {
        let data = try #require(files[index])
        return data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
      }
      let cases: [(field: String, value: Int, says: String)] = [
        (
          "notificationsLength", try lines(2)[0],
          "goes on after it with notification #2, which this store counts as written"
        ),
        ("notificationsLength", try lines(2)[0] + 3, "which ends inside a line of \(folder.path)/notifications.jsonl"),
        ("notificationsLength", -3, "notifications.notificationsLength: is -3, expected a whole number from 0 to"),
        (
          "attemptsLength", try lines(3)[0], "goes on after it with notification #2, which this store counts as written"
        ),
      ]
      for (field, value, says) in cases {
        let edited = try Regex("\"\(field)\" : [0-9]+")
        try Data(written.replacing(edited, with: "\"\(field)\" : \(value)").utf8)
          .write(to: URL(fileURLWithPath: folder.storePath))
        let edit = FileManager.default.contents(atPath: folder.storePath)
        for attempt in [{ _ = try buy(folder, at: 5) }, { _ = try folder.readNotifications() }] {
          let error = #expect(throws: DataFileError.self) { try attempt() }
          #expect(error?.path == folder.storePath, "\(String(describing: error))")
          #expect(error?.problem.contains(says) == true, "\(String(describing: error))")
          #expect(error?.errorID.exitStatus == .dataError)
        }
        #expect(FileManager.default.contents(atPath: folder.storePath) == edit)
        #expect(
          names.dropFirst().map { FileManager.default.contents(atPath: folder.path + "/" + $0) }
            == Array(files.dropFirst()))
      }
    }
  }

  @Test("delivered notifications leave store.json: it stays the same size however many were sent")
  func storeStaysSmall() throws {
    try withDataFolder { folder in
      try folder.setNotificationURL("http://127.0.0.1:9/")
      func deliverAll() throws {
        let work = try folder.notificationWork(at: t0)
        for delivery in work.due {
          try folder.recordSendAttempt(attempt(.success, at: 0, status: 200), number: delivery.pending.number)
        }
      }
      try buy(folder)
      try deliverAll()
      let size = { try #require(try FileManager.default.attributesOfItem(atPath: folder.storePath)[.size] as? Int) }
      _ = try folder.requestTestNotification(catalog: catalog, at: t0)
      try deliverAll()
      let small = try size()
      for _ in 1...60 {
        _ = try folder.requestTestNotification(catalog: catalog, at: t0)
        try deliverAll()
      }
      let (listings, store) = try folder.readNotifications()
      #expect(listings.count == 62 && listings.allSatisfy(\.delivered))
      #expect(store.notifications.pending.isEmpty)
      // Only the counters grew, by a digit or two each: no notification stays in store.json.
      let large = try size()
      #expect(large - small <= 8, "store.json grew from \(small) to \(large) bytes")
      let notificationsFile = try #require(
        try FileManager.default.attributesOfItem(atPath: folder.path + "/notifications.jsonl")[.size] as? Int)
      #expect(notificationsFile == store.notifications.notificationsLength)
    }
  }

  @Test(
    "notifications nobody sends wait in notifications.jsonl: store.json stays the same size however many wait, and the sender takes them a batch at a time, in order"
  )
  func waitingStayInTheFile() throws {
    try withDataFolder { folder in
      let size = { try #require(try FileManager.default.attributesOfItem(atPath: folder.storePath)[.size] as? Int) }
      func buyAndFinish(at seconds: Double) throws {
        let bought = try buy(folder, at: seconds)
        _ = try folder.changeStore(catalog: catalog) { try $0.finish(bought.id) }
      }
      // No notificationURL: every purchase's ONE_TIME_CHARGE waits.
      for index in 0..<30 { try buyAndFinish(at: Double(index)) }
      let small = try size()
      for index in 30..<150 { try buyAndFinish(at: Double(index)) }
      let afterPurchases = try size()
      #expect(afterPurchases - small < 256, "store.json grew from \(small) to \(afterPurchases) bytes")
      // A URL set and no server running: TEST notifications wait too.
      try folder.setNotificationURL("http://127.0.0.1:9/")
      for _ in 1...50 { _ = try folder.requestTestNotification(catalog: catalog, at: t0) }
      let afterTests = try size()
      #expect(afterTests - small < 512, "store.json grew from \(small) to \(afterTests) bytes")
      let waiting = try folder.readNotifications().notifications
      #expect(waiting.count == 200 && waiting.allSatisfy { $0.pending != nil && $0.sendAttempts.isEmpty })
      #expect(waiting.first?.waitsFor(url: "http://127.0.0.1:9/") == "waiting for `monkeyshop server` to deliver")
      // The sender works through them: never more than a batch in store.json, oldest first.
      var sent: [Int] = []
      while true {
        let work = try folder.notificationWork(at: t0)
        guard !work.due.isEmpty else { break }
        #expect(try folder.readStore().notifications.pending.count <= DataFolder.takenAtOnce)
        for delivery in work.due {
          sent.append(delivery.pending.number)
          try folder.recordSendAttempt(attempt(.success, at: 1, status: 200), number: delivery.pending.number)
        }
      }
      #expect(sent == Array(1...200))
      let (listings, store) = try folder.readNotifications()
      #expect(listings.allSatisfy(\.delivered) && store.notifications.pending.isEmpty)
      #expect(store.notifications.waitingOffset == store.notifications.notificationsLength)
    }
  }

  @Test("an attempt recorded for a notification no longer waiting takes none of those waiting into store.json")
  func attemptOfAnEndedOneTakesNone() throws {
    try withDataFolder { folder in
      try folder.setNotificationURL("http://127.0.0.1:9/")
      try buy(folder)
      let first = try #require(try folder.notificationWork(at: t0).due.first?.pending.number)
      try folder.recordSendAttempt(attempt(.success, at: 1, status: 200), number: first)
      for index in 1...10 { try buy(folder, at: Double(index)) }
      // A second sender's record of the first, ended already.
      #expect(try folder.recordSendAttempt(attempt(.success, at: 2, status: 200), number: first) == nil)
      let store = try folder.readStore()
      #expect(store.notifications.pending.isEmpty)
      #expect(try folder.readNotifications().notifications.filter { $0.pending != nil }.count == 10)
      // One further on is taken with those before it, in order.
      try folder.recordSendAttempt(attempt(.success, at: 3, status: 200), number: first + 3)
      #expect(try folder.readStore().notifications.pending.map(\.number) == [first + 1, first + 2])
    }
  }

  @Test("notifications a folder could not sign, never sent, do not hold back a signed one behind them")
  func unsignedDoNotHoldBack() throws {
    try withDataFolder { folder in
      let signer = folder.signer
      folder.signer = nil
      for index in 0..<(DataFolder.takenAtOnce + 6) { try buy(folder, at: Double(index)) }
      folder.signer = signer
      let signed = try buy(folder, at: 100)
      try folder.setNotificationURL("http://127.0.0.1:9/")
      var due: [String?] = []
      for _ in 1...3 where due.isEmpty {
        due = try folder.notificationWork(at: t0).due.map(\.pending.transactionID)
      }
      #expect(due == [signed.id])
    }
  }

  @Test(
    "a store.json written when store.json listed every waiting notification still sends each once; a waitingOffset past the file is refused"
  )
  func waitingOffsetRead() throws {
    try withDataFolder { folder in
      try buy(folder)
      try buy(folder, at: 1)
      let url = URL(fileURLWithPath: folder.storePath)
      func rewrite(_ change: (inout [String: Any]) throws -> Void) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var queue = try #require(object["notifications"] as? [String: Any])
        try change(&queue)
        object["notifications"] = queue
        try JSONSerialization.data(withJSONObject: object).write(to: url)
      }
      // As an earlier monkeyshop wrote it: both in `pending`, no `waitingOffset`.
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .secondsSince1970
      let listed = try folder.readNotifications().notifications.compactMap(\.pending)
      let earlier = try JSONSerialization.jsonObject(with: encoder.encode(listed))
      try rewrite {
        $0["pending"] = earlier
        $0["waitingOffset"] = nil
      }
      try folder.setNotificationURL("http://127.0.0.1:9/")
      #expect(try folder.notificationWork(at: t0).due.map(\.pending.number) == [1, 2])
      #expect(try folder.readStore().notifications.pending.map(\.number) == [1, 2])
      var length = 0
      try rewrite {
        length = try #require($0["notificationsLength"] as? Int)
        $0["waitingOffset"] = length + 1
      }
      #expect {
        try folder.readStore()
      } throws: { error in
        "\(error)".contains("waitingOffset") && "\(error)".contains("notificationsLength (\(length))")
      }
      // Inside the first line: part of it would be taken for a notification.
      try rewrite { $0["waitingOffset"] = 100 }
      #expect {
        try folder.readStore()
      } throws: { error in
        "\(error)".contains("notifications.waitingOffset is 100, which ends inside a line")
      }
    }
  }

  @Test("Get Notification History pages by 20 from where the token left off, with each one's attempts")
  func historyPages() throws {
    try withDataFolder { folder in
      for index in 0..<45 { try buy(folder, at: Double(index)) }
      try folder.setNotificationURL("http://127.0.0.1:9/")
      try folder.recordSendAttempt(attempt(.timedOut, at: 1), number: 3)
      let request = NotificationHistoryRequest(
        startDate: ServerNotification.milliseconds(t0), endDate: ServerNotification.milliseconds(t0) + 100_000)
      var pages: [NotificationHistoryResponse] = []
      var token: String?
      repeat {
        let page = try folder.notificationHistory(request, paginationToken: token, at: t0).get()
        pages.append(page)
        token = page.paginationToken
      } while pages.last?.hasMore == true
      #expect(pages.map(\.notificationHistory.count) == [20, 20, 5])
      let items = pages.flatMap(\.notificationHistory)
      #expect(items[2].sendAttempts.map(\.sendAttemptResult) == [.timedOut])
      #expect(items[0].sendAttempts.isEmpty)
      let uuids = try items.map { try payload($0.signedPayload)["notificationUUID"] as? String }
      #expect(Set(uuids).count == 45)
      let failures = NotificationHistoryRequest(
        startDate: request.startDate, endDate: request.endDate, notificationType: "REFUND")
      #expect(try folder.notificationHistory(failures, paginationToken: nil, at: t0).get().notificationHistory.isEmpty)
      #expect(
        try folder.notificationHistory(request, paginationToken: "not-a-token!", at: t0)
          == .failure(.invalidPaginationToken))
      let both = NotificationHistoryRequest(
        startDate: request.startDate, endDate: request.endDate, notificationType: "REFUND", transactionId: "1")
      #expect(try folder.notificationHistory(both, paginationToken: nil, at: t0) == .failure(.multipleFiltersSupplied))
      let unknown = NotificationHistoryRequest(
        startDate: request.startDate, endDate: request.endDate, transactionId: "999")
      #expect(try folder.notificationHistory(unknown, paginationToken: nil, at: t0) == .failure(.transactionIdNotFound))
      // Both dates are required: `{}` asks for nothing Apple answers.
      #expect(try folder.notificationHistory(.init(), paginationToken: nil, at: t0) == .failure(.invalidStartDate))
      let noEnd = NotificationHistoryRequest(startDate: request.startDate)
      #expect(try folder.notificationHistory(noEnd, paginationToken: nil, at: t0) == .failure(.invalidEndDate))
    }
  }

  @Test("a TEST notification's status is found by its token once attempted, with each attempt")
  func testStatus() throws {
    try withDataFolder { folder in
      #expect(try folder.requestTestNotification(catalog: catalog, at: t0) == nil)
      try folder.setNotificationURL("http://127.0.0.1:9/")
      let token = try #require(try folder.requestTestNotification(catalog: catalog, at: t0)?.testNotificationToken)
      #expect(try folder.testNotificationStatus(token: token) == .notFound)
      let number = try #require(try folder.notificationWork(at: t0).due.first?.pending.number)
      try folder.recordSendAttempt(attempt(.success, at: 1, status: 200), number: number)
      guard case .found(let status) = try folder.testNotificationStatus(token: token) else {
        Issue.record("no status for \(token)")
        return
      }
      #expect(status.sendAttempts.map(\.sendAttemptResult) == [.success])
      #expect(try payload(status.signedPayload)["notificationType"] as? String == "TEST")
      #expect(try folder.testNotificationStatus(token: "other") == .notFound)
    }
  }
}
