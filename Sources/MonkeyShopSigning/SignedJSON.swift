import Crypto
import Foundation
import X509

extension EnvironmentSigner {
  /// The JWS of any JSON payload, signed as the environment signs its transactions (the same header
  /// and key): for the App Store's other signed objects, such as the app transaction Get App
  /// Transaction Info returns (https://developer.apple.com/documentation/appstoreserverapi/jwsapptransaction,
  /// "App transaction information signed by the App Store, in JSON Web Signature (JWS) Compact
  /// Serialization format").
  public func sign(json: Data) throws -> String {
    let (chain, key): ([Certificate], P256.Signing.PrivateKey) =
      switch self {
      case .appStore(let identity): ([identity.leaf, identity.intermediate, identity.root], identity.leafKey)
      case .local(let identity): ([identity.certificate], identity.key)
      }
    let input = Base64URL.encode(try SigningIdentity.header(chain: chain)) + "." + Base64URL.encode(json)
    return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
  }
}
