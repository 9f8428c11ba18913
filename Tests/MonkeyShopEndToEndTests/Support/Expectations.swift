import Foundation
import Testing

/// A transaction as `monkeyshop store transactions --json` prints it.
struct TransactionRecord: Decodable, Sendable, CustomStringConvertible {
  let id: String
  let productIdentifier: String
  let quantity: Int
  let state: String
  let finished: Bool
  let errorCode: Int?
  let errorID: String?
  let resolvedFromTransactionID: String?
  let revocationDate: String?
  let revocationReason: String?

  var description: String {
    "#\(id) \(productIdentifier)×\(quantity) \(state)\(finished ? " finished" : " UNFINISHED")"
      + (errorCode.map { " error \($0)" } ?? "")
  }

  /// What delivering it is worth, from the shipped catalog.
  var credits: Int { (ShippedCatalog.credits[productIdentifier] ?? 0) * quantity }
}

/// Expects a command to have exited 0, and passes its result on.
@discardableResult
func expectSuccess(
  _ result: ChildResult, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ChildResult {
  #expect(result.exitStatus == 0, "\(result)", sourceLocation: sourceLocation)
  return result
}

/// `balance` from `wallet show --json`.
func balance(fromJSON text: String) throws -> Int? {
  let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
  return object?["balance"] as? Int
}

/// The balance as `monkeyshop wallet show --json` reports it.
func walletBalance(_ folder: ShopFolder) async throws -> Int? {
  let result = try await monkeyshop("wallet", "show", "--json", in: folder)
  guard result.exitStatus == 0 else { throw E2EFailure("wallet show failed: \(result)") }
  return try balance(fromJSON: result.stdout)
}

/// Every transaction the store holds, as `monkeyshop store transactions --json` reports them.
func storeTransactions(_ folder: ShopFolder) async throws -> [TransactionRecord] {
  let result = try await monkeyshop("store", "transactions", "--json", in: folder)
  guard result.exitStatus == 0 else { throw E2EFailure("store transactions failed: \(result)") }
  return try JSONDecoder().decode([TransactionRecord].self, from: Data(result.stdout.utf8))
}

/// Polls until `condition` holds; throws after `timeout`.
func waitUntil(
  _ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + timeout
  while try !condition() {
    if ContinuousClock.now >= deadline { throw E2EFailure("waited \(timeout) for \(what)") }
    try await Task.sleep(for: .milliseconds(20))
  }
}
