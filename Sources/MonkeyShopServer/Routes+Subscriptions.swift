import Foundation
import Hummingbird
import MonkeyShopDomain

/// The endpoints for auto-renewable subscriptions, answered for a shop that sells none. Apple does
/// not say what they return for a customer with no subscriptions; these are the answers its pages
/// allow (docs/server.md, "What Apple does not say").
extension Routes {
  func addSubscriptionRoutes(to api: RouterGroup<BasicRequestContext>) {
    // Get All Subscription Statuses: https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses.
    // "returns the status for all of the customer's subscriptions, organized by their subscription
    // group identifier": none, so `data` is empty.
    api.get("v1/subscriptions/:anyTransactionId") { request, context in
      try await answer {
        let record = try await customerRecord(context.parameters.get("anyTransactionId") ?? "")
        // `status`: 1 to 5 (https://developer.apple.com/documentation/appstoreserverapi/status).
        for value in Self.parameters(request)["status"] ?? [] {
          guard let status = Int(value), (1...5).contains(status) else { throw APIError.invalidStatus }
        }
        // StatusResponse: https://developer.apple.com/documentation/appstoreserverapi/statusresponse
        return json([
          "environment": .string(record.environment.rawValue), "bundleId": .string(bundleID), "data": .array([]),
        ])
      }
    }
    // Extend a Subscription Renewal Date: https://developer.apple.com/documentation/appstoreserverapi/extend-a-subscription-renewal-date.
    // A purchase that is not a subscription "doesn't qualify for a renewal-date extension due to its
    // subscription state": SubscriptionExtensionIneligibleError.
    api.put("v1/subscriptions/extend/:originalTransactionId") { request, context in
      try await answer {
        let id = context.parameters.get("originalTransactionId") ?? ""
        let record = try await Blocking.run { [source] in try source.current() }
        guard ServedRecord.isWellFormedID(id) else { throw APIError.invalidOriginalTransactionId }
        guard try await Blocking.run({ try record.entry(id) }) != nil else {
          throw APIError.originalTransactionIdNotFound
        }
        let body = try await Self.jsonObject(request)
        // ExtendRenewalDateRequest: https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldaterequest
        guard case .integer(let days)? = body["extendByDays"], (1...90).contains(days) else {
          throw APIError.invalidExtendByDays
        }
        guard case .integer(let reason)? = body["extendReasonCode"], (0...3).contains(reason) else {
          throw APIError.invalidExtendReasonCode
        }
        guard case .string(let identifier)? = body["requestIdentifier"], !identifier.isEmpty, identifier.count <= 128
        else { throw APIError.invalidRequestIdentifier }
        throw APIError.subscriptionExtensionIneligible
      }
    }
    // Extend Subscription Renewal Dates for All Active Subscribers:
    // https://developer.apple.com/documentation/appstoreserverapi/extend-subscription-renewal-dates-for-all-active-subscribers.
    // The product named is no subscription of this shop: InvalidProductIdError.
    api.post("v1/subscriptions/extend/mass") { request, _ in
      try await answer {
        let body = try await Self.jsonObject(request)
        guard case .string? = body["productId"] else { throw APIError.invalidProductId }
        guard case .integer(let days)? = body["extendByDays"], (1...90).contains(days) else {
          throw APIError.invalidExtendByDays
        }
        guard case .integer(let reason)? = body["extendReasonCode"], (0...3).contains(reason) else {
          throw APIError.invalidExtendReasonCode
        }
        guard case .string(let identifier)? = body["requestIdentifier"], !identifier.isEmpty, identifier.count <= 128
        else { throw APIError.invalidRequestIdentifier }
        throw APIError.invalidProductId
      }
    }
    // Get Status of Subscription Renewal Date Extensions:
    // https://developer.apple.com/documentation/appstoreserverapi/get-status-of-subscription-renewal-date-extensions.
    // No request was ever made: StatusRequestNotFoundError.
    api.get("v1/subscriptions/extend/mass/:productId/:requestIdentifier") { _, _ in
      try await answer { throw APIError.statusRequestNotFound }
    }
  }
}
