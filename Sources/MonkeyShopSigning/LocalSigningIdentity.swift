import Crypto
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage
import SwiftASN1
import X509

/// How StoreKit Testing in Xcode signs: transactions "signed by Xcode", not by the App Store
/// (https://developer.apple.com/documentation/storekit/testing-at-all-stages-of-development-with-xcode-and-the-sandbox),
/// with a certificate that "is a root certificate. There's no certificate chain to validate"
/// (https://developer.apple.com/documentation/xcode/setting-up-storekit-testing-in-xcode). Its
/// JWS carries `x5c` of that one self-signed certificate and `environment` `Xcode`, as reported to
/// Apple's library ("`x5c` claim is 1 certificate long (because the Xcode certificate is a root
/// cert)", https://github.com/apple/app-store-server-library-python/issues/22). Used for the
/// `Xcode` and `LocalTesting` environments, whose data Apple's verifier does not check (see
/// docs/signing.md).
public struct LocalSigningIdentity: Sendable {
  public let certificate: Certificate
  let key: P256.Signing.PrivateKey

  init(certificate: Certificate, key: P256.Signing.PrivateKey) {
    self.certificate = certificate
    self.key = key
  }

  /// The data folder's local certificate and its key, in `signing-xcode/`, put in place whole
  /// (`DataFolder.fileSet`).
  public static let folderName = "signing-xcode"
  public static let fileNames = (certificate: "xcode-certificate.der", key: "xcode-key.pem")

  /// A new self-signed certificate and key. Valid from 2000 to 2099, as the App Store chain is
  /// (`SigningIdentity.notValidBefore`), around any date the storefront's clock gives.
  public static func make() throws -> LocalSigningIdentity {
    let key = P256.Signing.PrivateKey()
    let name = try DistinguishedName {
      CountryName("US")
      OrganizationName("monkeyshop")
      CommonName("StoreKit Testing in Xcode (monkeyshop)")
    }
    let publicKey = Certificate.PublicKey(key.publicKey)
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
      notValidBefore: SigningIdentity.notValidBefore, notValidAfter: SigningIdentity.notValidAfter,
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
        SubjectKeyIdentifier(hash: publicKey)
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
    return LocalSigningIdentity(certificate: certificate, key: key)
  }

  /// The files that keep the certificate and its key.
  public static let keySet = KeySet(
    folderName: folderName, fileNames: [fileNames.certificate, fileNames.key], privateNames: [fileNames.key])

  /// The files of a new certificate and key.
  public static func makeFiles() throws -> [String: Data] {
    let made = try make()
    return [
      fileNames.certificate: Data(try SigningIdentity.der(made.certificate)),
      fileNames.key: Data(made.key.pemRepresentation.utf8),
    ]
  }

  /// The data folder's certificate, made the first time it is asked for and the same ever after.
  public static func of(_ folder: DataFolder) throws -> LocalSigningIdentity {
    let (files, place) = try folder.fileSet(
      keySet.folderName, keySet.fileNames, privateNames: keySet.privateNames, makingAll: makeFiles)
    return try LocalSigningIdentity(files: files, place: place)
  }

