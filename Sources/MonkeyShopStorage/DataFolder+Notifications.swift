import Foundation
import MonkeyShopDomain

/// A notification due to be sent, with what to send.
public struct NotificationDelivery: Sendable {
  public var pending: PendingNotification
  public var signedPayload: String
}

/// What the sender finds in the folder.
public struct NotificationWork: Sendable {
  public var url: String?
  public var retry: NotificationRetry
  /// Due now, signed, oldest first.
  public var due: [NotificationDelivery]
  /// When the next retry not yet due falls due.
  public var nextDate: Date?
}

extension DataFolder {
  /// Signs the notifications a change made and appends them to `notifications.jsonl`, and appends
  /// the attempts of those it ended to `notification-attempts.jsonl`: called by `update` under the
  /// lock, after the transactions are signed and before `store.json` (the commit) is written.
  func commitNotifications(_ store: inout StoreState, leaving: [StoreTransaction], folder: Int32) throws {
    var queue = store.notifications
    if !queue.outgoing.isEmpty {
      // The keys of each environment, read (or made) once; a folder whose keys cannot be read
      // records the notification unsigned, never sent, as a purchase goes on unsigned.
      var loaded: [StoreEnvironment: (files: [String: Data], place: String)?] = [:]
      func keys(_ environment: StoreEnvironment) throws -> (files: [String: Data], place: String)? {
        guard let signer else { return nil }
        if let found = loaded[environment] { return found }
        do {
          loaded[environment] = .some(
            try fileSet(signer.keySet(for: environment), in: folder) { try signer.makeKeys(for: environment) })
        } catch let error as DataFileError where error.errorID != .cannotWriteDataFile {
          loaded[environment] = .some(nil)
        }
        return loaded[environment] ?? nil
      }
      for index in queue.outgoing.indices {
        var notification = queue.outgoing[index]
        if notification.signedTransactionInfo == nil, let id = notification.transactionID,
          let transaction = store.transaction(id) ?? leaving.last(where: { $0.id == id })
        {
          notification.signedTransactionInfo = transaction.currentJWS
        }
        if let signer, let set = try keys(notification.environment) {
          notification.signedPayload = try signer.sign(
            notificationPayload: notification.payloadJSON, environment: notification.environment, keys: set.files,
            place: set.place)
          // Signed, the transaction's JWS is inside `signedPayload`: the line does not keep it twice.
          notification.signedTransactionInfo = nil
        }
        queue.outgoing[index] = notification
      }
      // Appended after the waiting ones: each waits in the file, not in store.json, until the
      // sender takes it (`takeWaiting`).
      let log = NotificationLog(folder: folder, path: path, name: NotificationLog.notificationsName)
      queue.notificationsLength = try log.append(queue.outgoing, committed: queue.notificationsLength).length
      queue.outgoing = []
    }
    if !queue.finishing.isEmpty {
      let log = NotificationLog(folder: folder, path: path, name: NotificationLog.attemptsName)
      queue.attemptsLength = try log.append(queue.finishing, committed: queue.attemptsLength).length
      queue.finishing = []
    }
    store.notifications = queue
  }

  /// A new store (`store.json` moved away) takes the notification files as they are: the
  /// notifications already made stay, and new ones are numbered after them. Those that were
  /// waiting in the old store are not sent.
  func takeNotificationFiles(_ queue: inout MonkeyShopDomain.NotificationQueue, in folder: Int32) throws(DataFileError)
  {
    let (log, attemptsLog) = logs(folder)
    let notifications = try log.wholeLines()
    queue.notificationsLength = notifications.length
    queue.waitingOffset = notifications.length
    queue.lastNumber = notifications.lastNumber ?? 0
    queue.attemptsLength = try attemptsLog.wholeLines().length
  }

