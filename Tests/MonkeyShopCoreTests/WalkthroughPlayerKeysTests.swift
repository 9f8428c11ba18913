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

private func player(
  _ name: String, size: ScreenSize = .minimum, language: Language? = nil, shopLanguage: Language? = nil,
  auto: TimeInterval? = nil
) throws -> WalkthroughPlayer {
  let walkthrough = try WalkthroughParser.load(path: "\(library)/\(name).yaml")
  let player = WalkthroughPlayer(
    walkthrough: walkthrough, catalog: catalog, language: language, shopLanguage: shopLanguage, autoAdvance: auto)
  player.resized(size, now: now)
  player.start(now: now)
  return player
}

private func inline(_ yaml: String) throws -> WalkthroughPlayer {
  let player = WalkthroughPlayer(walkthrough: try WalkthroughParser.parse(yaml, path: "inline.yaml"), catalog: catalog)
  player.resized(.minimum, now: now)
  player.start(now: now)
  return player
}

/// Space until `count` steps are done (a wait takes a second Space, which skips it).
private func step(_ player: WalkthroughPlayer, to count: Int) {
  for _ in 0..<(count * 2) where (player.session?.performed ?? 0) < count || player.model.isWaiting {
    player.handle(.character(" "), now: now)
  }
}

private func screen(_ player: WalkthroughPlayer, _ size: ScreenSize = .minimum) -> TextGrid {
  var grid = TextGrid(size: size)
  player.draw(on: &grid)
  return grid
}

/// The rows above the band.
private func above(_ grid: TextGrid) -> [String] {
  let band = grid.lines.firstIndex { $0.hasPrefix("── Walkthrough:") || $0.hasPrefix("── ウォークスルー:") } ?? 0
  return Array(grid.lines[..<band])
}

private func band(_ grid: TextGrid) -> String {
  let top = grid.lines.firstIndex { $0.hasPrefix("── Walkthrough:") || $0.hasPrefix("── ウォークスルー:") } ?? 0
  return grid.lines[top...].joined(separator: "\n")
}

@Suite("Walkthroughs: the player's keys, panels and failures", .tags(.walkthroughs))
struct WalkthroughPlayerKeysTests {
  /// At 80×24 the transaction's detail is taller than the rows above the band: it says `↓ more`,
  /// ↓ brings the rest (the price the narration talks about) into view, and the band warned that
  /// the terminal is smaller than the walkthrough's screen and the band.
  @Test func aTallPanelScrollsAndSaysThereIsMore() throws {
    let player = try player("signed-transaction-inspected")
    #expect(band(screen(player)).contains("Terminal 80×24, smaller than the 80×30"), "\(screen(player))")
    step(player, to: 10)
    let first = screen(player)
    #expect(first.contains("Transaction #1 · 1 of 1"), "\(first)")
    #expect(above(first).contains { $0.contains("↓ more") }, "\(first)")
    #expect(!above(first).contains { $0.contains("Esc close") }, "\(first)")
    var downs = 0
    while downs < 10, !above(screen(player)).contains(where: { $0.contains("price: 960000") }) {
      player.handle(.down, now: now)
      downs += 1
    }
    #expect(above(screen(player)).contains { $0.contains("price: 960000") }, "↓ brings the price the narration names")
    for _ in downs..<10 { player.handle(.down, now: now) }
    let scrolled = screen(player)
    #expect(above(scrolled).contains { $0.contains("└─") && $0.contains("Esc close") }, "\(scrolled)")
    #expect(above(scrolled).contains { $0.contains("↑ more") }, "\(scrolled)")
    #expect(!above(scrolled).contains { $0.contains("↓ more") }, "\(scrolled)")
    #expect(player.session?.performed == 10, "scrolling performs no step")
    player.handle(.character(" "), now: now)
    #expect(player.failure == nil, "the step's own checks still hold")
  }

  /// The marker sits inside the panel against its right border, in both languages: not beside a
  /// narrow panel, and not over its border where the Japanese words are wider.
  @Test(arguments: Language.allCases)
  func theMoreMarkerKeepsThePanelsBorder(language: Language) throws {
    let player = try player("signed-transaction-inspected", language: language)
    step(player, to: 10)
    let below = language == .en ? "↓ more" : "↓ 続きあり"
    let upper = language == .en ? "↑ more" : "↑ 上にもあり"
    let first = above(screen(player))
    let row = try #require(first.first { $0.contains(below) }, "\(first)")
    #expect(row.contains(" \(below) │"), "\(row)")
    #expect(row.filter { $0 == "│" }.count == 2, "both borders kept: \(row)")
    player.handle(.pageDown, now: now)
    let scrolled = above(screen(player))
    let top = try #require(scrolled.first { $0.contains(upper) }, "\(scrolled)")
    #expect(top.contains(" \(upper) │"), "\(top)")
  }

