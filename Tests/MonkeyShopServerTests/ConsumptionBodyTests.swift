import Foundation
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopServer

/// Send Consumption Information's bodies checked field by field, each wrong field with Apple's error.
@Suite("App Store Server API: consumption bodies", .tags(.pure))
struct ConsumptionBodyTests {
  static let good: [String: JSONValue] = [
    "customerConsented": .bool(true), "deliveryStatus": .string("DELIVERED"), "sampleContentProvided": .bool(false),
    "consumptionPercentage": .integer(50_000), "refundPreference": .string("GRANT_PRORATED"),
  ]

  static func code(_ body: [String: JSONValue], version1: Bool = false) -> Int? {
    do {
      if version1 { try Routes.checkConsumptionV1(body) } else { try Routes.checkConsumption(body) }
      return nil
    } catch let error as APIError {
      return error.code
    } catch {
      // Malformed: 400 with no error code.
      return 0
    }
  }

  func with(_ name: String, _ value: JSONValue?) -> [String: JSONValue] {
    var body = Self.good
    body[name] = value
    return body
  }

  @Test("Apple's example body is accepted; each field's fault gets its own error")
  func current() {
    #expect(Self.code(Self.good) == nil)
    #expect(Self.code(with("customerConsented", .bool(false))) == 4_000_035)
    #expect(Self.code(with("customerConsented", nil)) == 4_000_035)
    #expect(Self.code(with("customerConsented", .string("true"))) == 4_000_035)
    #expect(Self.code(with("deliveryStatus", .string("LOST"))) == 4_000_036)
    #expect(Self.code(with("sampleContentProvided", .integer(0))) == 4_000_041)
    #expect(Self.code(with("refundPreference", .string("MAYBE"))) == 4_000_044)
    // Apple names these errors but publishes no code: malformed.
    #expect(Self.code(with("consumptionPercentage", .integer(100_001))) == 0)
    #expect(Self.code(with("consumptionPercentage", nil)) == 0)
    var undelivered = with("deliveryStatus", .string("UNDELIVERED_OTHER"))
    undelivered["refundPreference"] = .string("DECLINE")
    #expect(Self.code(undelivered) == 0)
    undelivered["consumptionPercentage"] = .integer(0)
    #expect(Self.code(undelivered) == nil)
  }

  @Test("V1: every field required but refundPreference, each in Apple's list")
  func version1() {
    let good: [String: JSONValue] = [
      "customerConsented": .bool(true), "consumptionStatus": .integer(1), "platform": .integer(2),
      "sampleContentProvided": .bool(false), "deliveryStatus": .integer(3), "appAccountToken": .string(""),
      "accountTenure": .integer(4), "playTime": .integer(5), "lifetimeDollarsRefunded": .integer(6),
      "lifetimeDollarsPurchased": .integer(7), "userStatus": .integer(4), "refundPreference": .integer(3),
    ]
    #expect(Self.code(good, version1: true) == nil)
    let faults: [(String, JSONValue?, Int)] = [
      ("consumptionStatus", .integer(4), 4_000_034), ("platform", nil, 4_000_039),
      ("deliveryStatus", .integer(6), 4_000_036),
      ("appAccountToken", .string("not-a-uuid"), 4_000_033), ("accountTenure", .integer(8), 4_000_032),
      ("playTime", .integer(-1), 4_000_040), ("lifetimeDollarsRefunded", .integer(8), 4_000_038),
      ("lifetimeDollarsPurchased", .string("7"), 4_000_037), ("userStatus", .integer(5), 4_000_042),
      ("refundPreference", .integer(4), 4_000_044), ("sampleContentProvided", nil, 4_000_041),
    ]
    for (name, value, code) in faults {
      var body = good
      body[name] = value
      #expect(Self.code(body, version1: true) == code, "\(name)")
    }
  }
}
