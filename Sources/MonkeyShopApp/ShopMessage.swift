import Foundation
import MonkeyShopDomain

/// Everything that can happen to the storefront: a key, time passing, the data folder read again,
/// or the answer to an effect. Times are model time: whole milliseconds since the app launched.
public enum ShopMessage: Sendable {
  /// The app started and read its data folder.
  case launched(StoreState, Wallet, at: Int)
  case key(Key, at: Int)
  /// The screen is this size now: at start and after every resize.
  case resized(ScreenSize)
  case tick(at: Int)
  /// The data folder as it is now, read again because something changed it: another monkeyshop
  /// (`store approve`, `store set`, a headless `buy`), or a walkthrough acting for Apple's side.
  case dataFolderRead(StoreState, Wallet, at: Int)
  case productsAnswered(Result<AppStore.ProductsResponse, ProductRequestError>)
  /// The store added the payment as this transaction; `sheetSkipped` as the effect asked.
  case paymentAdded(StoreTransaction, sheetSkipped: Bool = false)
  /// The payment sheet was answered: Buy (the transaction waits for the App Store's answer) or
  /// Cancel (it failed with `paymentCancelled`).
  case paymentSheetAnswered(StoreTransaction, confirmed: Bool)
  case paymentRefused(PaymentError)
  /// The observer's `paymentQueue(_:updatedTransactions:)`.
  case transactionsUpdated([StoreTransaction], redelivered: Bool)
  case delivered(StoreTransaction, CreditManager.Delivery)
  case deliveryFailed(StoreTransaction, ShopFailure)
  /// The store could not answer the purchases in flight (its file could not be read or written):
  /// the app stops waiting for them until the data folder is read again.
  case answersFailed(ShopFailure)
  case finished(StoreTransaction)
  /// The App Store closed a transaction the app never sees (`close`).
  case closed(StoreTransaction)
  case approved(StoreTransaction)
  case declined(StoreTransaction)
  case resolved(original: String, StoreTransaction)
  case spent(balance: Int)
  case conditionChanged(Condition, value: String)
  /// The store as it was just written by one of the app's own effects.
  case storeChanged(StoreState)
  case walletRead(Wallet)
  /// The store holds the crash about to happen (and no longer the crash point, so the relaunch
  /// does not die again): now the app dies.
  case crashRecorded(CrashPoint)
  /// The crash could not be written to the store. A crash point the store holds would then kill
  /// every launch, so the app goes on with the delivery instead; one armed for this run only
  /// (`buy --crash`) dies all the same.
  case crashNotRecorded(CrashPoint, StoreTransaction, ShopFailure)
  case failed(ShopFailure)
  /// Buy without the payment sheet: the headless `buy` command.
  case purchase(productIdentifier: String, quantity: Int)
  /// The app's user changes: purchases from now on pass this token (`ShopModel.appAccountToken`).
  case setAppAccountToken(UUID?)
  /// Restore Purchases without a screen: `monkeyshop restore`.
  case restore
  /// The App Store refunded this transaction at the app's own request (the transaction manager).
  case refundMade(StoreTransaction)
  case clawedBack(StoreTransaction, CreditManager.Clawback)
  /// The app removed (or kept, still entitled) a refunded non-consumable.
  case accessRevoked(StoreTransaction, CreditManager.Revocation)
  /// Every transaction ever made, the history's included, for the transaction manager.
  case historyRead([StoreTransaction])
  /// A payment of this session the store no longer lists, as Apple's record (its history
  /// included) holds it; nil when no record has it.
  case lookedUp(transactionID: String, StoreTransaction?)
  /// The App Store Server Notifications whose sending ended since the store was last seen.
  case endedNotificationsRead([FinishedNotification])
  /// The App Store Server Notifications about a transaction, for its detail.
  case notificationsRead(transactionID: String, [NotificationListing])
  /// `owned.json` as it is: what the app owns.
  case ownedRead(OwnedProducts)
  /// A finished download's content is in the data folder, here.
  case contentInstalled(Download, path: String)
  case contentInstallFailed(Download, ShopFailure)
  /// StoreKit 1's restore: the `.restored` transactions the App Store made.
  case restoredTransactions([StoreTransaction])
  /// StoreKit 1's restore ended: every restored transaction was handled.
  case restoreFinished(restored: Int)
  /// StoreKit 2's restore: `Transaction.currentEntitlements`, and the products the app unlocked now.
  case entitlements([StoreTransaction], unlocked: [String])
}

