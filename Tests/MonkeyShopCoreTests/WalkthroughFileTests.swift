import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

/// The problems a file is refused with when read for `catalog`, or none.
private func problems(_ yaml: String) -> [WalkthroughError.Problem] {
  do {
    _ = try WalkthroughParser.parse(yaml, path: "test.yaml", catalog: catalog)
    return []
  } catch {
    return error.problems
  }
}

@Suite("Walkthroughs: files checked against the catalog and the format", .tags(.walkthroughs))
struct WalkthroughFileTests {
  /// The storefronts the shipped catalog prices every product in.
  static let priced = "USA, JPN, GBR, DEU, FRA, CAN, AUS"

  @Test func aYAMLSyntaxErrorSaysItsLineColumnAndWhatWasExpected() {
    let found = problems("name: x\nsteps:\n  - press: [5\n  - bogus: 1\n")
    #expect(
      found.map(\.description) == [
        "test.yaml:4:10: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence that starts on line 3)"
      ], "\(found)")
  }

  /// A screen smaller than the storefront's least would show only "terminal too small" at every
  /// check: refused when the file is read, in the words `--size` is refused with.
  @Test func aScreenSmallerThanTheStorefrontsIsRefusedWithItsLine() {
    #expect(
      problems("name: x\nsize: 60x20\nsteps:\n  - launch\n").map(\.description) == [
        "test.yaml:2: size 60x20 is smaller than the storefront's 80×24 (expected at least 80x24)"
      ])
    #expect(problems("name: x\nsize: 79x24\nsteps:\n  - launch\n").count == 1)
    #expect(problems("name: x\nsize: 80x24\nsteps:\n  - launch\n").isEmpty)
  }

  /// A message says what is wrong with what was written: an empty list is empty, a wait too long
  /// is too long (with the limit), and a tab says YAML indents with spaces, at its line and column.
  @Test(arguments: [
    (
      "name: x\nsteps:\n  - launch\n  - expect: { events: [] }\n",
      "test.yaml:4: events is an empty list (expected a list of event names in order, such as [purchased, delivered, finished])"
    ),
    (
      "name: x\nsteps:\n  - wait: 99999999m\n",
      "test.yaml:3: '99999999m' is too long for a wait (expected at most a day: 1440m, 86400s)"
    ),
    (
      "name: x\nsteps:\n  - wait: 1441m\n",
      "test.yaml:3: '1441m' is too long for a wait (expected at most a day: 1440m, 86400s)"
    ),
    (
      "name: x\nsteps:\n  - wait: soon\n",
      "test.yaml:3: 'soon' is not a duration (expected a number with ms, s or m, such as 500ms, 2s, 1.5s or 2m)"
    ),
    (
      "name: x\nsteps:\n\t- launch\n",
      "test.yaml:3:1: not valid YAML: a tab (expected spaces: YAML indents with spaces, not tabs)"
    ),
    (
      "name: x\nsteps:\n  - launch\n  - expect:\n  \t  balance: 0\n",
      "test.yaml:5:3: not valid YAML: a tab (expected spaces: YAML indents with spaces, not tabs)"
    ),
  ])
  func aMessageSaysWhatIsWrong(yaml: String, expected: String) {
    #expect(problems(yaml).map(\.description) == [expected])
  }

  @Test func aWaitOfADayIsAccepted() {
    #expect(problems("name: x\nsteps:\n  - wait: 1440m\n  - wait: 86400s\n").isEmpty)
  }

  /// A key given twice in one mapping is refused as every other problem is: the file, the line and
  /// column of the repeat, what was found there (with the line it first appeared on) and what was
  /// expected. In a block mapping and in a flow one, where both are on one line.
  @Test(arguments: [
    (
      "name: x\nsteps:\n  - launch\nname: y\n",
      "test.yaml:4:1: not valid YAML: duplicate key 'name', first on line 1 (expected each key once in a mapping)"
    ),
    (
      "name: x\nsteps:\n  - launch\n  - expect: {balance: 0, events: [], balance: 5}\n",
      "test.yaml:4:38: not valid YAML: duplicate key 'balance', first on line 4, column 14 (expected each key once in a mapping)"
    ),
    (
      "name: x\nsteps:\n  - expect:\n      balance: 0\n      \"balance\": 1\n      balance: 2\n",
      "test.yaml:5:7: not valid YAML: duplicate key 'balance', first on line 4 (expected each key once in a mapping)"
    ),
  ])
  func aDuplicateKeySaysBothLines(yaml: String, expected: String) {
    #expect(problems(yaml).map(\.description) == [expected])
  }

  /// A transaction id the store can never give (0, a leading zero, a number past the store's last,
  /// digits of another script) is refused when the file is read, with its line and what was
  /// expected, by every store operation and by a transaction check alike; a well-formed id the
  /// store has not given yet waits for the step, which may come after the purchase that gives it.
  @Test(arguments: [
    ("  - store: { refundRequest: 0 }", "0"),
    ("  - store: { approve: \"007\" }", "007"),
    ("  - store: { refundGrant: 9007199254740992 }", "9007199254740992"),
    ("  - store: { refundReverse: \"\u{663}\" }", "\u{663}"),
    ("  - expect: { transaction: { id: 0 } }", "0"),
  ])
  func aTransactionThatCanNeverBeIsRefusedWithItsLine(step: String, id: String) {
    let found = problems("name: x\nsteps:\n  - launch\n\(step)\n")
    #expect(
      found.map(\.description) == [
        "test.yaml:4: '\(id)' is not a transaction (expected a transaction id, a number from 1 such as 3, or last)"
      ], "\(found)")
    #expect(problems("name: x\nsteps:\n  - launch\n  - store: { refundRequest: 9007199254740991 }\n").isEmpty)
  }

  /// A storefront the catalog has no prices in cannot run: it is refused with the file, the line
  /// and the storefronts the catalog does price, as a starting storefront, a starting condition and
  /// a `set` step.
  @Test(arguments: [
    ("name: Italy\nstorefront: ITA\nsteps:\n  - launch\n", 2),
    ("name: Italy\nconditions: { storefront: ITA }\nsteps:\n  - launch\n", 2),
    ("name: Italy\nsteps:\n  - launch\n  - set: { storefront: ITA }\n", 4),
  ])
  func aStorefrontWithoutPricesIsRefusedWithItsLine(yaml: String, line: Int) {
    let found = problems(yaml)
    #expect(found.count == 1, "\(found)")
    let problem = found.first
    #expect(problem?.line == line, "\(found)")
    #expect(problem?.description.hasPrefix("test.yaml:\(line): ") == true, "\(found)")
    #expect(problem?.message.contains("no prices for storefront ITA") == true, "\(found)")
    #expect(problem?.message.contains("expected a storefront it prices: \(Self.priced)") == true, "\(found)")
  }

  @Test func aStorefrontTheCatalogPricesIsAccepted() {
    #expect(problems("name: Japan\nstorefront: JPN\nsteps:\n  - launch\n  - set: { storefront: DEU }\n").isEmpty)
  }

  /// `transaction: STATE` is short for `transaction: { state: STATE }`, the newest transaction.
  @Test func transactionStateIsShortForItsState() throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: Short
      conditions: { askToBuy: on }
      steps:
        - launch
        - press: ["5", Enter]
        - wait: 1s
        - expect: { transaction: deferred }
        - store: { approve: last }
        - expect: { transaction: purchased }
      """, path: "short.yaml", catalog: catalog)
    let result = WalkthroughRunner(catalog: catalog).run(walkthrough)
    #expect(result.passed, "\(Transcript.text(result))")
    let transcript = Transcript.text(result)
    #expect(transcript.contains("✓ expect transaction last state deferred"), "\(transcript)")
    #expect(transcript.contains("✓ expect transaction last state purchased"), "\(transcript)")
  }

  @Test func anUnknownShortTransactionStateIsRefused() {
    let found = problems("name: Bad\nsteps:\n  - launch\n  - expect: { transaction: deferd }\n")
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.line == 4)
    #expect(found.first?.message.contains("unknown transaction state 'deferd' (did you mean 'deferred'?)") == true)
    #expect(found.first?.message.contains("purchasing, purchased, failed") == true, "\(found)")
  }

  /// Playing a walkthrough whose check fails leaves the failure for the command's exit status.
  @Test func aPlayedWalkthroughRemembersItsFailure() throws {
    let walkthrough = try WalkthroughParser.parse(
      "name: Fails\nsteps:\n  - launch\n  - expect: { balance: 50 }\n  - say: never\n", path: "fails.yaml")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
    player.handle(.enter, now: Date(timeIntervalSince1970: 0))
    player.handle(.enter, now: Date(timeIntervalSince1970: 0))
    #expect(player.failure == nil)
    player.handle(.enter, now: Date(timeIntervalSince1970: 0))
    #expect(player.failure?.contains("step 2 (line 4): expect balance 50") == true, "\(player.failure ?? "")")
  }
}
