import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import Testing

@testable import MonkeyShopWalkthrough

/// The repository, found from this file so the tests run from any directory.
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let library = repository.appendingPathComponent("Walkthroughs").path
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)
private let now = Date(timeIntervalSince1970: 1_000)
private let small = ScreenSize(width: 80, height: 24)
private let roomy = ScreenSize(width: 100, height: 30)

private func player(_ name: String, size: ScreenSize = small, language: Language? = nil) throws -> WalkthroughPlayer {
  let walkthrough = try WalkthroughParser.load(path: "\(library)/\(name).yaml")
  let player = WalkthroughPlayer(
    walkthrough: walkthrough, catalog: catalog, language: language, shopLanguage: language)
  player.resized(size, now: now)
  player.start(now: now)
  return player
}

private func press(_ player: WalkthroughPlayer, _ keys: [Key]) {
  for key in keys { player.handle(key, now: now) }
}

/// `g N Enter`: the step typed, replayed.
private func goTo(_ player: WalkthroughPlayer, _ step: Int) {
  press(player, [.character("g")] + String(step).map { .character($0) } + [.enter])
}

/// Space until the walkthrough is over (a wait takes a second Space, which skips it).
private func playToTheEnd(_ player: WalkthroughPlayer) {
  for _ in 0..<(player.walkthrough.steps.count * 2) where !player.isFreePlay {
    player.handle(.character(" "), now: now)
  }
}

private func screen(_ player: WalkthroughPlayer, _ size: ScreenSize = small) -> TextGrid {
  var grid = TextGrid(size: size)
  player.draw(on: &grid)
  return grid
}

private func bandTop(_ grid: TextGrid) -> Int {
  grid.lines.firstIndex { $0.hasPrefix("── Walkthrough:") || $0.hasPrefix("── ウォークスルー:") } ?? 0
}

/// The rows above the band.
private func above(_ grid: TextGrid) -> [String] { Array(grid.lines[..<bandTop(grid)]) }

/// The band's rows, from its title down.
private func bandRows(_ grid: TextGrid) -> [String] { Array(grid.lines[bandTop(grid)...]) }

