import Foundation
import Testing

/// `monkeyshop walkthrough --play` in a real terminal: tmux runs bash, bash runs the built
/// `monkeyshop`, the test presses Space as a trainer would and reads the screen.
@Suite("Walkthrough played in tmux", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct WalkthroughPlayTmuxTests {
  /// The command line that plays a walkthrough (a bundled name or a file) with the shipped catalog.
  private func playCommand(_ walkthrough: String, _ arguments: [String] = []) throws -> String {
    let words = [try Locations.requireBinary(), "walkthrough", "--play", walkthrough, "--catalog", Locations.catalog]
    return (words + arguments).map { "'\($0)'" }.joined(separator: " ")
  }

  /// Presses Space until the band says the walkthrough is over; the screen then.
  private func playToTheEnd(_ tmux: TmuxSession, over: String = "The walkthrough is over") async throws -> Screen {
    for _ in 0..<60 {
      let screen = try await tmux.screen()
      if screen.contains(over) { return screen }
      try await tmux.press("Space")
      try await Task.sleep(for: .milliseconds(50))
    }
    return try await tmux.waitFor(over)
  }

  @Test("at 80×24 the end of ask-to-buy-approved shows the approval's events above the band")
  func theNewestEventsShowAboveTheBandAtEightyByTwentyFour() async throws {
    let folder = try ShopFolder("play")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try playCommand("ask-to-buy-approved"))
    try await tmux.waitFor("── Walkthrough: Ask to Buy, approved")
    let screen = try await playToTheEnd(tmux)
    let band = try #require(screen.lines.firstIndex { $0.hasPrefix("── Walkthrough:") }, "\(screen)")
    let above = screen.lines[..<band]
    for event in ["a parent approved payment 1", ".purchased #1", "deliver #1", "finishTransaction(#1)"] {
      #expect(above.contains { $0.contains(event) }, "\(event) above the band:\n\(screen)")
    }
    #expect(screen.showsBalance(5), "\(screen)")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
    #expect(shell.isRestored, "\(shell)")
  }

  /// A check that fails while playing fails the command as the headless run does (exit 1), and says
  /// where; `--play` may come after the file.
  @Test("--play after the file; a failed check exits 1 with the failure")
  func aFailedCheckExitsOne() async throws {
    let folder = try ShopFolder("play-fails")
    let path = folder.file("fails.yaml").path
    let yaml = "name: Fails\nsteps:\n  - launch\n  - expect: { balance: 50 }\n  - say: never shown\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8)))
    let tmux = try await TmuxSession(folder: folder, width: 100, height: 30)
    defer { tmux.close() }
    let command = [try Locations.requireBinary(), "walkthrough", path, "--catalog", Locations.catalog, "--play"]
    try await tmux.run(command.map { "'\($0)'" }.joined(separator: " "))
    try await tmux.waitFor("── Walkthrough: Fails")
    for _ in 0..<3 {
      try await tmux.press("Space")
      try await Task.sleep(for: .milliseconds(100))
    }
    try await tmux.waitFor("✗ step 2 (line 4): expect balance 50")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 1)
    let message = "monkeyshop: \(path): step 2 (line 4): expect balance 50: expected 50 credits in the wallet"
    try await tmux.waitForScreen("the failure on the terminal", joined: true) { $0.contains(message) }
  }

  /// `--lang ja`: the band in Japanese at 80×24, the newest events above it; then free play, where
  /// the storefront's own keys act, and its q quits.
  @Test("--lang ja: a Japanese band, then free play with the storefront's keys")
  func japaneseBandAndFreePlay() async throws {
    let folder = try ShopFolder("play-ja")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try playCommand("ask-to-buy-approved", ["--lang", "ja"]))
    let first = try await tmux.waitFor("── ウォークスルー: Ask to Buy, approved")
    #expect(first.contains("Space/Enter 次へ"), "\(first)")
    let end = try await playToTheEnd(tmux, over: "ウォークスルーは終わりました")
    #expect(end.contains("自由操作: ストアフロントのキーが使えます。"), "\(end)")
    #expect(end.contains("手順 14/14"), "\(end)")
    #expect(end.contains("finishTransaction(#1)"), "\(end)")
    // The storefront speaks --lang's language too.
    #expect(end.contains("モンキークレジット"), "\(end)")
    try await tmux.press("0")
    try await tmux.waitFor("合計")
    try await tmux.press("Escape")
    try await tmux.waitForScreen("the sheet closed") { !$0.contains("合計") }
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
    #expect(shell.isRestored, "\(shell)")
  }

  /// At 80×24 the transaction's detail is taller than the rows above the band: the player warned
  /// at the start, the panel says `↓ more`, and ↓ brings the price the narration names into view.
  @Test("at 80×24 a tall panel scrolls and says ↓ more")
  func aTallPanelScrolls() async throws {
    let folder = try ShopFolder("play-scroll")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try playCommand("signed-transaction-inspected"))
    let first = try await tmux.waitFor("── Walkthrough: A signed transaction")
    #expect(first.contains("Terminal 80×24, smaller than the 80×30"), "\(first)")
    // Step 10 opens the detail (g 10 Enter: replayed there, as stepping would).
    for key in ["g", "1", "0", "Enter"] { try await tmux.press(key) }
    var screen = try await tmux.waitFor("↓ more")
    #expect(screen.contains("step 10/"), "\(screen)")
    #expect(!screen.contains("Esc close"), "\(screen)")
    // ↓ brings the price the narration names into view.
    for _ in 0..<8 where !screen.contains("price: 960000") {
      try await tmux.press("Down")
      try await Task.sleep(for: .milliseconds(100))
      screen = try await tmux.screen()
    }
    #expect(screen.contains("price: 960000"), "\(screen)")
    for _ in 0..<8 { try await tmux.press("Down") }
    screen = try await tmux.waitFor("Esc close")
    #expect(screen.contains("↑ more"), "\(screen)")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
  }

  /// After the last step Enter, pressed out of habit, buys nothing: the band says the
  /// walkthrough is over. On a payment sheet the person opened, Enter confirms nothing either: the
  /// band names the sheet's own key, y.
  @Test("free play: Enter says the walkthrough is over, opens no payment sheet and confirms none")
  func enterAfterTheEndBuysNothing() async throws {
    let folder = try ShopFolder("play-over")
    let tmux = try await TmuxSession(folder: folder, width: 100, height: 30)
    defer { tmux.close() }
    try await tmux.run(try playCommand("buy-5"))
    try await tmux.waitFor("── Walkthrough:")
    _ = try await playToTheEnd(tmux)
    try await tmux.press("Enter")
    let screen = try await tmux.waitFor("Enter steps no more")
    #expect(!screen.contains("Total"), "\(screen)")
    try await tmux.press("Enter")
    try await Task.sleep(for: .milliseconds(200))
    #expect(!(try await tmux.screen()).contains("Total"))
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Enter")
    let sheet = try await tmux.waitFor("in the storefront, y buy")
    #expect(sheet.contains("Total"), "the sheet stays open:\(sheet)")
    try await tmux.press("Escape")
    try await tmux.waitForScreen("the sheet closed") { !$0.contains("Total") }
    #expect(!(try await tmux.screen()).contains(".purchased #2"), "nothing bought")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
  }

  /// At 80×24 a panel scrolled at one step does not open scrolled at a later one: its title is in
  /// sight, and a short panel says no `↓ more`.
  @Test("at 80×24 a later step's panel opens at its top")
  func aLaterPanelOpensAtItsTop() async throws {
    let folder = try ShopFolder("play-panel-top")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try playCommand("signed-transaction-inspected"))
    try await tmux.waitFor("── Walkthrough: A signed transaction")
    for key in ["g", "1", "1", "Enter"] { try await tmux.press(key) }
    try await tmux.waitFor("step 11/")
    for _ in 0..<7 { try await tmux.press("Down") }
    try await tmux.waitFor("↑ more")
    for key in ["g", "3", "5", "Enter"] { try await tmux.press(key) }
    let screen = try await tmux.waitFor("step 35/")
    let band = try #require(screen.lines.firstIndex { $0.hasPrefix("── Walkthrough:") }, "\(screen)")
    let above = screen.lines[..<band]
    #expect(above.contains { $0.contains("Transaction payment 3") }, "\(screen)")
    #expect(above.contains { $0.contains("No signed transaction") }, "\(screen)")
    #expect(!screen.contains("↓ more"), "\(screen)")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
  }

  /// The description is shown whole before the first step; the keys line names the next step
  /// whole at 80×24; the size note is not said again after a `say`.
  @Test("the description whole, the next step named whole, the size note said once")
  func theBandCanBeReadWhole() async throws {
    let folder = try ShopFolder("play-read")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try playCommand("buy-5"))
    let first = try await tmux.waitFor("── Walkthrough: Buy 5 credits")
    let text = first.text.filter { !$0.isWhitespace }
    #expect(text.contains("(https://developer.apple.com/documentation/storekit/processing-a-transaction)."), "\(first)")
    #expect(first.contains("next: narration"), "\(first)")
    #expect(first.contains("smaller than the 80×30"), "\(first)")
    try await tmux.press("Space")
    let said = try await tmux.waitFor("step 1/")
    #expect(said.contains("next: launch"), "\(said)")
    #expect(!said.contains("smaller than"), "\(said)")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0)
  }
}
