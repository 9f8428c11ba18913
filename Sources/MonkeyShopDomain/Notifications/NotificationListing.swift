import Foundation

/// A notification with its attempts so far and what it waits for: `store notifications` lists
/// these, and a server answers from them.
public struct NotificationListing: Equatable, Sendable {
  public var notification: ServerNotification
  public var sendAttempts: [SendAttempt]
  /// Still to be sent (first attempt or a retry).
  public var pending: PendingNotification?

  public init(notification: ServerNotification, sendAttempts: [SendAttempt], pending: PendingNotification?) {
    self.notification = notification
    self.sendAttempts = sendAttempts
    self.pending = pending
  }

  public var delivered: Bool { sendAttempts.last?.result == .success }

  /// What it waits for, in words.
  public func waitsFor(url: String?) -> String {
    if delivered { return "delivered" }
    guard let pending else { return "not delivered: no attempt left" }
    if !pending.signed { return "never sent: the data folder's signing chain is incomplete" }
    if url == nil { return "no notificationURL set" }
    if let next = pending.nextAttemptDate { return "next retry at \(ISO8601.string(from: next))" }
    return "waiting for `monkeyshop server` to deliver"
  }
}
