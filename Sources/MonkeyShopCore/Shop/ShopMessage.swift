import Foundation

/// Everything that can happen to the storefront: a key, time passing, or the answer to an effect.
public enum ShopMessage: Sendable {
  case launched(StoreState, Wallet)
  case key(Key)
  case tick
  case productsAnswered(Result<AppStore.ProductsResponse, ProductRequestError>)
  /// The observer's `paymentQueue(_:updatedTransactions:)`.
  case transactionsUpdated([StoreTransaction], redelivered: Bool)
  case paymentRefused(PaymentError)
  case delivered(StoreTransaction, CreditManager.Delivery)
  case deliveryFailed(StoreTransaction, ErrorID, String)
  /// The store could not answer the purchases in flight (its file could not be read or written):
  /// the app stops waiting for them until the data folder changes.
  case answersFailed(ErrorID, String)
  case finished(StoreTransaction)
  case approved(StoreTransaction)
  case declined(StoreTransaction)
  case resolved(original: String, StoreTransaction)
  case spent(balance: Int)
  case conditionChanged(name: String, value: String)
  /// The store or wallet as they are now on disk.
  case storeChanged(StoreState)
  case walletChanged(Wallet)
  /// The app credited a transaction and died before it could finish it: the log still says what
  /// was credited, as the app's own log would have before it died.
  case creditedBeforeCrash(StoreTransaction, CreditManager.Delivery)
  case crashed(CrashPoint)
  case failed(ErrorID, String)
  /// Buy without the payment sheet: the headless `buy` command.
  case purchase(productIdentifier: String, quantity: Int)
}

/// What `update` asks the runtime to do. The runtime answers each with messages.
public enum ShopEffect: Equatable, Sendable {
  case answerProductRequest([String])
  case addPayment(productIdentifier: String, quantity: Int, confirmed: Bool)
  case deliver(StoreTransaction)
  case finish(StoreTransaction)
  case setCondition(name: String, value: String)
  case approve(String)
  case decline(String)
  case resolve(String)
  case spend(Int)
  /// The wallet as it is now: another monkeyshop delivered something of this session's.
  case readWallet
}