  /// At 100×30 one row scrolled shows the panel's top edge and bottom edge: the markers go on
  /// them, before their corners, as the storefront's own detail puts its marker; the title stays.
  @Test func theMoreMarkersStayInsideThePanel() throws {
    let size = ScreenSize(width: 100, height: 30)
    let player = try player("signed-transaction-inspected", size: size)
    step(player, to: 10)
    player.handle(.down, now: now)
    let rows = above(screen(player, size))
    let upper = try #require(rows.firstIndex { $0.contains("↑ more") }, "\(rows.joined(separator: "\n"))")
    let lower = try #require(rows.firstIndex { $0.contains("↓ more") }, "\(rows.joined(separator: "\n"))")
    #expect(rows[upper].hasPrefix("┌─ Transaction #1") && rows[upper].hasSuffix(" ↑ more ┐"), "\(rows[upper])")
    #expect(rows[lower].hasPrefix("└─") && rows[lower].hasSuffix(" ↓ more ┘"), "\(rows[lower])")
  }

  /// A marker hides nothing it marks: it is on the panel's edge or has a row to itself, in the
  /// transaction's detail and in free play's storefront help, in both languages; ↓ and ↑ bring
  /// every row it stands for.
  @Test(arguments: Language.allCases)
  func theMoreMarkersHideNothing(language: Language) throws {
    let below = language == .en ? "↓ more" : "↓ 続きあり"
    let upper = language == .en ? "↑ more" : "↑ 上にもあり"
    func markers(_ player: WalkthroughPlayer) -> Int {
      let rows = above(screen(player))
      var found = 0
      for row in rows where row.contains(below) || row.contains(upper) {
        found += 1
        let marker = row.contains(below) ? below : upper
        if row.hasPrefix("┌") || row.hasPrefix("└") {
          // On the panel's edge: on its rule, before the corner.
          #expect(row.contains("─ \(marker) ┐") || row.contains("─ \(marker) ┘"), "\(row)")
        } else {
          let rest = row.replacingOccurrences(of: marker, with: "")
          #expect(rest.allSatisfy { " │".contains($0) }, "cut by a marker: \(row)\n\(rows.joined(separator: "\n"))")
        }
      }
      return found
    }
    let detail = try player("signed-transaction-inspected", language: language, shopLanguage: language)
    step(detail, to: 10)
    #expect(markers(detail) == 1)
    var seen = Set(above(screen(detail)))
    for _ in 0..<20 {
      detail.handle(.down, now: now)
      _ = markers(detail)
      seen.formUnion(above(screen(detail)))
    }
    #expect(markers(detail) == 1, "at the bottom only ↑")
    #expect(seen.contains { $0.contains("transactionReason: PURCHASE") }, "\(seen)")
    let free = try player("buy-5", language: language, shopLanguage: language)
    step(free, to: free.walkthrough.steps.count)
    free.handle(.character("?"), now: now)
    #expect(markers(free) == 1)
    free.handle(.pageDown, now: now)
    #expect(markers(free) == 1)
  }

  /// ↓ said there is nothing below where the panel fits; the terminal made smaller, the panel has
  /// rows below again: the band no longer says there are none.
  @Test func theBandAndThePanelAgreeAfterAResize() throws {
    let tall = ScreenSize(width: 100, height: 33)
    let player = try player("signed-transaction-inspected", size: tall)
    step(player, to: 10)
    player.handle(.down, now: now)
    #expect(band(screen(player, tall)).contains("nothing below"), "\(screen(player, tall))")
    let short = ScreenSize(width: 100, height: 30)
    player.resized(short, now: now)
    let grid = screen(player, short)
    #expect(above(grid).contains { $0.contains("↓ more") }, "\(grid)")
    #expect(!band(grid).contains("nothing below"), "\(grid)")
  }

  /// At 100×33 the same detail fits whole, its last hint too: nothing to scroll, no warning.
  @Test func aPanelThatFitsDoesNotScroll() throws {
    let size = ScreenSize(width: 100, height: 33)
    let player = try player("signed-transaction-inspected", size: size)
    #expect(!band(screen(player, size)).contains("smaller than the"))
    step(player, to: 10)
    let grid = screen(player, size)
    #expect(above(grid).contains { $0.contains("price: 960000") }, "\(grid)")
    #expect(!grid.contains("↓ more"), "\(grid)")
  }

