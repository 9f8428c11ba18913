import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// `expect: { status: TEXT }`: the status line, checked whole however the screen wraps it.
@Suite(.tags(.walkthroughs)) struct WalkthroughStatusTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

  static func run(_ yaml: String) throws -> WalkthroughResult {
    WalkthroughRunner(catalog: catalog).run(try WalkthroughParser.parse(yaml, path: "test.yaml"))
  }

  @Test func aStatusCheckPassesOnTheStatusLineAndSaysWhatItFoundWhenItFails() throws {
    let passing = try Self.run(
      """
      name: status
      steps:
        - launch
        - press: "5"
        - press: Esc
        - expect: { status: "Purchase of 5 Monkey Credits cancelled" }
        - press: "s"
        - expect: { status: "no monkey credits to spend" }
      """)
    #expect(passing.passed, "\(Transcript.text(passing))")
    let failing = try Self.run(
      """
      name: status
      steps:
        - launch
        - press: "5"
        - press: Esc
        - expect: { status: "Purchased" }
      """)
    #expect(!failing.passed)
    let check = try #require(failing.failedStep?.checks.first)
    #expect(check.expected == "\"Purchased\" on the status line")
    #expect(check.found == "the status line reads \"Purchase of 5 Monkey Credits cancelled\"", "\(check.found)")
  }

  @Test func aStatusCheckMatchesALongStatusTheScreenWraps() throws {
    let result = try Self.run(
      """
      name: status
      conditions: { askToBuy: on }
      steps:
        - launch
        - press: "5"
        - press: Enter
        - wait: 2s
        - press: Tab
        - press: d
        - expect: { status: "Apple does not say which state a decline brings (see the log's ↳ note)" }
      """)
    #expect(result.passed, "\(Transcript.text(result))")
  }

  @Test func aStatusCheckBeforeLaunchOrEmptyIsRefusedWithItsLine() {
    for (yaml, message) in [
      ("name: s\nsteps:\n  - expect: { status: \"x\" }\n  - launch\n", "before the app is launched"),
      ("name: s\nsteps:\n  - launch\n  - expect: { status: \"\" }\n", "status text is empty"),
    ] {
      #expect(throws: WalkthroughError.self) { try WalkthroughParser.parse(yaml, path: "test.yaml") }
      do {
        _ = try WalkthroughParser.parse(yaml, path: "test.yaml")
      } catch {
        #expect(error.problems.contains { $0.message.contains(message) }, "\(error.problems)")
      }
    }
  }
}
