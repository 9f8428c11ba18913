import MonkeyShopDomain

/// What the transaction manager lists: every transaction ever made, newest first — the history as
/// read when the manager opened, with the store's live copies in place of theirs and the store's
/// newer transactions added. Reached by position, never copied whole: a history of 100,000
/// transactions costs each frame only the rows it shows.
public struct TransactionList: Sendable {
  /// The history as read, oldest first, each transaction once.
  let history: [StoreTransaction]
  /// The store's transactions by id, which win over the history's copies.
  let live: [String: StoreTransaction]
  /// The store's transactions the history does not list, oldest first, each with its position in
  /// the whole list (oldest first).
  let extras: [(position: Int, transaction: StoreTransaction)]

  init(history: [StoreTransaction], store: [StoreTransaction]) {
    self.history = history
    live = Dictionary(store.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    let missing = store.filter { transaction in
      let index = Self.index(of: transaction.number ?? 0, in: history)
      return index == history.count || history[index].id != transaction.id
    }
    .sorted { ($0.number ?? 0) < ($1.number ?? 0) }
    extras = missing.enumerated().map { offset, transaction in
      (Self.index(of: transaction.number ?? 0, in: history) + offset, transaction)
    }
  }

  public var count: Int { history.count + extras.count }

  /// The transaction at a position counted from the newest (0).
  public subscript(newestFirst index: Int) -> StoreTransaction {
    var position = count - 1 - index
    for extra in extras {
      if extra.position == position { return extra.transaction }
      if extra.position > position { break }
    }
    position -= extras.prefix { $0.position < position }.count
    let transaction = history[position]
    return live[transaction.id] ?? transaction
  }

  /// Positions `range` (newest first), as a list of transactions.
  public func newestFirst(_ range: Range<Int>) -> [StoreTransaction] {
    range.clamped(to: 0..<count).map { self[newestFirst: $0] }
  }

  /// The position (newest first) of the transaction with this id, if the list holds it. Numbers
  /// fall from the newest to the oldest, so it is found by halving.
  public func position(of id: String) -> Int? {
    guard let number = StoreTransaction.number(id) else { return nil }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if (self[newestFirst: middle].number ?? 0) > number { low = middle + 1 } else { high = middle }
    }
    return low < count && self[newestFirst: low].id == id ? low : nil
  }

  /// Where a transaction number goes in the history: the first position whose number is not below.
  private static func index(of number: Int, in history: [StoreTransaction]) -> Int {
    var low = 0
    var high = history.count
    while low < high {
      let middle = (low + high) / 2
      if (history[middle].number ?? 0) < number { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

extension ShopModel {
  /// Every transaction, newest first, as the transaction manager lists them.
  public var transactionList: TransactionList {
    TransactionList(history: transactionHistory, store: store.transactions)
  }

  /// How many transactions a page of the manager shows on the screen as it is now (80×24 where
  /// there is no screen): PgUp and PgDn move by this many.
  var transactionPageRows: Int { max(1, (screenSize ?? .minimum).height - 6) }

  /// The history read for the manager: it lists every transaction from then on.
  mutating func historyRead(_ transactions: [StoreTransaction]) -> [ShopEffect] {
    transactionHistory = transactions
    return []
  }
}
