import Foundation
import Hummingbird
import MonkeyShopDomain
import MonkeyShopStorage

/// The App Store Server API's notification endpoints, answered from the notifications the store
/// records (docs/notifications.md); `monkeyshop server` sends them beside these routes.
extension Routes {
  func addNotificationRoutes(to api: RouterGroup<BasicRequestContext>) {
    // Request a Test Notification: https://developer.apple.com/documentation/appstoreserverapi/request-a-test-notification
    api.post("v1/notifications/test") { _, _ in
      try await answer { try await requestTestNotification() }
    }
    // Get Test Notification Status: https://developer.apple.com/documentation/appstoreserverapi/get-test-notification-status
    api.get("v1/notifications/test/:testNotificationToken") { _, context in
      try await answer { try await testNotificationStatus(context.parameters.get("testNotificationToken") ?? "") }
    }
    // Get Notification History: https://developer.apple.com/documentation/appstoreserverapi/get-notification-history
    api.post("v1/notifications/history") { request, _ in
      try await answer { try await notificationHistory(request) }
    }
  }

  /// "prompts the App Store server to send your server a notification with the TEST
  /// notificationType": recorded now, sent by the server's sender; 404 with
  /// ServerNotificationURLNotFoundError when no notificationURL is set.
  func requestTestNotification() async throws -> Response {
    let response = try await Blocking.run { [source] in
      try source.folder().requestTestNotification(catalog: source.catalog)
    }
    guard let response else { throw APIError.serverNotificationURLNotFound }
    return try encoded(response)
  }

  /// The TEST notification of a token and its attempts; TestNotificationNotFoundError before its
  /// first attempt ("The status isn't yet available or the test notification token wasn't found").
  func testNotificationStatus(_ token: String) async throws -> Response {
    // The tokens this server gives are UUIDs; Apple does not say what makes one invalid.
    guard UUID(uuidString: token) != nil else { throw APIError.invalidTestNotificationToken }
    let status = try await Blocking.run { [source] in try source.folder().testNotificationStatus(token: token) }
    guard case .found(let response) = status else { throw APIError.testNotificationNotFound }
    return try encoded(response)
  }

  /// Up to 20 notifications a page, oldest first, filtered by the request body.
  func notificationHistory(_ request: Request) async throws -> Response {
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: Self.bodyLimit)
    } catch {
      throw MalformedRequest()
    }
    guard let query = try? JSONDecoder().decode(NotificationHistoryRequest.self, from: Data(body.readableBytesView))
    else { throw MalformedRequest() }
    let token = Self.parameters(request)["paginationToken"]?.last
    let result = try await Blocking.run { [source] in
      try source.folder().notificationHistory(query, paginationToken: token)
    }
    switch result {
    case .success(let page): return try encoded(page)
    case .failure(let problem): throw APIError(problem)
    }
  }

  /// A Codable answer as JSON, keys sorted.
  func encoded(_ value: some Encodable) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
  }
}

extension APIError {
  /// Get Notification History's refusals, with Apple's messages where its copies give one.
  init(_ problem: NotificationHistoryError) {
    let message =
      switch problem {
      case .invalidPaginationToken: "Invalid request. The pagination token is invalid."
      case .invalidStartDate: "Invalid request. The start date is invalid."
      case .invalidEndDate: "Invalid request. The end date is invalid."
      case .startDateAfterEndDate: "Invalid request. The end date precedes the start date or the dates are the same."
      case .startDateTooFarInPast: "Invalid request. The start date is earlier than the allowed start date."
      case .invalidNotificationType: "Invalid request. The notification type or subtype is invalid."
      case .multipleFiltersSupplied:
        "Invalid request. Supply either a transaction id or a notification type, but not both."
      case .transactionIdNotFound: "Transaction id not found."
      }
    self.init(code: problem.errorCode, message: message)
  }

  // https://developer.apple.com/documentation/appstoreserverapi/servernotificationurlnotfounderror
  static let serverNotificationURLNotFound = APIError(
    code: 4_040_007,
    message:
      "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment."
  )
  // https://developer.apple.com/documentation/appstoreserverapi/testnotificationnotfounderror
  static let testNotificationNotFound = APIError(
    code: 4_040_008,
    message: "Either the test notification token is expired or the notification and status are not yet available.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidtestnotificationtokenerror
  static let invalidTestNotificationToken = APIError(
    code: 4_000_020, message: "Invalid request. The test notification token is invalid.")
}
