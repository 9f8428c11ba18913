import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real storefront in a real terminal: tmux runs bash, bash runs the built `monkeyshop`, the test
/// types the keys of docs/storefront.md and reads the screen as a person would.
@Suite("Storefront in tmux", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct StorefrontTmuxTests {
  @Test("buy, cancel, outage, restrictions, resize, quit, relaunch: the issue's walk through the storefront")
  func storefrontWalk() async throws {
    let folder = try ShopFolder("walk")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }

    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")
    #expect(try await tmux.screen().showsBalance(0))

    // buy-5: `5` opens the payment sheet for the 5-credit product, Enter confirms.
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Enter")
    try await tmux.waitForBalance(5)

    // buy-10 three times, each one finished before the next.
    for expected in [15, 25, 35] {
      try await tmux.press("0")
      try await tmux.waitFor("Total")
      try await tmux.press("Enter")
      let screen = try await tmux.waitForScreen("the purchase to finish at \(expected) credits") { screen in
        screen.showsBalance(expected) && screen.balanceLine?.contains("purchasing") == false
      }
      #expect(!screen.contains("Total"), "the payment sheet closed")
    }

    // Cancel on the payment sheet: a cancellation, nothing charged.
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Escape")
    let cancelled = try await tmux.waitFor("cancelled")
    #expect(cancelled.showsBalance(35))
    #expect(!cancelled.contains("Total"), "the payment sheet closed")

    // Network down, products requested again: the buy buttons say so. Then back up.
    try await tmux.press("n")
    try await tmux.waitFor("network DOWN")
    try await tmux.press("R")
    try await tmux.waitFor("Network down?")
    try await tmux.press("n")
    try await tmux.waitForScreen("network up") { !$0.contains("network DOWN") }
    try await tmux.press("R")
    let back = try await tmux.waitFor("Buy $0.99")
    #expect(!back.contains("Network down?"))

    // Restrictions: canMakePayments is false, the sample's "AppStore disabled".
    try await tmux.press("r")
    try await tmux.waitFor("AppStore disabled")
    try await tmux.press("r")
    try await tmux.waitForScreen("the buy buttons back") {
      $0.contains("Buy $0.99") && !$0.contains("AppStore disabled")
    }

    // Resize below the minimum, then back.
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "50", "-y", "12")
    let small = try await tmux.waitFor("terminal too small")
    #expect(small.contains("80×24"), "it says the size it needs")
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "100", "-y", "30")
    let restored = try await tmux.waitForBalance(35)
    #expect(!restored.contains("terminal too small"))
    #expect(restored.contains("Buy $0.99"))

    // Quit: the shell has its terminal back.
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.isRestored, "\(shell)")
    #expect(shell.modes.contains("echo") && !shell.modes.contains("-echo"), "\(shell)")
    #expect(shell.exitStatus == 0, "\(shell)")

    // Relaunch: the balance persisted.
    try await tmux.launchStorefront()
    try await tmux.waitForBalance(35)
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)

    let wallet = try await monkeyshop("wallet", "show", "--json", in: folder)
    #expect(wallet.exitStatus == 0, "\(wallet)")
    #expect(try balance(fromJSON: wallet.stdout) == 35, "\(wallet)")
  }

  @Test("under 'terminal too small' Enter does not confirm the payment sheet no one can see")
  func tooSmallRefusesKeys() async throws {
    let folder = try ShopFolder("too-small-keys")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "60", "-y", "20")
    let small = try await tmux.waitFor("terminal too small")
    #expect(small.contains("only q (quit) acts"), "\(small)")
    try await tmux.press("Enter")
    try await tmux.press("y")
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "80", "-y", "24")
    let back = try await tmux.waitFor("Total")
    #expect(back.showsBalance(0), "\(back)")
    #expect(!back.contains("Purchasing 5 Monkey Credits"), "\(back)")
    let waiting = try await storeTransactions(folder)
    #expect(waiting.map(\.state) == ["purchasing"], "the payment still waits for its sheet: \(waiting)")
    // Seen again, the sheet answers: Esc cancels it.
    try await tmux.press("Escape")
    try await tmux.waitFor("cancelled")
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "50", "-y", "12")
    try await tmux.waitFor("terminal too small")
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
  }

  @Test("TERM=dumb is refused as an unset TERM is: a message, a non-zero exit, the shell's terminal intact")
  func dumbTerminalIsRefused() async throws {
    let folder = try ShopFolder("dumb")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.run(try tmux.storefrontCommandLine(environment: ["TERM": "dumb"]))
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus != 0, "\(shell)")
    #expect(shell.isRestored, "\(shell)")
    let screen = try await tmux.screen(joined: true)
    #expect(screen.contains("cannot move its cursor (TERM=dumb)"), "\(screen)")
  }

  @Test(
    """
    MONKEYSHOP_SCREEN_DUMP naming a symlink, a FIFO, a device, a folder or a file in no folder is \
    refused before the screen opens (exit 64, the variable and path named) and left as it was
    """)
  func unusableScreenDumpIsRefused() async throws {
    let folder = try ShopFolder("dump-refused")
    let target = folder.file("target")
    try "mine\n".write(to: target, atomically: false, encoding: .utf8)
    let link = folder.file("link").path
    #expect(symlink(target.path, link) == 0)
    let fifo = folder.file("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let directory = folder.root.path
    let inNoFolder = folder.file("missing").appendingPathComponent("dump.txt").path
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }

    for (path, reason) in [
      (link, "it is a symbolic link"), (fifo, "FIFO"), ("/dev/full", "device"), (directory, "it is a folder"),
      (inNoFolder, "cannot be used: the folder \((inNoFolder as NSString).deletingLastPathComponent) does not exist"),
      (folder.data.appendingPathComponent("wallet.json").path, "it is in the data folder"),
    ] {
      try await tmux.run("clear")
      try await tmux.run(try tmux.storefrontCommandLine(environment: ["MONKEYSHOP_SCREEN_DUMP": path]))
      let shell = try await tmux.shellStateAfterExit()
      #expect(shell.exitStatus == 64, "\(path): \(shell)")
      #expect(shell.isRestored, "\(path): \(shell)")
      let screen = try await tmux.screen(joined: true)
      #expect(screen.contains("MONKEYSHOP_SCREEN_DUMP=\(path) cannot be used"), "\(screen)")
      #expect(screen.contains(reason), "\(path): \(screen)")
      #expect(!screen.contains("Buy $0.99"), "the storefront opened for \(path): \(screen)")
    }
    var status = stat()
    #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the symlink was replaced")
    #expect(try String(contentsOf: target, encoding: .utf8) == "mine\n", "the symlink's target was written")
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/full was replaced")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.root.path).filter {
      $0.hasSuffix(".tmp")
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  @Test("MONKEYSHOP_SCREEN_DUMP naming a new file in a folder that exists gets the frame, with no file left beside it")
  func screenDumpIsWritten() async throws {
    let folder = try ShopFolder("dump-written")
    let dump = folder.file("screen").path
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.launchStorefront(environment: ["MONKEYSHOP_SCREEN_DUMP": dump])
    try await tmux.waitFor("Buy $0.99")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0, "\(shell)")
    #expect(try String(contentsOfFile: dump, encoding: .utf8).contains("Buy $0.99"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.root.path)
    #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(names)")
  }

  enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sigterm, sighup, sigint, ctrlC

    var testDescription: String { rawValue }
  }

  @Test(
    "SIGTERM, SIGHUP, SIGINT and Ctrl-C end the storefront and leave the shell's terminal restored",
    arguments: Ending.allCases)
  func endingRestoresTheTerminal(_ ending: Ending) async throws {
    let folder = try ShopFolder("ending-\(ending)")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")

    switch ending {
    case .sigterm: kill(try await tmux.storefrontPID(), SIGTERM)
    case .sighup: kill(try await tmux.storefrontPID(), SIGHUP)
    case .sigint: kill(try await tmux.storefrontPID(), SIGINT)
    case .ctrlC: try await tmux.press("C-c")
    }
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.isRestored, "\(shell)")
    switch ending {
    case .sigterm: #expect(shell.exitStatus == 128 + SIGTERM, "\(shell)")
    case .sighup: #expect(shell.exitStatus == 128 + SIGHUP, "\(shell)")
    case .sigint: #expect(shell.exitStatus == 128 + SIGINT, "\(shell)")
    case .ctrlC: break
    }
  }

  @Test("a simulated crash restores the terminal, and the next launch delivers the purchase once")
  func crashPointRestoresTheTerminal() async throws {
    let folder = try ShopFolder("crash-point")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "crashPoint", "afterDeliveryBeforeFinish", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $1.99")
    try await tmux.press("0")
    try await tmux.waitFor("Total")
    try await tmux.press("Enter")

    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 128 + SIGKILL, "the app killed itself: \(shell)")
    #expect(shell.isRestored, "\(shell)")
    // The shell says only "Killed": the storefront's own line says what killed it.
    let said = try await tmux.screen(joined: true)
    #expect(
      said.contains("monkeyshop: crash point afterDeliveryBeforeFinish: the app was killed (SIGKILL)"), "\(said)")

    // Credited, not finished: the relaunch finishes it without crediting again.
    #expect(try await walletBalance(folder) == 10)
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $1.99")
    let relaunched = try await tmux.waitForBalance(10)
    // The launch says why the transaction came back, in the log and on the status line.
    #expect(relaunched.contains("the app crashed last run at afterDeliveryBeforeFinish with #1"), "\(relaunched)")
    #expect(relaunched.contains("Unfinished transaction #1 was already credited"), "\(relaunched)")
    #expect(relaunched.contains("before finishing #1 (crash point afterDeliveryBeforeFinish)"), "\(relaunched)")
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
    let transactions = try await storeTransactions(folder)
    #expect(transactions.count == 1)
    #expect(transactions.allSatisfy { $0.finished && $0.state == "purchased" }, "\(transactions)")
    #expect(try await walletBalance(folder) == 10)
  }

  /// The storefront keeps its record connection while other commands open and close theirs: a
  /// reading of the record in the storefront's process must not drop the locks SQLite holds for it,
  /// or another process closing its last connection deletes the log the storefront still reads,
  /// and the storefront takes the record for an older copy from then on.
  @Test("store resets and reads in another terminal leave the open storefront reading the record as it is")
  func recordStaysReadableBesideOtherCommands() async throws {
    let folder = try ShopFolder("record-beside")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")
    for request in 1...2 {
      // Off again after each reset, which the storefront has followed (it logged the drop).
      try await tmux.press("a")
      _ = try await tmux.settledScreen()
      try await tmux.press("5")
      try await tmux.waitFor("Total")
      try await tmux.press("Enter")
      try await tmux.waitFor("Waiting for approval")
      try await expectSuccess(monkeyshop("store", "reset", in: folder))
      try await tmux.waitFor("dropped Ask to Buy request \(request)")
      try await expectSuccess(monkeyshop("store", "show", in: folder))
    }
    try await tmux.press("s")
    let screen = try await tmux.settledScreen()
    #expect(!screen.contains("is older than"), "\(screen)")
    #expect(!screen.contains("MS-E0011"), "\(screen)")
  }

  @Test("without a terminal the storefront refuses and points to the headless commands")
  func notATerminal() async throws {
    let folder = try ShopFolder("no-tty")
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer {
      for end in ends { _ = close(end) }
    }
    // Standard input is /dev/null, standard output and error a pipe: neither is a terminal.
    let child = try Child(
      executable: try Locations.requireBinary(), ["--catalog", Locations.catalog], in: folder,
      environment: folder.environment(), output: ends[1])
    let result = try await child.wait()
    // The process has ended, so what it wrote is in the pipe: read it without waiting for EOF.
    let text = drain(ends[0])
    #expect(result.killedBy == nil, "\(result)")
    #expect(result.exitStatus != 0, "\(text)")
    #expect(text.contains("terminal"), "\(text)")
    #expect(text.contains("monkeyshop buy") && text.contains("headless"), "\(text)")
  }

  @Test("NO_COLOR: no colours, and the selected product is still shown in reverse video")
  func monochromeShowsFocus() async throws {
    let folder = try ShopFolder("no-color")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront(environment: ["NO_COLOR": "1"])
    try await tmux.waitFor("Buy $0.99")
    var screen = try await tmux.screen(escapes: true)
    #expect(colourParameters(screen.text).isEmpty, "no colour with NO_COLOR: \(colourParameters(screen.text))")
    #expect(isReverse(in: screen, at: "5 Monkey Credits"), "the selected row is reverse: \(escaped(screen))")
    #expect(!isReverse(in: screen, at: "10 Monkey Credits"), "the other row is not: \(escaped(screen))")

    try await tmux.press("j")
    screen = try await tmux.waitForScreen("the focus on the 10-credit product", escapes: true) { screen in
      isReverse(in: screen, at: "10 Monkey Credits")
    }
    #expect(!isReverse(in: screen, at: "5 Monkey Credits"), "\(escaped(screen))")
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)

    // The same terminal without NO_COLOR does get colours: the check above can tell them apart.
    try await tmux.launchStorefront()
    let coloured = try await tmux.waitForScreen("the storefront in colour", escapes: true) { $0.contains("Buy $0.99") }
    #expect(!colourParameters(coloured.text).isEmpty, "colours without NO_COLOR")
    try await tmux.press("q")
  }

  @Test("--lang ja: Japanese titles and buttons, columns lined up")
  func japaneseLinesUp() async throws {
    let folder = try ShopFolder("ja")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront(["--lang", "ja"])
    let screen = try await tmux.waitForScreen("the Japanese storefront") { screen in
      screen.contains("モンキークレジット 5") && screen.contains("購入 $0.99") && screen.contains("購入 $1.99")
    }
    #expect(screen.showsBalance(0), "\(screen)")
    guard let five = screen.line(containing: "モンキークレジット 5 "),
      let ten = screen.line(containing: "モンキークレジット 10")
    else {
      Issue.record("no product rows: \(screen)")
      return
    }
    // Columns as a terminal counts them: kana and kanji take two cells.
    #expect(column(of: "$0.99", in: five) == column(of: "$1.99", in: ten), "prices line up:\n\(five)\n\(ten)")
    #expect(
      column(of: "]", in: five, last: true) == column(of: "]", in: ten, last: true), "buttons line up:\n\(five)\n\(ten)"
    )
    for line in screen.lines {
      #expect(cells(line) <= 100, "nothing runs past the edge: \(line)")
    }
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
  }

  @Test("the storefront follows the wallet: a headless buy shows up without a key press")
  func followsHeadlessPurchases() async throws {
    let folder = try ShopFolder("follow")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")
    try await tmux.waitForBalance(0)

    try await expectSuccess(monkeyshop("buy", ShippedCatalog.ten, "--quantity", "2", in: folder))
    try await tmux.waitForBalance(20)
    try await expectSuccess(monkeyshop("spend", "3", in: folder))
    try await tmux.waitForBalance(17)
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
  }
}

