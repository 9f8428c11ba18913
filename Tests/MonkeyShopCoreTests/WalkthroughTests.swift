import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The repository, found from this file so the tests run from any directory.
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let library = repository.appendingPathComponent("Walkthroughs").path
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

private func parse(_ yaml: String) throws -> Walkthrough {
  try WalkthroughParser.parse(yaml, path: "test.yaml")
}

private func run(_ yaml: String) throws -> WalkthroughResult {
  WalkthroughRunner(catalog: catalog).run(try parse(yaml))
}

/// The problems a file is refused with, or none.
private func problems(_ yaml: String) -> [WalkthroughError.Problem] {
  do {
    _ = try parse(yaml)
    return []
  } catch let error as WalkthroughError {
    return error.problems
  } catch {
    return []
  }
}

@Suite("Walkthroughs: the bundled library", .tags(.walkthroughs))
struct WalkthroughLibraryTests {
  static let files = WalkthroughLibrary.files(in: library)

  @Test func theLibraryHasOneWalkthroughPerPath() {
    #expect(Self.files.count >= 10)
  }

  /// `monkeyshop walkthrough Walkthroughs` runs the folder's walkthroughs, as `Walkthroughs/*.yaml` does.
  @Test func aFolderNamesItsWalkthroughs() {
    #expect(WalkthroughLibrary.paths(for: library, library: nil) == Self.files)
    let one = Self.files[0]
    #expect(WalkthroughLibrary.paths(for: one, library: nil) == [one])
  }

  @Test(arguments: files)
  func bundledWalkthroughPasses(_ path: String) throws {
    let walkthrough = try WalkthroughParser.load(path: path)
    let result = WalkthroughRunner(catalog: catalog).run(walkthrough)
    #expect(result.passed, "\(Transcript.text(result, steps: false))")
    // Every step ran, and virtual time did the waiting.
    #expect(result.records.count == walkthrough.steps.count)
    // Whatever the app logs, a walkthrough can name it in `event`/`events`.
    let names = Set(result.records.flatMap(\.events).map(\.event.name))
    #expect(names.isSubset(of: Expectation.eventNames), "\(names.subtracting(Expectation.eventNames))")
  }

  @Test(arguments: files)
  func bundledWalkthroughNarratesAndChecks(_ path: String) throws {
    let walkthrough = try WalkthroughParser.load(path: path)
    let says = walkthrough.steps.filter { if case .say = $0.action { true } else { false } }
    #expect(!says.isEmpty, "a training walkthrough explains what it shows")
    let checksEvents = walkthrough.steps.contains { step in
      guard case .expect(let expectations) = step.action else { return false }
      return expectations.contains { if case .events = $0 { true } else { false } }
        || expectations.contains { if case .event = $0 { true } else { false } }
    }
    #expect(checksEvents, "\(path) checks the StoreKit events it shows")
  }
}

@Suite("Walkthroughs: running", .tags(.walkthroughs))
struct WalkthroughRunTests {
  @Test func theSpecExamplePasses() throws {
    let result = try run(
      """
      name: Buy 10 credits, quantity 3, on a slow network
      storefront: USA
      wallet: { balance: 0 }
      conditions: { network: up, purchasesAllowed: true, askToBuy: false, latency: normal }
      steps:
        - launch
        - expect: { screen: "Buy $1.99" }
        - press: [Down, "+", "+"]
        - press: "0"
        - expect: { screen: "3" }
        - press: Enter
        - wait: 2s
        - expect: { balance: 30, screen: "30 monkey credits", event: purchased }
        - set: { network: down }
        - relaunch
        - expect: { screen: "Network down?" }
      """)
    #expect(result.passed, "\(Transcript.text(result))")
  }