/// Text as a row shows it, its words run together: wrapped rows read as one text again.
private func joined(_ rows: [String]) -> String {
  rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// Whether every word of `text` shows, in order, in `shown` (wrapping breaks lines between words,
/// and Japanese between characters).
private func reads(_ shown: String, _ text: String) -> Bool {
  let flat = shown.filter { !$0.isWhitespace }
  return flat.contains(text.filter { !$0.isWhitespace })
}

@Suite("Walkthroughs: what the player lets a trainer read", .tags(.walkthroughs))
struct WalkthroughPlayerReadingTests {
  /// Space until `count` steps are done (a wait takes a second Space, which skips it).
  private func step(_ player: WalkthroughPlayer, to count: Int) {
    for _ in 0..<(count * 2) where (player.session?.performed ?? 0) < count || player.model.isWaiting {
      player.handle(.character(" "), now: now)
    }
  }

  // MARK: Panels

  /// A panel scrolled at one step does not open scrolled at a later step's panel; a panel that
  /// fits in the rows above the band does not scroll, and says no `↓ more`.
  @Test func aLaterPanelOpensAtItsTop() throws {
    let player = try player("signed-transaction-inspected")
    goTo(player, 11)
    press(player, Array(repeating: .down, count: 7))
    #expect(!above(screen(player)).contains { $0.contains("Transaction #1 · 1 of 1") }, "scrolled: \(screen(player))")
    goTo(player, 35)
    let later = screen(player)
    #expect(above(later).contains { $0.contains("Transaction payment 3") }, "the title in sight:\(later)")
    #expect(above(later).contains { $0.contains("No signed transaction") }, "\(later)")
    #expect(!above(later).contains { $0.contains("↓ more") }, "nothing below a short panel:\(later)")
    #expect(above(later).contains { $0.contains("└─") }, "its bottom edge in sight:\(later)")
    player.handle(.down, now: now)
    #expect(above(screen(player)) == above(later), "↓ moves nothing")
    #expect(joined(bandRows(screen(player))).contains("nothing below"), "\(screen(player))")
  }

  /// A tall panel scrolls until its bottom edge is in view, no further: `↓ more` goes when the
  /// last row shows.
  @Test func aTallPanelStopsAtItsLastRow() throws {
    let player = try player("signed-transaction-inspected")
    goTo(player, 11)
    for _ in 0..<20 where above(screen(player)).contains(where: { $0.contains("↓ more") }) {
      player.handle(.down, now: now)
    }
    let bottom = screen(player)
    let rows = above(bottom)
    #expect(rows.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("Esc close") == true, "\(bottom)")
    player.handle(.down, now: now)
    #expect(above(screen(player)) == rows, "no further than the last row")
  }

  // MARK: Narration

  /// The description is shown whole before the first step, at 80×24 and 100×30, in English and
  /// with a Japanese band.
  @Test(arguments: [
    ("buy-5", roomy, Language.en), ("signed-transaction-inspected", small, .en),
    ("signed-transaction-inspected", roomy, .ja), ("storefront-change-mid-purchase", small, .en),
  ])
  func theDescriptionShowsWhole(name: String, size: ScreenSize, language: Language) throws {
    let player = try player(name, size: size, language: language)
    let grid = screen(player, size)
    let description = try #require(player.walkthrough.summary)
    #expect(reads(joined(bandRows(grid)), description), "\(grid)")
  }

  /// The last narration, whole at the last step, stays whole in free play.
  @Test(arguments: [small, roomy])
  func theLastNarrationStaysWholeInFreePlay(size: ScreenSize) throws {
    let player = try player("buy-5", size: size)
    playToTheEnd(player)
    #expect(player.isFreePlay)
    let last = try #require(
      player.walkthrough.steps.compactMap { if case .say(let text) = $0.action { text } else { nil } }.last)
    let grid = screen(player, size)
    #expect(reads(joined(bandRows(grid)), last), "\(grid)")
    #expect(grid.contains("The walkthrough is over"), "\(grid)")
  }

  /// A narration longer than the band holds beside the storefront says so on its last row, and
  /// ↓ brings the rest; ↑ goes back.
  @Test func aLongNarrationScrolls() throws {
    let player = try player("storefront-change-mid-purchase")
    press(player, [.character(" ")])  // launch: the storefront takes the screen's top
    let description = try #require(player.walkthrough.summary)
    let first = screen(player)
    #expect(bandRows(first).contains { $0.contains("↓ more") }, "\(first)")
    #expect(bandRows(first).last?.contains("↓/PgDn more") == true, "the keys line names ↓:\(first)")
    #expect(above(first).contains { $0.contains("monkey credits") }, "the storefront keeps its rows:\(first)")
    var shown = joined(bandRows(first))
    for _ in 0..<20 where bandRows(screen(player)).contains(where: { $0.contains("↓ more") }) {
      player.handle(.down, now: now)
      shown += " " + joined(bandRows(screen(player)))
    }
    let text = shown.replacingOccurrences(of: "↓ more", with: "").replacingOccurrences(of: "↑ more", with: "")
    #expect(reads(text, String(description.suffix(60))), "\(screen(player))")
    #expect(bandRows(screen(player)).contains { $0.contains("↑ more") }, "\(screen(player))")
    #expect(player.session?.performed == 1, "scrolling performs no step")
    for _ in 0..<20 { player.handle(.up, now: now) }
    #expect(bandRows(screen(player)).prefix(3) == bandRows(first).prefix(3), "back at the top")
  }

  // MARK: The keys line and the status rows

  /// At 80×24, beside a tall panel (↓ scrolls it), the keys line still names the next step, in
  /// English and Japanese: less used keys make room for it.
  @Test(arguments: [
    (Language.en, "next: expect screen \"Transaction #1 · 1 of 1\""), (.ja, "次: 確認 画面に「Transaction #1 · 1 of 1」"),
  ])
  func theNextStepIsNeverCut(language: Language, next: String) throws {
    let player = try player("signed-transaction-inspected", language: language)
    step(player, to: 10)
    let keys = try #require(bandRows(screen(player)).last)
    #expect(keys.contains(next), "\(keys)")
    #expect(keys.contains(language == .ja ? "q 終了" : "q quit"), "\(keys)")
  }

  /// In Japanese free play, Enter's notice names the storefront's key whole, on two rows.
  @Test func theKeyNamedInFreePlayIsNeverCut() throws {
    let player = try player("storekit2-unverified", language: .ja)
    playToTheEnd(player)
    player.handle(.enter, now: now)
    let text = joined(bandRows(screen(player)))
    #expect(reads(text, "ウォークスルーは終わりました: Enter ではもう進みません。ストアフロントでは b 購入"), "\(screen(player))")
  }

  // MARK: The size warning

  /// The terminal-size note is said before the first step, not after each `say`; again when the
  /// terminal shrinks.
  @Test func theSizeWarningIsSaidOnce() throws {
    let player = try player("crash-before-delivery")
    #expect(joined(bandRows(screen(player))).contains("smaller than the 80×30"))
    for step in [2, 8] {
      self.step(player, to: step)
      #expect(!joined(bandRows(screen(player))).contains("smaller than"), "step \(step):\(screen(player))")
    }
    press(player, [.character(" ")])
    player.resized(ScreenSize(width: 90, height: 28), now: now)
    player.resized(small, now: now)
    #expect(joined(bandRows(screen(player))).contains("smaller than the 80×30"), "resized smaller")
    press(player, [.character(" ")])
    #expect(!joined(bandRows(screen(player))).contains("smaller than"), "said until the next step")
  }

  // MARK: Free play

  /// In free play Enter and Space neither buy from the main screen nor confirm a payment sheet;
  /// the band names the storefront's own key, Space's as Enter's.
  @Test(arguments: [Language.en, .ja])
  func theStepKeysNeverBuyInFreePlay(language: Language) throws {
    let player = try player("buy-5", language: language)
    playToTheEnd(player)
    let bought = player.session?.storage.store.transactions.count
    player.handle(.character(" "), now: now)
    #expect(joined(bandRows(screen(player))).contains(language == .ja ? "b 購入" : "b buy"), "\(screen(player))")
    player.handle(.character("5"), now: now)
    #expect(player.session?.runtime?.model.overlay != nil, "the sheet is open")
    for key in [Key.enter, .character(" ")] {
      player.handle(key, now: now)
      #expect(joined(bandRows(screen(player))).contains(language == .ja ? "y 購入" : "y buy"), "\(screen(player))")
    }
    #expect(player.session?.storage.store.transactions.last?.awaitsPaymentSheet == true, "not confirmed")
    player.handle(.character("y"), now: now)
    #expect(player.session?.storage.store.transactions.last?.awaitsPaymentSheet == false, "y buys")
    #expect(player.session?.storage.store.transactions.count == (bought ?? 0) + 1)
  }

  // MARK: Help

  /// At 80×24 every column of the player's help starts with a section's heading: the free play
  /// keys are listed under theirs.
  @Test(arguments: [Language.en, .ja])
  func eachHelpColumnStartsWithAHeading(language: Language) throws {
    let player = try player("buy-5", language: language)
    player.handle(.character("?"), now: now)
    let grid = screen(player)
    // The text of a row from a cell on (a wide character's second cell is empty).
    func text(_ y: Int, from x: Int) -> String { grid.cells[y][max(0, x)...].map(\.text).joined() }
    let headings = PlayerKeyContext.allCases.map { $0.title.text(language) }
    for binding in PlayerKeys.bindings where binding.context != .help {
      let help = binding.help.text(language)
      let line = TextWidth.fit(binding.keyLabel, to: 12) + help.prefix(4)
      let found = (1..<grid.size.height).lazy.compactMap { y in
        (0..<grid.size.width).first { text(y, from: $0).hasPrefix(line) }.map { (y, $0) }
      }.first
      let (row, x) = try #require(found, "\(help):\(grid)")
      // Up the column from the key's line: the first heading is its section's.
      let heading = (1..<row).reversed().lazy.map { text($0, from: x) }.first { line in
        headings.contains { line.hasPrefix($0) }
      }
      #expect(heading?.hasPrefix(binding.context.title.text(language)) == true, "\(help):\(grid)")
    }
  }
}
