import Foundation
import MonkeyShopDomain

/// Where the store state, its history and the wallet live: the data folder on disk, or memory for
/// walkthroughs.
public protocol ShopStorage: AnyObject {
  /// A consistent read without the lock: each file is replaced whole, never written in place.
  func read() throws(DataFileError) -> (store: StoreState, wallet: Wallet)
  /// The transactions that left the store for the history (the App Store's record), oldest first,
  /// each once: all of them, for a whole listing. A purchase never reads it.
  func readHistory() throws(DataFileError) -> [StoreTransaction]
  /// The one the history holds with this ID, found by its key; nil when it holds none.
  func readHistoryTransaction(_ id: String) throws(DataFileError) -> StoreTransaction?
  /// The history's transactions of these products, oldest first (restores, entitlements).
  func readHistory(ofProducts products: Set<String>) throws(DataFileError) -> [StoreTransaction]
  /// One read-modify-write of both files under the exclusive lock; only what changed is written:
  /// the wallet, then the transactions leaving the store recorded in the history (`leaving`), then
  /// the store. The store numbers transactions from above the highest number the wallet has seen
  /// (`TransactionNumbers`). `history` looks transactions up in the history under the same lock,
  /// for a change that needs one (a refund of an old transaction).
  func update<Result>(
    seeingHistory body: (inout StoreState, inout Wallet, _ history: HistoryLookup) throws -> Result
  ) throws -> Result
  /// The non-consumables the app owns (`owned.json`), read without the lock.
  func readOwned() throws(DataFileError) -> OwnedProducts
  /// One locked change of what the app owns, seeing the store and the wallet as they are.
  func updateOwned<Result>(_ body: (inout OwnedProducts, StoreState, Wallet) throws -> Result) throws -> Result
  /// Puts a download's content in place (`content/<product id>/`), whole or not at all, then
  /// records its version in what the app owns. Returns where the content is.
  func installContent(_ content: HostedContent, productIdentifier: String, transactionID: String) throws -> String
  /// The App Store Server Notifications whose sending ended between two lengths of the attempts
  /// file (`NotificationQueue.attemptsLength`), oldest first. None where no server sends.
  func readEndedNotifications(from start: Int, through end: Int) throws -> [FinishedNotification]
  /// The App Store Server Notifications about one transaction, with their attempts, oldest first.
  func readNotifications(about id: String) throws -> [NotificationListing]
}

extension ShopStorage {
  public func readEndedNotifications(from start: Int, through end: Int) throws -> [FinishedNotification] { [] }
  public func readNotifications(about id: String) throws -> [NotificationListing] { [] }

  public func readWallet() throws(DataFileError) -> Wallet { try read().wallet }
  public func readStore() throws(DataFileError) -> StoreState { try read().store }

  /// Every transaction ever made, oldest first: the history's and the store's, the store's copy
  /// winning. The store is read first: a transaction moving to the history meanwhile is appended
  /// there before the store stops listing it, so it is found in one or the other.
  public func readEveryTransaction() throws(DataFileError) -> [StoreTransaction] {
    let store = try readStore()
    return store.withHistory(try readHistory())
  }

  /// The transaction with this ID: the store's copy, else the history's.
  public func readTransaction(_ id: String) throws(DataFileError) -> StoreTransaction? {
    let store = try readStore()
    if let transaction = store.transaction(id) { return transaction }
    return try readHistoryTransaction(id)
  }

  /// `update(seeingHistory:)` for a change that does not need the history.
  public func update<Result>(_ body: (inout StoreState, inout Wallet) throws -> Result) throws -> Result {
    try update(seeingHistory: { store, wallet, _ in try body(&store, &wallet) })
  }

  /// One locked change of Apple's side, made through the simulated App Store. Returns the
  /// result and the store as written.
  public func changeStore<Result>(
    catalog: Catalog, _ body: (inout AppStore) throws -> Result
  ) throws -> (result: Result, store: StoreState) {
    try changeStore(catalog: catalog, seeingWallet: { store, _ in try body(&store) })
  }

  /// The same, with the wallet as it is under the lock, for a caller that must know what it found.
  /// `reaching`: the transactions of the history a change may act on (a refund of an old
  /// transaction, a restore), looked up under the lock and given to the store.
  public func changeStore<Result>(
    catalog: Catalog, reaching: HistoryReach? = nil, seeingWallet body: (inout AppStore, Wallet) throws -> Result
  ) throws -> (result: Result, store: StoreState) {
    try update(seeingHistory: { state, wallet, history in
      var store = AppStore(state: state, catalog: catalog)
      switch reaching {
      case .transaction(let id): store.history = try history.transaction(id).map { [$0] } ?? []
      case .products(let products): store.history = try history.ofProducts(products)
      case nil: break
      }
      let result = try body(&store, wallet)
      state = store.state
      return (result, state)
    })
  }

  /// `changeStore` reaching into the history.
  public func changeStoreSeeingHistory<Result>(
    catalog: Catalog, reaching: HistoryReach, _ body: (inout AppStore) throws -> Result
  ) throws -> (result: Result, store: StoreState) {
    try changeStore(catalog: catalog, reaching: reaching, seeingWallet: { store, _ in try body(&store) })
  }
}

/// What a change of the store needs from the history: the transaction it acts on (a refund, a
/// refund request), or every purchase of some products (a restore of the non-consumables).
public enum HistoryReach: Sendable, Equatable {
  case transaction(String)
  case products(Set<String>)

  /// A restore's: the catalog's non-consumables.
  public static func nonConsumables(of catalog: Catalog) -> HistoryReach {
    .products(nonConsumableIdentifiers(of: catalog))
  }

  public static func nonConsumableIdentifiers(of catalog: Catalog) -> Set<String> {
    Set(catalog.products.filter { catalog.isNonConsumable($0.productIdentifier) }.map(\.productIdentifier))
  }
}

