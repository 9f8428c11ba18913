import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

private let buyFive = """
  name: Buy five
  steps:
    - say: The app adds its observer at launch.
    - launch
    - press: "5"
    - press: Enter
    - wait: 2s
    - expect: { balance: 5 }
  """

private func player(
  _ yaml: String = buyFive, language: Language? = nil, auto: TimeInterval? = nil
) throws -> WalkthroughPlayer {
  let walkthrough = try WalkthroughParser.parse(yaml, path: "play.yaml")
  return WalkthroughPlayer(walkthrough: walkthrough, catalog: catalog, language: language, autoAdvance: auto)
}

private func screen(_ player: WalkthroughPlayer, height: Int = 24) -> TextGrid {
  var grid = TextGrid(size: ScreenSize(width: 80, height: height))
  player.draw(on: &grid)
  return grid
}

/// The rows of the band (from its title down).
private func band(_ grid: TextGrid) -> String {
  let top = grid.lines.firstIndex { $0.hasPrefix("── Walkthrough:") || $0.hasPrefix("── ウォークスルー:") } ?? 0
  return grid.lines[top...].joined(separator: "\n")
}

private let start = Date(timeIntervalSince1970: 1_000)

/// Space until the walkthrough is over, at one instant (waits are skipped).
private func playToTheEnd(_ player: WalkthroughPlayer, now: Date = start) {
  for _ in 0..<(player.walkthrough.steps.count * 2) where !player.isFreePlay {
    player.handle(.character(" "), now: now)
  }
}

@Suite("Walkthroughs: the player for training", .tags(.walkthroughs))
struct WalkthroughPlayerTrainingTests {
  // MARK: Japanese

  /// With the band in Japanese, its labels, keys, step names and outcomes are Japanese; the
  /// walkthrough's own `say` text is shown as written.
  @Test func theBandSpeaksJapanese() throws {
    let player = try player(language: .ja)
    player.start(now: start)
    var text = band(screen(player))
    for japanese in ["── ウォークスルー: Buy five", "手順 0/6", "Space/Enter 次へ", "戻る", "最初から", "終了", "次: ナレーション"] {
      #expect(text.contains(japanese), "\(japanese):\n\(text)")
    }
    player.handle(.enter, now: start)
    player.handle(.enter, now: start)  // launch
    player.handle(.enter, now: start)  // skip the product request
    text = band(screen(player))
    #expect(text.contains("The app adds its observer at launch."), "\(text)")
    #expect(text.contains("起動 → productsRequest"), "\(text)")
    #expect(text.contains("次: キー 5"), "\(text)")
    playToTheEnd(player)
    text = band(screen(player))
    #expect(text.contains("ウォークスルーは終わりました（すべての手順が成功）。"), "\(text)")
    #expect(text.contains("自由操作: ストアフロントのキーが使えます。"), "\(text)")
    #expect(text.contains("ウォークスルーに戻る"), "\(text)")
    for english in ["next", "back", "restart", "quit", "step", "Walkthrough", "The walkthrough is over"] {
      #expect(!text.contains(english), "\(english):\n\(text)")
    }
  }

  @Test func aFailedCheckIsToldInJapanese() throws {
    let player = try player(
      "name: Fails\nsteps:\n  - launch\n  - expect: { balance: 50 }\n", language: .ja)
    for _ in 0..<3 { player.handle(.enter, now: start) }
    let text = band(screen(player))
    #expect(text.contains("✗ 手順 2（4 行目）: 確認 残高 50: 期待 ウォレットに 50 クレジット、実際 0"), "\(text)")
    #expect(!text.contains("credits"), "\(text)")
    #expect(text.contains("ウォークスルーはここで止まります"), "\(text)")
  }

  // MARK: Back and restart

