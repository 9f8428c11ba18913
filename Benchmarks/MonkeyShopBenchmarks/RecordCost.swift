import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One operation on the App Store's record of a folder `--write-data-folder` wrote, timed, printed
/// as `OPERATION SECONDS`: what a command pays for it beyond starting up.
/// - `lookup`: the oldest transaction by its ID (Get Transaction Info, the transaction manager).
/// - `page`: 20 transactions from the middle of the record (a page of history); none when all the
///   transactions are still in `store.json` (20 or fewer).
/// - `refund`: `store refund` of the oldest transaction, which only the record holds: the lock,
///   the lookup, the store and the wallet written.
func recordCost(_ operation: String, folder: DataFolder, at start: Date) throws {
  let catalog = try CatalogLoader.load(path: "products.plist")
  var begin = timespec()
  var end = timespec()
  clock_gettime(CLOCK_MONOTONIC, &begin)
  switch operation {
  case "lookup":
    guard try folder.readTransaction("1") != nil else { throw CostFailure("#1 is not in \(folder.path)") }
  case "page":
    // Up to 20 transactions all stay in store.json: then the record has no page to give.
    let last = try folder.readStore().lastTransactionNumber
    let page = try folder.readHistoryPage(after: last / 2, limit: 20)
    guard !page.isEmpty || last <= StoreState.finishedHistoryLimit else { throw CostFailure("an empty page") }
  case "refund":
    _ = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction("1")) {
      try $0.refund("1", reason: .other, at: start.addingTimeInterval(1e8))
    }
  default:
    throw CostFailure("unknown operation \(operation): lookup, page or refund")
  }
  clock_gettime(CLOCK_MONOTONIC, &end)
  let seconds = Double(end.tv_sec - begin.tv_sec) + Double(end.tv_nsec - begin.tv_nsec) / 1e9
  print("\(operation) \(seconds)")
}

struct CostFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
