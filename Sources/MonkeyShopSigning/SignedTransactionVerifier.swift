import Crypto
import Foundation
import MonkeyShopDomain
import SwiftASN1
import X509

/// Checks a signed transaction against a trusted root, as StoreKit checks the transactions it hands
/// an app (`VerificationResult`): the chain up to the root, Apple's marker extensions, the validity
/// at the payload's `signedDate`, and the ES256 signature. What failed is named with StoreKit's
/// `VerificationResult.VerificationError` cases
/// (https://developer.apple.com/documentation/storekit/verificationresult/verificationerror).
public enum SignedTransactionVerifier {
  public enum Failure: String, Error, Sendable, CaseIterable {
    /// "the signature, certificate chain, or other part of value uses invalid encoding"
    case invalidEncoding
    /// "the header or payload are missing information that's required to verify the signature"
    case missingRequiredProperties
    /// "one or more certificates in the certificate chain are expired or from an untrusted source"
    case invalidCertificateChain
    /// "the signature didn't match the header and payload"
    case invalidSignature
  }

  /// The payload's JSON when the signed transaction verifies against `root`.
  public static func verify(_ jws: String, trusting root: Certificate) -> Result<Data, Failure> {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerData = Base64URL.decode(parts[0]),
      let payload = Base64URL.decode(parts[1]), let signatureData = Base64URL.decode(parts[2])
    else { return .failure(.invalidEncoding) }
    guard case .object(let header)? = try? JSONValue.parse(headerData),
      case .object(let object)? = try? JSONValue.parse(payload)
    else { return .failure(.invalidEncoding) }
    guard header["alg"] == .string("ES256"), case .array(let entries)? = header["x5c"], entries.count == 3,
      case .integer(let signedDate)? = object["signedDate"]
    else { return .failure(.missingRequiredProperties) }
    var x5c: [String] = []
    for case .string(let entry) in entries { x5c.append(entry) }
    guard x5c.count == 3 else { return .failure(.missingRequiredProperties) }
    var chain: [Certificate] = []
    for entry in x5c {
      guard let der = Data(base64Encoded: entry), let certificate = try? Certificate(derEncoded: Array(der)) else {
        return .failure(.invalidEncoding)
      }
      chain.append(certificate)
    }
    let (leaf, intermediate) = (chain[0], chain[1])
    let at = Date(timeIntervalSince1970: Double(signedDate) / 1000)
    guard root.publicKey.isValidSignature(intermediate.signature, for: intermediate),
      intermediate.issuer == root.subject,
      intermediate.publicKey.isValidSignature(leaf.signature, for: leaf),
      leaf.issuer == intermediate.subject,
      (try? intermediate.extensions.basicConstraints) == .isCertificateAuthority(maxPathLength: 0),
      intermediate.extensions[oid: SigningIdentity.intermediateMarker] != nil,
      leaf.extensions[oid: SigningIdentity.leafMarker] != nil,
      [root, intermediate, leaf].allSatisfy({ $0.notValidBefore <= at && at <= $0.notValidAfter })
    else { return .failure(.invalidCertificateChain) }
    let signedPart = Data(jws.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard let key = P256.Signing.PublicKey(leaf.publicKey),
      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
      key.isValidSignature(signature, for: signedPart)
    else { return .failure(.invalidSignature) }
    return .success(payload)
  }
}
