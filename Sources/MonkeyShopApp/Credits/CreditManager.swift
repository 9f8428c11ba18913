import MonkeyShopDomain
import MonkeyShopStorage

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
    /// A non-consumable unlocked now: the app owns it from here on.
    case unlocked(productIdentifier: String, balance: Int)
    /// A non-consumable the app owned already (bought again, restored, or redelivered).
    case alreadyOwned(productIdentifier: String, balance: Int)
    /// A purchase refunded before it was delivered: nothing is unlocked or credited (a
    /// consumable's refund is recorded as heard, so it is never taken back either).
    case refunded(productIdentifier: String, balance: Int)

    public var balance: Int {
      switch self {
      case .credited(_, let balance), .alreadyDelivered(let balance), .unlocked(_, let balance),
        .alreadyOwned(_, let balance), .refunded(_, let balance):
        balance
      }
    }
  }

  /// Adds the credits a purchased transaction is due (`credits × quantity` as the App Store
  /// recorded them at purchase), once per transaction identifier.
  /// `refusingRefunded`: the app reads the transaction's `revocationDate` before granting it, as a
  /// StoreKit 2 app does ("if let revocationDate = transaction.revocationDate { // Remove access to
  /// the product … } else { // Provide access to the product",
  /// https://developer.apple.com/documentation/storekit/transaction/updates): a purchase the App
  /// Store's record holds as refunded is not credited, decided with the credit under one lock, so
  /// no crash ever leaves it credited.
  public func deliver(_ transaction: StoreTransaction, refusingRefunded: Bool = false) throws -> Delivery {
    if transaction.isNonConsumable(in: catalog) { return try unlock(transaction) }
    guard let number = transaction.number else { throw CreditError.notPurchased(transaction.id) }
    return try storage.update { store, wallet in
      // The wallet's record decides, whatever the store says: the store file may have been reset,
      // deleted or replaced by an older copy that lists this transaction as unfinished again.
      let paid = store.transaction(transaction.id)
      if refusingRefunded, let paid, paid.isRevoked, !wallet.credited.contains(number) {
        // Recorded as heard: the refund has nothing to take back, now or at any later launch.
        wallet.clawedBack.insert(number)
        return .refunded(productIdentifier: paid.productIdentifier, balance: wallet.balance)
      }
      // A transaction is finished only after it was credited (here, or by another monkeyshop). One
      // whose refund was taken back before it was delivered is not credited either.
      if wallet.credited.contains(number) || paid?.finished == true || wallet.clawedBack.contains(number) {
        return .alreadyDelivered(balance: wallet.balance)
      }
      // Only what the App Store says was paid for is credited.
      guard let paid, paid.state == .purchased else {
        throw CreditError.notPurchased(transaction.id)
      }
      // What the store recorded for it (its quantity, the credits of the catalog it was bought
      // from), not the caller's copy nor today's catalog: a refund takes back exactly this.
      guard let credits = paid.creditsDue(in: catalog) else {
        if catalog.product(paid.productIdentifier)?.credits != nil { throw CreditError.balanceOverflow }
        throw CreditError.unknownProduct(paid.productIdentifier)
      }
      let (balance, sumOverflow) = wallet.balance.addingReportingOverflow(credits)
      guard !sumOverflow, credits >= 1, balance <= Wallet.balanceLimit else {
        throw CreditError.balanceOverflow
      }
      wallet.balance = balance
      wallet.recordCredit(number, store: store)
      return .credited(credits: credits, balance: balance)
    }
  }

  public enum Clawback: Equatable, Sendable {
    /// Taken back now (0 credits for a transaction never credited): the balance may be below zero.
    case takenBack(credits: Int, balance: Int)
    /// Taken back before (the app heard of the refund again, or another monkeyshop got there first).
    case alreadyTakenBack(balance: Int)

    public var balance: Int {
      switch self {
      case .takenBack(_, let balance), .alreadyTakenBack(let balance): balance
      }
    }
  }

  /// Takes back the credits of a refunded transaction, once per transaction identifier, whatever
  /// the balance: it may go below zero, and is then owed. Only a transaction the store (or its
  /// history) holds as refunded is taken back; one never credited takes nothing back but is
  /// recorded, so a later delivery does not credit it.
  public func clawBack(_ transaction: StoreTransaction) throws -> Clawback {
    guard let number = transaction.number else { throw CreditError.notRefunded(transaction.id) }
    return try storage.update(seeingHistory: { store, wallet, history in
      if wallet.clawedBack.contains(number) { return .alreadyTakenBack(balance: wallet.balance) }
      // Apple's record decides, not the caller's copy: the store's, else the history's.
      let refunded = try store.transaction(transaction.id) ?? history.transaction(transaction.id)
      guard let refunded, refunded.isRevoked else { throw CreditError.notRefunded(transaction.id) }
      var credits = 0
      if wallet.credited.contains(number) {
        // Exactly what delivery gave: the credits the App Store recorded at purchase, whatever the
        // catalog says now or if the product is gone.
        guard let worth = refunded.creditsDue(in: catalog) else {
          throw CreditError.unknownRefundedProduct(id: refunded.id, product: refunded.productIdentifier)
        }
        guard wallet.balance - worth >= -Wallet.balanceLimit else { throw CreditError.balanceOverflow }
        credits = worth
      }
      wallet.balance -= credits
      wallet.clawedBack.insert(number)
      wallet.settleCredits(store: store)
      return .takenBack(credits: credits, balance: wallet.balance)
    })
  }

  /// Feeds the monkey: subtracts credits, or refuses when the balance is too low (or owed).
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
  /// A refunded transaction completed before transactions recorded their credits, of a product the
  /// catalog no longer sells.
  case unknownRefundedProduct(id: String, product: String)
  case balanceOverflow
  case notPurchased(String)
  case notRefunded(String)

  public var errorID: ErrorID {
    switch self {
    case .insufficientBalance: .insufficientBalance
    case .invalidAmount: .invalidAmount
    case .balanceOverflow: .balanceOverflow
    case .unknownProduct, .unknownRefundedProduct: .productNotAvailable
    case .notPurchased, .notRefunded: .unknownTransaction
    }
  }

  public var message: String { phrase.en }
  public var japaneseMessage: String? { phrase.ja }

  private var phrase: Phrase {
    switch self {
    case .insufficientBalance(let balance, let requested) where balance < 0:
      Phrase(
        "not enough monkey credits: \(requested) requested, and the wallet owes \(-balance) (refunds took back credits already spent); buy credits to pay them back",
        "モンキークレジットが足りません: \(requested) 必要ですが、ウォレットは \(-balance) 足りていません (返金で使用済みのクレジットが取り消されました)。クレジットを購入して埋めてください"
      )
    case .insufficientBalance(let balance, let requested):
      Phrase(
        "not enough monkey credits: \(requested) requested, \(balance) in the wallet",
        "モンキークレジットが足りません: \(requested) 必要、ウォレットに \(balance)")
    case .invalidAmount(let amount):
      Phrase("cannot spend \(amount) credits: spend 1 or more", "\(amount) クレジットは使えません: 1 以上を使ってください")
    case .unknownProduct(let identifier):
      Phrase(
        "the catalog has no product '\(identifier)', so its credits are unknown; the transaction stays unfinished",
        "カタログに商品 '\(identifier)' がないため、クレジット数がわかりません。取引は未完了のままです")
    case .unknownRefundedProduct(let id, let product):
      Phrase(
        "transaction #\(id) recorded no credits and the catalog has no product '\(product)', so what it gave is unknown; nothing was taken back",
        "取引 #\(id) はクレジット数を記録しておらず、カタログに商品 '\(product)' もないため、付与した数がわかりません。何も取り消していません"
      )
    case .notPurchased(let id):
      Phrase(
        "payment \(id) is not purchased in the store, so nothing is credited",
        "支払い \(id) はストアで購入済みではないため、何も付与しません")
    case .notRefunded(let id):
      Phrase(
        "transaction #\(id) is not refunded in the store, so nothing is taken back",
        "取引 #\(id) はストアで返金されていないため、何も取り消しません")
    case .balanceOverflow:
      Phrase(
        "the balance would exceed \(Wallet.balanceLimit) monkey credits; nothing was credited and the transaction stays unfinished",
        "残高が \(Wallet.balanceLimit) モンキークレジットを超えるため、何も付与していません。取引は未完了のままです")
    }
  }
}
