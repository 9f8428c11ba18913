import Foundation
import MonkeyShopDomain

/// The event log's lines about non-consumables and their Apple-hosted content: what the app
/// unlocks, the StoreKit 1 download calls and `paymentQueue(_:updatedDownloads:)`, and what the app
/// does with the content.
public enum DownloadEvent: Equatable, Sendable {
  /// The app recorded that it owns the product (`owned.json`).
  case unlocked(transactionID: String, productIdentifier: String)
  /// Delivered again (a purchase of an owned product, a restore, a redelivery): owned already.
  case alreadyOwned(transactionID: String, productIdentifier: String)
  /// `SKPaymentQueue.start(_:)` with the transaction's downloads.
  case start(transactionID: String)
  case pause(transactionID: String)
  case resume(transactionID: String)
  case cancel(transactionID: String)
  /// `paymentQueue(_:updatedDownloads:)`, with the download as it is now.
  case updated(Download, timeRemaining: TimeInterval)
  /// The app moved the finished download's content into the data folder.
  case installed(transactionID: String, path: String)
  case note(DownloadNote)
  /// StoreKit 1's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: the purchaser was
  /// refunded for these non-consumables.
  case entitlementsRevoked(productIdentifiers: [String])
  /// Delivered after its purchase was refunded: nothing unlocked.
  case refundedNotUnlocked(transactionID: String, productIdentifier: String)
  /// The app removed a refunded product from what it owns (`owned.json`).
  case accessRemoved(transactionID: String, productIdentifier: String)

  /// Every name `name` gives.
  public static let names =
    [
      "unlocked", "alreadyOwned", "startDownloads", "pauseDownloads", "resumeDownloads", "cancelDownloads",
      "contentInstalled", "entitlementsRevoked", "accessRemoved", "refundedNotUnlocked",
    ] + DownloadState.allCases.map { "download" + $0.description.prefix(1).uppercased() + $0.description.dropFirst() }

  /// The name `expect: { event: … }` would match: `downloadActive`, `downloadFinished`, ….
  public var name: String {
    switch self {
    case .unlocked: "unlocked"
    case .alreadyOwned: "alreadyOwned"
    case .start: "startDownloads"
    case .pause: "pauseDownloads"
    case .resume: "resumeDownloads"
    case .cancel: "cancelDownloads"
    case .updated(let download, _):
      "download" + download.state.description.prefix(1).uppercased() + download.state.description.dropFirst()
    case .installed: "contentInstalled"
    case .note: "note"
    case .entitlementsRevoked: "entitlementsRevoked"
    case .accessRemoved: "accessRemoved"
    case .refundedNotUnlocked: "refundedNotUnlocked"
    }
  }

  /// The log line. Only a StoreKit 1 app downloads; the StoreKit 2 app only unlocks.
  public func text(_ language: Language) -> String {
    func say(_ english: String, _ japanese: String) -> String { language == .ja ? japanese : english }
    switch self {
    case .unlocked(let id, let product):
      return say("deliver #\(id): \(product) unlocked (owned.json)", "#\(id) を付与: \(product) を解放 (owned.json)")
    case .alreadyOwned(let id, let product):
      return say(
        "deliver #\(id): \(product) already owned, nothing to unlock", "#\(id) を付与: \(product) は所有済み、解放するものなし")
    case .start(let id):
      return "SKPaymentQueue.default().start(transaction.downloads) #\(id)"
    case .pause(let id):
      return "SKPaymentQueue.default().pause(transaction.downloads) #\(id)"
    case .resume(let id):
      return "SKPaymentQueue.default().resume(transaction.downloads) #\(id)"
    case .cancel(let id):
      return "SKPaymentQueue.default().cancel(transaction.downloads) #\(id)"
    case .updated(let download, let remaining):
      var text = "paymentQueue(_:updatedDownloads:) .\(download.state) #\(download.transactionID)"
      switch download.state {
      case .waiting:
        text += " \(download.productIdentifier) v\(download.contentVersion), \(download.contentLength) bytes"
      case .active:
        let time = remaining < 0 ? "SKDownloadTimeRemainingUnknown" : String(format: "%.1fs", remaining)
        text += String(format: " progress %.2f", download.progress) + " timeRemaining \(time)"
      case .paused:
        text += String(format: " progress %.2f", download.progress)
      case .finished:
        text += " contentURL Caches/\(download.productIdentifier).zip"
      case .failed:
        text += " error \(download.error?.description ?? "unknown")"
      case .cancelled:
        break
      }
      return text
    case .installed(let id, let path):
      return say("content of #\(id) moved to \(path)", "#\(id) のコンテンツを \(path) に移動")
    case .note(let note):
      return "  ↳ " + Words(language).downloadNote(note)
    case .entitlementsRevoked(let products):
      return "paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:) [\(products.joined(separator: ", "))]"
    case .refundedNotUnlocked(let id, let product):
      return say(
        "deliver #\(id): \(product) was refunded, nothing to unlock", "#\(id) を付与: \(product) は返金済み、解放しません")
    case .accessRemoved(let id, let product):
      return say(
        "refund of #\(id): \(product) no longer owned (removed from owned.json)",
        "#\(id) の返金: \(product) の所有を取り消し (owned.json から削除)")
    }
  }
}

