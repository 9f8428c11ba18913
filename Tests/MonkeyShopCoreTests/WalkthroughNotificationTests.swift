import Foundation
import MonkeyShopWalkthrough
import Testing

/// `expect: { notification: TYPE }`: what the App Store recorded for the developer's server, checked
/// without any network.
@Suite(.tags(.walkthroughs)) struct WalkthroughNotificationTests {
  @Test func aNotificationCheckSeesWhatTheStoreRecordedAndSaysWhatItFoundWhenItFails() throws {
    let purchase = """
      name: notifications
      conditions: { latency: instant }
      steps:
        - launch
        - press: "5"
        - press: Enter
        - wait: 1s
      """
    let passing = try WalkthroughStatusTests.run(
      purchase + """

          - expect: { notification: ONE_TIME_CHARGE }
          - store: { refund: last }
          - expect: { notification: REFUND }
        """)
    #expect(passing.passed, "\(Transcript.text(passing))")
    let failing = try WalkthroughStatusTests.run(purchase + "\n  - expect: { notification: REFUND }\n")
    #expect(!failing.passed)
    let check = try #require(failing.failedStep?.checks.first)
    #expect(check.expected == "an App Store Server Notification REFUND recorded")
    #expect(check.found == "recorded: ONE_TIME_CHARGE", "\(check.found)")
  }

  /// The customer's refund request, Apple's decision and its reversal, as `store refund-request`,
  /// `refund-decide` and `refund-reverse` make them.
  @Test func aRefundRequestIsDecidedAndReversedAsTheStoreCommandsDo() throws {
    let purchase = """
      name: refund request
      storekit: 2
      conditions: { latency: instant }
      steps:
        - launch
        - press: "5"
        - press: Enter
        - wait: 1s

      """
    let declined = try WalkthroughStatusTests.run(
      purchase + """
          - store: { refundRequest: last, reason: LEGAL }
          - expect: { notification: CONSUMPTION_REQUEST, balance: 5 }
          - store: { refundDecline: last }
          - expect: { notification: REFUND_DECLINED, balance: 5 }
          - expect: { transaction: { id: last, state: purchased } }
        """)
    #expect(declined.passed, "\(Transcript.text(declined))")
    let granted = try WalkthroughStatusTests.run(
      purchase + """
          - store: { refundRequest: last }
          - store: { refundGrant: last }
          - expect: { notification: REFUND, balance: 0, events: [refunded, revoked, tookBack] }
          - store: { refundReverse: last }
          - expect: { notification: REFUND_REVERSED }
        """)
    #expect(granted.passed, "\(Transcript.text(granted))")
    // Decided without a request: the store's own refusal, with the step.
    let undecided = try WalkthroughStatusTests.run(purchase + "  - store: { refundGrant: 1 }\n")
    #expect(!undecided.passed)
    #expect(
      undecided.failedStep?.failure?.contains("cannot refundGrant 1: transaction 1 has no refund request open") == true,
      "\(Transcript.text(undecided))")
    // `last` with no request open: the step says there is none, not that a transaction "last" has none.
    let none = try WalkthroughStatusTests.run(purchase + "  - store: { refundDecline: last }\n")
    let failure = try #require(none.failedStep?.failure, "\(Transcript.text(none))")
    #expect(failure.contains("no transaction has a refund request open"), "\(failure)")
    #expect(!failure.contains("transaction last"), "\(failure)")
  }

  /// `last` decides the newest transaction with a request open, whichever request came last: the
  /// 10 credits of the second purchase are taken back, not the first's 5; then the first is declined.
  @Test func lastDecidesTheNewestTransactionWithARequestOpen() throws {
    let run = try WalkthroughStatusTests.run(
      """
      name: refund the newest
      storekit: 2
      conditions: { latency: instant }
      steps:
        - launch
        - press: "5"
        - press: Enter
        - wait: 1s
        - press: "0"
        - press: Enter
        - wait: 1s
        - store: { refundRequest: 2 }
        - store: { refundRequest: 1 }
        - store: { refundGrant: last }
        - expect: { notification: REFUND, balance: 5, events: [refunded, revoked, tookBack] }
        - store: { refundDecline: last }
        - expect: { notification: REFUND_DECLINED, balance: 5 }
      """)
    let transcript = Transcript.text(run)
    #expect(run.passed, "\(transcript)")
    // The transcript says which transaction each `last` stood for.
    #expect(transcript.contains("store refundGrant last → #2"), "\(transcript)")
    #expect(transcript.contains("store refundDecline last → #1"), "\(transcript)")
    #expect(transcript.contains("store refundRequest 2\n"), "an id given is not repeated:\n\(transcript)")
  }

  @Test func anUnknownTypeIsRefusedWithWhatItMayBe() throws {
    #expect {
      try WalkthroughParser.parse(
        """
        name: typo
        steps:
          - launch
          - expect: { notification: REFUNDED }
        """, path: "typo.yaml")
    } throws: { error in
      "\(error)".contains("typo.yaml:4: unknown notification type 'REFUNDED' (did you mean 'REFUND'?)")
    }
  }
}