// MARK: Reading escapes and cells

/// The SGR parameters that set a colour (30–37, 38;…, 40–47, 48;…, 90–107); 39 and 49 (default) do not.
private func colourParameters(_ text: String) -> [String] {
  sgrSequences(text).flatMap { parameters in
    parameters.filter { parameter in
      guard let value = Int(parameter) else { return false }
      return (30...38).contains(value) || (40...48).contains(value) || (90...107).contains(value)
    }
  }
}

/// Every `ESC [ … m` in the text, as its parameter lists.
private func sgrSequences(_ text: String) -> [[String]] {
  var result: [[String]] = []
  var rest = Substring(text)
  while let start = rest.range(of: "\u{1B}[") {
    let after = rest[start.upperBound...]
    guard let end = after.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
    if after[end] == "m" {
      result.append(after[..<end].split(separator: ";", omittingEmptySubsequences: false).map(String.init))
    }
    rest = after[end...]
  }
  return result
}

/// Whether `fragment` is drawn in reverse video: the SGR state at its first character has 7 set.
private func isReverse(in screen: Screen, at fragment: String) -> Bool {
  guard let line = screen.lines.first(where: { strip($0).contains(fragment) }),
    let range = line.range(of: fragment)
  else { return false }
  var reverse = false
  for parameters in sgrSequences(String(line[..<range.lowerBound])) {
    for parameter in parameters {
      switch parameter {
      case "", "0", "27": reverse = false
      case "7": reverse = true
      default: break
      }
    }
  }
  return reverse
}

/// A line without its escape sequences.
private func strip(_ line: String) -> String {
  line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

private func escaped(_ screen: Screen) -> String {
  screen.text.replacingOccurrences(of: "\u{1B}", with: "\\e")
}

/// Terminal cells of a text: East Asian wide characters (kana, kanji, full-width forms) take two.
/// Written here rather than taken from the code under test, so the two can disagree.
private func cells(_ text: some StringProtocol) -> Int {
  text.unicodeScalars.reduce(0) { total, scalar in
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
      return total + 2
    default:
      return total + 1
    }
  }
}

/// The cell column where the first (or last) `fragment` starts in `line`.
private func column(of fragment: String, in line: String, last: Bool = false) -> Int? {
  guard let range = line.range(of: fragment, options: last ? .backwards : []) else { return nil }
  return cells(line[..<range.lowerBound])
}

/// Whatever a pipe holds now, without waiting for its other end to close.
private func drain(_ descriptor: Int32) -> String {
  _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = read(descriptor, &buffer, buffer.count)
    if count <= 0 { break }
    data.append(contentsOf: buffer[0..<count])
  }
  return String(decoding: data, as: UTF8.self)
}
