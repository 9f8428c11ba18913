import Foundation

/// How the sender retries a notification its receiver did not take (`store set notificationRetry`).
/// Apple: "For version 2 notifications, it retries five times, at 1, 12, 24, 48, and 72 hours after
/// the previous attempt. … Retry notifications are available only in the production environment.
/// In the sandbox environment, the App Store server attempts to send the notification one time."
/// (https://developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications)
public enum NotificationRetry: String, Codable, CaseIterable, Sendable {
  /// The sandbox's rule, the default: one attempt.
  case none
  /// Production's schedule, on the wall clock.
  case apple
  /// Production's schedule with hours read as seconds, to test a server's idempotency in minutes.
  case fast

  /// The waits after the 1st, 2nd, … failed attempt; none after the last.
  public var waits: [TimeInterval] {
    let hours: [TimeInterval] = [1, 12, 24, 48, 72]
    switch self {
    case .none: return []
    case .apple: return hours.map { $0 * 3600 }
    case .fast: return hours
    }
  }

  /// When to try again after `attempts` attempts, the last at `date`; nil: no more attempts.
  public func nextAttempt(after attempts: Int, lastAt date: Date) -> Date? {
    guard attempts >= 1, attempts <= waits.count else { return nil }
    return date.addingTimeInterval(waits[attempts - 1])
  }
}

/// What the App Store does with a refund request the customer makes (`store set refundDecision`):
/// `ask` leaves it open for `store refund-decide`; `grant` and `decline` decide it at once.
public enum RefundDecision: String, Codable, CaseIterable, Sendable {
  case ask, grant, decline
}

/// A notification not yet delivered, with its attempts so far: the small part of a notification
/// that `store.json` keeps (the notification itself is a line of `notifications.jsonl`, at
/// `offset`), so a store with many waiting notifications stays small.
public struct PendingNotification: Codable, Equatable, Sendable {
  public var number: Int
  public var notificationUUID: String
  public var notificationType: NotificationType
  public var transactionID: String?
  public var signedDate: Date
  /// Where its line starts in `notifications.jsonl`; nil until the storage has written it (and
  /// always in memory).
  public var offset: Int?
  /// Whether it was signed: one the folder could not sign is never sent.
  public var signed: Bool
  public var sendAttempts: [SendAttempt]
  /// When the next retry is due; nil before the first attempt.
  public var nextAttemptDate: Date?

  public init(_ notification: ServerNotification) {
    number = notification.number
    notificationUUID = notification.notificationUUID
    notificationType = notification.notificationType
    transactionID = notification.transactionID
    signedDate = notification.signedDate
    signed = notification.signedPayload != nil
    sendAttempts = []
  }

  /// One read back from its line in `notifications.jsonl`, starting at `offset`.
  public init(_ notification: ServerNotification, at offset: Int) {
    self.init(notification)
    self.offset = offset
  }

  /// Due for an attempt at `now`.
  public func isDue(at now: Date) -> Bool { signed && (nextAttemptDate.map { $0 <= now } ?? true) }
}

/// A notification whose sending ended (delivered, or no attempt left): its attempts, one line of
/// `notification-attempts.jsonl`.
public struct FinishedNotification: Codable, Equatable, Sendable {
  public var number: Int
  public var sendAttempts: [SendAttempt]
  /// What it was, for whoever follows the file (an open storefront); absent from lines written
  /// before they were kept.
  public var notificationType: NotificationType?
  public var transactionID: String?

  public init(
    number: Int, sendAttempts: [SendAttempt], notificationType: NotificationType? = nil, transactionID: String? = nil
  ) {
    self.number = number
    self.sendAttempts = sendAttempts
    self.notificationType = notificationType
    self.transactionID = transactionID
  }

  public var delivered: Bool { sendAttempts.last?.result == .success }
}

/// A refund the customer asked for and the App Store has not decided yet.
public struct RefundRequest: Codable, Equatable, Sendable {
  public var transactionID: String
  public var date: Date
  public var reason: ConsumptionRequestReason
  /// What the developer's server answered with Send Consumption Information, when it did.
  public var consumption: ConsumptionInformation?

