import MonkeyShopApp
import MonkeyShopDomain
import Testing

/// The log keeps StoreKit's calls and callbacks as code, the same in every language, and says what
/// the app and the App Store do in the storefront's language.
@Suite("The log in Japanese", .tags(.pure))
struct LogLanguageTests {
  /// Every line that is words, not a StoreKit call: a Japanese storefront shows it in Japanese.
  static let prose: [LogEvent] = [
    .delivered(transactionID: "1", credits: 5, balance: 5),
    .alreadyDelivered(transactionID: "1"),
    .approved(transactionID: "2"),
    .declined(transactionID: "2"),
    .resolved(transactionID: "3", newTransactionID: "4"),
    .spent(credits: 1, balance: 4),
    .conditionChanged(.askToBuy, value: "on"),
    .crashed(.beforeDelivery),
    .appRestarted(.storeKit2),
    .refunded(transactionID: "1", reason: .other),
    .tookBack(transactionID: "1", credits: 5, balance: 0),
    .storeKit2(.notCredited(transactionID: "1")),
    .storeKit2(.purchaseResult(.pending)),
    .download(.unlocked(transactionID: "1", productIdentifier: "com.monkeyshop.jungle-map")),
    .download(.installed(transactionID: "1", path: "content/com.monkeyshop.jungle-map")),
  ]

  @Test("every line in words has Japanese, with its numbers", arguments: prose)
  func proseIsJapanese(event: LogEvent) {
    let english = event.text(.storeKit1, .en)
    let japanese = event.text(.storeKit1, .ja)
    #expect(japanese != english, "\(english)")
    #expect(japanese.unicodeScalars.contains { $0.value >= 0x3040 && $0.value <= 0x9FFF }, "\(japanese)")
    let digits = { (text: String) in text.filter(\.isNumber) }
    #expect(digits(japanese) == digits(english), "the same numbers: \(english) / \(japanese)")
  }

  @Test("StoreKit's calls stay code in every language")
  func callsStayCode() {
    for event in [LogEvent.observerAdded, .canMakePayments(true), .restoreCompletedTransactions] {
      #expect(event.text(.storeKit1, .ja) == event.text(.storeKit1, .en))
    }
  }
}