  /// Refuses a store whose counts of the notification files are not ones monkeyshop wrote
  /// (`NotificationLog.check`): read with it, a change would cut off notifications already made.
  func checkNotificationFiles(_ queue: MonkeyShopDomain.NotificationQueue, in folder: Int32) throws(DataFileError) {
    let (log, attemptsLog) = logs(folder)
    try log.check(committed: queue.notificationsLength, field: "notificationsLength", storePath: storePath) {
      $0 <= queue.lastNumber
    }
    let waiting = Set(queue.pending.map(\.number))
    try attemptsLog.check(committed: queue.attemptsLength, field: "attemptsLength", storePath: storePath) {
      $0 <= queue.lastNumber && !waiting.contains($0)
    }
    guard queue.waitingOffset <= queue.notificationsLength else {
      throw DataFileError(
        path: storePath,
        problem:
          "notifications.waitingOffset is \(queue.waitingOffset), past notificationsLength (\(queue.notificationsLength)), the end of what was written: it was edited",
        remedy: "put back the store.json monkeyshop wrote, or move it away to go on with notifications.jsonl as it is")
    }
    // Where a line starts: an offset inside one would take a piece of it for a notification.
    try log.check(committed: queue.waitingOffset, field: "waitingOffset", storePath: storePath) { _ in false }
  }

  // MARK: Reading

  /// Reads the notification files with the folder open: a `DataFileError` as it is, any other
  /// (a line that did not decode) as one of the folder's. Nil when there is no folder.
  private func readingLogs<Result>(
    _ body: (_ notifications: NotificationLog, _ attempts: NotificationLog) throws -> Result
  ) throws(DataFileError) -> Result? {
    try opened { folder throws(DataFileError) -> Result in
      let (notifications, attempts) = logs(folder)
      do {
        return try body(notifications, attempts)
      } catch let error as DataFileError {
        throw error
      } catch {
        throw DataFileError(path: path, problem: "\(error)")
      }
    }
  }

  private func logs(_ folder: Int32) -> (notifications: NotificationLog, attempts: NotificationLog) {
    (
      NotificationLog(folder: folder, path: path, name: NotificationLog.notificationsName),
      NotificationLog(folder: folder, path: path, name: NotificationLog.attemptsName)
    )
  }

  /// The attempts of every notification that ended, by number.
  private func finishedAttempts(_ log: NotificationLog, committed: Int) throws -> [Int: [SendAttempt]] {
    var attempts: [Int: [SendAttempt]] = [:]
    try log.lines(from: 0, committed: committed) { offset, line in
      let finished = try log.decode(FinishedNotification.self, line, at: offset)
      attempts[finished.number] = finished.sendAttempts
      return true
    }
    return attempts
  }

  /// Every notification the store made, oldest first, with its attempts and whether it waits; and
  /// the store they were read with.
  public func readNotifications() throws -> (notifications: [NotificationListing], store: StoreState) {
    try readNotifications(where: { _ in true })
  }

  /// The notifications about transaction `id`, oldest first, with their attempts: what the
  /// transaction manager's detail lists. Only the lines that name the transaction are decoded.
  public func readNotifications(about id: String) throws -> [NotificationListing] {
    let mention = Data("\"transactionID\":\"\(id)\"".utf8)
    return try readNotifications(where: { $0.range(of: mention) != nil }).notifications.filter {
      $0.notification.transactionID == id
    }
  }

