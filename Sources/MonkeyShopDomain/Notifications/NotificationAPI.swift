import Foundation

// The App Store Server API's notification endpoints, as JSON values: what a server answers,
// built by the storage from the notification files (docs/notifications.md).

/// `sendAttemptItem`: "attemptDate" in UNIX milliseconds and "sendAttemptResult"
/// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptitem).
public struct SendAttemptItem: Codable, Equatable, Sendable {
  public var attemptDate: Int64
  public var sendAttemptResult: SendAttemptResult

  public init(_ attempt: SendAttempt) {
    attemptDate = ServerNotification.milliseconds(attempt.date)
    sendAttemptResult = attempt.result
  }
}

/// Request a Test Notification's answer (`SendTestNotificationResponse`,
/// https://developer.apple.com/documentation/appstoreserverapi/sendtestnotificationresponse).
public struct SendTestNotificationResponse: Codable, Equatable, Sendable {
  public var testNotificationToken: String

  public init(testNotificationToken: String) { self.testNotificationToken = testNotificationToken }
}

/// Get Test Notification Status's answer (`CheckTestNotificationResponse`,
/// https://developer.apple.com/documentation/appstoreserverapi/checktestnotificationresponse).
public struct CheckTestNotificationResponse: Codable, Equatable, Sendable {
  public var signedPayload: String
  public var sendAttempts: [SendAttemptItem]

  public init(signedPayload: String, sendAttempts: [SendAttemptItem]) {
    self.signedPayload = signedPayload
    self.sendAttempts = sendAttempts
  }
}

/// What Get Test Notification Status finds for a token.
public enum TestNotificationStatus: Equatable, Sendable {
  case found(CheckTestNotificationResponse)
  /// "The status isn't yet available or the test notification token wasn't found."
  /// (`TestNotificationNotFoundError`, 4040008)
  case notFound
}

/// Get Notification History's body (`NotificationHistoryRequest`,
/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest).
public struct NotificationHistoryRequest: Codable, Equatable, Sendable {
  /// UNIX milliseconds.
  public var startDate: Int64?
  public var endDate: Int64?
  public var notificationType: String?
  public var notificationSubtype: String?
  public var transactionId: String?
  public var onlyFailures: Bool?

  public init(
    startDate: Int64? = nil, endDate: Int64? = nil, notificationType: String? = nil, notificationSubtype: String? = nil,
    transactionId: String? = nil, onlyFailures: Bool? = nil
  ) {
    self.startDate = startDate
    self.endDate = endDate
    self.notificationType = notificationType
    self.notificationSubtype = notificationSubtype
    self.transactionId = transactionId
    self.onlyFailures = onlyFailures
  }

  /// Whether a notification, with its attempts so far, is one the request asks for. `startDate`
  /// and `endDate` bound `signedDate` (start included, end not); `transactionId` names the
  /// customer ("Provide this field to limit the notification history request to this one
  /// customer"): the simulated App Store has one, so it keeps every notification about a
  /// transaction; `onlyFailures`: "only the notifications that haven't reached your server
  /// successfully … also includes notifications that the App Store server is currently retrying".
  public func matches(_ notification: ServerNotification, attempts: [SendAttempt]) -> Bool {
    let date = ServerNotification.milliseconds(notification.signedDate)
    if let startDate, date < startDate { return false }
    if let endDate, date >= endDate { return false }
    if let notificationType, notification.notificationType.rawValue != notificationType { return false }
    if let notificationSubtype, notification.subtype != notificationSubtype { return false }
    if transactionId != nil, notification.transactionID == nil { return false }
    if onlyFailures == true, attempts.last?.result == .success { return false }
    return true
  }
}

/// Why Get Notification History refuses a request: Apple's error codes
/// (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history).
public enum NotificationHistoryError: Error, Equatable, Sendable {
  case invalidPaginationToken  // 4000014
  case invalidStartDate  // 4000015
  case invalidEndDate  // 4000016
  case startDateAfterEndDate  // 4000013
  case startDateTooFarInPast  // 4000012
  case invalidNotificationType  // 4000018
  case multipleFiltersSupplied  // 4000019
  case transactionIdNotFound  // 4040010

  public var errorCode: Int {
    switch self {
    case .invalidPaginationToken: 4_000_014
    case .invalidStartDate: 4_000_015
    case .invalidEndDate: 4_000_016
    case .startDateAfterEndDate: 4_000_013
    case .startDateTooFarInPast: 4_000_012
    case .invalidNotificationType: 4_000_018
    case .multipleFiltersSupplied: 4_000_019
    case .transactionIdNotFound: 4_040_010
    }
  }
}

/// One notification in Get Notification History (`notificationHistoryResponseItem`).
public struct NotificationHistoryResponseItem: Codable, Equatable, Sendable {
  public var signedPayload: String
  public var sendAttempts: [SendAttemptItem]

  public init(signedPayload: String, sendAttempts: [SendAttemptItem]) {
    self.signedPayload = signedPayload
    self.sendAttempts = sendAttempts
  }
}

/// Get Notification History's answer (`NotificationHistoryResponse`,
/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponse): up to
/// 20 notifications a page, and the token for the next.
public struct NotificationHistoryResponse: Codable, Equatable, Sendable {
  public static let pageSize = 20
  public var paginationToken: String
  public var hasMore: Bool
  public var notificationHistory: [NotificationHistoryResponseItem]

  public init(paginationToken: String, hasMore: Bool, notificationHistory: [NotificationHistoryResponseItem]) {
    self.paginationToken = paginationToken
    self.hasMore = hasMore
    self.notificationHistory = notificationHistory
  }
}

extension NotificationHistoryRequest {
  /// Checks the request as Apple does; `now` for the 30 days the sandbox keeps ("the past 30 days
  /// in the sandbox environment"). `knowsTransaction` tells whether a `transactionId` exists.
  public func validate(now: Date, knowsTransaction: (String) -> Bool) -> NotificationHistoryError? {
    // "The request requires the startDate and endDate fields"
    // (https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest): one
    // missing is as invalid as one out of range, InvalidStartDateError ("the start date is
    // invalid") or InvalidEndDateError.
    guard let startDate, startDate >= 0 else { return .invalidStartDate }
    guard let endDate, endDate >= 0 else { return .invalidEndDate }
    if startDate >= endDate { return .startDateAfterEndDate }
    if startDate < ServerNotification.milliseconds(now.addingTimeInterval(-30 * 86_400)) {
      return .startDateTooFarInPast
    }
    if transactionId != nil, notificationType != nil { return .multipleFiltersSupplied }
    if let notificationType, NotificationType(rawValue: notificationType) == nil { return .invalidNotificationType }
    // No notification here has a subtype: one named, or one without its type, asks for none there is.
    if notificationSubtype != nil, notificationType == nil { return .invalidNotificationType }
    if let transactionId, !knowsTransaction(transactionId) { return .transactionIdNotFound }
    return nil
  }
}
