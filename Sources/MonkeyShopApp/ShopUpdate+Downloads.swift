import Foundation
import MonkeyShopDomain

// Non-consumables and their Apple-hosted content (docs/hosted-content.md).
//
// StoreKit 1: after `.purchased` (or `.restored`) the app unlocks the product, then, if it has
// hosted content, starts the transaction's downloads with `SKPaymentQueue.start(_:)` ("In order for
// a download object to be queued, it must be associated with a transaction that has been
// successfully purchased, but not yet finished",
// https://developer.apple.com/documentation/storekit/skpaymentqueue/start(_:)) and follows
// `paymentQueue(_:updatedDownloads:)` ("When a download object is updated, its downloadState
// property describes how it changed",
// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:updateddownloads:)).
// It finishes the transaction only once the content is in place: "Download all Apple-hosted
// content before finishing the transaction. After a transaction is complete, its download objects
// become unusable." (https://developer.apple.com/documentation/storekit/unlocking-purchased-content);
// "The SKDownload objects stored in this property must be used to download the transaction's
// content before the transaction is finished. After the transaction is finished, the download
// objects are no longer queueable."
// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/downloads). Apple does
// not say what an app must do after a failed or cancelled download; finishing would make the
// content unreachable but through a restore, so the app leaves the transaction unfinished: its
// downloads can start again now (`p`) or at the next launch, when the queue delivers it again.
//
// StoreKit 2 has no hosted-content API: `SKDownload` is deprecated (iOS 6.0–16.0, "Hosted content
// is no longer supported"); the StoreKit 2 app unlocks the product and downloads nothing.

extension ShopModel {
  /// The downloads the app holds for a transaction, if any.
  func download(of transactionID: String) -> Download? {
    downloads.first { $0.transactionID == transactionID }
  }

  /// The newest download of a product, for its row.
  public func download(forProduct identifier: String) -> Download? {
    downloads.last { $0.productIdentifier == identifier }
  }

  /// Whether a download is under way, or finished and not yet in place: a headless command waits.
  public var isDownloading: Bool {
    downloads.contains { $0.state.isTransferring || ($0.state == .finished && $0.installedAt == nil) }
  }

  /// What the log says of a non-consumable's delivery: unlocked, owned already, or refunded before
  /// it was finished.
  mutating func recordNonConsumableDelivery(_ transaction: StoreTransaction, _ delivery: CreditManager.Delivery) {
    switch delivery {
    case .refunded: settlements.deliveries[transaction.id] = .refundedBeforeDelivery
    case .alreadyOwned: settlements.deliveries[transaction.id] = .alreadyOwned
    default: settlements.deliveries[transaction.id] = .unlocked
    }
    switch delivery {
    case .refunded(let identifier, _):
      record(.download(.refundedNotUnlocked(transactionID: transaction.id, productIdentifier: identifier)))
    case .alreadyOwned(let identifier, _):
      record(.download(.alreadyOwned(transactionID: transaction.id, productIdentifier: identifier)))
      // Bought again by choice: "If the user attempts to purchase a product that they've already
      // purchased, the App Store creates a regular transaction instead of a restore transaction, but
      // the user isn't charged again for the product."
      // (https://developer.apple.com/documentation/storekit/restoring-purchased-products)
      if transaction.state == .purchased, !redelivered.contains(transaction.id) {
        record(.download(.note(.boughtAgain)))
      }
    default:
      record(.download(.unlocked(transactionID: transaction.id, productIdentifier: transaction.productIdentifier)))
    }
  }

  /// What the app does once a non-consumable's transaction is delivered (its delivery logged by
  /// `recordNonConsumableDelivery`): start its downloads, or finish it.
  mutating func deliveredNonConsumable(_ transaction: StoreTransaction, _ delivery: CreditManager.Delivery)
    -> [ShopEffect]
  {
    // Refunded before it was finished: the app unlocks nothing, downloads nothing, and finishes it.
    if case .refunded = delivery { return [.finish(transaction)] }
    let product = catalog.product(transaction.productIdentifier)
    owned.unlock(transaction.productIdentifier, by: transaction.id)
    status = .download(.unlocked(product: transaction.productIdentifier))
    guard let content = product?.hostedContent else { return [.finish(transaction)] }
    guard storeKit == .storeKit1 else {
      record(.download(.note(.noHostedContentAPI)))
      status = .download(.noHostedContentAPI(product: transaction.productIdentifier))
      return [.finish(transaction)]
    }
    var download = Download(
      transactionID: transaction.id, productIdentifier: transaction.productIdentifier, content: content)
    // Said once a run, at its first download: Apple's SDK marks `SKDownload` and its calls
    // `API_DEPRECATED("Hosted content is no longer supported", ios(6.0, 16.0) …)`
    // (https://developer.apple.com/documentation/storekit/skdownload).
    if !log.contains(where: { $0.event == .download(.note(.hostedContentNoLongerSupported)) }) {
      note(.hostedContentNoLongerSupported)
    }
    record(.download(.start(transactionID: transaction.id)))
    download.nextStepAt = now + stepMilliseconds
    replace(download)
    report(download)
    note(.finishAfterDownloads)
    status = .download(.downloading(product: transaction.productIdentifier))
    return advanceDownloads()
  }