  private func readNotifications(where mentions: (Data) -> Bool) throws -> (
    notifications: [NotificationListing], store: StoreState
  ) {
    let store = try readStore()
    let queue = store.notifications
    let listings =
      try readingLogs { log, attemptsLog -> [NotificationListing] in
        let finished = try finishedAttempts(attemptsLog, committed: queue.attemptsLength)
        let pending = Dictionary(queue.pending.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
        var listings: [NotificationListing] = []
        try log.lines(from: 0, committed: queue.notificationsLength) { offset, line in
          guard mentions(line) else { return true }
          let notification = try log.decode(ServerNotification.self, line, at: offset)
          let waiting =
            pending[notification.number]
            ?? (offset >= queue.waitingOffset ? PendingNotification(notification, at: offset) : nil)
          listings.append(
            NotificationListing(
              notification: notification,
              sendAttempts: waiting?.sendAttempts ?? finished[notification.number] ?? [], pending: waiting))
          return true
        }
        return listings
      } ?? []
    return (listings, store)
  }

  /// The notifications whose sending ended between two lengths of `notification-attempts.jsonl`
  /// (the `attemptsLength` of two stores, the older first), oldest first: what an open storefront
  /// shows of the server's side since it last looked.
  public func readEndedNotifications(from start: Int, through end: Int) throws -> [FinishedNotification] {
    try readingLogs { _, log -> [FinishedNotification] in
      var ended: [FinishedNotification] = []
      try log.lines(from: start, committed: end) { offset, line in
        ended.append(try log.decode(FinishedNotification.self, line, at: offset))
        return true
      }
      return ended
    } ?? []
  }

  /// What the sender has to do now: the notifications due, each with its signed payload read from
  /// its line (the file is not read whole), the URL and the retry rule.
  public func notificationWork(at now: Date) throws -> NotificationWork {
    var store = try readStore()
    if store.notifications.url != nil, store.notifications.waitingOffset < store.notifications.notificationsLength {
      // New ones join those about to be tried; those waiting for a retry, or never to be sent
      // (unsigned), do not hold them back.
      let unattempted = store.notifications.pending.count { $0.signed && $0.sendAttempts.isEmpty }
      if unattempted < Self.takenAtOnce, try takeWaiting(upTo: Self.takenAtOnce - unattempted) {
        store = try readStore()
      }
    }
    let queue = store.notifications
    var work = NotificationWork(url: queue.url, retry: store.conditions.notificationRetry, due: [], nextDate: nil)
    guard queue.url != nil else { return work }
    let due = queue.pending.filter { $0.isDue(at: now) }
    work.nextDate = queue.pending.compactMap { $0.signed ? $0.nextAttemptDate : nil }.filter { $0 > now }.min()
    guard !due.isEmpty else { return work }
    try readingLogs { log, _ in
      for pending in due {
        guard let offset = pending.offset, let line = try log.line(at: offset, committed: queue.notificationsLength)
        else { continue }
        let notification = try log.decode(ServerNotification.self, line, at: offset)
        guard notification.number == pending.number, let signed = notification.signedPayload else { continue }
        work.due.append(NotificationDelivery(pending: pending, signedPayload: signed))
      }
    }
    return work
  }

  // MARK: Changes

  /// Records one attempt at sending notification `number`, under the lock, with the retry rule in
  /// force now. Returns the notification as it now waits (or ended); nil when it was not waiting.
  @discardableResult
  public func recordSendAttempt(_ attempt: SendAttempt, number: Int) throws -> PendingNotification? {
    try update { store, _ in
      if !store.notifications.pending.contains(where: { $0.number == number }) {
        try takeWaiting(into: &store.notifications, upTo: .max, through: number)
      }
      return store.notifications.recordAttempt(attempt, number: number, retry: store.conditions.notificationRetry)
    }
  }

  /// How many notifications not yet attempted the sender keeps in `store.json` at once: a few
  /// rounds of its connections, so `pending` stays small while it works through thousands.
  static let takenAtOnce = 64

  /// Takes up to `count` notifications waiting in the file into `pending`, under the lock. False
  /// when there were none (another sender took them).
  private func takeWaiting(upTo count: Int) throws -> Bool {
    try update { store, _ in try takeWaiting(into: &store.notifications, upTo: count) }
  }

  /// Reads the waiting notifications from `waitingOffset` on, up to `count` or through the one
  /// numbered `number`, and takes them into `pending`. False when none waited.
  @discardableResult
  private func takeWaiting(
    into queue: inout MonkeyShopDomain.NotificationQueue, upTo count: Int, through number: Int? = nil
  ) throws
    -> Bool
  {
    guard queue.waitingOffset < queue.notificationsLength else { return false }
    let committed = queue.notificationsLength
    let (taken, end) =
      try readingLogs { log, _ -> ([PendingNotification], Int) in
        var taken: [PendingNotification] = []
        var end = committed
        // The file is in the order of the numbers: past `number`, it is not waiting there.
        try log.lines(from: queue.waitingOffset, committed: committed) { offset, line in
          let notification = try log.decode(ServerNotification.self, line, at: offset)
          guard taken.count < count, number.map({ notification.number <= $0 }) ?? true else {
            end = offset
            return false
          }
          taken.append(PendingNotification(notification, at: offset))
          return true
        }
        return (taken, end)
      } ?? ([], committed)
    queue.take(taken, through: end)
    return !taken.isEmpty
  }

  /// `store set notificationURL`: nil turns notifications off (they wait).
  public func setNotificationURL(_ url: String?) throws {
    try update { store, _ in store.notifications.url = url }
  }

  /// Send Consumption Information, received by a server: the decoded body, kept with the open
  /// refund request of transaction `id`. Nil when none is open.
  @discardableResult
  public func recordConsumptionInformation(_ information: ConsumptionInformation, transactionID id: String) throws
    -> RefundRequest?
  {
    try update { store, _ in store.notifications.recordConsumption(information, for: id) }
  }

  /// Request a Test Notification: nil when no notificationURL is set
  /// (`ServerNotificationURLNotFoundError`, 4040007).
  public func requestTestNotification(catalog: Catalog, at now: Date = Date()) throws
    -> SendTestNotificationResponse?
  {
    let (test, _) = try changeStore(catalog: catalog) { store in store.requestTestNotification(at: now) }
    return test?.testNotificationToken.map(SendTestNotificationResponse.init(testNotificationToken:))
  }

  /// Get Test Notification Status: the TEST notification of `token` and its attempts; not found
  /// before its first attempt ("The status isn't yet available",
  /// https://developer.apple.com/documentation/appstoreserverapi/get-test-notification-status).
  public func testNotificationStatus(token: String) throws -> TestNotificationStatus {
    let (listings, _) = try readNotifications()
    guard let listing = listings.last(where: { $0.notification.testNotificationToken == token }),
      let signed = listing.notification.signedPayload, !listing.sendAttempts.isEmpty
    else { return .notFound }
    return .found(
      CheckTestNotificationResponse(signedPayload: signed, sendAttempts: listing.sendAttempts.map(SendAttemptItem.init))
    )
  }

  /// Get Notification History: up to 20 notifications from where `paginationToken` left off
  /// (opaque to the caller: where the next line starts in `notifications.jsonl`, so a page reads
  /// from there on, not the whole file), oldest first.
  public func notificationHistory(
    _ request: NotificationHistoryRequest, paginationToken: String?, at now: Date = Date()
  ) throws -> Result<NotificationHistoryResponse, NotificationHistoryError> {
    let store = try readStore()
    let queue = store.notifications
    var start = 0
    if let paginationToken {
      guard let data = Base64URLText.decode(paginationToken), let text = String(data: data, encoding: .utf8),
        text.hasPrefix("n:"), let offset = Int(text.dropFirst(2)), offset >= 0, offset <= queue.notificationsLength
      else { return .failure(.invalidPaginationToken) }
      start = offset
    }
    let known = { (id: String) -> Bool in
      store.transaction(id) != nil || ((try? self.readHistoryTransaction(id)) ?? nil) != nil
    }
    if let problem = request.validate(now: now, knowsTransaction: known) { return .failure(problem) }
    let response =
      try readingLogs { log, attemptsLog -> NotificationHistoryResponse in
        let finished = try finishedAttempts(attemptsLog, committed: queue.attemptsLength)
        let pending = Dictionary(queue.pending.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
        var items: [NotificationHistoryResponseItem] = []
        var next = queue.notificationsLength
        var hasMore = false
        try log.lines(from: start, committed: queue.notificationsLength) { offset, line in
          let notification = try log.decode(ServerNotification.self, line, at: offset)
          let attempts = pending[notification.number]?.sendAttempts ?? finished[notification.number] ?? []
          guard let signed = notification.signedPayload, request.matches(notification, attempts: attempts) else {
            return true
          }
          if items.count == NotificationHistoryResponse.pageSize {
            hasMore = true
            next = offset
            return false
          }
          items.append(
            NotificationHistoryResponseItem(signedPayload: signed, sendAttempts: attempts.map(SendAttemptItem.init)))
          return true
        }
        let token = Base64URLText.encode(Data("n:\(next)".utf8))
        return NotificationHistoryResponse(paginationToken: token, hasMore: hasMore, notificationHistory: items)
      } ?? NotificationHistoryResponse(paginationToken: "", hasMore: false, notificationHistory: [])
    return .success(response)
  }
}

/// Base64url without padding, for pagination tokens.
enum Base64URLText {
  static func encode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func decode(_ text: String) -> Data? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
      return nil
    }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
