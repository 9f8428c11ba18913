import Foundation
import GRDB
import MonkeyShopDomain

/// One row of the record: the transaction's JSON as recorded, and the fields the indexes need.
struct RecordedTransaction: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "storeTransaction"

  var number: Int64
  /// Apple's `originalTransactionId`: the purchase a restored transaction copies, else its own.
  var originalNumber: Int64
  /// Milliseconds since 1970, as the signed payload has them.
  var purchaseDate: Int64
  var productIdentifier: String
  /// The product type recorded at purchase (`Consumable`, `Non-Consumable`); nil for a transaction
  /// recorded before types were.
  var productType: String?
  var revocationDate: Int64?
  /// Finished by the app with a transaction identifier (credited or unlocked).
  var delivered: Bool
  /// The order ID Look Up Order ID finds it by (`OrderID.of`); '' for a transaction without a
  /// transaction ID, which the App Store never signed; nil only in a row an earlier monkeyshop
  /// inserted, until the record is next opened (`fillOrderIDs`).
  var orderID: String?
  /// When the row was last written, counting up across the record.
  var revision: Int64
  /// The transaction as `JSONEncoder` with sorted keys writes it (what `history.jsonl` held).
  var json: String

  init(_ transaction: StoreTransaction, path: String) throws(DataFileError) {
    guard let number = transaction.number else {
      throw DataFileError(
        path: path, problem: "cannot record '\(transaction.id)': not a transaction number",
        errorID: .cannotWriteDataFile)
    }
    self.number = Int64(number)
    originalNumber = transaction.restoredTransactionID.flatMap { Int64($0) } ?? Int64(number)
    purchaseDate = Self.milliseconds(transaction.purchaseDate)
    productIdentifier = transaction.productIdentifier
    productType = transaction.record?.type
    revocationDate = transaction.revocationDate.map(Self.milliseconds)
    delivered = transaction.finished && transaction.transactionIdentifier != nil
    orderID = OrderID.of(transaction) ?? ""
    revision = 0
    let line = try HistoryLines.encode([transaction], path: path)
    json = String(decoding: line.dropLast(), as: UTF8.self)
  }

  /// The row's transaction. One whose record disagrees with what the App Store signed for it was
  /// edited after the purchase, and is refused as `store.json` refuses it: a refund would copy it
  /// into the store.
  func transaction(path: String) throws(DataFileError) -> StoreTransaction {
    guard let transaction = HistoryLines.wholeTransaction(ArraySlice(Array(json.utf8))),
      transaction.number.map(Int64.init) == number
    else {
      throw DataFileError(path: path, problem: "transaction #\(number) is not a transaction monkeyshop can read")
    }
    if let (field, recorded, signed) = transaction.recordDisagreement {
      throw DataFileError(
        path: path,
        problem:
          "transaction #\(number): its record says \(field) \(recorded) while its signedPurchase, what the App Store signed, says \(signed); the record never changes after a purchase, so this row was edited",
        remedy: TransactionRecord.damaged)
    }
    return transaction
  }

  static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
