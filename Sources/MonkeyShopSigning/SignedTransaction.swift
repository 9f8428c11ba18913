import Crypto
import Foundation
import MonkeyShopDomain
import SwiftASN1
import X509

/// A transaction's `jwsRepresentation`: "The transaction signed by the App Store, in JWS Compact
/// Serialization format" (https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo),
/// "three Base64URL-encoded components separated by a period … a header, a payload, and a
/// signature" (https://developer.apple.com/documentation/appstoreservernotifications/jwstransaction).
///
/// - header: `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, each certificate standard base64
///   DER, as Apple's `JWSDecodedHeader` describes and Apple's library reads (`b64decode(…,
///   validate=True)`);
/// - payload: `SignedTransactionPayload.encodedJSON`;
/// - signature: ES256, the raw 64-byte `r‖s` of RFC 7518 §3.4 (not DER).
extension SigningIdentity {
  /// The signed transaction for a payload. `failingVerification` (the `verification` condition, as
  /// Xcode's "Fail Transaction Verification") signs with a key that is not the leaf's, so that every
  /// verifier finds the signature does not match: StoreKit's `VerificationError.invalidSignature`,
  /// "the signature didn't match the header and payload"
  /// (https://developer.apple.com/documentation/storekit/verificationresult/verificationerror).
  public func sign(_ payload: SignedTransactionPayload, failingVerification: Bool = false) throws -> String {
    try sign(encodedJSON: payload.encodedJSON, failingVerification: failingVerification)
  }

  /// Any payload signed the same way: a signed transaction's, or a server notification's
  /// `signedPayload`, which Apple signs with the same chain
  /// (https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2).
  public func sign(encodedJSON: Data, failingVerification: Bool = false) throws -> String {
    let header = try Self.header(chain: [leaf, intermediate, root])
    let input = Base64URL.encode(header) + "." + Base64URL.encode(encodedJSON)
    let key = failingVerification ? P256.Signing.PrivateKey() : leafKey
    let signature = try key.signature(for: Data(input.utf8))
    return input + "." + Base64URL.encode(signature.rawRepresentation)
  }

  static func header(chain: [Certificate]) throws -> Data {
    let x5c = try chain.map { "\"" + Data(try der($0)).base64EncodedString() + "\"" }
    return Data(("{\"alg\":\"ES256\",\"x5c\":[" + x5c.joined(separator: ",") + "]}").utf8)
  }
}

/// Base64url without padding (RFC 7515 §2), JWS's encoding of each part.
public enum Base64URL {
  public static func encode(_ data: some DataProtocol) -> String {
    Data(data).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Nil for text that is not base64url.
  public static func decode(_ text: some StringProtocol) -> Data? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
      return nil
    }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
