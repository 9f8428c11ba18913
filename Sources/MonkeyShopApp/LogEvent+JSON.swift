import Foundation
import MonkeyShopDomain

extension LogEvent {
  /// The App Store's number for the payment the event is about, whatever its state (for a
  /// resolution: the new payment).
  public var paymentID: String? {
    switch self {
    case .updated(let transaction, _), .finished(let transaction): transaction.id
    case .delivered(let id, _, _), .alreadyDelivered(let id), .approved(let id), .declined(let id): id
    case .resolved(_, let newID): newID
    case .storeKit2(let event): event.transactionID
    case .refunded(let id, _), .tookBack(let id, _, _): id
    case .shouldContinue(let id, _, _): id
    case .notificationSent(_, let id, _, _): id
    case .consumptionReceived(let id, _): id
    default: nil
    }
  }

  /// The `transactionIdentifier` the app has for the event's transaction: only a purchased or
  /// restored one has it (`StoreTransaction.transactionIdentifier`).
  public var transactionID: String? {
    switch self {
    case .updated(let transaction, _), .finished(let transaction): transaction.transactionIdentifier
    case .delivered, .alreadyDelivered, .storeKit2, .refunded, .tookBack: paymentID
    default: nil
    }
  }

  /// The error ID the event carries, when there is one: an error, a failed product request, a
  /// failed transaction (a cancel included: its `paymentCancelled` is `MS-E0004`).
  public var errorID: ErrorID? {
    switch self {
    case .error(let failure): failure.errorID
    case .productsRequestFailed(let error): error.errorID
    case .updated(let transaction, _): transaction.failure?.errorID
    default: nil
    }
  }
}

/// One entry of the event log for scripts: a line of `--log-file` (JSON Lines) and an event of
/// `--json`: `time` (ISO 8601, milliseconds, UTC), `ms` (milliseconds since the launch), `event`
/// (the name walkthroughs match), `text` (the log line as the storefront shows it), `storeKit`, and
/// when the event has them: `payment` (the App Store's number for the payment: a transaction's
/// `id` in `store transactions --json`), `transactionIdentifier` (purchased and restored
/// transactions only) and `errorID`.
public struct LogRecord: Encodable, Equatable, Sendable {
  public let time: String
  public let ms: Int
  public let event: String
  public let text: String
  public let storeKit: Int
  public let payment: String?
  public let transactionIdentifier: String?
  public let errorID: ErrorID?

  public init(_ entry: LogEntry, launchDate: Date, language: Language) {
    time = ISO8601.string(from: entry.time)
    ms = LogClock.milliseconds(from: launchDate, to: entry.time)
    event = entry.event.name
    text = entry.text(language)
    storeKit = entry.api.rawValue
    payment = entry.event.paymentID
    transactionIdentifier = entry.event.transactionID
    errorID = entry.event.errorID
  }
}