  private mutating func note(_ note: DownloadNote) { record(.download(.note(note))) }

  /// Milliseconds between two steps of a download, by the latency condition.
  private var stepMilliseconds: Int { Int((store.conditions.latency.downloadStep * 1000).rounded()) }

  private mutating func replace(_ download: Download) {
    if let index = downloads.firstIndex(where: { $0.transactionID == download.transactionID }) {
      downloads[index] = download
    } else {
      downloads.append(download)
    }
  }

  /// `paymentQueue(_:updatedDownloads:)` with the download as it is now.
  private mutating func report(_ download: Download) {
    record(.download(.updated(download, timeRemaining: download.timeRemaining(store.conditions.latency))))
  }

  /// Every download step due by now, in order; a download that completes is put in place.
  mutating func advanceDownloads() -> [ShopEffect] {
    var effects: [ShopEffect] = []
    for index in downloads.indices {
      while true {
        var download = downloads[index]
        guard download.state.isTransferring, let due = download.nextStepAt, due <= now else { break }
        guard store.conditions.networkUp else {
          failDownload(at: index, .notConnectedToInternet)
          break
        }
        if download.state == .waiting {
          download.state = .active
        } else {
          download.stepsDone += 1
        }
        download.nextStepAt = download.isComplete ? nil : due + stepMilliseconds
        downloads[index] = download
        report(download)
        if download.isComplete {
          download.state = .finished
          downloads[index] = download
          report(download)
          effects.append(.installContent(download))
        }
      }
    }
    return effects
  }

  private mutating func failDownload(at index: Int, _ error: DownloadError) {
    downloads[index].state = .failed
    downloads[index].error = error
    downloads[index].nextStepAt = nil
    report(downloads[index])
    note(.unfinishedForRetry(transactionID: downloads[index].transactionID))
    status = .download(.failed(product: downloads[index].productIdentifier, error))
  }

  /// The network went down: every download under way fails.
  mutating func networkChangedForDownloads() {
    guard !store.conditions.networkUp else { return }
    for index in downloads.indices where downloads[index].state.isTransferring {
      failDownload(at: index, .notConnectedToInternet)
    }
  }

  /// The content is in the data folder: once every download of the transaction is, the app
  /// finishes it.
  mutating func contentInstalled(_ download: Download, path: String) -> [ShopEffect] {
    guard let index = downloads.firstIndex(where: { $0.transactionID == download.transactionID }) else { return [] }
    downloads[index].installedAt = path
    settlements.content[download.transactionID] = path
    record(.download(.installed(transactionID: download.transactionID, path: path)))
    owned.installed(download.productIdentifier, version: download.contentVersion, by: download.transactionID)
    status = .download(.installed(product: download.productIdentifier, path: path))
    let pending = downloads.contains {
      $0.transactionID == download.transactionID && ($0.state != .finished || $0.installedAt == nil)
    }
    guard !pending, let transaction = store.transaction(download.transactionID) else { return [] }
    return [.finish(transaction)]
  }

  mutating func contentInstallFailed(_ download: Download, _ failure: ShopFailure) -> [ShopEffect] {
    fail(failure)
    guard let index = downloads.firstIndex(where: { $0.transactionID == download.transactionID }) else { return [] }
    downloads[index].state = .failed
    downloads[index].error = .cannotInstall(failure.message)
    note(.unfinishedForRetry(transactionID: download.transactionID))
    return []
  }

  // MARK: Keys

  /// The download the pause key acts on: one under way, else a paused one to resume.
  var downloadToPauseOrResume: Download? {
    downloads.last { $0.state.isTransferring } ?? downloads.last { $0.state == .paused }
  }

  var downloadToCancel: Download? {
    downloads.last { $0.state.isTransferring || $0.state == .paused }
  }

  /// A failed or cancelled download whose transaction is still unfinished, so still queueable.
  var downloadToStartAgain: Download? {
    downloads.last {
      ($0.state == .failed || $0.state == .cancelled) && store.transaction($0.transactionID)?.finished == false
    }
  }