  @Test func theDocumentedExamplePasses() throws {
    let readme = try String(
      contentsOfFile: repository.appendingPathComponent("docs/walkthroughs.md").path, encoding: .utf8)
    let example = try #require(readme.components(separatedBy: "```yaml\n").dropFirst().first)
    let result = try run(try #require(example.components(separatedBy: "```").first))
    #expect(result.passed, "\(Transcript.text(result))")
  }

  @Test func aWrongExpectationFailsWithTheStepWhatWasExpectedWhatWasFoundAndTheScreen() throws {
    let result = try run(
      """
      name: Wrong
      steps:
        - launch
        - press: "5"
        - press: Enter
        - wait: 1s
        - expect: { balance: 50 }
        - say: never reached
      """)
    #expect(!result.passed)
    let failed = try #require(result.failedStep)
    #expect(failed.number == 5)
    #expect(failed.step.line == 7)
    #expect(result.records.count == 5, "the walkthrough stops at the failing step")
    let check = try #require(failed.checks.first)
    #expect(check.expected == "50 credits in the wallet")
    #expect(check.found == "5 credits")
    #expect(failed.screen?.contains("5 monkey credits") == true)
    let transcript = Transcript.text(result)
    #expect(transcript.contains("✗ expect balance 50"))
    #expect(transcript.contains("expected 50 credits in the wallet"))
    #expect(transcript.contains("found    5 credits"))
    #expect(transcript.contains("the screen at step 5"))
    #expect(transcript.contains("│   5 monkey credits"))
    #expect(transcript.contains("✗ failed at step 5 (line 7)"))
    #expect(result.failureSummary?.hasPrefix("step 5 (line 7): expect balance 50") == true)
  }

  @Test func aScreenExpectationFailureSaysTheTextIsMissing() throws {
    let result = try run(
      """
      name: Missing text
      steps:
        - launch
        - expect: { screen: "Buy $9.99", notScreen: "Buy $0.99" }
      """)
    let checks = try #require(result.failedStep?.checks)
    #expect(checks.map(\.passed) == [false, false])
    #expect(checks[0].found == "not on the screen")
    #expect(checks[1].found.hasPrefix("on line "))
  }

  @Test func crashBeforeDeliveryIsDeliveredAtRelaunchAndCreditedOnce() throws {
    let walkthrough = try parse(
      """
      name: Crash
      steps:
        - launch
        - crash: beforeDelivery
        - press: ["0", Enter]
        - wait: 1s
        - relaunch
        - relaunch
      """)
    let session = try WalkthroughSession(walkthrough: walkthrough, catalog: catalog)
    var records: [StepRecord] = []
    for step in walkthrough.steps.prefix(4) { records.append(session.perform(step)) }
    #expect(session.appState == .crashed(.beforeDelivery))
    #expect(session.storage.wallet.balance == 0)
    #expect(session.storage.store.unfinished.count == 1)

    let relaunch = session.perform(walkthrough.steps[4])
    #expect(session.appState == .running)
    #expect(relaunch.events.map(\.event.name).filter { $0 == "delivered" }.count == 1)
    #expect(session.storage.wallet.balance == 10)
    #expect(session.storage.store.unfinished.isEmpty)

    let again = session.perform(walkthrough.steps[5])
    #expect(!again.events.contains { $0.event.name == "delivered" || $0.event.name == "purchased" })
    #expect(session.storage.wallet.balance == 10)
  }

  @Test func crashAfterDeliveryIsFinishedAtRelaunchWithoutCreditingAgain() throws {
    let result = try run(
      """
      name: Crash after delivery
      steps:
        - launch
        - crash: afterDeliveryBeforeFinish
        - press: ["5", Enter]
        - wait: 1s
        - expect: { balance: 5, transaction: { state: purchased, finished: false } }
        - relaunch
        - expect:
            events: [purchased, alreadyDelivered, finished]
            balance: 5
            transaction: { state: purchased, finished: true }
      """)
    #expect(result.passed, "\(Transcript.text(result))")
  }

  @Test func keysAndTheScreenAreRefusedWhileTheAppIsDown() throws {
    let result = try run(
      """
      name: Down
      steps:
        - launch
        - crash: beforeDelivery
        - press: ["5", Enter]
        - wait: 1s
        - expect: { balance: 0, transaction: { finished: false } }
        - press: "5"
      """)
    let failed = try #require(result.failedStep)
    #expect(failed.number == 6)
    #expect(failed.failure == "cannot press 5: the app is down (crashed at beforeDelivery): add relaunch")

    let screen = try run(
      """
      name: Down screen
      steps:
        - launch
        - crash: beforeDelivery
        - press: ["5", Enter]
        - wait: 1s
        - expect: { screen: "5 monkey credits" }
      """)
    #expect(screen.failedStep?.checks.first?.found == "the app is down (crashed at beforeDelivery): add relaunch")
  }

  @Test func eventsAreCheckedInOrderSinceThePreviousEventCheck() throws {
    let result = try run(
      """
      name: Windows
      steps:
        - launch
        - press: ["5", Enter]
        - wait: 1s
        - expect: { events: [purchasing, purchased, finished] }
        - expect: { event: purchased }
      """)
    let failed = try #require(result.failedStep)
    #expect(failed.number == 5, "the second check looks only at what came after the first")
    #expect(failed.checks[0].found == "no events")
  }

  @Test func waitsRunInVirtualTime() throws {
    let result = try run(
      """
      name: Slow
      conditions: { latency: slow }
      steps:
        - launch
        - press: ["0", Enter]
        - wait: 10m
        - expect: { balance: 10, event: finished }
      """)
    #expect(result.passed)
    #expect(result.virtualTime == 3 + 600)
    // The purchase answered 8 s after the payment, not when the wait ended.
    let finished = try #require(result.records[2].events.first { $0.event.name == "purchased" })
    #expect(finished.time.timeIntervalSince(WalkthroughSession.epoch) == 11)
  }

  @Test func launchCanShowTheProductsLoading() throws {
    let result = try run(
      """
      name: Loading
      conditions: { latency: slow }
      steps:
        - launch: { waitForProducts: false }
        - expect: { screen: "loading..." }
        - wait: 3s
        - expect: { screen: "Buy $0.99" }
      """)
    #expect(result.passed, "\(Transcript.text(result))")
  }

  @Test func askToBuyApprovedThroughTheStore() throws {
    let result = try run(
      """
      name: Approve
      conditions: { askToBuy: on }
      steps:
        - launch
        - press: ["5", Enter]
        - wait: 1s
        - expect: { transaction: { state: deferred, finished: false }, balance: 0 }
        - store: { approve: last }
        - expect: { events: [approved, purchased, delivered, finished], balance: 5 }
        - store: { approve: last }
      """)
    let failed = try #require(result.failedStep)
    #expect(failed.number == 7)
    #expect(failed.failure?.contains("no deferred transaction to approve") == true)
  }

  @Test func aStartingStorefrontWithoutPricesFailsBeforeTheFirstStep() throws {
    let result = try run(
      """
      name: Korea
      storefront: KOR
      steps:
        - launch
      """)
    #expect(!result.passed)
    #expect(result.records.isEmpty)
    #expect(result.setupFailure?.contains("KOR") == true)
  }

  @Test func theTranscriptListsEventsAndEndsWithASummary() throws {
    let result = try run(
      """
      name: Transcript
      steps:
        - say: Hello
        - launch
        - snapshot: Start
      """)
    let text = Transcript.text(result)
    #expect(text.hasPrefix("▶ Transcript (test.yaml)"))
    #expect(text.contains("  1. say: Hello"))
    #expect(text.contains("00:00.000  SKPaymentQueue.default().add(observer)"))
    #expect(text.contains("00:00.400  productsRequest(_:didReceive:) 3 products"))
    #expect(text.contains("┌─ Start "))
    #expect(Transcript.summary([result, result]) == "2 passed, 0 failed")
  }
}

@Suite("Walkthroughs: refused files", .tags(.walkthroughs))
struct WalkthroughParserTests {
  struct Refusal: Sendable, CustomTestStringConvertible {
    let label: String
    let yaml: String
    let line: Int
    let message: String
    var testDescription: String { label }
  }

