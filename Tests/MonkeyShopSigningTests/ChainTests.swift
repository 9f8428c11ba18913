import Crypto
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage
import SwiftASN1
import Testing
import X509

@testable import MonkeyShopSigning

/// A fresh data folder for the test, removed afterwards.
func withDataFolder<T>(_ body: (DataFolder) throws -> T) throws -> T {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("monkeyshop-signing-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(DataFolder(path: path))
}

/// The extension with this OID, or a recorded failure.
private func ext(_ certificate: Certificate, _ oid: ASN1ObjectIdentifier) throws -> Certificate.Extension {
  try #require(certificate.extensions[oid: oid], "\(certificate.subject) has no \(oid)")
}

@Suite("Signing chain", .tags(.pure))
struct ChainTests {
  let identity: SigningIdentity

  init() throws { identity = try SigningIdentity.make() }

  @Test("three v3 certificates on P-256, each issued by the next, the root self-signed")
  func chainShape() throws {
    let (root, intermediate, leaf) = (identity.root, identity.intermediate, identity.leaf)
    for certificate in [root, intermediate, leaf] {
      #expect(certificate.version == .v3)
      #expect(P256.Signing.PublicKey(certificate.publicKey) != nil, "named curve P-256")
      #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
      #expect(!certificate.subject.isEmpty)
      #expect(!certificate.issuer.isEmpty)
    }
    #expect(root.issuer == root.subject)
    #expect(intermediate.issuer == root.subject)
    #expect(leaf.issuer == intermediate.subject)
    #expect(root.publicKey.isValidSignature(root.signature, for: root))
    #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
    #expect(intermediate.publicKey.isValidSignature(leaf.signature, for: leaf))
    #expect(!root.publicKey.isValidSignature(leaf.signature, for: leaf))
  }

  @Test("each certificate's signature verifies with swift-crypto over its to-be-signed bytes")
  func signaturesVerifyWithSwiftCrypto() throws {
    let pairs = [
      (identity.root, identity.root), (identity.intermediate, identity.root), (identity.leaf, identity.intermediate),
    ]
    for (certificate, issuer) in pairs {
      let key = try #require(P256.Signing.PublicKey(issuer.publicKey))
      let signature = try P256.Signing.ECDSASignature(derRepresentation: certificateSignatureDER(certificate))
      #expect(key.isValidSignature(signature, for: Data(certificate.tbsCertificateBytes)))
    }
  }

  @Test("basic constraints and key usage are critical, as OpenSSL's X509_STRICT and Apple's chain have them")
  func constraintsAndUsage() throws {
    let root = identity.root.extensions
    let intermediate = identity.intermediate.extensions
    let leaf = identity.leaf.extensions
    #expect(try root.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
    #expect(try intermediate.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
    #expect(try leaf.basicConstraints == .notCertificateAuthority)
    for certificate in [identity.root, identity.intermediate, identity.leaf] {
      #expect(try ext(certificate, .X509ExtensionID.basicConstraints).critical)
      #expect(try ext(certificate, .X509ExtensionID.keyUsage).critical)
    }
    for usage in [try root.keyUsage, try intermediate.keyUsage] {
      #expect(usage?.keyCertSign == true)
      #expect(usage?.cRLSign == true)
      #expect(usage?.digitalSignature == false)
    }
    let leafUsage = try #require(try leaf.keyUsage)
    #expect(leafUsage.digitalSignature)
    #expect(!leafUsage.keyCertSign)
  }

  @Test(
    "every certificate has a subject key identifier; the intermediate's and leaf's authority key identifiers name their issuer's"
  )
  func keyIdentifiers() throws {
    let rootSKI = try SubjectKeyIdentifier(ext(identity.root, .X509ExtensionID.subjectKeyIdentifier))
    let intermediateSKI = try SubjectKeyIdentifier(ext(identity.intermediate, .X509ExtensionID.subjectKeyIdentifier))
    let leafSKI = try SubjectKeyIdentifier(ext(identity.leaf, .X509ExtensionID.subjectKeyIdentifier))
    #expect(Set([rootSKI, intermediateSKI, leafSKI]).count == 3)
    let intermediateAKI = try AuthorityKeyIdentifier(
      ext(identity.intermediate, .X509ExtensionID.authorityKeyIdentifier))
    let leafAKI = try AuthorityKeyIdentifier(ext(identity.leaf, .X509ExtensionID.authorityKeyIdentifier))
    #expect(intermediateAKI.keyIdentifier == rootSKI.keyIdentifier)
    #expect(leafAKI.keyIdentifier == intermediateSKI.keyIdentifier)
  }

  @Test(
    "Apple's marker OIDs: 1.2.840.113635.100.6.2.1 on the intermediate, …6.11.1 on the leaf, non-critical, DER NULL")
  func appleMarkers() throws {
    let intermediate = try ext(identity.intermediate, [1, 2, 840, 113_635, 100, 6, 2, 1])
    let leaf = try ext(identity.leaf, [1, 2, 840, 113_635, 100, 6, 11, 1])
    for marker in [intermediate, leaf] {
      #expect(!marker.critical)
      #expect(Array(marker.value) == [0x05, 0x00])
    }
    #expect(identity.leaf.extensions[oid: [1, 2, 840, 113_635, 100, 6, 2, 1]] == nil)
    #expect(identity.intermediate.extensions[oid: [1, 2, 840, 113_635, 100, 6, 11, 1]] == nil)
    #expect(identity.root.extensions[oid: [1, 2, 840, 113_635, 100, 6, 2, 1]] == nil)
  }

  @Test("valid from 2000-01-01 to 2099-12-31, around any date the virtual clock gives")
  func validity() throws {
    let from = try #require(ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z"))
    let until = try #require(ISO8601DateFormatter().date(from: "2099-12-31T23:59:59Z"))
    for certificate in [identity.root, identity.intermediate, identity.leaf] {
      #expect(certificate.notValidBefore == from)
      #expect(certificate.notValidAfter == until)
    }
  }

  @Test("the root exports as DER and as PEM of the same certificate")
  func rootExport() throws {
    let der = try identity.rootDER
    #expect(try Certificate(derEncoded: der) == identity.root)
    let pem = try identity.rootPEM
    #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    #expect(pem.hasSuffix("-----END CERTIFICATE-----"))
    #expect(try Certificate(pemEncoded: pem) == identity.root)
  }
}

/// The DER ECDSA signature of a certificate, as its signatureValue holds it.
private func certificateSignatureDER(_ certificate: Certificate) throws -> [UInt8] {
  var serializer = DER.Serializer()
  try serializer.serialize(certificate)
  let node = try DER.parse(serializer.serializedBytes)
  guard case .constructed(let children) = node.content else { throw ChainTestError("not a SEQUENCE") }
  let parts = Array(children)
  let bits = try ASN1BitString(derEncoded: parts[2])
  return Array(bits.bytes)
}

struct ChainTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

@Suite("Signing chain in the data folder", .tags(.pure))
struct DataFolderChainTests {
  private static let names = [
    "signing-root.der", "signing-intermediate.der", "signing-leaf.der", "signing-leaf-key.pem",
  ]

  @Test("made once per data folder, kept mode 0600, the same chain ever after")
  func madeOnce() throws {
    try withDataFolder { folder in
      let first = try SigningIdentity.of(folder)
      for name in Self.names {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/signing/" + name)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
      }
      let again = try SigningIdentity.of(folder)
      #expect(again.root == first.root)
      #expect(again.leaf == first.leaf)
      #expect(
        try again.rootDER
          == Array(try #require(FileManager.default.contents(atPath: folder.path + "/signing/signing-root.der"))))
      // A transaction signed by one reading verifies against the root another reading exports.
      let payload = try #require(PayloadFixture.payload())
      #expect((try? SignedTransactionVerifier.verify(try first.sign(payload), trusting: again.root).get()) != nil)
    }
  }

  @Test("one signing file missing: named, and the others are never replaced by a new chain", arguments: names)
  func oneMissing(_ missing: String) throws {
    try withDataFolder { folder in
      _ = try SigningIdentity.of(folder)
      let kept = Self.names.filter { $0 != missing }
      let before = kept.map { FileManager.default.contents(atPath: folder.path + "/signing/" + $0) }
      try FileManager.default.removeItem(atPath: folder.path + "/signing/" + missing)
      let error = #expect(throws: DataFileError.self) { try SigningIdentity.of(folder) }
      #expect(error?.path == folder.path + "/signing/" + missing)
      #expect(error?.problem.contains("is missing from signing/") == true, "\(error?.problem ?? "")")
      #expect(kept.map { FileManager.default.contents(atPath: folder.path + "/signing/" + $0) } == before)
      #expect(!FileManager.default.fileExists(atPath: folder.path + "/signing/" + missing))
    }
  }

  @Test(
    "a signing file that is not what it should be is refused naming it, and left as it is",
    arguments: [
      ("signing-root.der", Data("not a certificate".utf8), "is not a DER X.509 certificate"),
      (
        "signing-leaf-key.pem", Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        "is not a PEM P-256 private key"
      ),
    ])
  func brokenFile(_ name: String, _ contents: Data, _ problem: String) throws {
    try withDataFolder { folder in
      _ = try SigningIdentity.of(folder)
      let path = folder.path + "/signing/" + name
      try contents.write(to: URL(fileURLWithPath: path))
      #expect {
        _ = try SigningIdentity.of(folder)
      } throws: { error in
        guard let error = error as? DataFileError else { return false }
        return error.path == path && error.problem.contains(problem) && error.exitStatus == .dataError
      }
      #expect(FileManager.default.contents(atPath: path) == contents)
    }
  }

  @Test("a leaf key that is not the leaf's, or a leaf from another chain, is refused naming the file")
  func mismatchedChain() throws {
    try withDataFolder { folder in
      _ = try SigningIdentity.of(folder)
      let other = try SigningIdentity.make().files()
      let keyPath = folder.path + "/signing/signing-leaf-key.pem"
      try other["signing-leaf-key.pem"]!.write(to: URL(fileURLWithPath: keyPath))
      #expect {
        _ = try SigningIdentity.of(folder)
      } throws: { error in
        (error as? DataFileError)?.path == keyPath
          && (error as? DataFileError)?.problem.contains("is not the key of signing-leaf.der") == true
      }
      let leafPath = folder.path + "/signing/signing-leaf.der"
      try other["signing-leaf.der"]!.write(to: URL(fileURLWithPath: leafPath))
      #expect {
        _ = try SigningIdentity.of(folder)
      } throws: { error in
        (error as? DataFileError)?.path == leafPath
          && (error as? DataFileError)?.problem.contains("was not issued by signing-intermediate.der") == true
      }
    }
  }

  @Test("the chain appears whole in signing/: no signing-* file beside the wallet, no temporary folder left")
  func madeInOneStep() throws {
    try withDataFolder { folder in
      _ = try SigningIdentity.of(folder)
      let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(listed.contains("signing"))
      #expect(!listed.contains { $0.hasPrefix("signing-") || $0.hasPrefix(".signing") }, "\(listed)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path + "/signing").sorted() == Self.names.sorted())
    }
  }

  @Test("a temporary folder left by a run stopped before the rename is never used: a whole chain replaces it")
  func leftoverTemporaryFolder() throws {
    try withDataFolder { folder in
      let temporary = folder.path + "/.signing.making"
      try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
      try Data("half".utf8).write(to: URL(fileURLWithPath: temporary + "/signing-root.der"))
      let identity = try SigningIdentity.of(folder)
      #expect(!FileManager.default.fileExists(atPath: temporary))
      #expect(try SigningIdentity.of(folder).root == identity.root)
    }
  }

  @Test("an older data folder's four signing-* files beside the wallet are used where they are")
  func olderFolderKept() throws {
    try withDataFolder { folder in
      try FileManager.default.createDirectory(
        atPath: folder.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let files = try SigningIdentity.make().files()
      for (name, data) in files {
        try data.write(to: URL(fileURLWithPath: folder.path + "/" + name))
        chmod(folder.path + "/" + name, 0o600)
      }
      let identity = try SigningIdentity.of(folder)
      #expect(Data(try identity.rootDER) == files["signing-root.der"])
      #expect(!FileManager.default.fileExists(atPath: folder.path + "/signing"))
    }
  }

  @Test("an older folder's half-made chain is explained, naming what is missing, and nothing is written")
  func olderHalfMadeChain() throws {
    try withDataFolder { folder in
      try FileManager.default.createDirectory(
        atPath: folder.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let files = try SigningIdentity.make().files()
      try files["signing-root.der"]!.write(to: URL(fileURLWithPath: folder.path + "/signing-root.der"))
      let error = #expect(throws: DataFileError.self) { try SigningIdentity.of(folder) }
      #expect(error?.path == folder.path + "/signing-intermediate.der")
      #expect(error?.problem.contains("was stopped between two") == true, "\(error?.problem ?? "")")
      #expect(error?.problem.contains("remove all of") == true, "\(error?.problem ?? "")")
      #expect(!FileManager.default.fileExists(atPath: folder.path + "/signing"))
    }
  }

  @Test(
    "a private key other users can read is refused naming the file and chmod 600, as ssh does",
    arguments: [0o640, 0o604, 0o644])
  func keyReadableByOthers(_ mode: Int) throws {
    try withDataFolder { folder in
      _ = try SigningIdentity.of(folder)
      let key = folder.path + "/signing/signing-leaf-key.pem"
      chmod(key, mode_t(mode))
      let error = #expect(throws: DataFileError.self) { try SigningIdentity.of(folder) }
      #expect(error?.path == key)
      #expect(error?.problem.contains("`chmod 600 \(key)`") == true, "\(error?.problem ?? "")")
      #expect(error?.exitStatus == .dataError)
      chmod(key, 0o600)
      _ = try SigningIdentity.of(folder)
    }
  }
}

@Suite("Xcode's signing: one self-signed certificate", .tags(.pure))
struct LocalSigningTests {
  @Test("x5c holds one self-signed certificate, and the signature verifies with its key")
  func oneCertificate() throws {
    let identity = try LocalSigningIdentity.make()
    let payload = try #require(PayloadFixture.payload(PayloadFixture.transaction(environment: .xcode)))
    let jws = try identity.sign(payload)
    let parts = jws.split(separator: ".").map(String.init)
    let headerData = try #require(Base64URL.decode(parts[0]))
    let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
    let x5c = try #require(header["x5c"] as? [String])
    #expect(x5c.count == 1)
    #expect(header["alg"] as? String == "ES256")
    let der = try #require(Data(base64Encoded: x5c[0]))
    let certificate = try Certificate(derEncoded: Array(der))
    #expect(certificate == identity.certificate)
    #expect(certificate.issuer == certificate.subject)
    #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
    let key = try #require(P256.Signing.PublicKey(certificate.publicKey))
    let signatureData = try #require(Base64URL.decode(parts[2]))
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
    #expect(key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
    let other = try LocalSigningIdentity.make().sign(payload, failingVerification: true)
    let bad = other.split(separator: ".").map(String.init)
    let badData = try #require(Base64URL.decode(bad[2]))
    let badSignature = try P256.Signing.ECDSASignature(rawRepresentation: badData)
    #expect(!key.isValidSignature(badSignature, for: Data((bad[0] + "." + bad[1]).utf8)))
  }

  @Test("the data folder's Xcode certificate is made once, in signing-xcode/, and is what a server trusts for Xcode")
  func dataFolder() throws {
    try withDataFolder { folder in
      let xcode = try EnvironmentSigner.of(folder, environment: .xcode)
      let local = try EnvironmentSigner.of(folder, environment: .localTesting)
      let sandbox = try EnvironmentSigner.of(folder, environment: .sandbox)
      #expect(xcode.trusted == local.trusted)
      #expect(xcode.trusted != sandbox.trusted)
      #expect(try EnvironmentSigner.of(folder, environment: .xcode).trusted == xcode.trusted)
      let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/signing-xcode").sorted()
      #expect(listed == ["xcode-certificate.der", "xcode-key.pem"])
      let key = try FileManager.default.attributesOfItem(atPath: folder.path + "/signing-xcode/xcode-key.pem")
      #expect((key[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
  }
}