  /// `p`: `SKPaymentQueue.pause(_:)` a download under way, or `resume(_:)` a paused one.
  mutating func pauseOrResumeDownload() -> [ShopEffect] {
    guard var download = downloadToPauseOrResume else { return [] }
    if download.state == .paused {
      record(.download(.resume(transactionID: download.transactionID)))
      download.state = download.stepsDone == 0 ? .waiting : .active
      download.nextStepAt = now + stepMilliseconds
      replace(download)
      report(download)
      status = .download(.downloading(product: download.productIdentifier))
      return advanceDownloads()
    }
    record(.download(.pause(transactionID: download.transactionID)))
    download.state = .paused
    download.nextStepAt = nil
    replace(download)
    report(download)
    status = .download(.paused(product: download.productIdentifier))
    return []
  }

  /// `x`: `SKPaymentQueue.cancel(_:)`.
  mutating func cancelDownload() -> [ShopEffect] {
    guard var download = downloadToCancel else { return [] }
    record(.download(.cancel(transactionID: download.transactionID)))
    download.state = .cancelled
    download.nextStepAt = nil
    replace(download)
    report(download)
    note(.unfinishedForRetry(transactionID: download.transactionID))
    status = .download(.cancelled(product: download.productIdentifier))
    return []
  }

  /// `p` on a failed or cancelled download: the transaction is still unfinished, so its downloads can be queued again with
  /// `SKPaymentQueue.start(_:)`; the download starts over.
  mutating func startDownloadAgain() -> [ShopEffect] {
    guard let old = downloadToStartAgain, let content = catalog.product(old.productIdentifier)?.hostedContent else {
      return []
    }
    var download = Download(
      transactionID: old.transactionID, productIdentifier: old.productIdentifier, content: content)
    record(.download(.start(transactionID: download.transactionID)))
    download.nextStepAt = now + stepMilliseconds
    replace(download)
    report(download)
    status = .download(.downloading(product: download.productIdentifier))
    return advanceDownloads()
  }

  // MARK: Restore

  /// StoreKit 1: the App Store delivered a `.restored` transaction for each completed purchase of a
  /// non-consumable; the observer handles each (unlocks it, starts its downloads), and only then
  /// hears that the restore finished: "After the transactions are delivered, the payment queue calls
  /// the observer's `paymentQueueRestoreCompletedTransactionsFinished(_:)` method"
  /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions());
  /// "This method is called after all restorable transactions have been processed by the payment
  /// queue" (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuerestorecompletedtransactionsfinished(_:)).
  /// Downloads the app started go on after it: Apple ties them to the transaction, which the app
  /// finishes once they are done, not to the restore.
  mutating func restoredTransactions(_ restored: [StoreTransaction]) -> [ShopEffect] {
    let new = Set(restored.map(\.id))
    for waiting in store.transactions where waiting.state == .restored && !waiting.finished && !new.contains(waiting.id)
    {
      note(.restoreStillInQueue(transactionID: waiting.id, purchase: waiting.restoredTransactionID ?? waiting.id))
    }
    settlements.restored += restored
    return restored.flatMap { observe($0, redelivered: false) } + [.finishRestore(restored: restored.count)]
  }

  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`, once every restored transaction was
  /// handled.
  mutating func restoreFinished(restored count: Int) {
    record(.restoreCompletedTransactionsFinished)
    record(.download(.note(.nonConsumablesRestored(count: count))))
    settlements.restoreFinished = true
    status = .restoreFinished(restored: count)
  }

  /// StoreKit 2: `Transaction.currentEntitlements` after `AppStore.sync()`: a transaction for each
  /// non-consumable ("A transaction for each non-consumable In-App Purchase … Consumable In-App
  /// Purchases also don't appear in the current entitlements",
  /// https://developer.apple.com/documentation/storekit/transaction/currententitlements). The app
  /// owns what it lists.
  mutating func entitlementsReceived(_ entitlements: [StoreTransaction], unlocked: [String]) {
    record(.storeKit2(.currentEntitlements(count: entitlements.count)))
    for transaction in entitlements {
      if unlocked.contains(transaction.productIdentifier) {
        record(.download(.unlocked(transactionID: transaction.id, productIdentifier: transaction.productIdentifier)))
      }
      owned.unlock(transaction.productIdentifier, by: transaction.id)
      if catalog.product(transaction.productIdentifier)?.hostedContent != nil {
        record(.download(.note(.noHostedContentAPI)))
      }
    }
    record(.note(.consumablesNeverRestored))
    settlements.restored += entitlements
    settlements.restoreFinished = true
    status = .restoreFinished(restored: entitlements.count)
  }
}
