import Foundation

/// The App Store Server Notifications V2 this store sends (docs/notifications.md). Apple's list of
/// types: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
public enum NotificationType: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
  /// "Customer purchases a consumable, non-consumable, or non-renewing subscription" (available in
  /// production since 2025/05/27, in sandbox since 2024/06/10:
  /// https://developer.apple.com/documentation/appstoreservernotifications/app-store-server-notifications-changelog).
  case oneTimeCharge = "ONE_TIME_CHARGE"
  /// "Apple requests consumption information for a refund request that a customer initiates."
  case consumptionRequest = "CONSUMPTION_REQUEST"
  /// "Apple refunds the transaction for a consumable or non-consumable In-App Purchase, …"
  case refund = "REFUND"
  /// "Apple declines a refund that the customer initiated in the app, using the request refund API."
  case refundDeclined = "REFUND_DECLINED"
  /// "Apple reverses a previously granted refund due to a dispute that the customer raised."
  case refundReversed = "REFUND_REVERSED"
  /// Sent on request: https://developer.apple.com/documentation/appstoreserverapi/request-a-test-notification
  case test = "TEST"

  public var description: String { rawValue }
}

/// Why the customer asks for a refund, as a `CONSUMPTION_REQUEST` says it ("appears only for
/// `CONSUMPTION_REQUEST` notifications",
/// https://developer.apple.com/documentation/appstoreservernotifications/consumptionrequestreason).
public enum ConsumptionRequestReason: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
  case unintendedPurchase = "UNINTENDED_PURCHASE"
  case fulfillmentIssue = "FULFILLMENT_ISSUE"
  case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
  case legal = "LEGAL"
  case other = "OTHER"

  public var description: String { rawValue }
}

/// How one attempt to send a notification ended, with Apple's values
/// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult).
public enum SendAttemptResult: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
  /// "received a success response": HTTP 200 to 206
  /// (https://developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications).
  case success = "SUCCESS"
  case timedOut = "TIMED_OUT"
  case tlsIssue = "TLS_ISSUE"
  case circularRedirect = "CIRCULAR_REDIRECT"
  case noResponse = "NO_RESPONSE"
  case socketIssue = "SOCKET_ISSUE"
  case unsupportedCharset = "UNSUPPORTED_CHARSET"
  case invalidResponse = "INVALID_RESPONSE"
  case prematureClose = "PREMATURE_CLOSE"
  case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
  case other = "OTHER"

  public var description: String { rawValue }

  /// Apple's rule for the status a receiver answers: "Send HTTP `200`, or any HTTP code between
  /// `200` and `206`, if the post was successful"
  /// (https://developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications).
  public static func forStatus(_ status: Int) -> SendAttemptResult {
    (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
  }
}

/// One attempt to send a notification: Apple's `sendAttemptItem` (`attemptDate`,
/// `sendAttemptResult`, https://developer.apple.com/documentation/appstoreserverapi/sendattemptitem),
/// with what monkeyshop also shows: the URL and the HTTP status the receiver answered.
public struct SendAttempt: Codable, Equatable, Sendable {
  public var date: Date
  public var result: SendAttemptResult
  public var url: String
  public var httpStatus: Int?
  /// What went wrong, in words, when no HTTP status came back.
  public var detail: String?

  /// How the receiver answered, as a line says it: `200`, `500 UNSUCCESSFUL_HTTP_RESPONSE_CODE`,
  /// `TIMED_OUT`.
  public var answer: String {
    guard let httpStatus else { return result.rawValue }
    return result == .success ? "\(httpStatus)" : "\(httpStatus) \(result.rawValue)"
  }

  /// The line that says this attempt in the server's output: `App Store Server Notification REFUND
  /// #7 → http://127.0.0.1:9000/ · 200` (the transaction, when the notification is about one), which
  /// adds which attempt it was. The storefront's log says the same with the URL last.
  public func line(notificationType: NotificationType, transactionID: String?) -> String {
    "\(Self.subject(notificationType, transactionID: transactionID)) → \(url) · \(answer)"
  }

  /// What an attempt sent, as every line about it begins: `App Store Server Notification REFUND #7`.
  public static func subject(_ type: NotificationType, transactionID: String?) -> String {
    "App Store Server Notification \(type.rawValue)" + (transactionID.map { " #\($0)" } ?? "")
  }

