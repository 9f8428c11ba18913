import MonkeyShopDomain

/// The line under the log that says what just happened, as a value: `Words` says it in the
/// storefront's language, and tests compare values, not text.
public enum Notice: Equatable, Sendable {
  /// A payment in flight; `sheetSkipped`: added without the payment sheet (`skipPaymentSheet`).
  case purchasing(product: String, quantity: Int, sheetSkipped: Bool = false)
  case purchased(product: String, quantity: Int, credits: Int)
  /// Unfinished transactions of an earlier run delivered (or only finished, if already credited) at
  /// launch, with the credits they added and the crash point that left them, if one did.
  case redelivered(transactionIDs: [String], credits: Int, crash: FiredCrash?)
  case alreadyDelivered(transactionID: String)
  case cancelled(product: String)
  /// A parent declined an Ask to Buy: a StoreKit 1 app sees only `.failed` with SKErrorDomain 2 and
  /// reads a cancel; the log's note explains.
  case declined(product: String)
  case interrupted(transactionID: String, StoreFailure)
  case purchaseFailed(StoreFailure)
  case waitingForApproval(transactionID: String)
  case spent(balance: Int)
  /// A condition changed in the conditions panel, to the value it has now.
  case conditionSet(Condition, value: String)
  case appSwitched(StoreKitAPI)
  /// The switch question answered no: the app stays written with this StoreKit.
  case storeKitKept(StoreKitAPI)
  case productsFailed(ProductRequestError)
  case finishedElsewhere(transactionID: String, TransactionState)
  /// A payment of this session is no longer in the store: it will never be answered.
  case vanished(transactionID: String)
  case crashed
  /// Something the app tried failed: the failure with its error ID.
  case failed(ShopFailure)
  /// A key was pressed that cannot act now, and why.
  case cannot(keys: String, Reason)
  /// What only the app written with StoreKit 2 is told.
  case storeKit2(StoreKit2Notice)
  /// A refund the app took back.
  case refundTakenBack(transactionID: String, credits: Int, balance: Int)
  /// A refund a StoreKit 1 app is never told of.
  case refundNotTold(transactionID: String)
  /// StoreKit 2: a purchase refunded before the app delivered it: nothing credited.
  case refundedBeforeDelivery(transactionID: String)
  /// Restore Purchases ended, with how many transactions came back.
  case restoreFinished(restored: Int)
  /// A non-consumable unlocked, or its hosted content's download.
  case download(DownloadNotice)

  public enum Tone: Sendable {
    case info, success, warning, failure
  }

  /// Whether it reports how something already over ended (a purchase, a spend, a restore), rather
  /// than something still going on or a reason: such a status goes once a condition changes, so
  /// it never sits beside buttons that say something else ("AppStore disabled").
  public var isOutcome: Bool {
    switch self {
    case .purchased, .redelivered, .alreadyDelivered, .cancelled, .declined, .purchaseFailed, .spent,
      .finishedElsewhere, .refundTakenBack, .refundNotTold, .restoreFinished, .failed:
      true
    default: false
    }
  }

  public var tone: Tone {
    switch self {
    case .purchasing, .spent, .conditionSet, .appSwitched, .storeKitKept, .finishedElsewhere, .alreadyDelivered,
      .restoreFinished:
      .info
    case .storeKit2(.pending), .refundTakenBack, .refundNotTold, .refundedBeforeDelivery: .warning
    case .storeKit2(.unverified): .failure
    case .purchased, .redelivered: .success
    case .cancelled, .declined, .waitingForApproval, .cannot, .interrupted: .warning
    case .purchaseFailed, .productsFailed, .crashed, .failed, .vanished: .failure
    case .download(let notice):
      switch notice {
      case .unlocked, .installed, .restored: .success
      case .downloading, .noHostedContentAPI: .info
      case .paused, .cancelled, .accessRemoved: .warning
      case .failed: .failure
      }
    }
  }
}

