import Foundation
import Hummingbird
import MonkeyShopDomain
import MonkeyShopStorage

/// The App Store Server API's request/response endpoints for the data folder's record, at Apple's
/// paths ("Note that /inApps in the path is case-sensitive",
/// https://developer.apple.com/documentation/appstoreserverapi).
struct Routes: Sendable {
  let source: RecordSource
  let bundleID: String

  /// The largest request body any endpoint here takes: Apple's request objects are a few hundred
  /// bytes. Apple does not say what it does with a larger one; it is refused as malformed.
  static let bodyLimit = 64 << 10

  func add(to router: Router<BasicRequestContext>) {
    let api = router.group("inApps")
    // Get Transaction Info: https://developer.apple.com/documentation/appstoreserverapi/get-transaction-info
    api.get("v1/transactions/:transactionId") { _, context in
      try await answer { try await transactionInfo(context.parameters.get("transactionId") ?? "") }
    }
    // Get Transaction History: https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history
    api.get("v2/history/:anyTransactionId") { request, context in
      try await answer { try await history(request, context, version1: false) }
    }
    // Get Transaction History V1: https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history-v1
    api.get("v1/history/:anyTransactionId") { request, context in
      try await answer { try await history(request, context, version1: true) }
    }
    // Get Refund History: https://developer.apple.com/documentation/appstoreserverapi/get-refund-history
    api.get("v2/refund/lookup/:anyTransactionId") { request, context in
      try await answer { try await refundHistory(request, context) }
    }
    // Look Up Order ID: https://developer.apple.com/documentation/appstoreserverapi/look-up-order-id
    api.get("v1/lookup/:orderId") { _, context in
      try await answer { try await lookUpOrder(context.parameters.get("orderId") ?? "") }
    }
    // Send Consumption Information: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information
    api.put("v2/transactions/consumption/:transactionId") { request, context in
      try await answer { try await consumption(request, context, version1: false) }
    }
    // Send Consumption Information V1: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information-v1
    api.put("v1/transactions/consumption/:transactionId") { request, context in
      try await answer { try await consumption(request, context, version1: true) }
    }
    addAccountRoutes(to: api)
    addSubscriptionRoutes(to: api)
    addNotificationRoutes(to: api)
  }

  // MARK: Handlers

  func transactionInfo(_ id: String) async throws -> Response {
    guard ServedRecord.isWellFormedID(id) else { throw APIError.invalidTransactionId }
    // The transaction found by its key: in the store, else one row of the record.
    let found = try await Blocking.run { [source] in
      let record = try source.current()
      return (appTransactionID: record.appTransactionID, jws: try record.jws(id))
    }
    // The path takes a transaction ID; an app transaction ID gets AppTransactionIdNotSupportedError
    // (listed on the page's 400 responses).
    if id == found.appTransactionID { throw APIError.appTransactionIdNotSupported }
    guard let jws = found.jws else { throw APIError.transactionIdNotFound }
    // TransactionInfoResponse: https://developer.apple.com/documentation/appstoreserverapi/transactioninforesponse
    return json(["signedTransactionInfo": .string(jws)])
  }

  func history(_ request: Request, _ context: BasicRequestContext, version1: Bool) async throws -> Response {
    let id = context.parameters.get("anyTransactionId") ?? ""
    let record = try await customerRecord(id)
    let query = try HistoryQuery(parameters: Self.parameters(request), version1: version1)
    let page = try await Blocking.run { try record.historyPage(query) }
    // HistoryResponse: https://developer.apple.com/documentation/appstoreserverapi/historyresponse.
    // No `appAppleId`: there is none outside the App Store ("It isn't present in the sandbox
    // environment", https://developer.apple.com/documentation/appstoreservernotifications/data).
    return json([
      "revision": .string(page.revision.token), "hasMore": .bool(page.hasMore), "bundleId": .string(bundleID),
      "environment": .string(record.environment.rawValue), "signedTransactions": .strings(page.entries.map(\.jws)),
    ])
  }

