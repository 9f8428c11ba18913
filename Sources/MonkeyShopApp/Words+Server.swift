import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

extension Words {
  /// The command that sends the notifications: a name, the same in every language.
  static let serverCommand = "monkeyshop server"

  /// The transaction detail's list of the App Store Server Notifications about it.
  var serverNotificationsHeading: String {
    say("App Store Server Notifications", "App Store Server Notifications（サーバー通知）")
  }

  /// One notification about the transaction, and where its sending stands:
  /// `REFUND · delivered · 200 · attempt 1`.
  func serverNotification(_ listing: NotificationListing, url: String?) -> String {
    let type = listing.notification.notificationType.rawValue
    let attempts = listing.sendAttempts.count
    let last = listing.sendAttempts.last?.answer
    let tried = last.map { " · \($0) · " + say("attempt \(attempts)", "\(attempts) 回目の送信") } ?? ""
    let standing: String =
      switch listing.standing(url: url) {
      case .delivered: say("delivered", "配信済み")
      case .noAttemptLeft: say("not delivered: no attempt left", "未配信: 再試行なし")
      case .storeReplaced:
        say(
          "not delivered: the store.json that kept it waiting, with its attempts so far, was replaced",
          "未配信: 送信待ちとそれまでの送信記録を持つ store.json が置き換えられました")
      case .unsigned: say("recorded, not signed: never sent", "記録済み・署名なし: 送信されない")
      case .noURL: say("waiting: no notificationURL set", "送信待ち: notificationURL 未設定")
      case .retry(let next): say("retry at \(ISO8601.string(from: next))", "再送 \(ISO8601.string(from: next))")
      case .waitingForServer: say("waiting for \(Self.serverCommand)", "\(Self.serverCommand) の送信待ち")
      }
    return "\(type) · \(standing)\(tried)"
  }
}
