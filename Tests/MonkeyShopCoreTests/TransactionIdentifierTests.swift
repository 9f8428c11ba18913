import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// `transactionIdentifier` is "undefined except when `transactionState` is set to
/// `SKPaymentTransactionState.purchased` or `SKPaymentTransactionState.restored`"
/// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier):
/// the log and its JSON name any other payment by the App Store's number, never as a transaction.
@Suite(.tags(.pure)) struct TransactionIdentifierTests {
  private func lines(_ shop: ShopHarness) -> [String] { shop.model.log.map { $0.text(.en) } }

  private func json(_ shop: ShopHarness, event name: String) -> [[String: Any]] {
    shop.model.log.filter { $0.event.name == name }.map { entry in
      // As `--log-file` and `--json` write it: the one encoder, read back.
      let text = (try? JSONOutput.text(LogRecord(entry, launchDate: ShopHarness.start, language: .en))) ?? ""
      return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
  }

  @Test("a purchase is a payment until it is purchased, then #N")
  func purchaseGainsItsIdentifierWhenPurchased() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    #expect(lines(shop).contains("paymentQueue(_:updatedTransactions:) .purchasing payment 1"))
    #expect(lines(shop).contains("paymentQueue(_:updatedTransactions:) .purchased #1"))
    #expect(lines(shop).contains("SKPaymentQueue.finishTransaction(#1)"))
    let purchasing = json(shop, event: "purchasing")
    #expect(purchasing.count == 1)
    #expect(purchasing.first?["payment"] as? String == "1")
    #expect(purchasing.first?["transactionIdentifier"] == nil, "a purchasing payment has no transactionIdentifier")
    let purchased = json(shop, event: "purchased")
    #expect(purchased.first?["transactionIdentifier"] as? String == "1")
  }

  @Test("a cancelled payment never has a transactionIdentifier, not even when finished")
  func cancelledPaymentHasNoIdentifier() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    shop.wait(1)
    #expect(lines(shop).contains("SKPaymentQueue.finishTransaction(payment 1)"))
    #expect(!lines(shop).contains { $0.contains("#1") }, "\(lines(shop))")
    for name in ["purchasing", "failed", "finished"] {
      let objects = json(shop, event: name)
      #expect(objects.count == 1, "\(name)")
      #expect(objects.allSatisfy { $0["transactionIdentifier"] == nil && $0["payment"] as? String == "1" }, "\(name)")
    }
  }

  @Test("Ask to Buy: the deferred payment is approved as a payment and purchased as #N")
  func askToBuyNamesThePaymentUntilPurchased() {
    let shop = ShopHarness(conditions: { $0.askToBuy = true })
    shop.press("0")
    shop.press(.enter)
    shop.wait(2)
    #expect(lines(shop).contains("paymentQueue(_:updatedTransactions:) .deferred payment 1"))
    #expect(shop.screen().contains("Waiting for approval (Ask to Buy), payment 1"))
    shop.press(.tab)
    shop.press("a")
    #expect(lines(shop).suffix(4).first == "Ask to Buy: a parent approved payment 1")
    #expect(lines(shop).contains("paymentQueue(_:updatedTransactions:) .purchased #1"))
    #expect(json(shop, event: "approved").first?["transactionIdentifier"] == nil)
  }

  @Test("the purchase resolving an interruption is a new payment, not the interrupted one's original")
  func resolutionIsANewPayment() throws {
    let shop = ShopHarness(conditions: { $0.interruptedPurchases = true })
    shop.press("5")
    shop.press(.enter)
    shop.wait(1)
    try shop.changeStore { _ = try $0.resolve("1", at: shop.now) }
    shop.wait(1)
    #expect(lines(shop).contains("interrupted payment 1 resolved: the App Store adds payment 2"))
    #expect(lines(shop).contains("paymentQueue(_:updatedTransactions:) .purchased #2"))
    #expect(shop.storage.store.transaction("2")?.resolvedFromTransactionID == "1")
    #expect(shop.storage.store.transaction("1")?.transactionIdentifier == nil)
  }

  @Test("a store file that kept the resolved payment under its earlier key still reads")
  func earlierKeyStillReads() throws {
    let json = """
      {"id": "2", "productIdentifier": "com.monkeyshop.credits.5", "quantity": 1, "state": "purchased",
       "finished": true, "purchaseDate": "2026-11-21T09:30:00Z", "hasPurchaseIssue": false,
       "originalTransactionID": "1"}
      """
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let transaction = try decoder.decode(StoreTransaction.self, from: Data(json.utf8))
    #expect(transaction.resolvedFromTransactionID == "1")
    let written = try JSONEncoder().encode(transaction)
    let text = String(decoding: written, as: UTF8.self)
    #expect(text.contains("resolvedFromTransactionID") && !text.contains("originalTransactionID"))
  }

  @Test(
    "the resolved payment is checked under either key: an earlier payment's number, not both keys",
    arguments: [
      (#""originalTransactionID": "1", "resolvedFromTransactionID": "1""#, "originalTransactionID", "keep only"),
      (#""originalTransactionID": "garbage""#, "originalTransactionID", "expected the number of an earlier payment"),
      (#""resolvedFromTransactionID": "2""#, "resolvedFromTransactionID", "below 2"),
      (#""resolvedFromTransactionID": "9""#, "resolvedFromTransactionID", "below 2"),
    ])
  func resolvedPaymentIsChecked(fields: String, key: String, problem: String) {
    let json = """
      {"id": "2", "productIdentifier": "com.monkeyshop.credits.5", "quantity": 1, "state": "purchased",
       "finished": true, "purchaseDate": "2026-11-21T09:30:00Z", "hasPurchaseIssue": false, \(fields)}
      """
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect {
      try decoder.decode(StoreTransaction.self, from: Data(json.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.last?.stringValue == key && context.debugDescription.contains(problem)
    }
  }
}
