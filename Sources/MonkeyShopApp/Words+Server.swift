import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

extension Words {
  /// The transaction detail's list of the App Store Server Notifications about it.
  var serverNotificationsHeading: String {
    say("App Store Server Notifications", "App Store Server Notifications（サーバー通知）")
  }

  /// One notification about the transaction, and where its sending stands:
  /// `REFUND · delivered · 200 · attempt 1`.
  func serverNotification(_ listing: NotificationListing, url: String?) -> String {
    let type = listing.notification.notificationType.rawValue
    let attempts = listing.sendAttempts.count
    let last = listing.sendAttempts.last.map { $0.httpStatus.map { "\($0)" } ?? $0.result.rawValue }
    let tried = last.map { " · \($0) · " + say("attempt \(attempts)", "\(attempts) 回目の送信") } ?? ""
    if listing.delivered { return "\(type) · " + say("delivered", "配信済み") + tried }
    guard let pending = listing.pending else {
      return "\(type) · " + say("not delivered: no attempt left", "未配信: 再試行なし") + tried
    }
    if !pending.signed {
      return "\(type) · " + say("recorded, not signed: never sent", "記録済み・署名なし: 送信されない")
    }
    if url == nil { return "\(type) · " + say("waiting: no notificationURL set", "送信待ち: notificationURL 未設定") + tried }
    if let next = pending.nextAttemptDate {
      return "\(type) · " + say("retry at \(ISO8601.string(from: next))", "再送 \(ISO8601.string(from: next))") + tried
    }
    return "\(type) · " + say("waiting for monkeyshop server", "monkeyshop server の送信待ち") + tried
  }
}
