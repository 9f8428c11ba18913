import Foundation
import GRDB
import MonkeyShopDomain

/// Whose record this is: the `appTransactionId` of the data folder it was written in (the store's
/// `appTransactionID`, one account's one app), kept in a table of one row, `folder`. A record
/// copied from another data folder holds another account's purchases: it is refused, never mixed
/// with this folder's (docs/data-folder.md).
///
/// The table is made, and the ID kept, by the first change written beside a store that has one: a
/// record of an earlier version, or one made before the folder's first completed purchase, takes
/// the folder's then.
extension TransactionRecord {
  /// The `appTransactionId` of the folder this record belongs to; nil when none is kept yet.
  func owner() throws(DataFileError) -> String? {
    try access {
      try database.read { db -> String? in
        guard try db.tableExists("folder") else { return nil }
        return try String.fetchOne(db, sql: "SELECT appTransactionID FROM folder LIMIT 1")
      }
    }
  }

  /// Keeps `appTransactionID` as the record's owner, when it has none yet; one SQLite transaction,
  /// durable when this returns.
  func keep(owner appTransactionID: String) throws(DataFileError) {
    try access(writing: true) {
      try database.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS folder (appTransactionID TEXT NOT NULL)")
        guard try String.fetchOne(db, sql: "SELECT appTransactionID FROM folder LIMIT 1") == nil else { return }
        try db.execute(sql: "INSERT INTO folder (appTransactionID) VALUES (?)", arguments: [appTransactionID])
      }
    }
  }

  /// Refuses a record another data folder wrote: its owner is not `store`'s `appTransactionID`. A
  /// store without one (a new `store.json`: the old one moved away) takes the record's, so moving
  /// `store.json` away goes on with this record. Nothing is written.
  func checkOwner(of store: inout StoreState, storePath: String) throws(DataFileError) {
    guard let owner = try owner() else { return }
    guard let own = store.appTransactionID else {
      store.appTransactionID = owner
      return
    }
    guard own != owner else { return }
    throw DataFileError(
      path: path,
      problem:
        "belongs to another data folder: it records the purchases of app transaction \(owner), and \(storePath) is the store of app transaction \(own) (a record copied from another data folder?)",
      remedy:
        "with no monkeyshop running, put back this folder's own record.sqlite with the record.sqlite-wal and -shm copied with it (or none beside it, if the copy had none), or move store.json away to go on with this record's purchases"
    )
  }
}
