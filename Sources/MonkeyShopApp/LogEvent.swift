import Foundation
import MonkeyShopDomain

/// One line of the StoreKit event log: an API call the app made or a callback it received.
public enum LogEvent: Equatable, Sendable {
  case observerAdded
  case canMakePayments(Bool)
  case productsRequested([String])
  case productsReceived(valid: [String], invalid: [String])
  case productsRequestFailed(ProductRequestError)
  /// `applicationUsername`: set on the payment (the app's account token, a UUID).
  case paymentAdded(productIdentifier: String, quantity: Int, applicationUsername: String? = nil)
  case updated(StoreTransaction, redelivered: Bool)
  case delivered(transactionID: String, credits: Int, balance: Int)
  case alreadyDelivered(transactionID: String)
  /// `finishTransaction(_:)`: for a purchased transaction or a failed payment.
  case finished(StoreTransaction)
  case approved(transactionID: String)
  case declined(transactionID: String)
  case resolved(transactionID: String, newTransactionID: String)
  case spent(credits: Int, balance: Int)
  case conditionChanged(Condition, value: String)
  /// `paymentQueueDidChangeStorefront(_:)` (StoreKit 2: `Storefront.updates`).
  case storefrontChanged(Storefront)
  /// `paymentQueue(_:shouldContinue:in:)` for a payment in flight during a storefront change, and
  /// the app's answer.
  case shouldContinue(transactionID: String, storefront: Storefront, answer: Bool)
  case crashed(CrashPoint)
  case error(ShopFailure)
  case note(LogNote)
  /// A call or result of the app written with StoreKit 2.
  case storeKit2(StoreKit2Event)
  /// The app restarted, now written with this StoreKit.
  case appRestarted(StoreKitAPI)
  /// StoreKit 1's Restore Purchases: `restoreCompletedTransactions()`, then the observer's
  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)` or, failing,
  /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`.
  case restoreCompletedTransactions
  /// Apple's side: the App Store refunded a transaction (`store refund`, the transaction manager).
  case refunded(transactionID: String, reason: RevocationReason)
  /// The app took a refunded transaction's credits back.
  case tookBack(transactionID: String, credits: Int, balance: Int)
  case restoreCompletedTransactionsFinished
  case restoreCompletedTransactionsFailed(ProductRequestError)
  /// Non-consumables and their hosted content: unlocking, downloads, the content put in place.
  case download(DownloadEvent)
  /// `monkeyshop server` sent an App Store Server Notification to the developer's server: one
  /// attempt (`number`: the attempt's count, from 1) and how it ended.
  case notificationSent(NotificationType, transactionID: String?, number: Int, SendAttempt)
  /// `monkeyshop server` received Send Consumption Information for an open refund request.
  case consumptionReceived(transactionID: String, inWindow: Bool)

  /// The name `expect: { event: … }` matches: the transaction state, or what happened.
  public var name: String {
    switch self {
    case .observerAdded: "observerAdded"
    case .canMakePayments: "canMakePayments"
    case .productsRequested: "productsRequested"
    case .productsReceived: "productsReceived"
    case .productsRequestFailed: "productsRequestFailed"
    case .paymentAdded: "paymentAdded"
    case .updated(let transaction, _): transaction.state.description
    case .delivered: "delivered"
    case .alreadyDelivered: "alreadyDelivered"
    case .finished: "finished"
    case .approved: "approved"
    case .declined: "declined"
    case .resolved: "resolved"
    case .spent: "spent"
    case .conditionChanged: "conditionChanged"
    case .storefrontChanged: "storefrontChanged"
    case .shouldContinue: "shouldContinue"
    case .crashed: "crashed"
    case .error: "error"
    case .note: "note"
    case .storeKit2(let event): event.name
    case .appRestarted: "appRestarted"
    case .restoreCompletedTransactions: "restore"
    case .refunded: "refunded"
    case .tookBack: "tookBack"
    case .restoreCompletedTransactionsFinished: "restoreFinished"
    case .restoreCompletedTransactionsFailed: "restoreFailed"
    case .download(let event): event.name
    case .notificationSent: "notificationSent"
    case .consumptionReceived: "consumptionReceived"
    }
  }

  /// The log line in the chosen storeKit. StoreKit's calls and callbacks are code, the same in
  /// every language; what the app and the App Store do in words, and notes, which explain, are in
  /// the storefront's language.
  public func text(_ storeKit: StoreKitAPI, _ language: Language) -> String {
    let sk1 = storeKit == .storeKit1
    func say(_ english: String, _ japanese: String) -> String { language == .ja ? japanese : english }
    switch self {
    case .observerAdded:
      return sk1 ? "SKPaymentQueue.default().add(observer)" : "Task { for await result in Transaction.updates }"
    case .canMakePayments(let allowed):
      return (sk1 ? "SKPaymentQueue.canMakePayments()" : "AppStore.canMakePayments") + " → \(allowed)"
    case .productsRequested(let identifiers):
      let ids = identifiers.count == 1 ? "1 id" : "\(identifiers.count) ids"
      return sk1 ? "SKProductsRequest(\(ids)).start()" : "Product.products(for: \(ids))"
    case .productsReceived(let valid, let invalid):
      let invalidText = invalid.isEmpty ? "" : ", invalidProductIdentifiers: \(invalid.joined(separator: ", "))"
      return sk1
        ? "productsRequest(_:didReceive:) \(counted(valid.count, "product"))\(invalidText)"
        : "→ [Product] \(counted(valid.count, "product"))\(invalid.isEmpty ? "" : " (missing: \(invalid.joined(separator: ", ")))")"
    case .productsRequestFailed(let error):
      return sk1
        ? "request(_:didFailWithError:) \(error.code)"
        : "Product.products(for:) threw \(StoreKit2Event.networkError)"
    // Only the StoreKit 1 app adds payments and hears `updatedTransactions`; the StoreKit 2 app's
    // calls and results are `storeKit2` events.
    case .paymentAdded(let identifier, let quantity, let username):
      // "When this value is a UUID, the App Store server stores it as an appAccountToken"
      // (https://developer.apple.com/documentation/storekit/skmutablepayment/applicationusername).
      return "SKPaymentQueue.add(payment \(identifier) ×\(quantity)"
        + (username.map { ", applicationUsername \"\($0)\"" } ?? "") + ")"
    case .updated(let transaction, let redelivered):
      var text = "paymentQueue(_:updatedTransactions:) .\(transaction.state) \(transaction.logName)"
      if redelivered { text += say(" (redelivered)", " (再配信)") }
      if let failure = transaction.failure { text += " \(failure.code)" }
      return text
    case .delivered(let id, let credits, let balance):
      return say(
        "deliver #\(id): +\(counted(credits, "credit")) → balance \(balance)",
        "#\(id) を付与: +\(credits) クレジット → 残高 \(balance)")
    case .alreadyDelivered(let id):
      return say("deliver #\(id): already credited, nothing added", "#\(id) は付与済み: 追加なし")
    case .finished(let transaction):
      return sk1
        ? "SKPaymentQueue.finishTransaction(\(transaction.logName))" : "transaction.finish() \(transaction.logName)"
    // Ask to Buy and interrupted purchases concern payments that never had a transactionIdentifier.
    case .approved(let id):
      return say("Ask to Buy: a parent approved payment \(id)", "承認と購入: 保護者が支払い \(id) を承認")
    case .declined(let id):
      return say("Ask to Buy: a parent declined payment \(id)", "承認と購入: 保護者が支払い \(id) を拒否")
    case .resolved(let id, let newID):
      return say(
        "interrupted payment \(id) resolved: the App Store adds payment \(newID)",
        "中断された支払い \(id) を解決: App Store が支払い \(newID) を追加")
    case .spent(let credits, let balance):
      return say(
        "fed the monkey: -\(counted(credits, "credit")) → balance \(balance)",
        "おさるにごはん: -\(credits) クレジット → 残高 \(balance)")
    case .conditionChanged(let condition, let value):
      return say("store: \(condition) = \(value)", "ストア: \(condition) = \(value)")
    // StoreKit 2: "Use `updates` to listen for changes in this value"
    // (https://developer.apple.com/documentation/storekit/storefront/updates); a purchase in flight
    // asks its `onStorefrontChange(shouldContinuePurchase:)` option, "true if this option isn't added"
    // (https://developer.apple.com/documentation/storekit/product/purchaseoption/onstorefrontchange(shouldcontinuepurchase:)).
    case .storefrontChanged(let storefront):
      return sk1
        ? "paymentQueueDidChangeStorefront(_:) → \(storefront.code)"
        : "Storefront.updates → \(storefront.code)"
    case .shouldContinue(let id, let storefront, let answer):
      return sk1
        ? "paymentQueue(_:shouldContinue: payment \(id), in: \(storefront.code)) → \(answer)"
        : "onStorefrontChange(shouldContinuePurchase:) \(storefront.code) → \(answer)"
    case .crashed(let point):
      return say("CRASH at \(point.rawValue): the app died", "\(point.rawValue) でクラッシュ: アプリが終了")
    case .error(let failure):
      // The ID leads, so a tester finds it even where the line is cut.
      return "\(failure.errorID) ✗ \(Words(language).shown(failure).message)"
    case .note(let note):
      return "  ↳ " + Words(language).note(note)
    case .storeKit2(let event):
      return event.text(language)
    case .appRestarted(let api):
      return say("── the app restarts, written with \(api) ──", "── アプリが再起動 (\(api) で書かれたアプリ) ──")
    case .restoreCompletedTransactions:
      return "SKPaymentQueue.default().restoreCompletedTransactions()"
    case .refunded(let id, let reason):
      return say(
        "refund: the App Store revoked #\(id) (revocationReason \(reason))",
        "返金: App Store が #\(id) を取り消し (revocationReason \(reason))")
    case .tookBack(let id, let credits, let balance):
      return say(
        "take back #\(id): -\(counted(credits, "credit")) → balance \(balance)",
        "#\(id) を回収: -\(credits) クレジット → 残高 \(balance)")
    case .restoreCompletedTransactionsFinished:
      return "paymentQueueRestoreCompletedTransactionsFinished(_:)"
    case .restoreCompletedTransactionsFailed(let error):
      return "paymentQueue(_:restoreCompletedTransactionsFailedWithError:) \(error.code)"
    case .download(let event):
      return event.text(language)
    case .notificationSent(let type, let id, let number, let attempt):
      // The URL last: an entry wraps onto three rows at most and is cut after them, so a long
      // receiver URL loses its own end there, never the type, the answer or the attempt.
      let said = SendAttempt.subject(type, transactionID: id) + " · \(attempt.answer) · "
      return said + say("attempt \(number)", "\(number) 回目の送信") + " → \(attempt.url)"
    case .consumptionReceived(let id, let inWindow):
      return say(
        "Send Consumption Information #\(id) received\(inWindow ? "" : ", after Apple's 12-hour window")",
        "Send Consumption Information #\(id) を受信\(inWindow ? "" : "（Apple の 12 時間の期限後）")")
    }
  }
}

/// A log line with the moment it happened and the API of the app that recorded it: a line stays
/// as it was written when the app is switched to the other StoreKit.
public struct LogEntry: Equatable, Sendable {
  public let time: Date
  public let event: LogEvent
  public let api: StoreKitAPI

  public init(time: Date, event: LogEvent, api: StoreKitAPI = .storeKit1) {
    self.time = time
    self.event = event
    self.api = api
  }

  /// The log line as the storefront shows it.
  public func text(_ language: Language) -> String { event.text(api, language) }
}
