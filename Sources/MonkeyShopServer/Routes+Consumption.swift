import Foundation
import Hummingbird
import MonkeyShopDomain
import MonkeyShopStorage

extension Routes {
  /// Send Consumption Information, the current endpoint (`PUT /inApps/v2/transactions/consumption/{transactionId}`,
  /// https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information) and
  /// V1 (`PUT /inApps/v1/transactions/consumption/{transactionId}`,
  /// https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information-v1).
  /// "202 Accepted: The App Store server received the consumption information." What was received
  /// is kept in the data folder (`consumption.json`), under the folder's lock.
  func consumption(_ request: Request, _ context: BasicRequestContext, version1: Bool) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    let record = try await Blocking.run { [source] in try source.current() }
    guard ServedRecord.isWellFormedID(id) else { throw APIError.invalidTransactionId }
    if id == record.appTransactionID { throw APIError.appTransactionIdNotSupported }
    guard try await Blocking.run({ try record.entry(id) }) != nil else { throw APIError.transactionIdNotFound }
    let body = try await Self.jsonObject(request)
    if version1 { try Self.checkConsumptionV1(body) } else { try Self.checkConsumption(body) }
    let report = ConsumptionReport(
      transactionID: id, endpoint: version1 ? "v1" : "v2", received: Date(),
      fields: body.keys.sorted().map { ConsumptionReport.Field(name: $0, value: body[$0]!.text) })
    try await Blocking.run { [source] in try source.folder().recordConsumption(report) }
    // The current endpoint's answer to a refund request (CONSUMPTION_REQUEST) is kept with the
    // request, marked whether it came within Apple's 12 hours (docs/notifications.md).
    if !version1, case .bool(let consented)? = body["customerConsented"],
      case .string(let delivery)? = body["deliveryStatus"], case .bool(let sample)? = body["sampleContentProvided"]
    {
      var percentage: Int?
      if case .integer(let value)? = body["consumptionPercentage"] { percentage = Int(value) }
      var preference: String?
      if case .string(let value)? = body["refundPreference"] { preference = value }
      let information = ConsumptionInformation(
        customerConsented: consented, deliveryStatus: delivery, sampleContentProvided: sample,
        consumptionPercentage: percentage, refundPreference: preference, receivedDate: report.received)
      try await Blocking.run { [source] in
        _ = try source.folder().recordConsumptionInformation(information, transactionID: id)
      }
    }
    return Response(status: .accepted)
  }

  /// `ConsumptionRequest` (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest):
  /// `customerConsented`, `deliveryStatus` and `sampleContentProvided` required;
  /// `consumptionPercentage` and `refundPreference` optional.
  static func checkConsumption(_ body: [String: JSONValue]) throws {
    // "The App Store server rejects requests that have a customerConsented value other than true
    // by returning an HTTP 400 error with an InvalidCustomerConsentedError."
    guard body["customerConsented"] == .bool(true) else { throw APIError.invalidCustomerConsented }
    // https://developer.apple.com/documentation/appstoreserverapi/deliverystatus
    let deliveryStatuses = [
      "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
      "UNDELIVERED_OTHER",
    ]
    guard case .string(let delivery)? = body["deliveryStatus"], deliveryStatuses.contains(delivery) else {
      throw APIError.invalidDeliveryStatus
    }
    guard case .bool? = body["sampleContentProvided"] else { throw APIError.invalidSampleContentProvided }
    var refundPreference: String?
    if let value = body["refundPreference"] {
      // https://developer.apple.com/documentation/appstoreserverapi/refundpreference
      guard case .string(let text) = value, ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(text) else {
        throw APIError.invalidRefundPreference
      }
      refundPreference = text
    }
    // https://developer.apple.com/documentation/appstoreserverapi/consumptionpercentage: milliunits,
    // 0 to 100000. Apple names the errors for a value out of range
    // (ConsumptionPercentageOutOfRangeError), a non-zero one for an undelivered purchase
    // (UndeliveredConsumptionPercentageNonZeroError) and a prorated refund without a percentage
    // strictly between 0 and 100000, but publishes no error code for them: they are answered as
    // Apple answers a request it finds malformed, 400 without a code.
    if let value = body["consumptionPercentage"] {
      guard case .integer(let percentage) = value, (0...100_000).contains(percentage) else { throw MalformedRequest() }
      // "If the deliveryStatus isn't DELIVERED, set the consumptionPercentage to 0; otherwise the
      // request fails with an error."
      if delivery != "DELIVERED", percentage != 0 { throw MalformedRequest() }
      if refundPreference == "GRANT_PRORATED", !(1..<100_000).contains(percentage) { throw MalformedRequest() }
    } else if refundPreference == "GRANT_PRORATED" {
      // "If you select GRANT_PRORATED for the refundPreference field, you need to provide a
      // consumptionPercentage greater than 0 and less than 100000" (for one-time purchases).
      throw MalformedRequest()
    }
  }

  /// `ConsumptionRequestV1` (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequestv1):
  /// every field required but `refundPreference`, each an integer code of Apple's list, each with its
  /// own error when missing or out of its list.
  static func checkConsumptionV1(_ body: [String: JSONValue]) throws {
    guard body["customerConsented"] == .bool(true) else { throw APIError.invalidCustomerConsented }
    let codes: [(field: String, values: ClosedRange<Int>, error: APIError)] = [
      ("consumptionStatus", 0...3, .invalidConsumptionStatus),
      ("platform", 0...2, .invalidPlatform),
      ("deliveryStatus", 0...5, .invalidDeliveryStatus),
      ("accountTenure", 0...7, .invalidAccountTenure),
      ("playTime", 0...7, .invalidPlayTime),
      ("lifetimeDollarsRefunded", 0...7, .invalidLifetimeDollarsRefunded),
      ("lifetimeDollarsPurchased", 0...7, .invalidLifetimeDollarsPurchased),
      ("userStatus", 0...4, .invalidUserStatus),
    ]
    for code in codes {
      guard case .integer(let value)? = body[code.field], code.values.contains(value) else { throw code.error }
    }
    guard case .bool? = body["sampleContentProvided"] else { throw APIError.invalidSampleContentProvided }
    // "a valid value of either a UUID or an empty string"
    guard case .string(let token)? = body["appAccountToken"], token.isEmpty || UUID(uuidString: token) != nil else {
      throw APIError.invalidAppAccountToken
    }
    if let value = body["refundPreference"] {
      guard case .integer(let preference) = value, (0...3).contains(preference) else {
        throw APIError.invalidRefundPreference
      }
    }
  }
}
