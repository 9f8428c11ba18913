import Foundation
import MonkeyShopDomain

/// Signs the transactions the App Store completes, with the data folder's chain. The storage calls
/// it as it writes the change that completed (or refunded) a transaction, under the folder's lock,
/// so each transaction is signed once in each state and its JWS stored: it reads byte for byte the
/// same ever after, whatever catalog is loaded later (a transaction's `jwsRepresentation`, "The
/// transaction signed by the App Store",
/// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo).
/// The crypto lives in MonkeyShopSigning, which implements this.
public protocol TransactionSigner: AnyObject {
  /// The files of the data folder that hold the chain.
  var chainFileNames: [String] { get }
  /// The compact JWS of `payload`, signed with the chain read from `chain` (the files' bytes by
  /// name); `failingVerification` signs it so that it fails verification.
  func sign(_ payload: SignedTransactionPayload, failingVerification: Bool, chain: [String: Data]) throws -> String
  /// A new chain, as the files to keep it in (every name of `chainFileNames`).
  func makeChain() throws -> [String: Data]
  /// The compact JWS of a notification's payload (`ServerNotification.payloadJSON`), with the same
  /// chain: App Store Server Notifications' `signedPayload`
  /// (https://developer.apple.com/documentation/appstoreservernotifications/signedpayload).
  func sign(notificationPayload json: Data, chain: [String: Data]) throws -> String
}

extension TransactionSigner {
  /// Signs every transaction of `store` completed or refunded and not yet signed in that state,
  /// with the chain read by `read`; a folder with no chain yet gets one first (written by `write`),
  /// and a folder with only part of a chain signs nothing: the commands that show
  /// signed transactions say which file is missing, and a purchase goes on unsigned rather than
  /// fail (its payload, from its record, is signed when shown).
  func signUnsigned(
    _ store: inout StoreState, reading read: (String) throws -> Data?, writing write: (String, Data) throws -> Void
  ) throws {
    let unsigned = store.transactions.indices.filter { store.transactions[$0].needsSignature }
    guard !unsigned.isEmpty, let chain = try chain(reading: read, writing: write) else { return }
    for index in unsigned {
      let transaction = store.transactions[index]
      guard let payload = SignedTransactionPayload(recorded: transaction) else { continue }
      let jws = try sign(payload, failingVerification: transaction.failsVerification, chain: chain)
      if transaction.isRevoked {
        store.transactions[index].signedRefund = jws
      } else {
        store.transactions[index].signedPurchase = jws
      }
    }
  }

  /// The folder's chain, made first when there is none; nil when only part of it is there.
  func chain(
    reading read: (String) throws -> Data?, writing write: (String, Data) throws -> Void
  ) throws -> [String: Data]? {
    var chain: [String: Data] = [:]
    for name in chainFileNames {
      if let data = try read(name) { chain[name] = data }
    }
    if chain.isEmpty {
      chain = try makeChain()
      for name in chainFileNames.reversed() {
        guard let data = chain[name] else { return nil }
        try write(name, data)
      }
    }
    return chain.count == chainFileNames.count ? chain : nil
  }
}