  static let refusals: [Refusal] = [
    Refusal(
      label: "unknown step",
      yaml: "name: x\nsteps:\n  - launch\n  - jump: 3\n", line: 4,
      message:
        "unknown step 'jump' (expected one of launch, relaunch, press, wait, set, store, crash, expect, snapshot, say, appAccountToken)"
    ),
    Refusal(
      label: "unknown key", yaml: "name: x\nsteps:\n  - launch\n  - press: [\"5\", Enterr]\n", line: 4,
      message: "unknown key 'Enterr' (did you mean 'Enter'?)"),
    Refusal(
      label: "unknown condition", yaml: "name: x\nsteps:\n  - launch\n  - set: { netwrk: down }\n", line: 4,
      message: "unknown condition 'netwrk' in set (did you mean 'network'?)"),
    Refusal(
      label: "unknown starting condition", yaml: "name: x\nconditions:\n  wifi: off\nsteps:\n  - launch\n", line: 3,
      message: "unknown condition 'wifi' in conditions"),
    Refusal(
      label: "bad condition value", yaml: "name: x\nsteps:\n  - launch\n  - set: { latency: warp }\n", line: 4,
      message: "'warp' is not a value of latency (expected instant|normal|slow)"),
    Refusal(
      label: "bad duration", yaml: "name: x\nsteps:\n  - launch\n  - wait: 2\n", line: 4,
      message: "'2' is not a duration"),
    Refusal(
      label: "bad crash point", yaml: "name: x\nsteps:\n  - launch\n  - crash: later\n", line: 4,
      message: "unknown crash point 'later'"),
    Refusal(
      label: "unknown field", yaml: "name: x\nsteps:\n  - launch\n  - expect: { scren: Buy }\n", line: 4,
      message: "unknown field 'scren' in expect (did you mean 'screen'?)"),
    Refusal(
      label: "unknown top-level field", yaml: "name: x\nauthor: me\nsteps:\n  - launch\n", line: 2,
      message: "unknown field 'author' in the walkthrough"),
    Refusal(
      label: "unknown event", yaml: "name: x\nsteps:\n  - launch\n  - expect: { event: bought }\n", line: 4,
      message: "unknown event 'bought'"),
    Refusal(
      label: "bad balance", yaml: "name: x\nsteps:\n  - launch\n  - expect:\n      balance: lots\n", line: 5,
      message: "balance 'lots' is not a valid value"),
    Refusal(
      label: "bad transaction state",
      yaml: "name: x\nsteps:\n  - launch\n  - expect:\n      transaction: { state: bought }\n", line: 5,
      message: "unknown transaction state 'bought'"),
    Refusal(
      label: "bad store operation", yaml: "name: x\nsteps:\n  - launch\n  - store: { cancel: last }\n", line: 4,
      message: "unknown field 'cancel' in store"),
    Refusal(
      label: "misspelt store operation", yaml: "name: x\nsteps:\n  - launch\n  - store: { refundRequst: last }\n",
      line: 4, message: "unknown field 'refundRequst' in store (did you mean 'refundRequest'?)"),
    Refusal(
      label: "misspelt refund request reason",
      yaml: "name: x\nsteps:\n  - launch\n  - store: { refundRequest: last, reason: LEGL }\n", line: 4,
      message: "unknown reason 'LEGL' (did you mean 'LEGAL'?) (expected one of UNINTENDED_PURCHASE, FULFILLMENT_ISSUE"),
    Refusal(
      label: "a reason without a refund request",
      yaml: "name: x\nsteps:\n  - launch\n  - store: { refund: last, reason: LEGAL }\n", line: 4,
      message: "reason goes with refundRequest only"),
    Refusal(
      label: "two kinds in one step", yaml: "name: x\nsteps:\n  - launch\n  - press: \"5\"\n    wait: 1s\n", line: 4,
      message: "one step has 2 kinds (press, wait)"),
    Refusal(
      label: "a step without its value", yaml: "name: x\nsteps:\n  - launch\n  - press\n", line: 4,
      message: "step 'press' needs a value"),
    Refusal(
      label: "keys before launch", yaml: "name: x\nsteps:\n  - press: \"5\"\n  - launch\n", line: 3,
      message: "press before the app is launched"),
    Refusal(
      label: "launch twice", yaml: "name: x\nsteps:\n  - launch\n  - launch\n", line: 4,
      message: "the app is already launched (expected relaunch to start it again)"),
    Refusal(
      label: "missing steps", yaml: "name: x\n", line: 1, message: "missing field 'steps'"),
    Refusal(
      label: "not YAML", yaml: "name: x\nsteps:\n  - expect: { screen: \"a\"\n", line: 4,
      message: "not valid YAML"),
  ]