  public init(transactionID: String, date: Date, reason: ConsumptionRequestReason) {
    self.transactionID = transactionID
    self.date = date
    self.reason = reason
  }

  /// "Respond within 12 hours of receiving the `CONSUMPTION_REQUEST` notification."
  /// (https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information)
  public static let consumptionWindow: TimeInterval = 12 * 3600

  public var consumptionDeadline: Date { date.addingTimeInterval(Self.consumptionWindow) }
}

/// Send Consumption Information's body, as received (`ConsumptionRequest`,
/// https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest), and when.
public struct ConsumptionInformation: Codable, Equatable, Sendable {
  public var customerConsented: Bool
  public var deliveryStatus: String
  public var sampleContentProvided: Bool
  public var consumptionPercentage: Int?
  public var refundPreference: String?
  public var receivedDate: Date
  /// Whether it came within Apple's 12 hours of the request.
  public var inWindow: Bool

  public init(
    customerConsented: Bool, deliveryStatus: String, sampleContentProvided: Bool, consumptionPercentage: Int? = nil,
    refundPreference: String? = nil, receivedDate: Date, inWindow: Bool = true
  ) {
    self.customerConsented = customerConsented
    self.deliveryStatus = deliveryStatus
    self.sampleContentProvided = sampleContentProvided
    self.consumptionPercentage = consumptionPercentage
    self.refundPreference = refundPreference
    self.receivedDate = receivedDate
    self.inWindow = inWindow
  }
}

/// The App Store Server Notifications side of the store, kept in `store.json`: the App Store
/// Connect setting, the counters of the notification files, the notifications waiting and the
/// refund requests open. The notifications themselves live in `notifications.jsonl`.
public struct NotificationQueue: Codable, Equatable, Sendable {
  /// App Store Connect's Sandbox Server URL ("App Store Server Notifications"); nil: none set,
  /// notifications wait.
  public var url: String?
  public var lastNumber = 0
  /// How much of `notifications.jsonl` and `notification-attempts.jsonl` this store has written:
  /// bytes past it belong to a change that was never written (a crash), and are cut off.
  public var notificationsLength = 0
  public var attemptsLength = 0
  /// Where the notifications not yet taken for sending start in `notifications.jsonl`: every line
  /// from here to `notificationsLength` waits for its first attempt without being listed in
  /// `pending`, so a store whose notifications nobody sends (no notificationURL, no server running)
  /// stays the same size however many it makes. The sender takes them into `pending` a batch at a
  /// time.
  public var waitingOffset = 0
  /// The notifications taken for sending: attempted, or about to be.
  public var pending: [PendingNotification] = []
  public var refundRequests: [RefundRequest] = []
  /// Made by this change, for the storage to sign and append; never in `store.json`.
  public var outgoing: [ServerNotification] = []
  /// Ended by this change, for the storage to append to the attempts file; never in `store.json`.
  public var finishing: [FinishedNotification] = []

  public init() {}

  enum CodingKeys: String, CodingKey, CaseIterable {
    case url, lastNumber, notificationsLength, attemptsLength, waitingOffset, pending, refundRequests
  }