  func refundHistory(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
    let id = context.parameters.get("anyTransactionId") ?? ""
    let record = try await customerRecord(id)
    let parameters = Self.parameters(request)
    var revision: Revision?
    if let values = parameters["revision"] {
      guard values.count == 1, let token = Revision(token: values[0]), token.kind == .refunds else {
        throw APIError.invalidRequestRevision
      }
      revision = token
    }
    let page = try await Blocking.run { [revision] in try record.refundPage(after: revision) }
    // RefundHistoryResponse: https://developer.apple.com/documentation/appstoreserverapi/refundhistoryresponse
    return json([
      "signedTransactions": .strings(page.entries.map(\.jws)), "revision": .string(page.revision.token),
      "hasMore": .bool(page.hasMore),
    ])
  }

  func lookUpOrder(_ orderID: String) async throws -> Response {
    // Apple lists GeneralBadRequestError for an invalid request and no 404: an order ID of no
    // purchase is a 200 with status 1 (https://developer.apple.com/documentation/appstoreserverapi/orderlookupstatus:
    // 0 "The order ID is valid", 1 "The order ID is invalid"). Apple does not say which texts it
    // refuses as malformed; here, anything but up to 64 letters and digits.
    guard !orderID.isEmpty, orderID.count <= 64, orderID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { throw APIError.generalBadRequest }
    let entries = try await Blocking.run { [source] in try source.current().entries(ofOrder: orderID) }
    // OrderLookupResponse: https://developer.apple.com/documentation/appstoreserverapi/orderlookupresponse.
    // "A response with an OrderLookupStatus value of 1 doesn't contain a signed transactions array."
    guard !entries.isEmpty else { return json(["status": .integer(1)]) }
    return json(["status": .integer(0), "signedTransactions": .strings(entries.map(\.jws))])
  }

  /// The record, once `id` is checked as an `anyTransactionId` of this customer.
  func customerRecord(_ id: String) async throws -> ServedRecord {
    guard ServedRecord.isWellFormedID(id) else {
      // The folder is still read first, so an unreadable one answers as it did before the ID.
      _ = try await Blocking.run { [source] in try source.current() }
      throw APIError.invalidTransactionId
    }
    return try await Blocking.run { [source] in
      let record = try source.current()
      guard try record.belongsToCustomer(id) else { throw APIError.transactionIdNotFound }
      return record
    }
  }

  // MARK: Requests and responses

  /// Each query parameter with every value it was given, in order.
  static func parameters(_ request: Request) -> [String: [String]] {
    var parameters: [String: [String]] = [:]
    for (key, value) in request.uri.queryParameters { parameters[String(key), default: []].append(String(value)) }
    return parameters
  }

  /// The request's body as a JSON object, or a malformed request.
  static func jsonObject(_ request: Request) async throws -> [String: JSONValue] {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: bodyLimit)
    } catch {
      throw MalformedRequest()
    }
    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
    else { throw MalformedRequest() }
    return object
  }
}

/// The handler's response, or the response of Apple's error it threw. Anything else (a data file
/// that cannot be read, say) is Apple's GeneralInternalError (500), never a dropped connection.
func answer(_ body: () async throws -> Response) async throws -> Response {
  do {
    return try await body()
  } catch let error as APIError {
    return error.response
  } catch let malformed as MalformedRequest {
    return malformed.response
  } catch is DataFolderBusy {
    // Another command held the folder's lock longer than any command waits: "An unknown error
    // occurred, but you can try again"
    // (https://developer.apple.com/documentation/appstoreserverapi/generalinternalretryableerror).
    return APIError.generalInternalRetryable.response
  } catch {
    // Said where the person running the server sees it: the client sees only Apple's 500.
    FileHandle.standardError.write(Data("monkeyshop: server: \(TerminalText.escaped("\(error)"))\n".utf8))
    return APIError.generalInternal.response
  }
}

/// A JSON response: `Content-Type: application/json`, keys sorted so the same answer reads the same.
func json(_ object: [String: JSONValue], status: HTTPResponse.Status = .ok) -> Response {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let data = (try? encoder.encode(JSONValue.object(object))) ?? Data("{}".utf8)
  return Response(
    status: status, headers: [.contentType: "application/json"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}