  @Test(arguments: refusals)
  func refusedWithItsLine(_ refusal: Refusal) {
    let found = problems(refusal.yaml)
    let problem = found.first { $0.message.contains(refusal.message) }
    #expect(problem != nil, "\(found.map(\.description))")
    #expect(problem?.line == refusal.line)
    // A YAML syntax error says its column too.
    let place = "test.yaml:\(refusal.line)" + (problem?.column.map { ":\($0)" } ?? "") + ": "
    #expect(problem?.description.hasPrefix(place) == true)
  }

  @Test func everyProblemOfAFileIsReportedInLineOrder() {
    let found = problems(
      """
      name: x
      steps:
        - press: "5"
        - launch
        - jump
        - wait: soon
      """)
    #expect(found.map(\.line) == [3, 5, 6])
  }

  @Test func aMissingFileIsRefusedWithItsPath() {
    #expect(throws: WalkthroughError.self) { try WalkthroughParser.load(path: "/nonexistent/walk.yaml") }
  }

  @Test func everyStepKindParses() throws {
    let walkthrough = try parse(
      """
      name: All kinds
      description: Every step
      size: 120x40
      language: ja
      storefront: JPN
      wallet: { balance: 3 }
      conditions: { latency: instant }
      steps:
        - say: Hello
        - launch: { waitForProducts: false }
        - press: [Space, Ctrl-C]
        - relaunch
        - wait: 1.5s
        - wait: 500ms
        - wait: 2m
        - set: { network: down, failNext: 5002 }
        - store: { resolve: 3 }
        - crash: afterDeliveryBeforeFinish
        - expect:
            screen: [a, b]
            notScreen: c
            balance: 3
            event: purchased
            events: [purchasing, purchased]
            transaction: { id: 3, state: failed, finished: true, errorCode: paymentCancelled, quantity: 2, product: p }
        - snapshot
      """)
    #expect(walkthrough.size == ScreenSize(width: 120, height: 40))
    #expect(walkthrough.language == .ja)
    #expect(walkthrough.balance == 3)
    #expect(walkthrough.conditions.map(\.description) == ["storefront = JPN", "latency = instant"])
    #expect(
      walkthrough.steps.map(\.kind) == [
        "say", "launch", "press", "relaunch", "wait", "wait", "wait", "set", "store", "crash", "expect", "snapshot",
      ])
    #expect(walkthrough.steps.map(\.description)[4...6] == ["wait 1.5s", "wait 500ms", "wait 2m"])
    #expect(walkthrough.steps[2].description == "press Space Ctrl-C")
    guard case .expect(let expectations) = walkthrough.steps[10].action,
      case .transaction(let transaction) = expectations.last
    else {
      Issue.record("expected an expect step")
      return
    }
    #expect(expectations.count == 7)
    #expect(transaction.errorCode == 2)
  }
}