/// A line of the log that explains the download flow.
public enum DownloadNote: Equatable, Sendable {
  /// The transaction stays unfinished until every download has finished.
  case finishAfterDownloads
  /// A download failed or was cancelled: the transaction stays unfinished, so its downloads can
  /// start again.
  case unfinishedForRetry(transactionID: String)
  /// StoreKit 2 has no hosted-content API: nothing is downloaded.
  case noHostedContentAPI
  /// The run's first download: Apple marks hosted content "no longer supported" (`SKDownload`,
  /// deprecated in iOS 16, https://developer.apple.com/documentation/storekit/skdownload).
  case hostedContentNoLongerSupported
  /// A product owned already was bought again: a regular transaction, not charged again.
  case boughtAgain
  /// Restore gives back non-consumables, never consumables.
  case nonConsumablesRestored(count: Int)
  /// StoreKit 1: a non-consumable refunded while the app was not running, found at launch.
  case refundFoundAtLaunch(transactionID: String)
  /// A refunded non-consumable another purchase, not refunded, still entitles the app to.
  case stillEntitled(transactionID: String, by: String)
  /// A refunded non-consumable the app did not own: nothing to remove.
  case refundedNotOwned(transactionID: String)
  /// A restore made no second restored transaction: an earlier one is still unfinished in the queue.
  case restoreStillInQueue(transactionID: String, purchase: String)
}

/// What the status line says about non-consumables and downloads.
public enum DownloadNotice: Equatable, Sendable {
  case unlocked(product: String)
  case downloading(product: String)
  case paused(product: String)
  case installed(product: String, path: String)
  case failed(product: String, DownloadError)
  case cancelled(product: String)
  /// The StoreKit 2 app bought a product with hosted content: owned, nothing downloaded.
  case noHostedContentAPI(product: String)
  case restored(count: Int)
  /// A non-consumable's purchase was refunded: the app no longer owns it.
  case accessRemoved(product: String)
}

extension Words {
  func downloadNote(_ note: DownloadNote) -> String {
    switch note {
    case .finishAfterDownloads:
      say(
        "the transaction stays unfinished until every download has finished (Apple: \"Download all Apple-hosted content before finishing the transaction\")",
        "すべてのダウンロードが終わるまで取引は未完了のまま (Apple: 取引を完了する前にホスティングされたコンテンツをすべてダウンロード)")
    case .unfinishedForRetry(let id):
      say(
        "#\(id) stays unfinished: its downloads can start again (\(key(.pauseDownload)), or the next launch); after finishing they could not",
        "#\(id) は未完了のまま: ダウンロードを再開できます (\(key(.pauseDownload)) キーか次回起動時); 完了後はできません")
    case .noHostedContentAPI:
      say(
        "StoreKit 2 has no hosted-content API (SKDownload is deprecated since iOS 16): the app owns it, nothing is downloaded",
        "StoreKit 2 にはホスティングされたコンテンツの API がありません (SKDownload は iOS 16 で非推奨): 所有のみ、ダウンロードなし")
    case .hostedContentNoLongerSupported:
      say(
        "Apple marks hosted content \"no longer supported\" (SKDownload deprecated since iOS 16): monkeyshop simulates it for apps that still use it",
        "Apple はホスティングされたコンテンツを「サポート終了」としています (SKDownload は iOS 16 で非推奨): 使い続けるアプリのために monkeyshop が再現します")
    case .boughtAgain:
      say(
        "owned already: the App Store makes a regular transaction and does not charge again",
        "購入済み: App Store は通常の取引を作り、再び請求はしません")
    case .nonConsumablesRestored(let count):
      say(
        "\(counted(count, "non-consumable")) restored; consumables are never restored",
        "非消耗型 \(count) 件を復元; 消耗型は復元されません")
    case .refundFoundAtLaunch(let id):
      say(
        "#\(id) was refunded while the app was not running; Apple does not say the revocation callback comes at the next launch, so the app checks the receipt (cancellation_date) at launch",
        "#\(id) はアプリ停止中に返金されました; 次回起動時の取り消しコールバックを Apple は記載していないため、アプリは起動時にレシート (cancellation_date) を確認します")
    case .stillEntitled(let id, let other):
      say(
        "#\(id) was refunded, but purchase #\(other) of the same product is not: the app keeps it",
        "#\(id) は返金されましたが、同じ商品の購入 #\(other) は有効: 所有は続きます")
    case .restoreStillInQueue(let id, let purchase):
      say(
        "#\(id), restoring purchase #\(purchase), is still unfinished in the queue: no second restored transaction is made; the queue delivers #\(id) again",
        "購入 #\(purchase) を復元する #\(id) がキューに未完了のまま残っています: 2 つ目の復元取引は作らず、キューが #\(id) を再び届けます")
    case .refundedNotOwned(let id):
      say(
        "#\(id) was refunded; the app did not own its product: nothing to remove", "#\(id) は返金済み; 所有していないため取り除くものはありません"
      )
    }
  }