  public init(date: Date, result: SendAttemptResult, url: String, httpStatus: Int? = nil, detail: String? = nil) {
    self.date = date
    self.result = result
    self.url = url
    self.httpStatus = httpStatus
    self.detail = detail
  }
}

/// A notification as the store records it, once, when the change that causes it is written: one
/// line of `notifications.jsonl` (docs/data-folder.md). What it says never changes; its attempts
/// are kept apart (`PendingNotification` while it waits, then `notification-attempts.jsonl`).
public struct ServerNotification: Codable, Equatable, Sendable {
  /// Counts up from 1 in the order the store made them.
  public var number: Int
  /// "A unique identifier for the notification. Use this value to identify a duplicate
  /// notification" — a retry carries the same one
  /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationuuid).
  public var notificationUUID: String
  public var notificationType: NotificationType
  /// "present only for specific version 2 notifications": none of the types here has one.
  public var subtype: String?
  public var transactionID: String?
  public var consumptionRequestReason: ConsumptionRequestReason?
  /// When the change happened and the store signed the notification (`signedDate`).
  public var signedDate: Date
  public var environment: StoreEnvironment
  public var bundleId: String
  /// `TEST` only: the token Request a Test Notification answered, for Get Test Notification Status.
  public var testNotificationToken: String?
  /// The transaction's JWS as the store holds it when the notification is made; once the
  /// notification is signed it is kept only inside `signedPayload`.
  public var signedTransactionInfo: String?
  /// The whole notification signed (JWS); nil when the folder has no signing chain.
  public var signedPayload: String?

  public init(
    number: Int, notificationUUID: String, notificationType: NotificationType, transactionID: String?,
    consumptionRequestReason: ConsumptionRequestReason? = nil, signedDate: Date, environment: StoreEnvironment,
    bundleId: String, testNotificationToken: String? = nil, signedTransactionInfo: String? = nil
  ) {
    self.number = number
    self.notificationUUID = notificationUUID
    self.notificationType = notificationType
    self.transactionID = transactionID
    self.consumptionRequestReason = consumptionRequestReason
    self.signedDate = signedDate
    self.environment = environment
    self.bundleId = bundleId
    self.testNotificationToken = testNotificationToken
    self.signedTransactionInfo = signedTransactionInfo
  }

  /// `bundleVersion`: "The version of the build that identifies an iteration of the bundle"
  /// (https://developer.apple.com/documentation/appstoreservernotifications/bundleversion). The
  /// simulated app has one build.
  public static let bundleVersion = "1"

  /// What the store signs: Apple's `responseBodyV2DecodedPayload`
  /// (https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload),
  /// `version` "2.0", `signedDate` in UNIX milliseconds, and `data`
  /// (https://developer.apple.com/documentation/appstoreservernotifications/data): no `appAppleId`
  /// ("It isn't present in the sandbox environment"), no `status` or `signedRenewalInfo` (for
  /// auto-renewable subscriptions only).
  public var payloadJSON: Data {
    var data: [String: PayloadJSON] = [
      "bundleId": .string(bundleId), "bundleVersion": .string(Self.bundleVersion),
      "environment": .string(environment.rawValue),
    ]
    if let signedTransactionInfo { data["signedTransactionInfo"] = .string(signedTransactionInfo) }
    if let consumptionRequestReason { data["consumptionRequestReason"] = .string(consumptionRequestReason.rawValue) }
    var payload: [String: PayloadJSON] = [
      "notificationType": .string(notificationType.rawValue), "notificationUUID": .string(notificationUUID),
      "version": .string("2.0"), "signedDate": .integer(Self.milliseconds(signedDate)), "data": .object(data),
    ]
    if let subtype { payload["subtype"] = .string(subtype) }
    return Data(PayloadJSON.object(payload).text.utf8)
  }

  public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

/// Just enough JSON to write a payload with sorted keys and exact integers.
enum PayloadJSON {
  case string(String)
  case integer(Int64)
  case object([String: PayloadJSON])

  var text: String {
    switch self {
    case .string(let value):
      let encoded = (try? JSONEncoder().encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
      return encoded.replacingOccurrences(of: "\\/", with: "/")
    case .integer(let value): return "\(value)"
    case .object(let fields):
      return "{"
        + fields.keys.sorted().map { PayloadJSON.string($0).text + ":" + fields[$0]!.text }.joined(separator: ",")
        + "}"
    }
  }
}
