import Foundation
import MonkeyShopDomain

/// Signs the transactions the App Store completes, with the data folder's keys for the
/// transaction's environment. The storage calls it as it writes the change that completed (or
/// refunded) a transaction, under the folder's lock, so each transaction is signed once in each
/// state and its JWS stored: it reads byte for byte the same ever after, whatever catalog is loaded
/// later (a transaction's `jwsRepresentation`, "The transaction signed by the App Store",
/// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo).
/// The crypto lives in MonkeyShopSigning, which implements this.
public protocol TransactionSigner: AnyObject {
  /// The files that hold the keys an environment signs with (docs/signing.md, "Environments").
  func keySet(for environment: StoreEnvironment) -> KeySet
  /// New keys for an environment, as the files to keep them in (every name of its `keySet`).
  func makeKeys(for environment: StoreEnvironment) throws -> [String: Data]
  /// The compact JWS of `payload`, signed with the keys read from `keys` (the files' bytes by name,
  /// read from `place`); `failingVerification` signs it so that it fails verification.
  func sign(
    _ payload: SignedTransactionPayload, failingVerification: Bool, keys: [String: Data], place: String
  ) throws -> String
  /// The compact JWS of a notification's payload (`ServerNotification.payloadJSON`), signed with the
  /// keys of its environment as its transactions are: App Store Server Notifications'
  /// `signedPayload` (https://developer.apple.com/documentation/appstoreservernotifications/signedpayload).
  func sign(notificationPayload json: Data, environment: StoreEnvironment, keys: [String: Data], place: String)
    throws -> String
}

/// Files that are only good together, kept in a folder of their own in the data folder
/// (`DataFolder.fileSet`): the App Store chain and its key, or Xcode's certificate and its key.
public struct KeySet: Equatable, Sendable {
  public let folderName: String
  public let fileNames: [String]
  /// The files only their owner may read.
  public let privateNames: Set<String>

  public init(folderName: String, fileNames: [String], privateNames: Set<String>) {
    self.folderName = folderName
    self.fileNames = fileNames
    self.privateNames = privateNames
  }
}

extension TransactionSigner {
  /// Signs every transaction of `store` completed or refunded and not yet signed in that state,
  /// with the keys `keys` reads for its environment (made the first time). A folder whose keys
  /// cannot be read (an older folder with only part of its chain, a key others can read) signs
  /// nothing: the commands that show signed transactions name the file, and a purchase goes on
  /// unsigned rather than fail (its payload, from its record, is signed when shown). Keys that
  /// cannot be written (a full disk) fail the change.
  func signUnsigned(
    _ store: inout StoreState, keys: (StoreEnvironment) throws -> (files: [String: Data], place: String)
  ) throws {
    let unsigned = store.transactions.indices.filter { store.transactions[$0].needsSignature }
    guard !unsigned.isEmpty else { return }
    var loaded: [StoreEnvironment: (files: [String: Data], place: String)?] = [:]
    for index in unsigned {
      let transaction = store.transactions[index]
      let environment = transaction.environment ?? .sandbox
      if loaded[environment] == nil {
        do {
          loaded[environment] = .some(try keys(environment))
        } catch let error as DataFileError where error.errorID != .cannotWriteDataFile {
          loaded[environment] = .some(nil)
        }
      }
      guard let set = loaded[environment] ?? nil,
        let payload = SignedTransactionPayload(recorded: transaction, appTransactionID: store.appTransactionID)
      else { continue }
      let jws = try sign(
        payload, failingVerification: transaction.failsVerification, keys: set.files, place: set.place)
      if transaction.isRevoked {
        store.transactions[index].signedRefund = jws
      } else {
        store.transactions[index].signedPurchase = jws
      }
    }
  }
}
