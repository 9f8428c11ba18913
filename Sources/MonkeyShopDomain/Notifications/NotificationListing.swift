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

  /// Where its sending stands: the one rule `store notifications` and the storefront's transaction
  /// detail both put in words.
  public enum Standing: Equatable, Sendable {
    case delivered
    case noAttemptLeft
    /// No longer waiting and no ended attempt on record: the `store.json` that kept it waiting was
    /// replaced (moved away, deleted or put back from a copy), with any attempts made while it
    /// waited for a retry, and the new one takes only later notifications.
    case storeReplaced
    case unsigned
    case noURL
    case retry(at: Date)
    case waitingForServer
  }

  public func standing(url: String?) -> Standing {
    if delivered { return .delivered }
    guard let pending else { return sendAttempts.isEmpty ? .storeReplaced : .noAttemptLeft }
    if !pending.signed { return .unsigned }
    if url == nil { return .noURL }
    if let next = pending.nextAttemptDate { return .retry(at: next) }
    return .waitingForServer
  }

  /// What it waits for, in words.
  public func waitsFor(url: String?) -> String {
    switch standing(url: url) {
    case .delivered: "delivered"
    case .noAttemptLeft: "not delivered: no attempt left"
    case .storeReplaced: "not delivered: the store.json that kept it waiting, with its attempts so far, was replaced"
    case .unsigned: "never sent: the data folder's signing chain is incomplete"
    case .noURL: "no notificationURL set"
    case .retry(let next): "next retry at \(ISO8601.string(from: next))"
    case .waitingForServer: "waiting for `monkeyshop server` to deliver"
    }
  }
}
