import Foundation
import MonkeyShopDomain

// The App Store Server's side, as it happens. The storefront is not the server: `monkeyshop
// server`, on the same data folder, sends the notifications and receives consumption information,
// and records both there; the storefront logs what it finds, as a trainer would show the
// developer's server beside the app.

extension ShopModel {
  /// Logs what the server recorded since the store was last seen: each attempt at sending a
  /// notification, and each Send Consumption Information received, oldest first. A notification
  /// that ended meanwhile (delivered, or no attempt left) has left the store for the attempts file:
  /// that part is read first, and the lines wait for it. `quietly`: only remembers what is there (a
  /// launch: what happened before the app ran is not news).
  mutating func noticeServer(_ queue: MonkeyShopDomain.NotificationQueue, quietly: Bool = false) -> [ShopEffect] {
    let seen = serverSeen
    serverSeen = queue
    var lines: [(date: Date, event: LogEvent)] = []
    for notification in queue.pending {
      let shown = serverAttemptsShown[notification.number] ?? 0
      serverAttemptsShown[notification.number] = notification.sendAttempts.count
      guard !quietly else { continue }
      lines += Self.sentLines(
        notification.notificationType, notification.transactionID, notification.sendAttempts, after: shown)
    }
    guard !quietly else { return [] }
    for request in queue.refundRequests {
      guard let consumption = request.consumption,
        seen.refundRequest(for: request.transactionID)?.consumption != consumption
      else { continue }
      lines.append(
        (
          consumption.receivedDate,
          .consumptionReceived(transactionID: request.transactionID, inWindow: consumption.inWindow)
        ))
    }
    serverLinesWaiting += lines
    guard queue.attemptsLength > seen.attemptsLength else {
      logServerLines()
      return []
    }
    return [.readEndedNotifications(from: seen.attemptsLength, through: queue.attemptsLength)]
  }

  /// The notifications that ended since the store was last seen: their attempts the log has not
  /// shown, then every line waiting, in the order they happened.
  mutating func endedNotificationsRead(_ ended: [FinishedNotification]) {
    for notification in ended {
      let shown = serverAttemptsShown.removeValue(forKey: notification.number) ?? 0
      // A line written before notifications said what they were: nothing to show it as.
      guard let type = notification.notificationType else { continue }
      serverLinesWaiting += Self.sentLines(type, notification.transactionID, notification.sendAttempts, after: shown)
    }
    logServerLines()
  }

  private mutating func logServerLines() {
    let lines = serverLinesWaiting.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
    serverLinesWaiting = []
    for line in lines { record(line.element.event) }
  }

  private static func sentLines(
    _ type: NotificationType, _ transactionID: String?, _ attempts: [SendAttempt], after shown: Int
  ) -> [(date: Date, event: LogEvent)] {
    attempts.enumerated().dropFirst(shown).map { index, attempt in
      (attempt.date, .notificationSent(type, transactionID: transactionID, number: index + 1, attempt))
    }
  }
}
