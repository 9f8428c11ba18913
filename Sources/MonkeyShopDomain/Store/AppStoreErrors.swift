import Foundation

// What the App Store refuses: a product request without a network, a payment it cannot take, an
// operation on a transaction that is not in a state for it.

/// A product request the App Store could not answer.
public enum ProductRequestError: ShopError, Equatable, Sendable {
  case networkDown

  public var code: StoreError { .storeKit(.unknown) }
  public var errorID: ErrorID { .productRequestFailed }
  /// `Cannot connect to iTunes Store — SKErrorDomain 0 unknown`
  public var message: String { "\(code.message) — \(code.label)" }
}

public enum PaymentError: ShopError, Equatable, Sendable {
  /// `Product.PurchaseError.invalidQuantity`: Apple allows 1 to 10 per payment.
  case invalidQuantity(Int)
  /// The store's counter reached `StoreState.transactionNumberLimit` (a hand-edited store).
  case outOfTransactionNumbers

  public var errorID: ErrorID {
    switch self {
    case .invalidQuantity: .invalidQuantity
    case .outOfTransactionNumbers: .unreadableDataFile
    }
  }
  public var message: String { phrase.en }
  public var japaneseMessage: String? { phrase.ja }

  private var phrase: Phrase {
    switch self {
    case .invalidQuantity(let quantity):
      Phrase(
        "invalid quantity \(quantity): a payment buys 1 to 10 (Product.PurchaseError.invalidQuantity)",
        "数量 \(quantity) は使えません: 1 回の支払いは 1〜10 個 (Product.PurchaseError.invalidQuantity)")
    case .outOfTransactionNumbers:
      Phrase(
        "the store has used every transaction number up to \(StoreState.transactionNumberLimit); `monkeyshop store reset` cannot help, move the data folder away",
        "ストアは \(StoreState.transactionNumberLimit) までの取引番号を使い切りました。`\("monkeyshop store reset")` では直りません。データフォルダを移してください"
      )
    }
  }
}

public enum TransactionError: ShopError, Equatable, Sendable {
  case unknown(String)
  case wrongState(id: String, operation: String, state: TransactionState, expected: String)
  case noneToAct(operation: String, expected: String)
  /// A transaction is refunded once.
  case alreadyRefunded(id: String, on: Date)
  /// A restored transaction is not refunded: the purchase it restores is.
  case restoredCopy(id: String, purchase: String)
  /// The store's counter reached `StoreState.transactionNumberLimit` (a hand-edited store).
  case outOfTransactionNumbers
  /// A refund request of the transaction is open already.
  case refundRequested(id: String, on: Date)
  /// `store refund-decide` of a transaction with no refund request open.
  case noRefundRequest(id: String)
  /// `store refund-decide last` with no refund request open at all.
  case noRefundRequestOpen
  /// `store refund-reverse` of a transaction not refunded.
  case notRefunded(id: String)

  public var errorID: ErrorID {
    if case .outOfTransactionNumbers = self { return .unreadableDataFile }
    return .unknownTransaction
  }
  public var message: String { phrase.en }
  public var japaneseMessage: String? { phrase.ja }

  private var phrase: Phrase {
    switch self {
    case .unknown(let id) where !StoreTransaction.canBeID(id) && id != "last":
      Phrase(
        "'\(id)' is not a transaction id (expected a number or last)",
        "'\(id)' は取引 ID ではありません (数字か last を指定してください)")
    case .unknown(let id):
      Phrase(
        "no transaction '\(id)' in the store (see `monkeyshop store transactions`)",
        "ストアに取引 '\(id)' はありません (`\("monkeyshop store transactions")` を参照)")
    case .wrongState(let id, let operation, let state, let expected):
      Phrase(
        "cannot \(operation) transaction \(id): it is \(state), expected \(expected)",
        "取引 \(id) は \(operation) できません: 状態は \(state) (必要なのは \(expected))")
    case .noneToAct(let operation, let expected):
      Phrase("no \(expected) transaction to \(operation)", "\(operation) できる \(expected) の取引はありません")
    case .restoredCopy(let id, let purchase):
      Phrase(
        "transaction \(id) is restored, a copy of purchase #\(purchase): the App Store refunds the purchase (refund \(purchase))",
        "取引 \(id) は復元された、購入 #\(purchase) の写しです: App Store が返金するのは購入のほう (\(purchase) を返金)")
    case .alreadyRefunded(let id, let date):
      Phrase(
        "transaction \(id) was refunded already, at \(ISO8601.string(from: date)): the App Store refunds a transaction once",
        "取引 \(id) は \(ISO8601.string(from: date)) に返金済みです: App Store は一つの取引を一度だけ返金します")
    case .outOfTransactionNumbers:
      Phrase(
        "the store has used every transaction number up to \(StoreState.transactionNumberLimit); move the data folder away",
        "ストアは \(StoreState.transactionNumberLimit) までの取引番号を使い切りました。データフォルダを移してください")
    case .refundRequested(let id, let date):
      Phrase(
        "transaction \(id) has a refund request open since \(ISO8601.string(from: date)): decide it with `monkeyshop store refund-decide \(id) grant|decline`",
        "取引 \(id) には \(ISO8601.string(from: date)) からの返金リクエストがあります: `\("monkeyshop store refund-decide \(id) grant|decline")` で判断してください"
      )
    case .noRefundRequest(let id):
      Phrase(
        "transaction \(id) has no refund request open (expected one made with `monkeyshop store refund-request`)",
        "取引 \(id) には返金リクエストがありません (`\("monkeyshop store refund-request")` で作られたものが必要)")
    case .noRefundRequestOpen:
      Phrase(
        "no transaction has a refund request open (expected one made with `monkeyshop store refund-request`)",
        "返金リクエストのある取引はありません (`\("monkeyshop store refund-request")` で作られたものが必要)")
    case .notRefunded(let id):
      Phrase(
        "transaction \(id) is not refunded: only a refund can be reversed", "取引 \(id) は返金されていません: 取り消せるのは返金だけです")
    }
  }
}