/// Why a key cannot act now.
public enum Reason: Equatable, Sendable {
  case noSuchProduct
  case restricted
  case productsLoading
  /// The key came while the products were loading and did nothing; they have arrived since.
  case cameBeforeProducts
  case requestFailed
  case invalidProduct(String)
  case firstProductSelected
  case lastProductSelected
  /// The conditions panel's selection is on its first or last row.
  case firstConditionSelected
  case lastConditionSelected
  case quantityAtMost
  case quantityOnlyForConsumables
  case quantityAtLeast
  case nothingToSpend
  /// Refunds took back credits already spent: the wallet owes this many.
  case creditsOwed(Int)
  case noRequestWhileRestricted
  case onlyDeferredCanBeApproved
  /// A deferred transaction only the history lists: a store reset dropped the request, and no
  /// answer reaches it.
  case askToBuyDropped
  case onlyDeferredCanBeDeclined
  case onlyInterruptedCanBeResolved
  case onlyPurchasedCanBeRefunded
  case noTransactionSelected
  /// A key that does nothing in an overlay: the overlay's own keys are the ones that act.
  case notInThisOverlay
  /// A key the storefront has no use for: a key of another part of the screen (the transaction
  /// manager's `d`), or of none.
  case notAStorefrontKey(actsIn: KeyContext?)
  case logAtStart
  case logAtEnd
  case detailAtStart
  case detailAtEnd
  /// No download to pause, resume, start again or cancel.
  case noDownload
}

/// What a product's buy button reads.
public enum BuyButton: Equatable, Sendable {
  case appStoreDisabled
  case loading
  case networkDown
  case notAvailable
  case buy(price: String)

  /// Whether the button buys (the App Store answered and lets the app buy).
  public var isBuy: Bool {
    if case .buy = self { return true }
    return false
  }
}

/// A line of the event log that explains rather than records a StoreKit call.
public enum LogNote: Equatable, Sendable {
  case unfinishedAtLaunch(count: Int)
  case crashedLastRun(FiredCrash)
  case askToBuyWaits
  case finishedElsewhere(transactionID: String, TransactionState)
  /// A transaction redelivered at launch was credited already: by the app that stopped before
  /// finishing it.
  case creditedBeforeStop
  /// A purchase this app saw answered was credited already: another monkeyshop on the data folder
  /// (an open storefront, another command) delivered it first.
  case creditedByAnother(transactionID: String)
  /// `skipPaymentSheet` is on: the payment was added without the sheet, as if confirmed.
  case paymentSheetSkipped
  /// Buy or Cancel on the App Store's payment sheet.
  case paymentSheetAnswered(confirmed: Bool)
  /// A payment left `.purchasing` with its sheet unanswered when the app last stopped: the App
  /// Store shows the sheet again.
  case paymentSheetShownAgain(transactionID: String)
  /// An interrupted purchase failed with paymentCancelled: the app reads it as a cancel.
  case interruptedLooksCancelled(transactionID: String)
  /// A declined Ask to Buy ended `.failed`. Apple's `.deferred` says to "wait for another callback
  /// that indicates the final status" and does not say which state a decline brings
  /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/deferred).
  case declineEndsFailed
  case walletChangedElsewhere(balance: Int)
  /// A deferred transaction the store dropped (a `store reset` in another terminal). Apple's
  /// `.deferred` says to "wait for another callback that indicates the final status"
  /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionstate/deferred) and
  /// does not say what a request that ends unanswered sends: here, nothing.
  case askToBuyDropped(transactionID: String)
  /// StoreKit 2 at launch: the listener also gets each unfinished transaction once.
  case updatesRepeatUnfinished(count: Int)
  /// StoreKit 2: `.pending`; what the parent approves arrives through `Transaction.updates`.
  case pendingArrivesThroughUpdates
  /// StoreKit 2: a declined Ask to Buy reaches the app in no way Apple documents.
  case declineDeliversNothing
  /// StoreKit 1: a consumable's refund reaches the app in no way.
  case refundNotToldToStoreKit1(transactionID: String)
  /// StoreKit 2: a refund heard again, taken back before.
  case alreadyTakenBack(transactionID: String)
  /// StoreKit 2: the transaction carries a `revocationDate`: the app grants nothing and finishes it.
  case refundedBeforeDelivery(transactionID: String)
  /// Restore Purchases never brings back a consumable.
  case consumablesNeverRestored
}

/// What the storefront says that only an app written with StoreKit 2 is told.
public enum StoreKit2Notice: Equatable, Sendable {
  /// `purchase(options:)` returned `.pending`: no transaction yet.
  case pending(product: String)
  /// A transaction failed verification: not credited, left unfinished.
  case unverified(transactionID: String)
}