@Suite("Walkthroughs: JUnit", .tags(.walkthroughs))
struct JUnitReportTests {
  @Test func oneTestCasePerWalkthroughWithFailureMessagesInWellFormedXML() throws {
    let passing = try run("name: Passing & <fine>\nsteps:\n  - launch\n  - expect: { screen: \"Buy $0.99\" }\n")
    let failing = try run("name: Failing \"one\"\nsteps:\n  - launch\n  - expect: { balance: 7 }\n")
    let xml = JUnitReport.xml(
      [passing, failing], rejected: [.init(path: "bad.yaml", line: 3, message: "unknown step 'jump'")])

    let delegate = JUnitCollector()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = delegate
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(delegate.testcases == ["Passing & <fine>", "Failing \"one\"", "bad.yaml"])
    #expect(delegate.failures.count == 1)
    #expect(delegate.failures.first?.contains("step 2 (line 4): expect balance 7") == true)
    #expect(delegate.failures.first?.contains("found 0 credits") == true)
    #expect(delegate.errors == ["bad.yaml:3: unknown step 'jump'"])
    #expect(delegate.suiteCounts == ["3", "1", "1", "0"])
  }

  /// A walkthrough not run because another file was refused is a skipped case saying why.
  @Test func aWalkthroughNotRunIsSkippedSayingWhy() throws {
    let good = try WalkthroughParser.parse("name: Good\nsteps:\n  - launch\n", path: "good.yaml")
    let xml = JUnitReport.xml(
      [], rejected: [.init(path: "bad.yaml", line: 3, message: "unknown step 'jump'")], notRun: [good])
    let delegate = JUnitCollector()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = delegate
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(delegate.testcases == ["Good", "bad.yaml"])
    #expect(
      delegate.skipped == [
        "not run: another walkthrough file was refused (bad.yaml), and nothing runs until every file is accepted"
      ])
    #expect(delegate.suiteCounts == ["2", "0", "1", "1"])
  }
}

