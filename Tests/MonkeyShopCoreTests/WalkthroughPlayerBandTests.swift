import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// The repository, found from this file so the tests run from any directory.
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let library = repository.appendingPathComponent("Walkthroughs").path
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

/// A bundled walkthrough played with Space until its last step, on the wall clock of the test.
private func playToTheEnd(_ name: String) throws -> WalkthroughPlayer {
  let walkthrough = try WalkthroughParser.load(path: "\(library)/\(name).yaml")
  let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
  let now = Date(timeIntervalSince1970: 1_000)
  player.start(now: now)
  // Space performs a step or skips the rest of a wait: twice per step is always enough.
  for _ in 0..<(walkthrough.steps.count * 2) { player.handle(.character(" "), now: now) }
  return player
}

private func draw(_ player: WalkthroughPlayer, width: Int = 80, height: Int) -> TextGrid {
  var grid = TextGrid(size: ScreenSize(width: width, height: height))
  player.draw(on: &grid)
  return grid
}

@Suite("Walkthroughs: the band and the storefront above it", .tags(.walkthroughs))
struct WalkthroughPlayerBandTests {
  /// At the end of `ask-to-buy-approved` the log's newest lines (the approval's purchase, delivery
  /// and finish) show above the band, on an 80×24 terminal as on larger ones.
  @Test(arguments: [(80, 24), (80, 25), (80, 27), (80, 29), (80, 30), (100, 24), (120, 40)])
  func theNewestLogLinesShowAboveTheBand(width: Int, height: Int) throws {
    let player = try playToTheEnd("ask-to-buy-approved")
    let screen = draw(player, width: width, height: height)
    let band = try #require(screen.lines.firstIndex { $0.hasPrefix("── Walkthrough: Ask to Buy, approved") })
    let above = screen.lines[..<band]
    for event in [".purchased #1", "finishTransaction"] {
      #expect(above.contains { $0.contains(event) }, "\(event) above the band:\(screen)")
    }
    #expect(above.contains { $0.contains("5 monkey credits") }, "the balance above the band:\(screen)")
    #expect(screen.contains("The walkthrough is over"), "\(screen)")
  }

  /// An overlay open at the end of a step is drawn whole in the rows above the band: its buttons
  /// and its keys line are in sight. After the last step (free play) Enter steps no more, so the
  /// payment sheet names y, the key that buys there.
  @Test(arguments: [
    ("5", "[ Buy ]", "└─ y buy"), ("Tab", "Transactions (1)", "└─ f refund · Enter detail/list · Esc close"),
  ])
  func anOpenOverlayShowsWholeAboveTheBand(key: String, inside: String, bottom: String) throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: Overlay
      steps:
        - launch
        - press: ["5", Enter]
        - wait: 2s
        - press: "\(key)"
      """, path: "overlay.yaml")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
    for _ in 0..<10 { player.handle(.character(" "), now: Date(timeIntervalSince1970: 5)) }
    let screen = draw(player, height: 24)
    let band = try #require(screen.lines.firstIndex { $0.hasPrefix("── Walkthrough: Overlay") })
    let above = screen.lines[..<band]
    #expect(above.contains { $0.contains(inside) }, "\(screen)")
    #expect(above.contains { $0.contains(bottom) }, "\(screen)")
  }

  /// Below the minimum size nothing is in sight: Space performs no step (a purchase is never
  /// confirmed unseen); once the screen is large again Space goes on; q quits while too small.
  @Test func underTooSmallOnlyQuittingActs() throws {
    let walkthrough = try WalkthroughParser.load(path: "\(library)/buy-5.yaml")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog)
    let now = Date(timeIntervalSince1970: 1_000)
    player.start(now: now)
    player.resized(ScreenSize(width: 60, height: 20), now: now)
    for key in [Key.character(" "), .enter, .character("b"), .character("r"), .ctrlL, .ctrlZ] {
      player.handle(key, now: now)
    }
    #expect(player.session?.performed == 0)
    #expect(player.takeScreenRequests().isEmpty, "Ctrl-L and Ctrl-Z do not act either, as in the storefront")
    player.resized(ScreenSize(width: 80, height: 24), now: now)
    player.handle(.character(" "), now: now)
    #expect(player.session?.performed == 1)
    player.resized(ScreenSize(width: 60, height: 20), now: now)
    player.handle(.character("q"), now: now)
    #expect(player.isFinished)
  }

  /// Below the minimum size the keys line offers only what acts: quitting, never a paused --auto's
  /// resume key or the next step.
  @Test func underTooSmallTheKeysLineOffersOnlyQuitting() throws {
    let walkthrough = try WalkthroughParser.load(path: "\(library)/buy-5.yaml")
    let player = WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog, autoAdvance: 3)
    let now = Date(timeIntervalSince1970: 1_000)
    player.resized(ScreenSize(width: 80, height: 24), now: now)
    player.start(now: now)
    player.handle(.character("p"), now: now)
    #expect(draw(player, height: 24).lines.last?.contains("auto paused (p resume)") == true)
    player.resized(ScreenSize(width: 60, height: 20), now: now)
    let keys = try #require(draw(player, width: 60, height: 20).lines.last)
    #expect(keys.contains("q quit"), "\(keys)")
    #expect(!keys.contains("auto paused"), "\(keys)")
    #expect(!keys.contains("next"), "\(keys)")
  }

  /// In free play the storefront takes its keys, but not below the minimum size: a sheet opened
  /// before the terminal shrank is not confirmed unseen.
  @Test func freePlayUnderTooSmallConfirmsNothing() throws {
    let player = try playToTheEnd("buy-5")
    #expect(player.isFreePlay)
    let now = Date(timeIntervalSince1970: 1_000)
    player.handle(.character("0"), now: now)
    #expect(player.session?.runtime?.model.overlay != nil, "the sheet is open")
    player.resized(ScreenSize(width: 60, height: 20), now: now)
    for key in [Key.enter, .character("y")] { player.handle(key, now: now) }
    #expect(
      player.session?.runtime?.model.store.transactions.last?.awaitsPaymentSheet == true,
      "the payment still waits for its sheet's answer")
    #expect(player.session?.runtime?.model.overlay != nil, "the sheet is still open")
  }
}