/// What `update` asks the runtime to do. The runtime answers each with messages.
public enum ShopEffect: Equatable, Sendable {
  case answerProductRequest([String])
  /// `showsSheet`: the App Store shows its payment sheet for the new transaction and waits for its
  /// answer; otherwise the payment goes on as if Buy was tapped. `sheetSkipped`: that was
  /// `skipPaymentSheet`'s doing, said back in `paymentAdded` so the log can note it.
  case addPayment(
    productIdentifier: String, quantity: Int, showsSheet: Bool, sheetSkipped: Bool = false,
    appAccountToken: UUID? = nil, at: Date)
  /// Buy or Cancel on the payment sheet of this transaction.
  case answerPaymentSheet(transactionID: String, confirmed: Bool, at: Date)
  /// The store answers every purchase due by this moment.
  case answerPayments(through: Date)
  case deliver(StoreTransaction)
  case finish(StoreTransaction)
  /// The App Store closes a failed payment that a StoreKit 2 app never sees as a transaction, so
  /// it is not delivered to anyone again; the app calls nothing.
  case close(StoreTransaction)
  /// The app starts again with the data folder as it is (switching its StoreKit).
  case relaunch
  /// The App Store refunds a transaction, as Xcode's Transaction Manager does.
  case refund(String, RevocationReason, at: Date)
  /// The app takes a refunded transaction's credits back.
  case clawBack(StoreTransaction)
  /// The app removes access to a refunded non-consumable.
  case revokeAccess(StoreTransaction)
  case setCondition(Condition, value: String, at: Date)
  case approve(String)
  case decline(String)
  case resolve(String, at: Date)
  case spend(Int)
  /// The wallet as it is now: another monkeyshop delivered something of this session's.
  case readWallet
  /// Writes in the store that the app dies at this crash point with this transaction, so the next
  /// launch can say so, and clears the store's crash point if it is this one.
  case recordCrash(CrashPoint, StoreTransaction)
  /// The app dies here, as a process killed by the system would.
  case crash(CrashPoint)
  /// The terminal repaints everything (Ctrl-L) or the process suspends (Ctrl-Z).
  case screen(ScreenRequest)
  /// Every transaction, the history's included: the transaction manager opened.
  case readHistory
  /// One transaction of Apple's record, wherever it is (the store or its history): a payment of
  /// this session that left the store.
  case lookUp(transactionID: String)
  /// The notifications whose sending ended between two lengths of the attempts file.
  case readEndedNotifications(from: Int, through: Int)
  /// The App Store Server Notifications about a transaction, for its detail.
  case readNotifications(about: String)
  /// A finished download's content goes into the data folder.
  case installContent(Download)
  /// `restoreCompletedTransactions()`: the App Store restores every completed non-consumable.
  case restoreCompletedTransactions(at: Date)
  /// The queue tells the observer the restore finished, after the restored transactions were handled.
  case finishRestore(restored: Int)
  /// `AppStore.sync()` then `Transaction.currentEntitlements`.
  case syncEntitlements
}

/// A failure the app met, as a value the model keeps: its error ID and what happened.
public struct ShopFailure: ShopError, Equatable, Sendable {
  public let errorID: ErrorID
  /// What happened, in English: headless output, the exit, the storefront in English.
  public let message: String
  /// What happened in Japanese, where the shop wrote the failure in its own words; nil for an error
  /// met in the store or the data folder, which the storefront introduces by its ID's kind.
  public let japanese: String?

  public init(_ errorID: ErrorID, _ message: String) {
    self.init(errorID, message: message, japanese: nil)
  }

  /// A failure in the shop's own words, in both languages.
  init(_ errorID: ErrorID, _ message: Phrase) {
    self.init(errorID, message: message.en, japanese: message.ja)
  }

  init(_ errorID: ErrorID, message: String, japanese: String?) {
    self.errorID = errorID
    self.message = message
    self.japanese = japanese
  }

  public var japaneseMessage: String? { japanese }
}

extension ShopFailure {
  /// A payment of this session that the store no longer holds (a `store reset`, or a store file
  /// moved away) will never be answered.
  static func vanished(_ id: String) -> ShopFailure {
    ShopFailure(
      .unknownTransaction,
      Phrase(
        "payment \(id) is no longer in the store (was it reset?): it will never be answered",
        "支払い \(id) はストアにありません (リセットされた?): 応答は来ません"))
  }
}

extension ShopFailure {
  /// A purchase the App Store failed, as the log's error line says it. In English the App Store's
  /// words and the code; in Japanese what kind of failure it is and the code, the App Store's English
  /// words being quoted on the status line under the log (`Appleのメッセージ: "…"`). With them the
  /// Japanese line wrapped at 80 columns and pushed the `.failed` line above it out of view.
  init(purchase failure: StoreFailure) {
    let error = failure.error
    self.init(
      error.errorID, message: error.message, japanese: Words.kind(of: error.errorID).ja + " — " + error.code.label)
  }

  /// What an effect's error says: a shop error's ID and message; anything else can only have come
  /// from reading or writing the data folder.
  init(_ error: any Error) {
    if let error = error as? any ShopError {
      self.init(error.errorID, message: error.message, japanese: error.japaneseMessage)
    } else {
      self.init(.unreadableDataFile, "\(error)")
    }
  }
}
