import Foundation
import Hummingbird
import MonkeyShopDomain
import MonkeyShopStorage

extension Routes {
  func addAccountRoutes(to api: RouterGroup<BasicRequestContext>) {
    // Set App Account Token: https://developer.apple.com/documentation/appstoreserverapi/set-app-account-token
    // The path's parameter is Apple's `originalTransactionId`; it takes the name Get Transaction
    // Info's route gives the same place in the path (the router requires one name per place).
    api.put("v1/transactions/:transactionId/appAccountToken") { request, context in
      try await answer { try await setAppAccountToken(request, context) }
    }
    // Get App Transaction Info: https://developer.apple.com/documentation/appstoreserverapi/get-app-transaction-info
    api.get("v1/transactions/appTransactions/:anyTransactionId") { _, context in
      try await answer { try await appTransactionInfo(context.parameters.get("anyTransactionId") ?? "") }
    }
  }

  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` with
  /// `{"appAccountToken": UUID}`: "200 Request succeeded". "If you call this endpoint for a
  /// transaction that already has an appAccountToken, the endpoint replaces the existing value";
  /// later reads carry the new token (`RecordSource.setAppAccountToken`).
  func setAppAccountToken(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    let record = try await Blocking.run { [source] in try source.current() }
    guard ServedRecord.isWellFormedID(id) else { throw APIError.invalidTransactionId }
    if id == record.appTransactionID { throw APIError.appTransactionIdNotSupported }
    guard let entry = try await Blocking.run({ try record.entry(id) }) else {
      throw APIError.originalTransactionIdNotFound
    }
    // A restored transaction's `originalTransactionId` is the purchase it restores: its own ID is
    // not an original transaction ID (TransactionIdIsNotOriginalTransactionIdError).
    guard entry.transaction.restoredTransactionID == nil else {
      throw APIError.transactionIdIsNotOriginalTransactionId
    }
    let body = try await Self.jsonObject(request)
    // "The app account token field must be a valid UUID" (InvalidAppAccountTokenUUIDError).
    guard case .string(let text)? = body["appAccountToken"], let token = UUID(uuidString: text) else {
      throw APIError.invalidAppAccountTokenUUID
    }
    try await Blocking.run { [source] in try source.setAppAccountToken(token, originalTransactionID: id) }
    return Response(status: .ok)
  }

  /// `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`: `AppTransactionInfoResponse`,
  /// `{"signedAppTransactionInfo": JWS}`
  /// (https://developer.apple.com/documentation/appstoreserverapi/apptransactioninforesponse).
  func appTransactionInfo(_ id: String) async throws -> Response {
    let record = try await customerRecord(id)
    guard record.appTransactionID != nil else { throw APIError.appTransactionDoesNotExist }
    let jws = try await Blocking.run { [source] in try source.signedAppTransaction(record) }
    return json(["signedAppTransactionInfo": .string(jws)])
  }
}
