import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

// App Store Server Notifications V2 and the refund requests that cause them (docs/notifications.md).

extension StoreCommand {
  /// `store refund-request ID [--reason R]`: the customer asks Apple for a refund.
  struct RefundRequest: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "refund-request",
      abstract: "The customer asks Apple for a refund: the App Store sends CONSUMPTION_REQUEST.",
      discussion:
        "The developer's server may answer with Send Consumption Information within 12 hours; the refund is then decided by `store refund-decide`, or at once under `store set refundDecision grant|decline`."
    )

    @Argument(help: "A transaction id, or `last` for the newest purchased one not refunded.") var transaction: String

    @Option(help: "Why the customer asks, as CONSUMPTION_REQUEST's consumptionRequestReason says it.")
    var reason: ConsumptionRequestReason = .unintendedPurchase

    @OptionGroup var options: ShopOptions

    func run() throws {
      let ((request, decided), store) = try changeStoreSeeingHistory(options, transaction) { store, now in
        try store.requestRefund(transaction, reason: reason, at: now)
      }
      say("refund requested: transaction #\(request.transactionID), reason \(reason): CONSUMPTION_REQUEST recorded")
      if let decided {
        let granted = decided.isRevoked
        say(
          "refundDecision \(store.state.conditions.refundDecision.rawValue): "
            + (granted ? "refunded, REFUND recorded" : "declined, REFUND_DECLINED recorded"))
      } else {
        say(
          "consumption information is due by \(ISO8601.string(from: request.consumptionDeadline)); decide with `monkeyshop store refund-decide \(request.transactionID) grant|decline`"
        )
      }
    }
  }

  /// `store refund-decide ID grant|decline`: Apple decides a refund request.
  struct RefundDecide: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "refund-decide",
      abstract: "Apple decides a refund request: grant refunds the transaction (REFUND), decline sends REFUND_DECLINED."
    )

    enum Decision: String, ExpressibleByArgument, CaseIterable {
      case grant, decline
    }

    @Argument(help: "A transaction with a refund request open, or `last`.") var transaction: String
    @Argument(help: "grant or decline.") var decision: Decision
    @Option(help: "When granted, why: developerIssue (1) or other (0), as Transaction.RevocationReason.")
    var reason: RevocationReason = .other
    @OptionGroup var options: ShopOptions

    func run() throws {
      let (decided, _) = try changeStoreSeeingHistory(options, transaction) { store, now in
        try store.decideRefund(transaction, grant: decision == .grant, reason: reason, at: now)
      }
      if decision == .grant {
        say(
          "refund granted: transaction \(decided.logName) refunded, revocationDate \(ISO8601.string(from: decided.revocationDate ?? Date())), revocationReason \(reason): REFUND recorded"
        )
      } else {
        say("refund declined: transaction \(decided.logName) stays purchased: REFUND_DECLINED recorded")
      }
    }
  }

  /// `store refund-reverse ID`: Apple reverses a refund.
  struct RefundReverse: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "refund-reverse",
      abstract: "Apple reverses a refund after a dispute: the transaction is purchased again (REFUND_REVERSED).")
    @Argument(help: "A refunded transaction, or `last` for the newest refunded one.") var transaction: String
    @OptionGroup var options: ShopOptions

    func run() throws {
      let (reversed, _) = try changeStoreSeeingHistory(options, transaction) { store, now in
        try store.reverseRefund(transaction, at: now)
      }
      say("refund reversed: transaction \(reversed.logName) is no longer revoked: REFUND_REVERSED recorded")
    }
  }

  /// `store notifications [--json]`: every notification with its attempts and what it waits for.
  struct Notifications: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "notifications",
      abstract: "List every App Store Server Notification: its type, transaction, UUID, attempts and what it waits for."
    )
    @Flag(
      help:
        "Print JSON: {notificationURL, notificationRetry, notifications: [{number, notificationType, subtype, notificationUUID, transactionId, consumptionRequestReason, signedDate (ISO 8601), testNotificationToken, sendAttempts: [{attemptDate, sendAttemptResult, url, httpStatus}], status: delivered|waiting|failed, waitsFor, signedPayload}]}, oldest first."
    )
    var json = false
    @OptionGroup var options: ShopOptions

    func run() throws {
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      let (listings, store) = try folder.readNotifications()
      let url = store.notifications.url
      if json {
        try printJSON(
          NotificationsReport(
            notificationURL: url, notificationRetry: store.conditions.notificationRetry.rawValue,
            notifications: listings.map { NotificationReport($0, url: url) }))
        return
      }
      say("notificationURL \(url ?? "none") · notificationRetry \(store.conditions.notificationRetry.rawValue)")
      guard !listings.isEmpty else {
        say("no notifications")
        return
      }
      for listing in listings {
        let notification = listing.notification
        var head = "\(notification.number). \(notification.notificationType)"
        if let subtype = notification.subtype { head += " (\(subtype))" }
        if let id = notification.transactionID { head += " · transaction #\(id)" }
        if let reason = notification.consumptionRequestReason { head += " · \(reason)" }
        head += " · \(ISO8601.string(from: notification.signedDate)) · \(notification.notificationUUID)"
        say(head)
        for (index, attempt) in listing.sendAttempts.enumerated() {
          let answer = attempt.httpStatus.map { "HTTP \($0) " } ?? ""
          say(
            "    attempt \(index + 1): \(ISO8601.string(from: attempt.date)) → \(TerminalText.clipped(attempt.url)) · \(answer)\(attempt.result)"
          )
        }
        say("    \(listing.waitsFor(url: url))")
      }
    }
  }

}