  /// The counters are whole numbers from 0: a length or a number below it (an edit) is refused as
  /// the store is read, before any change writes a file.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let limit = 0...StoreState.transactionNumberLimit
    url = try container.decodeIfPresent(String.self, forKey: .url)
    lastNumber = try container.decodeWholeNumber(forKey: .lastNumber, in: limit)
    notificationsLength = try container.decodeWholeNumber(forKey: .notificationsLength, in: limit)
    attemptsLength = try container.decodeWholeNumber(forKey: .attemptsLength, in: limit)
    // A store written before the waiting ones were left in the file lists all of them in `pending`.
    waitingOffset =
      container.contains(.waitingOffset)
      ? try container.decodeWholeNumber(forKey: .waitingOffset, in: limit) : notificationsLength
    pending = try container.decode([PendingNotification].self, forKey: .pending)
    refundRequests = try container.decode([RefundRequest].self, forKey: .refundRequests)
  }

  /// Takes the waiting notifications read from the file (each with where its line starts) into
  /// `pending`; `end`: where the line after the last one taken starts.
  public mutating func take(_ waiting: [PendingNotification], through end: Int) {
    pending += waiting
    waitingOffset = end
  }

  public static func == (lhs: NotificationQueue, rhs: NotificationQueue) -> Bool {
    lhs.url == rhs.url && lhs.lastNumber == rhs.lastNumber && lhs.notificationsLength == rhs.notificationsLength
      && lhs.attemptsLength == rhs.attemptsLength && lhs.waitingOffset == rhs.waitingOffset
      && lhs.pending == rhs.pending
      && lhs.refundRequests == rhs.refundRequests && lhs.outgoing.isEmpty == rhs.outgoing.isEmpty
      && lhs.finishing.isEmpty == rhs.finishing.isEmpty
  }

  public func refundRequest(for id: String) -> RefundRequest? { refundRequests.first { $0.transactionID == id } }

  /// Send Consumption Information reaches the App Store: kept with the open refund request, with
  /// whether it came within Apple's 12 hours. Nil when no refund request of this transaction is
  /// open (Apple does not say what it does then; nothing is kept).
  @discardableResult
  public mutating func recordConsumption(_ information: ConsumptionInformation, for id: String) -> RefundRequest? {
    guard let index = refundRequests.firstIndex(where: { $0.transactionID == id }) else { return nil }
    var information = information
    information.inWindow = information.receivedDate <= refundRequests[index].consumptionDeadline
    refundRequests[index].consumption = information
    return refundRequests[index]
  }

  /// Records a notification the store makes now: it waits to be sent, and the storage signs and
  /// writes it with the change.
  @discardableResult
  mutating func record(
    _ type: NotificationType, transactionID: String?, reason: ConsumptionRequestReason? = nil, at now: Date,
    environment: StoreEnvironment, bundleId: String, signedTransactionInfo: String? = nil,
    testNotificationToken: String? = nil
  ) -> ServerNotification {
    lastNumber += 1
    // Apple's notifications can arrive out of order, and Apple's advice is to act on the one with
    // the most recent signedDate
    // (https://developer.apple.com/documentation/appstoreservernotifications/signeddate). A change
    // that makes two about one transaction (a refund request granted at once: CONSUMPTION_REQUEST,
    // then REFUND) signs the later one a millisecond after the earlier, so that advice holds.
    var signedDate = now
    if let transactionID, let earlier = outgoing.last(where: { $0.transactionID == transactionID }) {
      let next = ServerNotification.milliseconds(earlier.signedDate) + 1
      if ServerNotification.milliseconds(now) < next { signedDate = Date(timeIntervalSince1970: Double(next) / 1000) }
    }
    let notification = ServerNotification(
      number: lastNumber, notificationUUID: UUID().uuidString.lowercased(), notificationType: type,
      transactionID: transactionID, consumptionRequestReason: reason, signedDate: signedDate, environment: environment,
      bundleId: bundleId, testNotificationToken: testNotificationToken, signedTransactionInfo: signedTransactionInfo)
    outgoing.append(notification)
    return notification
  }

  /// Records an attempt at sending notification `number`, and when to try again by `retry`; one
  /// delivered, or with no attempt left, ends and moves to the attempts file. Nil when it is not
  /// waiting (another sender finished it).
  public mutating func recordAttempt(_ attempt: SendAttempt, number: Int, retry: NotificationRetry)
    -> PendingNotification?
  {
    guard let index = pending.firstIndex(where: { $0.number == number }) else { return nil }
    pending[index].sendAttempts.append(attempt)
    let next =
      attempt.result == .success
      ? nil : retry.nextAttempt(after: pending[index].sendAttempts.count, lastAt: attempt.date)
    pending[index].nextAttemptDate = next
    let updated = pending[index]
    if next == nil {
      finishing.append(
        FinishedNotification(
          number: number, sendAttempts: updated.sendAttempts, notificationType: updated.notificationType,
          transactionID: updated.transactionID))
      pending.remove(at: index)
    }
    return updated
  }
}
