import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough

/// Memory storage whose writes can be made to fail, as a full disk or a read-only folder would.
final class SwitchableStorage: ShopStorage {
  let memory: MemoryStorage
  var failWrites = false
  /// Only unpacking hosted content fails (a content folder that cannot be written).
  var failContent = false

  init(_ memory: MemoryStorage) { self.memory = memory }

  func read() throws(DataFileError) -> (store: StoreState, wallet: Wallet) { try memory.read() }

  func readHistory() throws(DataFileError) -> [StoreTransaction] { try memory.readHistory() }

  func readHistoryTransaction(_ id: String) throws(DataFileError) -> StoreTransaction? {
    try memory.readHistoryTransaction(id)
  }

  func readHistory(ofProducts products: Set<String>) throws(DataFileError) -> [StoreTransaction] {
    try memory.readHistory(ofProducts: products)
  }

  func readOwned() throws(DataFileError) -> OwnedProducts { try memory.readOwned() }

  func readNotifications(about id: String) throws -> [NotificationListing] { try memory.readNotifications(about: id) }

  func updateOwned<Result>(_ body: (inout OwnedProducts, StoreState, Wallet) throws -> Result) throws -> Result {
    guard failWrites else { return try memory.updateOwned(body) }
    throw DataFileError(
      path: "/data/owned.json", problem: "writing failed: No space left on device", errorID: .cannotWriteDataFile)
  }

  func installContent(_ content: HostedContent, productIdentifier: String, transactionID: String) throws -> String {
    guard failWrites || failContent else {
      return try memory.installContent(content, productIdentifier: productIdentifier, transactionID: transactionID)
    }
    throw DataFileError(
      path: "/data/content", problem: "writing failed: No space left on device", errorID: .cannotWriteDataFile)
  }

  func update<Result>(
    seeingHistory body: (inout StoreState, inout Wallet, _ history: HistoryLookup) throws -> Result
  ) throws -> Result {
    guard failWrites else { return try memory.update(seeingHistory: body) }
    throw DataFileError(
      path: "/data/store.json", problem: "writing failed: No space left on device", errorID: .cannotWriteDataFile)
  }
}
