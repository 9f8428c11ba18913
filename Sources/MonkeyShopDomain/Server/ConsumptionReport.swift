import Foundation

/// What a developer's server sent with Send Consumption Information for one transaction, as the
/// App Store server received it: kept in the data folder (`consumption.json`) so the shop can say it
/// was received. `fields` are the request body's fields as sent (strings, numbers and booleans written
/// as text), in the body's order.
///
/// The current endpoint: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information
/// (`PUT /inApps/v2/transactions/consumption/{transactionId}`, body `ConsumptionRequest`); the
/// earlier one: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information-v1
/// (`PUT /inApps/v1/transactions/consumption/{transactionId}`, body `ConsumptionRequestV1`).
public struct ConsumptionReport: Codable, Equatable, Sendable {
  public var transactionID: String
  /// `v2` (the current endpoint) or `v1`.
  public var endpoint: String
  public var received: Date
  public var fields: [Field]

  public struct Field: Codable, Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  public init(transactionID: String, endpoint: String, received: Date, fields: [Field]) {
    self.transactionID = transactionID
    self.endpoint = endpoint
    self.received = received
    self.fields = fields
  }

  /// The line the shop shows: `Send Consumption Information #4 received`.
  public var logLine: String { "Send Consumption Information #\(transactionID) received" }
}

/// Every Send Consumption Information the folder's App Store server received, oldest first. Apple
/// does not say whether a second one for the same transaction replaces the first; each is kept, as
/// received.
public struct ConsumptionReports: Codable, Equatable, Sendable {
  public static let schemaVersion = 1
  /// The most kept: the oldest are dropped beyond it, so the file stays small.
  public static let limit = 1000

  public var schemaVersion = ConsumptionReports.schemaVersion
  public var reports: [ConsumptionReport] = []

  public init() {}

  public mutating func add(_ report: ConsumptionReport) {
    reports.append(report)
    if reports.count > Self.limit { reports.removeFirst(reports.count - Self.limit) }
  }

  /// The reports received for one transaction, oldest first.
  public func reports(for transactionID: String) -> [ConsumptionReport] {
    reports.filter { $0.transactionID == transactionID }
  }
}