  /// A failed screen check: the band keeps the expected text's spaces and shows the finding.
  @Test func theFailureBandKeepsSpacesAndShowsTheFinding() throws {
    let player = try inline(
      """
      name: Spaces
      steps:
        - launch
        - press: "5"
        - expect: { screen: "Quantity        7" }
      """)
    step(player, to: 3)
    #expect(player.failure != nil)
    let text = band(screen(player))
    #expect(text.contains("\"Quantity        7\""), "\(text)")
    #expect(text.contains("found not on the screen"), "\(text)")
    #expect(text.contains("walkthrough stops here"), "\(text)")
  }

  /// A long failure (an events check listing everything logged) is shown whole: the band grows.
  @Test func aLongFailureIsShownWhole() throws {
    let player = try inline(
      """
      name: Long
      steps:
        - launch
        - press: ["5", Enter]
        - wait: 3s
        - expect: { events: [observerAdded, productsRequested, restoreFinished] }
      """)
    step(player, to: 4)
    let failure = try #require(player.failure)
    // The band's rows as one text, each row's indent left out.
    let text = band(screen(player)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("(no restoreFinished after productsRequested)"), "\(failure)\n\(text)")
  }

  /// After the last step Enter (the step key) neither opens the payment sheet nor confirms one:
  /// the band says the walkthrough is over and names the storefront's own buy key.
  @Test func enterInFreePlayDoesNotBuy() throws {
    let player = try player("buy-5")
    step(player, to: player.walkthrough.steps.count)
    #expect(player.isFreePlay)
    let transactions = player.session?.storage.store.transactions.count
    for _ in 0..<3 { player.handle(.enter, now: now) }
    #expect(player.session?.runtime?.model.overlay == nil, "no payment sheet")
    #expect(player.session?.storage.store.transactions.count == transactions, "nothing bought")
    let text = band(screen(player))
    #expect(text.contains("The walkthrough is over: Enter steps no more"), "\(text)")
    #expect(text.contains("b buy"), "\(text)")
    // A payment sheet the person opened is not confirmed by Enter either: its own y is named.
    player.handle(.character("5"), now: now)
    player.handle(.enter, now: now)
    #expect(player.session?.storage.store.transactions.last?.awaitsPaymentSheet == true, "not confirmed")
    #expect(band(screen(player)).contains("y buy"), "\(band(screen(player)))")
    player.handle(.character("y"), now: now)
    #expect(player.session?.storage.store.transactions.last?.awaitsPaymentSheet == false, "bought on purpose")
  }

  /// In free play the payment sheet's footer and the storefront's hint bar name the key that buys
  /// there, y, not Enter, which steps no more; back in the walkthrough's steps, Enter again.
  @Test func freePlaysPaymentSheetNamesTheKeyThatBuys() throws {
    let player = try player("buy-5")
    step(player, to: player.walkthrough.steps.count)
    player.handle(.character("5"), now: now)
    let sheet = above(screen(player)).joined(separator: "\n")
    #expect(sheet.contains("y buy") && !sheet.contains("Enter buy"), "\(sheet)")
    #expect(sheet.contains("n cancel") || sheet.contains("Esc cancel"), "\(sheet)")
    player.handle(.escape, now: now)
    let main = above(screen(player)).joined(separator: "\n")
    #expect(!main.contains("Enter"), "\(main)")
  }

  /// In free play the storefront's help lists the keys as they act there: b buys and y confirms,
  /// not Enter, which steps no more; the panels where Enter is the storefront's still list it.
  @Test func freePlaysHelpListsTheKeysAsTheyAct() throws {
    let size = ScreenSize(width: 120, height: 60)
    let player = try player("buy-5", size: size)
    step(player, to: player.walkthrough.steps.count)
    #expect(player.isFreePlay)
    player.handle(.character("?"), now: now)
    let help = above(screen(player, size))
    let text = help.joined(separator: "\n")
    #expect(!text.contains("Enter/b") && !text.contains("Enter/y"), "\(text)")
    #expect(help.contains { $0.contains("│ b ") && $0.contains("buy the selected product") }, "\(text)")
    #expect(help.contains { $0.contains(" y ") && $0.contains("confirm the purchase") }, "\(text)")
    #expect(text.contains("→/Enter") && text.contains("Enter/i"), "\(text)")
  }

  /// At 80×24 the three products show above the band while the log keeps its newest lines.
  @Test func everyProductShowsAboveTheBand() throws {
    let player = try player("buy-5")
    step(player, to: 2)
    let rows = above(screen(player))
    #expect(!rows.contains { $0.contains("1/3") }, "\(rows.joined(separator: "\n"))")
    for product in catalog.products {
      let title = product.localization("en").title
      #expect(rows.contains { $0.contains(title) }, "\(title):\n\(rows.joined(separator: "\n"))")
    }
  }

