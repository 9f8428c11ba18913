import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `store certificate`: what a server under test trusts for the environment in use (`store set
/// environment`): the root of the data folder's App Store chain for Sandbox, the self-signed
/// certificate that signs Xcode and LocalTesting transactions for those (docs/signing.md). Apple's
/// `SignedDataVerifier` takes roots as DER bytes, so DER is the default.
struct StoreCertificate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "certificate",
    abstract: "Export the certificate signed transactions chain to, for a server to trust.",
    discussion: """
      For the environment in use: Sandbox (the default), the root of the three-certificate chain; \
      Xcode and LocalTesting, the one self-signed certificate their transactions carry, as Xcode's \
      StoreKit testing signs. DER by default (what Apple's App Store Server Library takes), PEM with \
      --pem. Without --out the certificate goes to standard output: PEM always, DER only when \
      standard output is not a terminal. Each is made once per data folder and kept there.
      """)

  @Flag(help: "Write PEM (-----BEGIN CERTIFICATE-----) instead of DER.")
  var pem = false

  @Option(name: .long, help: ArgumentHelp("Write the certificate to this file.", valueName: "file"))
  var out: String?

  @OptionGroup var options: ShopOptions

  func run() throws {
    // Refused before the chain is made: a command that fails changes nothing.
    if out == nil, !pem, isatty(STDOUT_FILENO) == 1 {
      throw Failure(
        "store certificate: the root is binary DER and standard output is a terminal; use --out FILE, or --pem to print it",
        .invalidArgument)
    }
    if let out {
      try Self.checkPlace(out, dataFolder: options.dataFolder)
      try Self.checkReplacing(out)
    }
    let environment = try options.dataFolder.readStore().conditions.environment
    let signer = try EnvironmentSigner.of(options.dataFolder, environment: environment)
    let bytes = pem ? Data(try signer.trustedPEM.utf8) + Data("\n".utf8) : Data(try signer.trustedDER)
    guard let out else {
      Output.sayBytes(bytes)
      return
    }
    try Self.save(bytes, to: out)
    let what = environment == .sandbox ? "root certificate" : "\(environment.rawValue) certificate"
    say("\(what) (\(pem ? "PEM" : "DER")) written to \(TerminalText.escaped(out))")
  }

  /// A place `--out` may write: a regular file or a new name in an existing folder; never a
  /// folder, a link, a device or a file in the data folder (`OutputFile`).
  static func checkPlace(_ path: String, example: String = "root.der", dataFolder: DataFolder) throws {
    if let problem = OutputFile.obstacle(at: path, example: example, dataFolder: dataFolder)
      ?? OutputFile.folderObstacle(of: path)
    {
      throw Failure("--out \(TerminalText.escaped(path)): \(problem); nothing was written", .invalidArgument)
    }
  }

  /// A file already at `--out` is replaced only when it is empty or one certificate whole (DER, or
  /// PEM as `--pem` writes it: an earlier export), so a mistyped path never costs a person a file
  /// of theirs: a key, a bundle, another data folder's wallet.
  static func checkReplacing(_ path: String) throws {
    // No further than a certificate can be long: a file of gigabytes is refused, not loaded.
    let start: Data?
    do {
      start = try OutputFile.existingStart(path, upTo: CertificateFile.longest + 1)
    } catch {
      throw Failure(
        "--out \(TerminalText.escaped(error.path)): \(error.problem); nothing was written", .invalidArgument)
    }
    guard let data = start else { return }
    guard !CertificateFile.isOneCertificate(data) else { return }
    throw Failure(
      "--out \(TerminalText.escaped(path)): is not a certificate; it is left as it is (expected a new file name, or a certificate exported earlier to replace); nothing was written",
      .invalidArgument)
  }

  /// Written whole and moved over `path` (`OutputFile.write`).
  static func save(_ bytes: Data, to path: String) throws {
    do {
      try OutputFile.write(bytes, to: path)
    } catch {
      throw Failure("--out \(TerminalText.escaped(path)): \(error)", .cannotWriteOutput)
    }
  }
}

/// `jws` in `store transactions --json`: each transaction's signed transaction as the App Store
/// signed it when it completed (or refunded) it, stored with it. One completed before transactions
/// were signed and kept (or while the folder held only part of its chain) is signed now with the
/// data folder's keys for its environment, from what it recorded, else from the catalog and the storefront in force.
enum SignedTransactions {
  /// The signed transaction of each transaction that has one, by transaction id. The chain and the
  /// catalog are read only when a transaction needs them.
  static func jws(for transactions: [StoreTransaction], store: StoreState, options: ShopOptions) throws -> [String:
    String]
  {
    var result: [String: String] = [:]
    var unsigned: [StoreTransaction] = []
    for transaction in transactions where SignedTransactionPayload.isSigned(transaction) {
      if let stored = transaction.storedJWS { result[transaction.id] = stored } else { unsigned.append(transaction) }
    }
    guard !unsigned.isEmpty else { return result }
    let catalog = try options.loadCatalog()
    let storefront = store.conditions.activeStorefront(default: catalog.defaultStorefront)
    // Each transaction signed as its environment signs: Sandbox with the chain, Xcode and
    // LocalTesting with the local certificate.
    var signers: [StoreEnvironment: EnvironmentSigner] = [:]
    for transaction in unsigned {
      let environment = transaction.environment ?? .sandbox
      let signer = try signers[environment] ?? EnvironmentSigner.of(options.dataFolder, environment: environment)
      signers[environment] = signer
      result[transaction.id] = try signer.signedTransaction(
        transaction, catalog: catalog, storefront: storefront, appTransactionID: store.appTransactionID)
    }
    return result
  }
}