/// The history as a change sees it under the lock: looked up by key, never read whole.
public struct HistoryLookup {
  public let transaction: (String) throws -> StoreTransaction?
  public let ofProducts: (Set<String>) throws -> [StoreTransaction]

  public init(
    transaction: @escaping (String) throws -> StoreTransaction?,
    ofProducts: @escaping (Set<String>) throws -> [StoreTransaction]
  ) {
    self.transaction = transaction
    self.ofProducts = ofProducts
  }

  /// Over transactions in memory, each once, the later copy winning.
  public init(_ transactions: @escaping () throws -> [StoreTransaction]) {
    self.init(
      transaction: { id in try transactions().last { $0.id == id } },
      ofProducts: { products in try transactions().filter { products.contains($0.productIdentifier) } })
  }
}

/// A wallet or store file that cannot be used. Nothing is written over it.
public struct DataFileError: ShopError, Equatable {
  public let path: String
  public let problem: String
  /// `unreadableDataFile`, or `cannotWriteDataFile` when reading went well and writing did not.
  public let errorID: ErrorID
  /// What to do, when the file calls for something else than being moved away or mended: an
  /// older copy is replaced by the newest, and the App Store's record is never simply moved away,
  /// as that loses the transactions it holds.
  public let remedy: String?
  /// The error number of the open(2) that failed, when a file or the folder could not be opened:
  /// `EMFILE` and `ENFILE` (no file descriptor left) are a wait, not a fault of the folder.
  public let openingError: Int32?

  public init(
    path: String, problem: String, errorID: ErrorID = .unreadableDataFile, remedy: String? = nil,
    openingError: Int32? = nil
  ) {
    self.path = path
    self.problem = problem
    self.errorID = errorID
    self.remedy = remedy
    self.openingError = openingError
  }

  public var message: String { "\(path): \(problem)" + (remedy.map { "; \($0)" } ?? "") }
}

/// Storage in memory, for walkthroughs and tests: the same rules as the data folder, no disk.
public final class MemoryStorage: ShopStorage {
  public private(set) var store: StoreState
  public private(set) var wallet: Wallet
  /// The history's lines, in the order they were appended (a transaction may be listed again).
  public private(set) var historyLines: [StoreTransaction] = []
  /// Every notification the store made, in order.
  public private(set) var notifications: [ServerNotification] = []
  /// How many times each file was written, so tests can see what a change touched.
  public private(set) var writes = (store: 0, wallet: 0, history: 0)
  /// How many times the history was read whole, so tests can see that a purchase never reads it.
  public private(set) var historyReads = 0

  /// What the app owns, and the content unpacked for it, by product.
  public private(set) var owned = OwnedProducts()
  public private(set) var installed: [String: HostedContent] = [:]

  public init(store: StoreState = StoreState(), wallet: Wallet = Wallet(), owned: OwnedProducts = OwnedProducts()) {
    self.store = store
    self.wallet = wallet
    self.owned = owned
  }

  public func readOwned() throws(DataFileError) -> OwnedProducts { owned }

  public func updateOwned<Result>(_ body: (inout OwnedProducts, StoreState, Wallet) throws -> Result) throws -> Result {
    var changed = owned
    let result = try body(&changed, store, wallet)
    owned = changed
    return result
  }

  public func installContent(_ content: HostedContent, productIdentifier: String, transactionID: String) throws
    -> String
  {
    installed[productIdentifier] = content
    owned.installed(productIdentifier, version: content.contentVersion, by: transactionID)
    return "\(ContentFolder.name)/\(productIdentifier)"
  }

  public func read() throws(DataFileError) -> (store: StoreState, wallet: Wallet) { (store, wallet) }

  public func readNotifications(about id: String) throws -> [NotificationListing] {
    // Nothing sends from memory: each waits, in `pending` only when a test put it there.
    let pending = Dictionary(store.notifications.pending.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
    return notifications.filter { $0.transactionID == id }.map {
      let waiting = pending[$0.number] ?? PendingNotification($0)
      return NotificationListing(notification: $0, sendAttempts: waiting.sendAttempts, pending: waiting)
    }
  }

  public func readHistory() throws(DataFileError) -> [StoreTransaction] {
    historyReads += 1
    return StoreState.latest(of: historyLines)
  }

  public func readHistoryTransaction(_ id: String) throws(DataFileError) -> StoreTransaction? {
    historyLines.last { $0.id == id }
  }

  public func readHistory(ofProducts products: Set<String>) throws(DataFileError) -> [StoreTransaction] {
    StoreState.latest(of: historyLines).filter { products.contains($0.productIdentifier) }
  }

  public func update<Result>(
    seeingHistory body: (inout StoreState, inout Wallet, _ history: HistoryLookup) throws -> Result
  ) throws -> Result {
    TransactionNumbers.catchUp(&store, with: wallet)
    var newStore = store
    var newWallet = wallet
    // Read when looked up, never copied: the history is appended to below.
    let result = try body(
      &newStore, &newWallet, HistoryLookup { [unowned self] in StoreState.latest(of: historyLines) })
    TransactionNumbers.remember(newStore, in: &newWallet)
    let leaving = newStore.leaving
    newStore.leaving = []
    // Notifications: kept here unsigned, waiting, as the data folder keeps them signed in its file.
    notifications += newStore.notifications.outgoing
    newStore.notifications.outgoing = []
    newStore.notifications.finishing = []
    if newWallet != wallet {
      wallet = newWallet
      writes.wallet += 1
    }
    if !leaving.isEmpty {
      historyLines += leaving
      writes.history += 1
    }
    if newStore != store {
      store = newStore
      writes.store += 1
    }
    return result
  }
}