  /// Without `--auto`, p says why it does nothing; with it, p pauses.
  @Test func pWithoutAutoSaysWhy() throws {
    let player = try player("buy-5")
    #expect(!band(screen(player)).contains("p pause"))
    player.handle(.character("p"), now: now)
    #expect(band(screen(player)).contains("p pauses --auto"), "\(band(screen(player)))")
  }

  /// g, a number and Enter go to that step, replayed in virtual time: the log is the one stepping
  /// there gives; ← goes back one step from there.
  @Test func goToAStepAndBack() throws {
    let stepped = try player("ask-to-buy-approved")
    step(stepped, to: 7)
    let atSeven = stepped.session?.log.map { "\($0.time) \($0.event.name)" }
    step(stepped, to: 8)
    let atEight = stepped.session?.log.map { "\($0.time) \($0.event.name)" }

    let player = try player("ask-to-buy-approved")
    for key: Key in [.character("g"), .character("8")] { player.handle(key, now: now) }
    #expect(band(screen(player)).contains("go to step (0–14): 8"), "\(band(screen(player)))")
    player.handle(.enter, now: now)
    #expect(player.session?.performed == 8)
    #expect(player.session?.log.map { "\($0.time) \($0.event.name)" } == atEight)
    #expect(band(screen(player)).contains("step 8/14"))
    player.handle(.left, now: now)
    #expect(player.session?.log.map { "\($0.time) \($0.event.name)" } == atSeven)
    #expect(band(screen(player)).contains("step 7/14"))
    // Esc leaves the number unused; a number past the end goes nowhere.
    for key: Key in [.character("g"), .character("3"), .escape] { player.handle(key, now: now) }
    #expect(player.session?.performed == 7)
    for key: Key in [.character("g"), .character("9"), .character("9"), .enter] { player.handle(key, now: now) }
    #expect(player.session?.performed == 7)
    #expect(band(screen(player)).contains("no step 99: the steps are 0–14"), "\(band(screen(player)))")
  }