  /// Going back replays the walkthrough to the step before in virtual time: the storefront, the
  /// wallet and the log are exactly as they were then.
  @Test func backReplaysToThePreviousStep() throws {
    let player = try player()
    var logs: [Int: [String]] = [:]
    var balances: [Int: Int] = [:]
    for step in 1...6 {
      player.handle(.character(" "), now: start)
      while player.nextDeadline != nil, !player.isFreePlay, player.session?.isSettled == false {
        player.handle(.character(" "), now: start)
      }
      if case .wait = player.walkthrough.steps[step - 1].action { player.handle(.character(" "), now: start) }
      logs[step] = player.session?.log.map { "\($0.time) \($0.event.name)" }
      balances[step] = player.session?.storage.wallet.balance
    }
    #expect(player.isFreePlay)
    #expect(balances[6] == 5)
    // Backspace in free play, then b and Left.
    player.handle(.backspace, now: start)
    #expect(!player.isFreePlay)
    #expect(band(screen(player)).contains("Replayed to step 5/6 in virtual time"))
    #expect(player.session?.log.map { "\($0.time) \($0.event.name)" } == logs[5])
    player.handle(.character("b"), now: start)
    player.handle(.left, now: start)
    let back = screen(player)
    #expect(back.contains("step 3/6"), "\(back)")
    #expect(back.contains("Total"), "the payment sheet is open again:\(back)")
    #expect(player.session?.log.map { "\($0.time) \($0.event.name)" } == logs[3])
    #expect(player.session?.storage.wallet.balance == 0)
    // And forward again, to the same end.
    playToTheEnd(player)
    #expect(player.isFreePlay)
    #expect(player.session?.log.map { "\($0.time) \($0.event.name)" } == logs[6])
    #expect(player.failure == nil)
  }

  @Test func restartStartsFromTheBeginning() throws {
    let player = try player()
    for _ in 0..<4 { player.handle(.character(" "), now: start) }
    player.handle(.character("r"), now: start)
    let grid = screen(player)
    #expect(grid.contains("The app is not running yet."), "\(grid)")
    #expect(grid.contains("step 0/6"), "\(grid)")
    #expect(grid.contains("From the beginning"), "\(grid)")
    #expect(player.session?.log.isEmpty == true)
  }

  // MARK: Time

  /// While a wait runs on the wall clock, the band counts down the virtual time left.
  @Test func aWaitCountsDown() throws {
    let player = try player()
    for _ in 0..<4 { player.handle(.character(" "), now: start) }  // say, launch (skip), press 5
    player.handle(.character(" "), now: start)  // press Enter
    player.handle(.character(" "), now: start)  // wait 2s
    #expect(band(screen(player)).contains("wait 2s — 2.0s left"))
    // The band is redrawn while the countdown runs.
    #expect(player.nextDeadline.map { $0 <= start.addingTimeInterval(0.1) } == true)
    player.tick(now: start.addingTimeInterval(0.6))
    #expect(band(screen(player)).contains("wait 2s — 1.4s left"), "\(band(screen(player)))")
    player.tick(now: start.addingTimeInterval(2))
    #expect(band(screen(player)).contains("wait 2s → SKPaymentQueue.finishTransaction(#1)"))
  }

  /// With `--auto 3s` the next step comes by itself three seconds after the last one ended; the
  /// band counts down, p pauses and resumes.
  @Test func autoAdvanceStepsByItself() throws {
    let player = try player(auto: 3)
    player.start(now: start)
    #expect(band(screen(player)).contains("auto 3.0s (p pause)"))
    player.tick(now: start.addingTimeInterval(1.2))
    #expect(band(screen(player)).contains("auto 1.8s (p pause)"))
    player.tick(now: start.addingTimeInterval(3))
    #expect(band(screen(player)).contains("step 1/6"), "the say step came by itself")
    player.handle(.character("p"), now: start.addingTimeInterval(3.5))
    #expect(band(screen(player)).contains("auto paused (p resume)"))
    player.tick(now: start.addingTimeInterval(10))
    #expect(band(screen(player)).contains("step 1/6"), "paused: no step")
    player.handle(.character("p"), now: start.addingTimeInterval(10))
    player.tick(now: start.addingTimeInterval(13))
    #expect(band(screen(player)).contains("step 2/6"), "resumed")
  }

  // MARK: Free play

  /// After the last step the storefront takes its own keys: the person can buy more; its q quits.
  @Test func freePlayAfterTheLastStep() throws {
    let player = try player()
    playToTheEnd(player)
    #expect(player.isFreePlay)
    let end = screen(player)
    #expect(band(end).contains("Free play: the storefront takes its own keys."), "\(end)")
    #expect(band(end).contains("⌫ back to the walkthrough · q or Ctrl-C quit"), "\(end)")
    // The storefront's own hint bar is back above the band.
    #expect(end.contains("5 buy-5"), "\(end)")
    player.handle(.character("0"), now: start.addingTimeInterval(1))
    #expect(screen(player).contains("Total"), "the storefront's 0 opened the payment sheet")
    player.handle(.character("y"), now: start.addingTimeInterval(1))
    if let deadline = player.nextDeadline { player.tick(now: deadline) }
    for _ in 0..<20 { if let deadline = player.nextDeadline { player.tick(now: deadline) } }
    #expect(player.session?.storage.wallet.balance == 15)
    #expect(!player.isFinished)
    player.handle(.character("q"), now: start.addingTimeInterval(10))
    #expect(player.isFinished)
  }
}
