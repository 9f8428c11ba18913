import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

extension RecordSource {
  /// Get Transaction Info's transaction, found by its key: in the record read already when that is
  /// still current, else in the store and one row of the App Store's record, so that request costs
  /// the same at a million transactions as at ten, first request included. `appTransactionID`: the
  /// folder's, once it has any signed transaction (as `ServedRecord` has it). An ID that is not a
  /// signed transaction's is answered from the whole record.
  func lookUp(_ id: String) throws -> (appTransactionID: String?, entry: ServedRecord.Entry?) {
    let folder = folder()
    if let record = cached(folder) { return (record.appTransactionID, record.entry(id)) }
    let store = try folder.readStore()
    var found = store.transaction(id)
    if found == nil { found = try folder.readHistoryTransaction(id) }
    let served = try served(found.map { [$0] } ?? [], store: store)
    if let entry = served.entries.first { return (served.appTransactionID, entry) }
    // Not a signed transaction (an error answers): whether the folder has an app transaction
    // decides which, so the whole record is read, as before.
    let record = try current()
    return (record.appTransactionID, record.entry(id))
  }
}
