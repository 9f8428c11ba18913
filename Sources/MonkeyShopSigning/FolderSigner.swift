import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

/// Signs the transactions a data folder's changes complete, with the folder's chain: set as the
/// folder's `signer`, it signs each completed (or refunded) transaction once, as the change is
/// written, so its JWS is stored and never signed again.
public final class FolderSigner: TransactionSigner {
  private let folderPath: String
  /// The chain as last read, kept while its files stay the same.
  private var cached: (files: [String: Data], identity: SigningIdentity)?

  public init(folderPath: String) {
    self.folderPath = folderPath
  }

  public var chainFileNames: [String] { SigningIdentity.allFileNames }

  public func makeChain() throws -> [String: Data] { try SigningIdentity.make().files() }

  public func sign(_ payload: SignedTransactionPayload, failingVerification: Bool, chain: [String: Data]) throws
    -> String
  {
    try identity(chain).sign(payload, failingVerification: failingVerification)
  }

  public func sign(notificationPayload json: Data, chain: [String: Data]) throws -> String {
    try identity(chain).sign(encodedJSON: json)
  }

  private func identity(_ chain: [String: Data]) throws -> SigningIdentity {
    let identity: SigningIdentity
    if let cached, cached.files == chain {
      identity = cached.identity
    } else {
      identity = try SigningIdentity(files: chain, folder: folderPath)
      cached = (chain, identity)
    }
    return identity
  }
}
