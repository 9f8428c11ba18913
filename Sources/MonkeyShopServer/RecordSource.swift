import Dispatch
import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage
import Synchronization

/// The data folder's record as the server reads it: like every other reader, without the lock (each
/// file is replaced whole, or the history appended to), and again only when a file changed since
/// (`DataFolder.recordStamp`), so a request costs no more for a long history and still sees at once
/// what `monkeyshop buy` or `store refund` did a moment ago.
final class RecordSource: Sendable {
  let folderPath: String
  let catalog: Catalog
  private let cache = Mutex<Loaded?>(nil)
  /// Held while the files are read: requests that find the cache stale wait for one reading rather
  /// than each reading the history at once.
  private let reading = Mutex<Void>(())

  /// What was read, and how far into the history.
  private struct Loaded: Sendable {
    var stamp: [Int64]
    var record: ServedRecord
    var place: HistoryPlace?
    var history: [Int: StoreTransaction]
  }

  /// The app's version, which its app transaction gives.
  let applicationVersion: String

  init(folderPath: String, catalog: Catalog, applicationVersion: String = "1.0") {
    self.folderPath = folderPath
    self.catalog = catalog
    self.applicationVersion = applicationVersion
  }

  /// A folder object for one operation (it is not shared between threads). A change it makes signs
  /// what it completes (a test notification, a transaction's new token), as every command's does.
  func folder() -> DataFolder {
    let folder = DataFolder(path: folderPath)
    folder.signer = FolderSigner()
    return folder
  }

  /// The record as the files are now. The history is only appended to: after the first reading,
  /// only what was appended since is read (`DataFolder.readHistory(since:)`), so a purchase made
  /// while the server runs costs a reading of the store and one line, however long the history.
  func current() throws -> ServedRecord {
    let folder = folder()
    if let record = cached(folder) { return record }
    return try reading.withLock { _ in
      if let record = cached(folder) { return record }
      let stamp = folder.recordStamp()
      let previous = cache.withLock { $0 }
      let read = try folder.readHistory(since: previous?.place)
      var history = read.whole ? [:] : previous?.history ?? [:]
      for transaction in read.transactions { history[transaction.number ?? 0] = transaction }
      let record = try served(read.store.withHistory(Array(history.values)), store: read.store)
      cache.withLock { $0 = Loaded(stamp: stamp, record: record, place: read.place, history: history) }
      return record
    }
  }

  func cached(_ folder: DataFolder) -> ServedRecord? {
    let stamp = folder.recordStamp()
    guard let loaded = cache.withLock({ $0 }), loaded.stamp == stamp else { return nil }
    return loaded.record
  }

  func served(_ every: [StoreTransaction], store: StoreState) throws -> ServedRecord {
    var entries: [ServedRecord.Entry] = []
    entries.reserveCapacity(every.count)
    var signers: [StoreEnvironment: EnvironmentSigner] = [:]
    for transaction in every where SignedTransactionPayload.isSigned(transaction) {
      var jws = transaction.storedJWS
      if jws == nil {
        // Completed before transactions were signed and kept: signed from its record, as
        // `store transactions --json` shows it (docs/signing.md).
        let environment = transaction.environment ?? .sandbox
        let signer = try signers[environment] ?? EnvironmentSigner.of(folder(), environment: environment)
        signers[environment] = signer
        let storefront = store.conditions.activeStorefront(default: catalog.defaultStorefront)
        jws = try signer.signedTransaction(
          transaction, catalog: catalog, storefront: storefront, appTransactionID: store.appTransactionID)
      }
      if let entry = ServedRecord.Entry(transaction, jws: jws) { entries.append(entry) }
    }
    // The folder's app transaction ID; one made before this version stamped one is derived as the
    // signed transactions derive it (`StoreState.derivedAppTransactionID`).
    let appTransactionID =
      entries.isEmpty
      ? nil
      : store.appTransactionID ?? StoreState.derivedAppTransactionID(bundleIdentifier: catalog.bundleIdentifier)
    return ServedRecord(entries: entries, environment: store.conditions.environment, appTransactionID: appTransactionID)
  }
}

/// Work that blocks (files, the folder's lock) done off Swift's cooperative threads, so a command
/// holding the lock never stalls the server's other requests.
enum Blocking {
  private static let queue = DispatchQueue(label: "monkeyshop.server.files", attributes: .concurrent)

  static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      queue.async {
        do {
          continuation.resume(returning: try work())
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
