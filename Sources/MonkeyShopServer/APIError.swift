import Foundation
import Hummingbird
import MonkeyShopDomain

/// An App Store Server API error: Apple's HTTP status and body `{"errorCode": N, "errorMessage": "…"}`.
/// Every Apple error object has exactly these two properties, for example
/// https://developer.apple.com/documentation/appstoreserverapi/transactionidnotfounderror, and the
/// status is the code's first three digits on every endpoint page. The body is sent as
/// `Content-Type: application/json` exactly: Apple's App Store Server Library reads `errorCode` only
/// under that header (`api_client.py`, `_parse_response`, app-store-server-library 3.1.2).
///
/// Messages are Apple's where Apple's pages give one (each error's page lists its `errorMessage`
/// value); where none was found, the message is the error page's summary.
struct APIError: Error, Equatable, Sendable {
  let code: Int
  let message: String

  var status: HTTPResponse.Status { .init(code: code / 10_000) }

  // https://developer.apple.com/documentation/appstoreserverapi/generalbadrequesterror
  static let generalBadRequest = APIError(code: 4_000_000, message: "Bad request.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidrequestrevisionerror
  static let invalidRequestRevision = APIError(code: 4_000_005, message: "Invalid request revision.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidtransactioniderror
  static let invalidTransactionId = APIError(code: 4_000_006, message: "Invalid transaction id.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidoriginaltransactioniderror
  static let invalidOriginalTransactionId = APIError(code: 4_000_008, message: "Invalid original transaction id.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidextendbydayserror
  static let invalidExtendByDays = APIError(code: 4_000_009, message: "Invalid extend by days value.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidextendreasoncodeerror
  static let invalidExtendReasonCode = APIError(code: 4_000_010, message: "Invalid extend reason code.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidrequestidentifiererror
  static let invalidRequestIdentifier = APIError(code: 4_000_011, message: "Invalid request identifier.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidstartdateerror
  static let invalidStartDate = APIError(code: 4_000_015, message: "Invalid request. The start date is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidenddateerror
  static let invalidEndDate = APIError(code: 4_000_016, message: "Invalid request. The end date is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidsorterror
  static let invalidSort = APIError(code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidproducttypeerror
  static let invalidProductType = APIError(
    code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidproductiderror
  static let invalidProductId = APIError(
    code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidsubscriptiongroupidentifiererror
  static let invalidSubscriptionGroupIdentifier = APIError(
    code: 4_000_024, message: "Invalid request. The subscription group identifier is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidexcluderevokederror
  static let invalidExcludeRevoked = APIError(
    code: 4_000_025, message: "Invalid request. The exclude revoked parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidinappownershiptypeerror
  static let invalidInAppOwnershipType = APIError(
    code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidrevokederror
  static let invalidRevoked = APIError(code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidstatuserror
  static let invalidStatus = APIError(code: 4_000_031, message: "Invalid request. The status parameter is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidaccounttenureerror
  static let invalidAccountTenure = APIError(
    code: 4_000_032, message: "Invalid request. The account tenure field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidappaccounttokenerror
  static let invalidAppAccountToken = APIError(
    code: 4_000_033, message: "Invalid request. The app account token field must be a valid UUID or an empty string.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidconsumptionstatuserror
  static let invalidConsumptionStatus = APIError(
    code: 4_000_034, message: "Invalid request. The consumption status field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidcustomerconsentederror
  static let invalidCustomerConsented = APIError(
    code: 4_000_035,
    message: "Invalid request. The customer consented field is required and must indicate the customer consented.")
  // https://developer.apple.com/documentation/appstoreserverapi/invaliddeliverystatuserror
  static let invalidDeliveryStatus = APIError(
    code: 4_000_036, message: "Invalid request. The delivery status field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidlifetimedollarspurchasederror
  static let invalidLifetimeDollarsPurchased = APIError(
    code: 4_000_037, message: "Invalid request. The lifetime dollars purchased field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidlifetimedollarsrefundederror
  static let invalidLifetimeDollarsRefunded = APIError(
    code: 4_000_038, message: "Invalid request. The lifetime dollars refunded field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidplatformerror
  static let invalidPlatform = APIError(code: 4_000_039, message: "Invalid request. The platform field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidplaytimeerror
  static let invalidPlayTime = APIError(code: 4_000_040, message: "Invalid request. The playtime field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidsamplecontentprovidederror
  static let invalidSampleContentProvided = APIError(
    code: 4_000_041, message: "Invalid request. The sample content provided field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invaliduserstatuserror
  static let invalidUserStatus = APIError(
    code: 4_000_042, message: "Invalid request. The user status field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidrefundpreferenceerror
  static let invalidRefundPreference = APIError(
    code: 4_000_044, message: "Invalid request. The refund preference field is invalid.")
  // https://developer.apple.com/documentation/appstoreserverapi/apptransactionidnotsupportederror
  static let appTransactionIdNotSupported = APIError(
    code: 4_000_048, message: "Invalid request. App transactions aren't supported by this endpoint.")
  // https://developer.apple.com/documentation/appstoreserverapi/invalidappaccounttokenuuiderror
  static let invalidAppAccountTokenUUID = APIError(
    code: 4_000_183, message: "Invalid request. The app account token field must be a valid UUID.")
  // https://developer.apple.com/documentation/appstoreserverapi/transactionidisnotoriginaltransactioniderror
  static let transactionIdIsNotOriginalTransactionId = APIError(
    code: 4_000_187, message: "Invalid request. The transaction ID provided is not an original transaction ID.")
  // https://developer.apple.com/documentation/appstoreserverapi/subscriptionextensionineligibleerror
  static let subscriptionExtensionIneligible = APIError(
    code: 4_030_004, message: "Forbidden - subscription state ineligible for extension.")
  // https://developer.apple.com/documentation/appstoreserverapi/originaltransactionidnotfounderror
  static let originalTransactionIdNotFound = APIError(code: 4_040_005, message: "Original transaction id not found.")
  // https://developer.apple.com/documentation/appstoreserverapi/statusrequestnotfounderror
  static let statusRequestNotFound = APIError(
    code: 4_040_009,
    message:
      "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination."
  )
  // https://developer.apple.com/documentation/appstoreserverapi/transactionidnotfounderror
  static let transactionIdNotFound = APIError(code: 4_040_010, message: "Transaction id not found.")
  // https://developer.apple.com/documentation/appstoreserverapi/apptransactiondoesnotexisterror
  static let appTransactionDoesNotExist = APIError(
    code: 4_040_019, message: "No AppTransaction exists for the customer.")
  // https://developer.apple.com/documentation/appstoreserverapi/generalinternalerror
  static let generalInternal = APIError(code: 5_000_000, message: "An unknown error occurred.")
  // https://developer.apple.com/documentation/appstoreserverapi/generalinternalretryableerror
  static let generalInternalRetryable = APIError(
    code: 5_000_001, message: "An unknown error occurred. Please try again.")

  /// The response Apple sends for this error.
  var response: Response {
    let body = "{\"errorCode\":\(code),\"errorMessage\":\(TerminalText.jsonString(message))}"
    return Response(
      status: status, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }
}

/// A 400 with no error code: "Invalid request. See the error code for more information. If there's
/// no error code, the request is malformed." (Send Consumption Information and Set App Account
/// Token, https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information).
/// A body that is not JSON, not the object the endpoint takes, or larger than any such object gets it.
struct MalformedRequest: Error {
  var response: Response { Response(status: .badRequest) }
}
