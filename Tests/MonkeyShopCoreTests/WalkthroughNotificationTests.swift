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
