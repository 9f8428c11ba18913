import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage

extension RecordSource {
  /// Set App Account Token's change, under the folder's lock, as every change: the transaction
  /// takes the new token, and is signed again with it. Apple's later responses (Get Transaction
  /// Info, the histories) carry the new `appAccountToken`, so the stored JWS that every read serves
  /// is replaced by one signed now for the updated record; the purchase itself is not changed. A
  /// transaction the history holds gets a later line, which wins (docs/data-folder.md).
  func setAppAccountToken(_ token: UUID, originalTransactionID id: String) throws {
    let folder = folder()
    let environment = try current().entry(id)?.transaction.environment ?? .sandbox
    // Made (or read) before the lock is taken: it takes the lock itself.
    let signer = try EnvironmentSigner.of(folder, environment: environment)
    try folder.update(seeingHistory: { store, _, history in
      let index = store.transactions.firstIndex { $0.id == id }
      guard var transaction = try index.map({ store.transactions[$0] }) ?? history.transaction(id)
      else { throw APIError.originalTransactionIdNotFound }
      transaction.appAccountToken = token
      guard
        let payload = SignedTransactionPayload(
          transaction, catalog: catalog, storefront: catalog.defaultStorefront, appTransactionID: store.appTransactionID
        )
      else { throw APIError.originalTransactionIdNotFound }
      let jws = try signer.sign(payload, failingVerification: transaction.failsVerification)
      if transaction.isRevoked { transaction.signedRefund = jws } else { transaction.signedPurchase = jws }
      if let index { store.transactions[index] = transaction } else { store.leaving.append(transaction) }
    })
  }
}

extension RecordSource {
  /// The app transaction, signed now as the folder's environment signs: Apple's
  /// `JWSAppTransactionDecodedPayload` (https://developer.apple.com/documentation/appstoreserverapi/jwsapptransactiondecodedpayload)
  /// with the fields that apply to an app no App Store lists:
  /// - `appTransactionId`: the folder's, the one every signed transaction carries;
  /// - `receiptType`: "The server environment, production or sandbox, that signed the app
  ///   transaction": the folder's;
  /// - `receiptCreationDate`: "The date that the App Store signs a JWS app transaction": now;
  /// - `originalPurchaseDate`: when the app was first downloaded, which the folder does not know:
  ///   its first purchase, the earliest moment it knows the app was there;
  /// - `applicationVersion` and `originalApplicationVersion`: this monkeyshop's version;
  /// - `originalPlatform`: `iOS`, the platform StoreKit 1 and 2 are simulated for.
  /// No `appAppleId`: there is none outside the App Store.
  func signedAppTransaction(_ record: ServedRecord) throws -> String {
    guard let appTransactionID = record.appTransactionID else { throw APIError.appTransactionDoesNotExist }
    let firstPurchase = try record.firstPurchase() ?? 0
    let payload: [String: JSONValue] = [
      "appTransactionId": .string(appTransactionID),
      "bundleId": .string(catalog.bundleIdentifier),
      "applicationVersion": .string(applicationVersion),
      "originalApplicationVersion": .string(applicationVersion),
      "originalPlatform": .string("iOS"),
      "originalPurchaseDate": .integer(Int(firstPurchase)),
      "receiptCreationDate": .integer(Int((Date().timeIntervalSince1970 * 1000).rounded(.down))),
      "receiptType": .string(record.environment.rawValue),
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = try encoder.encode(JSONValue.object(payload))
    return try EnvironmentSigner.of(folder(), environment: record.environment).sign(encodedJSON: json)
  }
}
