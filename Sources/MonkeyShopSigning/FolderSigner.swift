import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

/// Signs the transactions a data folder's changes complete, with the folder's keys for each
/// transaction's environment (docs/signing.md, "Environments"): set as the folder's `signer`, it
/// signs each completed (or refunded) transaction once, as the change is written, so its JWS is
/// stored and never signed again.
public final class FolderSigner: TransactionSigner {
  /// The keys as last read, by environment, kept while their files stay the same.
  private var cached: [StoreEnvironment: (files: [String: Data], signer: EnvironmentSigner)] = [:]

  public init() {}

  public func keySet(for environment: StoreEnvironment) -> KeySet {
    switch environment {
    case .sandbox: SigningIdentity.keySet
    case .xcode, .localTesting: LocalSigningIdentity.keySet
    }
  }

  public func makeKeys(for environment: StoreEnvironment) throws -> [String: Data] {
    switch environment {
    case .sandbox: try SigningIdentity.make().files()
    case .xcode, .localTesting: try LocalSigningIdentity.makeFiles()
    }
  }

  public func sign(
    _ payload: SignedTransactionPayload, failingVerification: Bool, keys: [String: Data], place: String
  ) throws -> String {
    try signer(payload.environment, keys: keys, place: place).sign(payload, failingVerification: failingVerification)
  }

  public func sign(notificationPayload json: Data, environment: StoreEnvironment, keys: [String: Data], place: String)
    throws -> String
  {
    try signer(environment, keys: keys, place: place).sign(encodedJSON: json)
  }

  private func signer(_ environment: StoreEnvironment, keys: [String: Data], place: String) throws
    -> EnvironmentSigner
  {
    if let cached = cached[environment], cached.files == keys { return cached.signer }
    let signer: EnvironmentSigner
    switch environment {
    case .sandbox: signer = .appStore(try SigningIdentity(files: keys, folder: place))
    case .xcode, .localTesting: signer = .local(try LocalSigningIdentity(files: keys, place: place))
    }
    cached[environment] = (keys, signer)
    return signer
  }
}