  func downloadNotice(_ notice: DownloadNotice, title: (String) -> String) -> String {
    let pause = key(.pauseDownload)
    let cancel = key(.cancelDownload)
    switch notice {
    case .unlocked(let product):
      return say("\(title(product)) is yours: owned", "\(title(product)) を所有しました")
    case .downloading(let product):
      return say(
        "Downloading \(title(product)) from the App Store: \(pause) pause, \(cancel) cancel",
        "\(title(product))を App Store からダウンロード中: \(pause) 一時停止、\(cancel) キャンセル")
    case .paused(let product):
      return say(
        "Download of \(title(product)) paused: \(pause) resumes", "\(title(product)) のダウンロードを一時停止: \(pause) で再開")
    case .installed(let product, let path):
      return say("\(title(product)) downloaded to \(path)", "\(title(product))を \(path) にダウンロードしました")
    case .failed(let product, let error):
      return say(
        "Download of \(title(product)) failed (\(error)): \(pause) starts it again",
        "\(title(product)) のダウンロードに失敗 (\(error)): \(pause) で再開")
    case .cancelled(let product):
      return say(
        "Download of \(title(product)) cancelled: \(pause) starts it again",
        "\(title(product)) のダウンロードをキャンセル: \(pause) で再開")
    case .noHostedContentAPI(let product):
      return say(
        "\(title(product)) is owned; StoreKit 2 has no hosted-content API, so nothing is downloaded",
        "\(title(product)) を所有; StoreKit 2 にはダウンロード API がないため何もダウンロードしません")
    case .restored(let count):
      return say(
        "Restore finished: \(counted(count, "purchase")) restored (consumables are never restored)",
        "復元が完了しました: \(count) 件 (消耗型は復元されません)")
    case .accessRemoved(let product):
      return say(
        "\(title(product)) was refunded: the app no longer owns it", "\(title(product)) は返金されました: 所有を取り消しました")
    }
  }

  /// What a product row shows in place of the price once the product is owned.
  var owned: String { say("Owned", "購入済み") }
}

extension Words {
  /// A download's state beside its progress bar, with the key that acts on it.
  func downloadState(_ state: DownloadState) -> String {
    let pause = key(.pauseDownload)
    let cancel = key(.cancelDownload)
    return switch state {
    case .waiting: say("waiting · \(pause) pause · \(cancel) cancel", "待機中 · \(pause) 一時停止 · \(cancel) 取消")
    case .active:
      say("downloading · \(pause) pause · \(cancel) cancel", "ダウンロード中 · \(pause) 一時停止 · \(cancel) 取消")
    case .paused: say("paused · \(pause) resume · \(cancel) cancel", "一時停止 · \(pause) 再開 · \(cancel) 取消")
    case .finished: say("finished · unpacking", "完了 · 展開中")
    case .failed: say("failed · \(pause) download again", "失敗 · \(pause) 再ダウンロード")
    case .cancelled: say("cancelled · \(pause) download again", "取消 · \(pause) 再ダウンロード")
    }
  }
}