private final class JUnitCollector: NSObject, XMLParserDelegate {
  var testcases: [String] = []
  var failures: [String] = []
  var errors: [String] = []
  var skipped: [String] = []
  var suiteCounts: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    switch element {
    case "testsuite":
      suiteCounts = [attributes["tests"], attributes["failures"], attributes["errors"], attributes["skipped"]].map {
        $0 ?? ""
      }
    case "testcase": testcases.append(attributes["name"] ?? "")
    case "failure": failures.append(attributes["message"] ?? "")
    case "error": errors.append(attributes["message"] ?? "")
    case "skipped": skipped.append(attributes["message"] ?? "")
    default: break
    }
  }
}

@Suite("Walkthroughs: playing live", .tags(.walkthroughs))
struct WalkthroughPlayerTests {
  @Test func spaceAdvancesAStepAndTheBandNarrates() throws {
    let walkthrough = try parse(
      """
      name: Play
      steps:
        - say: The app adds its observer at launch.
        - launch
        - press: ["5", Enter]
        - wait: 1s
        - expect: { balance: 5 }
      """)
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
    var now = Date(timeIntervalSince1970: 1_000)
    player.start(now: now)
    var screen = draw(player, height: 29)
    #expect(screen.contains("The app is not running yet."))
    #expect(screen.contains("next: narration"))
    #expect(screen.contains("step 0/5"))

    player.handle(.character(" "), now: now)
    screen = draw(player, height: 29)
    #expect(screen.contains("The app adds its observer at launch."))
    #expect(screen.contains("next: launch"))
    #expect(screen.contains("step 1/5"))

    // The product request answers on the wall clock.
    player.handle(.enter, now: now)
    #expect(player.nextDeadline == now.addingTimeInterval(0.4))
    now = now.addingTimeInterval(0.4)
    player.tick(now: now)
    #expect(player.nextDeadline == nil)
    #expect(draw(player, height: 29).contains("Buy $0.99"))

    player.handle(.character(" "), now: now)
    player.handle(.character(" "), now: now)
    screen = draw(player, height: 29)
    #expect(screen.contains("Space/Enter skip the wait"))
    // Space skips the rest of the wait.
    player.handle(.character(" "), now: now)
    player.handle(.character(" "), now: now)
    screen = draw(player, height: 29)
    #expect(screen.contains("step 5/5"))
    #expect(screen.contains("The walkthrough is over: every step held"))
    #expect(player.session?.storage.wallet.balance == 5)
    // The keys that act everywhere act in the player too.
    player.handle(.ctrlL, now: now)
    player.handle(.ctrlZ, now: now)
    #expect(player.takeScreenRequests() == [.redraw, .suspend])
    #expect(player.takeScreenRequests().isEmpty)
    #expect(!player.isFinished)
    player.handle(.ctrlC, now: now)
    #expect(player.isFinished)

    player.handle(.character("q"), now: now)
    #expect(player.isFinished)
  }

  @Test func theStorefrontFitsAboveTheBandOnAnEightyByTwentyFourTerminal() throws {
    let walkthrough = try parse("name: Small\nsteps:\n  - launch\n")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
    player.handle(.enter, now: Date())
    player.handle(.enter, now: Date())
    let screen = draw(player, height: 24)
    #expect(screen.contains("monkeyshop — Monkey Credits"))
    #expect(screen.contains("── Walkthrough: Small"))
    #expect(!screen.contains("terminal too small"))
  }

  private func draw(_ player: WalkthroughPlayer, height: Int) -> TextGrid {
    var grid = TextGrid(size: ScreenSize(width: 80, height: height))
    player.draw(on: &grid)
    return grid
  }
}
