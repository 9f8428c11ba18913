import Dispatch
import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage
import Synchronization

/// The data folder's record as the server reads it: like every other reader, without the lock (each
/// file is replaced whole, the record written in SQLite transactions), the store read again only
/// when a file changed since (`DataFolder.recordStamp`), and the record's rows read by index as each
/// request needs them (`ServedRecord`), so a request costs the same, and the server holds the same,
/// however long the record, and still sees at once what `monkeyshop buy` or `store refund` did a
/// moment ago.
final class RecordSource: Sendable {
  let folderPath: String
  let catalog: Catalog
  private let cache = Mutex<ServedRecord?>(nil)
  /// Held while the store is read: requests that find the cache stale wait for one reading rather
  /// than each reading it at once.
  private let reading = Mutex<Void>(())
  /// The stamp read once for the requests that arrive together.
  private let stamps = StampReadings()

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

  /// The record as the files are now: the store, read again when a file changed, and the record's
  /// connection, kept while it is the same file.
  func current() throws -> ServedRecord {
    let folder = folder()
    if let record = cached(at: stamps.stamp(reading: folder.recordStamp)) { return record }
    return try reading.withLock { _ in
      // Another request may have read the files meanwhile: a stamp of now says whether they are
      // still as it read them, and is the one this reading is taken at.
      let stamp = folder.recordStamp()
      if let record = cached(at: stamp) { return record }
      let previous = cache.withLock { $0 }
      let (store, rows) = try folder.readForServing(reusing: previous?.rows)
      let signing = ServedRecord.Signing(catalog: catalog, folder: { [self] in self.folder() })
      let record = try ServedRecord(stamp: stamp, store: store, rows: rows, signing: signing)
      cache.withLock { $0 = record }
      return record
    }
  }

  private func cached(at stamp: [Int64]) -> ServedRecord? {
    guard let record = cache.withLock({ $0 }), record.stamp == stamp else { return nil }
    return record
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