struct NotificationsReport: Encodable {
  let notificationURL: String?
  let notificationRetry: String
  let notifications: [NotificationReport]
}

struct NotificationReport: Encodable {
  struct Attempt: Encodable {
    let attemptDate: String
    let sendAttemptResult: String
    let url: String
    let httpStatus: Int?
  }

  let number: Int
  let notificationType: String
  let subtype: String?
  let notificationUUID: String
  let transactionId: String?
  let consumptionRequestReason: String?
  let signedDate: String
  let testNotificationToken: String?
  let sendAttempts: [Attempt]
  let status: String
  let waitsFor: String
  let signedPayload: String?

  init(_ listing: NotificationListing, url: String?) {
    let notification = listing.notification
    number = notification.number
    notificationType = notification.notificationType.rawValue
    subtype = notification.subtype
    notificationUUID = notification.notificationUUID
    transactionId = notification.transactionID
    consumptionRequestReason = notification.consumptionRequestReason?.rawValue
    signedDate = ISO8601.string(from: notification.signedDate)
    testNotificationToken = notification.testNotificationToken
    sendAttempts = listing.sendAttempts.map {
      Attempt(
        attemptDate: ISO8601.string(from: $0.date), sendAttemptResult: $0.result.rawValue, url: $0.url,
        httpStatus: $0.httpStatus)
    }
    status = listing.delivered ? "delivered" : listing.pending == nil ? "failed" : "waiting"
    waitsFor = listing.waitsFor(url: url)
    signedPayload = notification.signedPayload
  }
}

/// `--reason` of a refund request, as Apple spells it.
extension ConsumptionRequestReason: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
  public var defaultValueDescription: String { rawValue }
}

/// One locked change of the store that may reach back into the history for `transaction`.
func changeStoreSeeingHistory<Result>(
  _ options: ShopOptions, _ transaction: String, _ body: (inout AppStore, Date) throws -> Result
) throws -> (result: Result, store: AppStore) {
  let folder = options.dataFolder
  try options.checkDataFiles(folder)
  let catalog = try options.loadCatalog()
  let now = Date()
  let (result, state) = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction(transaction)) {
    try body(&$0, now)
  }
  return (result, AppStore(state: state, catalog: catalog))
}
