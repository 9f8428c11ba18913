import Crypto
import Foundation
import MonkeyShopStorage
import SwiftASN1
import X509

/// The simulated App Store's signing chain (docs/signing.md): a root, an intermediate and a leaf shaped like
/// Apple's, and the leaf's private key that signs transactions.
///
/// Apple's chain, and so the chain a server's verifier expects: "1. A certificate that contains the
/// public key that corresponds to the key the App Store uses to digitally sign the JWS. … 2. An Apple
/// intermediate certificate that contains an extension with the extension ID for Apple Worldwide
/// Developer Relations (1.2.840.113635.100.6.2.1). 3. An Apple root certificate."
/// (https://developer.apple.com/documentation/appstoreserverapi/jwsdecodedheader). The leaf carries
/// 1.2.840.113635.100.6.11.1, the extension Apple's App Store Server Library requires of the leaf
/// (`signed_data_verifier.py`: `check_oid(trusted_chain[0]…, "1.2.840.113635.100.6.11.1")`).
public struct SigningIdentity: Sendable {
  public let root: Certificate
  public let intermediate: Certificate
  public let leaf: Certificate
  let leafKey: P256.Signing.PrivateKey

  init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey) {
    self.root = root
    self.intermediate = intermediate
    self.leaf = leaf
    self.leafKey = leafKey
  }

  // MARK: Making a chain

  /// The extension Apple's intermediate carries: Apple Worldwide Developer Relations.
  public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
  /// The extension Apple's leaf carries (Mac App Store and iTunes Store receipt signing).
  public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

  /// Every certificate is valid from 2000 to 2099. Apple's verifier, with online checks off, checks
  /// the chain at the payload's `signedDate` ("effective_date … int(signed_date) // 1000",
  /// `signed_data_verifier.py`), and the storefront's clock can be virtual: the validity is long and
  /// backdated so any date it gives falls inside.
  public static let notValidBefore = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
  public static let notValidAfter = Date(timeIntervalSince1970: 4_102_444_799)  // 2099-12-31T23:59:59Z

  /// A new chain with new keys, kept in memory: for a data folder's first signed transaction, and for
  /// walkthroughs and tests that have no data folder.
  ///
  /// Each certificate has what OpenSSL's `X509_STRICT` (on in Apple's library) checks: version 3,
  /// a subject and issuer, critical basic constraints and key usage, subject key identifiers,
  /// authority key identifiers below the root, and keys on a named curve (P-256).
  public static func make() throws -> SigningIdentity {
    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let rootName = try DistinguishedName {
      CountryName("US")
      OrganizationName("monkeyshop")
      OrganizationalUnitName("Simulated App Store")
      CommonName("monkeyshop Root CA")
    }
    let intermediateName = try DistinguishedName {
      CountryName("US")
      OrganizationName("monkeyshop")
      OrganizationalUnitName("Simulated App Store")
      CommonName("monkeyshop Worldwide Developer Relations CA")
    }
    let leafName = try DistinguishedName {
      CountryName("US")
      OrganizationName("monkeyshop")
      OrganizationalUnitName("Simulated App Store")
      CommonName("monkeyshop App Store Receipt Signing")
    }
    let rootPublic = Certificate.PublicKey(rootKey.publicKey)
    let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
    let leafPublic = Certificate.PublicKey(leafKey.publicKey)
    let rootIdentifier = SubjectKeyIdentifier(hash: rootPublic)
    let intermediateIdentifier = SubjectKeyIdentifier(hash: intermediatePublic)

    let root = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: rootPublic,
      notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName, subject: rootName,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        rootIdentifier
      },
      issuerPrivateKey: Certificate.PrivateKey(rootKey))
    let intermediate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: intermediatePublic,
      notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName, subject: intermediateName,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        intermediateIdentifier
        AuthorityKeyIdentifier(keyIdentifier: rootIdentifier.keyIdentifier)
        Self.marker(intermediateMarker)
      },
      issuerPrivateKey: Certificate.PrivateKey(rootKey))
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafPublic,
      notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: intermediateName, subject: leafName,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        SubjectKeyIdentifier(hash: leafPublic)
        AuthorityKeyIdentifier(keyIdentifier: intermediateIdentifier.keyIdentifier)
        Self.marker(leafMarker)
      },
      issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
    // The root's and intermediate's keys are not kept: nothing signs with them again, and a key not
    // kept cannot be used to issue another leaf.
    return SigningIdentity(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
  }

  /// Apple's marker extensions: non-critical, the value DER NULL (`05 00`), as in Apple's certificates.
  private static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
    Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
  }

  // MARK: The data folder's chain

  /// The files of a data folder's chain: the three certificates (DER) and the leaf's private key
  /// (PEM, PKCS #8), each mode 0600, in the data folder's `signing/` (`folderName`), put in place
  /// whole (`DataFolder.fileSet`). Folders made by older versions have them beside the wallet.
  public static let fileNames = (
    root: "signing-root.der", intermediate: "signing-intermediate.der", leaf: "signing-leaf.der",
    leafKey: "signing-leaf-key.pem"
  )

  public static let folderName = "signing"

  /// The files that keep the chain and the leaf's key.
  public static let keySet = KeySet(
    folderName: folderName, fileNames: [fileNames.root, fileNames.intermediate, fileNames.leaf, fileNames.leafKey],
    privateNames: [fileNames.leafKey])

  /// The data folder's chain, made the first time it is asked for and the same ever after, so a root
  /// exported once (`store certificate`) goes on verifying every transaction the folder signs. Files
  /// that cannot be read as a chain are refused (exit 65) naming the file, and left as they are.
  public static func of(_ folder: DataFolder) throws -> SigningIdentity {
    let (files, place) = try folder.fileSet(keySet.folderName, keySet.fileNames, privateNames: keySet.privateNames) {
      try make().files()
    }
    return try SigningIdentity(files: files, folder: place)
  }

  /// The chain as the data folder keeps it.
  func files() throws -> [String: Data] {
    [
      Self.fileNames.root: Data(try Self.der(root)),
      Self.fileNames.intermediate: Data(try Self.der(intermediate)),
      Self.fileNames.leaf: Data(try Self.der(leaf)),
      Self.fileNames.leafKey: Data(leafKey.pemRepresentation.utf8),
    ]
  }

  /// Reads the chain back, checking that it is one: each certificate issued by the next, the root
  /// self-signed, and the key the leaf's.
  init(files: [String: Data], folder: String) throws(DataFileError) {
    func place(_ name: String) -> String { folder + "/" + name }
    let remake =
      "remove \(folder.hasSuffix("/" + Self.folderName) ? "the \(Self.folderName) folder" : "the signing-* files") to make a new chain (servers must then trust the new root)"
    func certificate(_ name: String) throws(DataFileError) -> Certificate {
      do {
        return try Certificate(derEncoded: Array(files[name] ?? Data()))
      } catch {
        throw DataFileError(path: place(name), problem: "is not a DER X.509 certificate; \(remake)")
      }
    }
    let root = try certificate(Self.fileNames.root)
    let intermediate = try certificate(Self.fileNames.intermediate)
    let leaf = try certificate(Self.fileNames.leaf)
    let keyText = String(decoding: files[Self.fileNames.leafKey] ?? Data(), as: UTF8.self)
    let key: P256.Signing.PrivateKey
    do {
      key = try P256.Signing.PrivateKey(pemRepresentation: keyText)
    } catch {
      throw DataFileError(path: place(Self.fileNames.leafKey), problem: "is not a PEM P-256 private key; \(remake)")
    }
    guard root.publicKey.isValidSignature(root.signature, for: root) else {
      throw DataFileError(path: place(Self.fileNames.root), problem: "is not a self-signed root; \(remake)")
    }
    guard root.publicKey.isValidSignature(intermediate.signature, for: intermediate) else {
      throw DataFileError(
        path: place(Self.fileNames.intermediate), problem: "was not issued by \(Self.fileNames.root); \(remake)")
    }
    guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
      throw DataFileError(
        path: place(Self.fileNames.leaf), problem: "was not issued by \(Self.fileNames.intermediate); \(remake)")
    }
    guard leaf.publicKey == Certificate.PublicKey(key.publicKey) else {
      throw DataFileError(
        path: place(Self.fileNames.leafKey), problem: "is not the key of \(Self.fileNames.leaf); \(remake)")
    }
    self.init(root: root, intermediate: intermediate, leaf: leaf, leafKey: key)
  }

  // MARK: Exporting the root

  /// The root certificate, DER: what Apple's `SignedDataVerifier` takes as `root_certificates`.
  public var rootDER: [UInt8] {
    get throws { try Self.der(root) }
  }

  /// The root certificate, PEM (`-----BEGIN CERTIFICATE-----`).
  public var rootPEM: String {
    get throws { try root.serializeAsPEM().pemString }
  }

  static func der(_ certificate: Certificate) throws -> [UInt8] {
    var serializer = DER.Serializer()
    try serializer.serialize(certificate)
    return serializer.serializedBytes
  }
}