  /// The step before presses Esc to close the transaction manager; a trainer pressing Esc there
  /// keeps the session, told that the steps press the storefront's keys.
  @Test(arguments: Language.allCases)
  func escWhereTheNextStepPressesEscKeepsTheSession(language: Language) throws {
    let player = try player("ask-to-buy-approved", language: language)
    let escStep = try #require(
      player.walkthrough.steps.firstIndex {
        if case .press(let keys) = $0.action { keys == [.escape] } else { false }
      })
    step(player, to: escStep)
    for key: Key in [.escape, .character("a")] {
      player.handle(key, now: now)
      #expect(!player.isFinished, "\(key) ended the player")
      #expect(player.session?.performed == escStep)
      let shown = band(screen(player))
      let said = language == .en ? "the walkthrough's steps press the storefront's keys" : "ストアフロントのキーはウォークスルーの手順が押します"
      #expect(shown.contains(said), "\(shown)")
    }
    player.handle(.character("q"), now: now)
    #expect(player.isFinished)
  }

  /// `--lang ja` on an English walkthrough: the storefront speaks Japanese on the screen while
  /// the walkthrough's English screen checks still hold.
  @Test func theStorefrontFollowsTheLanguage() throws {
    let player = try player("buy-5", language: .ja, shopLanguage: .ja)
    step(player, to: player.walkthrough.steps.count)
    #expect(player.failure == nil)
    #expect(player.isFreePlay)
    let grid = screen(player)
    #expect(grid.contains("モンキークレジット"), "\(grid)")
    #expect(!grid.contains("monkey credits"), "\(grid)")
  }

  /// Help lists the player's keys from its key table, and any key closes it.
  @Test func helpListsTheKeyTable() throws {
    let player = try player("buy-5")
    player.handle(.character("?"), now: now)
    let grid = screen(player)
    for binding in PlayerKeys.bindings where binding.context != .help {
      #expect(grid.contains(binding.help.text(.en)), "\(binding.help.en):\(grid)")
    }
    player.handle(.character("x"), now: now)
    #expect(!screen(player).contains("Walkthrough player: keys"))
    #expect(player.session?.performed == 0)
  }

  // MARK: --auto and the failure band

  /// A walkthrough whose fifth step of six fails, played with `--auto 1s`, stepped to the failure.
  private func failingAtFive(language: Language = .en) throws -> WalkthroughPlayer {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: Fails at five
      steps:
        - say: Five credits are bought.
        - launch
        - press: "5"
        - press: Enter
        - expect: { balance: 7 }
        - say: Never reached.
      """, path: "inline.yaml")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog, language: language, autoAdvance: 1)
    player.resized(.minimum, now: now)
    player.start(now: now)
    for _ in 0..<10 where player.failure == nil { player.handle(.character(" "), now: now) }
    #expect(player.failure != nil)
    return player
  }

  /// b at the failure band goes back a step to look at it: --auto pauses there, and says so,
  /// instead of running into the same failure a second later; p resumes it.
  @Test(arguments: Language.allCases)
  func backAfterAFailurePausesAuto(language: Language) throws {
    let player = try failingAtFive(language: language)
    player.handle(.character("b"), now: now)
    let back = band(screen(player))
    #expect(back.contains(language == .en ? "step 4/6" : "手順 4/6"), "\(back)")
    #expect(back.contains(language == .en ? "auto paused (p resume)" : "自動停止中（p 再開）"), "\(back)")
    player.tick(now: now.addingTimeInterval(5))
    #expect(player.failure == nil, "the step before the failure stays in view")
    #expect(band(screen(player)).contains(language == .en ? "step 4/6" : "手順 4/6"), "\(band(screen(player)))")
    player.handle(.character("p"), now: now.addingTimeInterval(5))
    player.tick(now: now.addingTimeInterval(6))
    #expect(player.failure != nil, "resumed, the next step came by itself")
  }

  /// p at the failure band says why nothing comes by itself, and which keys act there.
  @Test(arguments: Language.allCases)
  func pAtTheFailureBandSaysWhy(language: Language) throws {
    let player = try failingAtFive(language: language)
    player.handle(.character("p"), now: now)
    let said = band(screen(player))
    let expected =
      language == .en
      ? "p: the walkthrough stopped at a failed step — b goes back, r restarts"
      : "p: 失敗した手順で止まっています — b で戻る、r で最初から"
    #expect(said.contains(expected), "\(said)")
  }

  /// Another key at the failure band says the band's own rule: no step presses keys any more.
  @Test(arguments: Language.allCases)
  func anotherKeyAtTheFailureBandSaysTheBandsRule(language: Language) throws {
    let player = try failingAtFive(language: language)
    for key: Key in [.character("x"), .character(" ")] {
      player.handle(key, now: now)
      let said = band(screen(player))
      let name = PlayerKeyBinding.name(of: key)
      let expected =
        language == .en
        ? "\(name): the walkthrough stopped at a failed step — b goes back, r restarts"
        : "\(name): 失敗した手順で止まっています — b で戻る、r で最初から"
      #expect(said.contains(expected), "\(said)")
      #expect(!said.contains("press the storefront's keys") && !said.contains("ストアフロントのキーは"), "\(said)")
    }
  }

  /// While help is open no step comes by itself (the audience would see none of it); closed, the
  /// countdown starts again.
  @Test(arguments: Language.allCases)
  func autoWaitsWhileHelpIsOpen(language: Language) throws {
    let player = try player("buy-5", language: language, shopLanguage: language, auto: 3)
    player.handle(.character("?"), now: now.addingTimeInterval(0.5))
    for seconds in [4.0, 8, 12] { player.tick(now: now.addingTimeInterval(seconds)) }
    #expect(player.session?.performed == 0, "steps ran behind help")
    player.handle(.character("x"), now: now.addingTimeInterval(12))
    let closed = band(screen(player))
    #expect(closed.contains(language == .en ? "auto 3.0s (p pause)" : "自動 3.0s（p 一時停止）"), "\(closed)")
    player.tick(now: now.addingTimeInterval(15))
    #expect(player.session?.performed == 1)
  }

  /// While a step's number is typed after g, no step comes by itself: the step typed would not be
  /// the one the player is at. Esc leaves the number and the countdown starts again.
  @Test func autoWaitsWhileAStepNumberIsTyped() throws {
    let player = try player("buy-5", auto: 3)
    player.handle(.character("g"), now: now.addingTimeInterval(0.5))
    player.handle(.character("4"), now: now.addingTimeInterval(1))
    player.tick(now: now.addingTimeInterval(5))
    #expect(player.session?.performed == 0, "a step came while the number was typed")
    #expect(band(screen(player)).contains("go to step (0–13): 4"), "\(band(screen(player)))")
    player.handle(.escape, now: now.addingTimeInterval(5))
    #expect(band(screen(player)).contains("auto 3.0s (p pause)"), "\(band(screen(player)))")
    player.tick(now: now.addingTimeInterval(8))
    #expect(player.session?.performed == 1)
  }
}
