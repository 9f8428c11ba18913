/// The app's credit manager: the only writer of the wallet. It credits a purchased transaction
/// exactly once, whoever delivers it and however often, and refuses to spend what is not there.
public struct CreditManager {
  public let storage: any ShopStorage
  public let catalog: Catalog

  public init(storage: any ShopStorage, catalog: Catalog) {
    self.storage = storage
    self.catalog = catalog
  }

  public enum Delivery: Equatable, Sendable {
    /// Credits added now.
    case credited(credits: Int, balance: Int)
    /// Delivered before (a redelivery at launch, or another monkeyshop got there first): only
    /// finishing remains.
    case alreadyDelivered(balance: Int)

    public var balance: Int {
      switch self {
      case .credited(_, let balance), .alreadyDelivered(let balance): balance
      }
    }
  }

  /// Adds `credits × quantity` for a purchased transaction, once per transaction identifier.
  public func deliver(_ transaction: StoreTransaction) throws -> Delivery {
    guard let product = catalog.product(transaction.productIdentifier) else {
      throw CreditError.unknownProduct(transaction.productIdentifier)
    }
    guard let number = transaction.number else { throw CreditError.notPurchased(transaction.id) }
    return try storage.update { store, wallet in
      // The wallet's record decides, whatever the store says: the store file may have been reset,
      // deleted or replaced by an older copy that lists this transaction as unfinished again.
      let paid = store.transaction(transaction.id)
      // A transaction is finished only after it was credited (here, or by another monkeyshop).
      if wallet.credited.contains(number) || paid?.finished == true {
        return .alreadyDelivered(balance: wallet.balance)
      }
      // Only what the App Store says was paid for is credited.
      guard let paid, paid.state == .purchased else {
        throw CreditError.notPurchased(transaction.id)
      }
      // The quantity the store holds, not the one the caller passed.
      let (credits, overflow) = product.credits.multipliedReportingOverflow(by: paid.quantity)
      let (balance, sumOverflow) = wallet.balance.addingReportingOverflow(credits)
      guard !overflow, !sumOverflow, credits >= 1, balance <= Wallet.balanceLimit else {
        throw CreditError.balanceOverflow
      }
      wallet.balance = balance
      wallet.credited.insert(number)
      return .credited(credits: credits, balance: balance)
    }
  }

  /// Feeds the monkey: subtracts credits, or refuses when the balance is too low.
  @discardableResult
  public func spend(_ credits: Int) throws -> Int {
    guard credits >= 1 else { throw CreditError.invalidAmount(credits) }
    return try storage.update { _, wallet in
      guard wallet.balance >= credits else {
        throw CreditError.insufficientBalance(balance: wallet.balance, requested: credits)
      }
      wallet.balance -= credits
      return wallet.balance
    }
  }

  /// Sets the balance to zero. Transactions already credited stay recognised, so an unfinished
  /// one is not credited again after the reset.
  public func reset() throws {
    try storage.update { _, wallet in wallet.balance = 0 }
  }
}

public enum CreditError: ShopError, Equatable {
  case insufficientBalance(balance: Int, requested: Int)
  case invalidAmount(Int)
  case unknownProduct(String)
  case balanceOverflow
  case notPurchased(String)

  public var errorID: ErrorID {
    switch self {
    case .insufficientBalance: .insufficientBalance
    case .invalidAmount: .invalidAmount
    case .balanceOverflow: .balanceOverflow
    case .unknownProduct: .productNotAvailable
    case .notPurchased: .unknownTransaction
    }
  }

  public var message: String {
    switch self {
    case .insufficientBalance(let balance, let requested):
      "not enough monkey credits: \(requested) requested, \(balance) in the wallet"
    case .invalidAmount(let amount):
      "cannot spend \(amount) credits: spend 1 or more"
    case .unknownProduct(let identifier):
      "the catalog has no product '\(identifier)', so its credits are unknown; the transaction stays unfinished"
    case .notPurchased(let id):
      "transaction #\(id) is not purchased in the store, so nothing is credited"
    case .balanceOverflow:
      "the balance would exceed \(Wallet.balanceLimit) monkey credits; nothing was credited and the transaction stays unfinished"
    }
  }
}