  /// The certificate and key read from their files in `place`, checked: a certificate that does not
  /// parse or is not self-signed, or a key that is not the certificate's, is refused naming the file.
  init(files: [String: Data], place: String) throws(DataFileError) {
    let remake = "remove the \(Self.folderName) folder to make a new certificate (servers must then trust it)"
    let certificatePath = place + "/" + Self.fileNames.certificate
    let keyPath = place + "/" + Self.fileNames.key
    let certificate: Certificate
    do {
      certificate = try Certificate(derEncoded: Array(files[Self.fileNames.certificate] ?? Data()))
    } catch {
      throw DataFileError(path: certificatePath, problem: "is not a DER X.509 certificate; \(remake)")
    }
    let key: P256.Signing.PrivateKey
    do {
      key = try P256.Signing.PrivateKey(
        pemRepresentation: String(decoding: files[Self.fileNames.key] ?? Data(), as: UTF8.self))
    } catch {
      throw DataFileError(path: keyPath, problem: "is not a PEM P-256 private key; \(remake)")
    }
    guard certificate.publicKey.isValidSignature(certificate.signature, for: certificate) else {
      throw DataFileError(path: certificatePath, problem: "is not self-signed; \(remake)")
    }
    guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
      throw DataFileError(path: keyPath, problem: "is not the key of \(Self.fileNames.certificate); \(remake)")
    }
    self.init(certificate: certificate, key: key)
  }

  /// The JWS, as Xcode's: `{"alg":"ES256","x5c":[certificate]}`, the payload, ES256.
  /// `failingVerification` signs with another key, as `SigningIdentity.sign` does.
  public func sign(_ payload: SignedTransactionPayload, failingVerification: Bool = false) throws -> String {
    try sign(encodedJSON: payload.encodedJSON, failingVerification: failingVerification)
  }

  /// Any payload signed the same way (a server notification's `signedPayload` too).
  public func sign(encodedJSON: Data, failingVerification: Bool = false) throws -> String {
    let header = try SigningIdentity.header(chain: [certificate])
    let input = Base64URL.encode(header) + "." + Base64URL.encode(encodedJSON)
    let signer = failingVerification ? P256.Signing.PrivateKey() : key
    return input + "." + Base64URL.encode(try signer.signature(for: Data(input.utf8)).rawRepresentation)
  }
}

/// What signs a data folder's transactions, by their environment: the App Store's three-certificate
/// chain for `Sandbox`, the local self-signed certificate for `Xcode` and `LocalTesting`.
public enum EnvironmentSigner: Sendable {
  case appStore(SigningIdentity)
  case local(LocalSigningIdentity)

  /// The data folder's signer for an environment, its files made the first time.
  public static func of(_ folder: DataFolder, environment: StoreEnvironment) throws -> EnvironmentSigner {
    switch environment {
    case .sandbox: .appStore(try SigningIdentity.of(folder))
    case .xcode, .localTesting: .local(try LocalSigningIdentity.of(folder))
    }
  }

  /// The certificate a server under test trusts: the chain's root, or the local certificate
  /// itself (it is its own root).
  public var trusted: Certificate {
    switch self {
    case .appStore(let identity): identity.root
    case .local(let identity): identity.certificate
    }
  }

  public var trustedDER: [UInt8] {
    get throws { try SigningIdentity.der(trusted) }
  }

  public var trustedPEM: String {
    get throws { try trusted.serializeAsPEM().pemString }
  }

  /// The signed transaction of a store transaction, or nil where none is signed.
  public func signedTransaction(
    _ transaction: StoreTransaction, catalog: Catalog, storefront: Storefront, appTransactionID: String? = nil
  ) throws -> String? {
    guard
      let payload = SignedTransactionPayload(
        transaction, catalog: catalog, storefront: storefront, appTransactionID: appTransactionID)
    else { return nil }
    return try sign(payload, failingVerification: transaction.failsVerification)
  }

  /// The JWS of a payload, signed as the environment signs.
  public func sign(_ payload: SignedTransactionPayload, failingVerification: Bool) throws -> String {
    switch self {
    case .appStore(let identity): try identity.sign(payload, failingVerification: failingVerification)
    case .local(let identity): try identity.sign(payload, failingVerification: failingVerification)
    }
  }

  /// Any JSON payload signed as the environment signs: a server notification's `signedPayload`, the app
  /// transaction Get App Transaction Info returns ("App transaction information signed by the App
  /// Store", https://developer.apple.com/documentation/appstoreserverapi/jwsapptransaction).
  public func sign(encodedJSON: Data) throws -> String {
    switch self {
    case .appStore(let identity): try identity.sign(encodedJSON: encodedJSON)
    case .local(let identity): try identity.sign(encodedJSON: encodedJSON)
    }
  }
}
