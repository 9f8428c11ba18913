import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop --cast FILE`: the storefront in tmux records what the terminal shows, and the
/// recording played by asciinema (`asciinema cat`) into another terminal ends on the screen the
/// first one showed last, with the session's real timing and its resizes.
@Suite("Storefront sessions recorded with --cast", .tags(.endToEnd, .needsPython), .timeLimit(.minutes(3)))
struct StorefrontCastTests {
  /// A recording read back: its header and events, checked as asciicast v2 on the way.
  struct Recording {
    let header: [String: Any]
    let events: [(time: Double, code: String, data: String)]

    init(path: String) throws {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      var lines = text.components(separatedBy: "\n")
      guard lines.last == "" else { throw E2EFailure("\(path) does not end with a newline") }
      lines.removeLast()
      guard let first = lines.first,
        let header = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
      else { throw E2EFailure("\(path) has no header line: \(text.prefix(200))") }
      self.header = header
      events = try lines.dropFirst().map { line in
        guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], event.count == 3,
          let time = (event[0] as? NSNumber)?.doubleValue, let code = event[1] as? String,
          let data = event[2] as? String
        else { throw E2EFailure("\(path): not an event [time, code, data]: \(line.prefix(200))") }
        return (time, code, data)
      }
    }

    var size: (Int, Int)? {
      guard let width = header["width"] as? Int, let height = header["height"] as? Int else { return nil }
      return (width, height)
    }

    /// The output events' times, which must go up.
    var outputTimes: [Double] { events.filter { $0.code == "o" }.map(\.time) }

    /// When the first output that writes `text` came.
    func time(ofFirst text: String) -> Double? { events.first { $0.code == "o" && $0.data.contains(text) }?.time }
  }

  /// Launches the storefront with `--cast path`, at 80×24.
  private func storefront(
    _ folder: ShopFolder, cast path: String, _ arguments: [String] = []
  ) async throws -> TmuxSession {
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    try await tmux.launchStorefront(["--cast", path] + arguments)
    return tmux
  }

  /// What asciinema plays of the recording, written into a terminal of the pane's size, against
  /// the pane's last screen.
  private func expectPlayedScreen(
    _ path: String, equals pane: Screen, width: Int, height: Int, in folder: ShopFolder,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let expected = OverlayRepaintTests.lines(of: pane.text)
    let played = try await Asciinema.screen(
      after: try await Asciinema.cat(path, in: folder), width: width, height: height, in: folder
    ) { OverlayRepaintTests.lines(of: $0.text) == expected }
    #expect(
      OverlayRepaintTests.lines(of: played.text) == expected, "played:\n\(played)\npane:\n\(pane)",
      sourceLocation: sourceLocation)
  }

  @Test("a purchase and a quit are recorded with their real timing; played, the recording ends on the pane's screen")
  func aSessionIsRecorded() async throws {
    let folder = try ShopFolder("cast-session")
    // Folders that do not exist yet, and a space and a quote in the name.
    let path = folder.root.appendingPathComponent("casts/new/shop's session.cast").path
    let tmux = try await storefront(folder, cast: path)
    defer { tmux.close() }
    try await tmux.waitFor("Buy $0.99")
    let opened = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(1500))
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Enter")
    try await tmux.waitForScreen("the purchase to finish at 5 credits") { screen in
      screen.showsBalance(5) && screen.balanceLine?.contains("purchasing") == false
    }
    let last = try await tmux.settledScreen()
    let session = ContinuousClock.now - opened
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0 && shell.isRestored, "\(shell)")

    let recording = try Recording(path: path)
    #expect(recording.header["version"] as? Int == 2)
    #expect(recording.size.map { [$0.0, $0.1] } == [80, 24], "the terminal's size: \(recording.header)")
    #expect(recording.header["timestamp"] is Int)
    let times = recording.outputTimes
    #expect(times.count >= 4, "a frame for the launch, the sheet, the purchase and the quit: \(times)")
    #expect(times.first == 0)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times go up: \(times)")
    // Real timing: the sheet came after the 1.5 s the test waited, and nothing after the session's end.
    let sheet = try #require(recording.time(ofFirst: "Total"))
    #expect(sheet >= 1.5, "the payment sheet at \(sheet) s")
    let sessionSeconds = Double(session.components.seconds) + Double(session.components.attoseconds) / 1e18
    #expect(try #require(times.last) < sessionSeconds + 5, "\(times)")
    // The last event shows the cursor again, as the storefront leaves the terminal.
    #expect(recording.events.last?.data.hasSuffix("\u{1B}[?25h") == true)
    try await expectPlayedScreen(path, equals: last, width: 80, height: 24, in: folder)
  }

  @Test("in Japanese, a resize is an r event and the frame drawn whole at the new size; played, it ends on the pane")
  func aResizeIsRecorded() async throws {
    let folder = try ShopFolder("cast-resize")
    let path = folder.file("ja.cast").path
    let tmux = try await storefront(folder, cast: path, ["--lang", "ja"])
    defer { tmux.close() }
    try await tmux.waitFor("$0.99")
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "100", "-y", "30")
    try await tmux.waitForScreen("the storefront at 100×30") { $0.lines.count >= 30 && $0.contains("$0.99") }
    try await tmux.press("5")
    try await tmux.waitFor("App Store")
    try await tmux.press("Escape")
    try await tmux.waitForScreen("the sheet closed") { !$0.contains("App Store") }
    let last = try await tmux.settledScreen()
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)

    let recording = try Recording(path: path)
    #expect(recording.size.map { [$0.0, $0.1] } == [80, 24])
    let resizes = recording.events.filter { $0.code == "r" }
    #expect(resizes.map(\.data) == ["100x30"], "\(resizes.map(\.data))")
    // The frame after it clears the screen and draws every row.
    let after = recording.events.firstIndex { $0.code == "r" }.map { recording.events[$0 + 1] }
    #expect(after?.code == "o" && after?.data.contains("\u{1B}[2J") == true && after?.time == resizes.first?.time)
    try await expectPlayedScreen(path, equals: last, width: 100, height: 30, in: folder)
  }

  /// SIGKILL gives the storefront no chance to finish: the recording plays up to its last frame.
  /// SIGTERM ends it as a quit does, with the cursor shown again at the end.
  @Test("killed, the storefront leaves a recording that plays up to its last frame", arguments: [SIGKILL, SIGTERM])
  func aKillLeavesAPlayableRecording(_ signal: Int32) async throws {
    let folder = try ShopFolder("cast-kill-\(signal)")
    let path = folder.file("killed.cast").path
    let tmux = try await storefront(folder, cast: path)
    defer { tmux.close() }
    try await tmux.waitFor("Buy $0.99")
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    let last = try await tmux.settledScreen()
    let pid = try await tmux.storefrontPID()
    #expect(kill(pid, signal) == 0)
    try await tmux.waitForForeground("bash")
    let recording = try Recording(path: path)
    #expect(recording.time(ofFirst: "Total") != nil, "the sheet was recorded")
    let closed = recording.events.last?.data.hasSuffix("\u{1B}[?25h") == true
    #expect(closed == (signal == SIGTERM), "the cursor shown again only when the storefront could end")
    try await expectPlayedScreen(path, equals: last, width: 80, height: 24, in: folder)
  }

  /// A second monkeyshop told to record to the file a storefront is recording to, with another data
  /// folder, refuses before its screen opens (the storefront's `--cast` and `walkthrough --cast`
  /// alike), and the first session's recording is whole when it quits.
  @Test("a second storefront given the file another is recording to refuses it; the first recording is kept")
  func aSecondRecorderOfTheSameFileRefuses() async throws {
    let folder = try ShopFolder("cast-first")
    let other = try ShopFolder("cast-second")
    let path = folder.file("same.cast").path
    let tmux = try await storefront(folder, cast: path)
    defer { tmux.close() }
    try await tmux.waitFor("Buy $0.99")
    for arguments in [["--cast", path], ["walkthrough", "buy-5", "--cast", path]] {
      let result = try await Child(arguments, in: other).wait()
      #expect(result.exitStatus == 64, "\(arguments): \(result)")
      #expect(
        result.stderr.contains("--cast \(path): another monkeyshop is recording to it"), "\(arguments): \(result)")
      #expect(result.stdout.isEmpty, "\(arguments): \(result)")
    }
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Escape")
    try await tmux.waitForScreen("the sheet closed") { !$0.contains("Total") }
    let last = try await tmux.settledScreen()
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.exitStatus == 0 && shell.isRestored, "\(shell)")
    let recording = try Recording(path: path)
    #expect(recording.time(ofFirst: "Total") != nil, "the first session's sheet, after the refusals, was recorded")
    #expect(recording.events.last?.data.hasSuffix("\u{1B}[?25h") == true)
    try await expectPlayedScreen(path, equals: last, width: 80, height: 24, in: folder)
  }

  /// What cannot be written is refused before the screen opens (exit 64, without a terminal too),
  /// naming the option, the path and what is in the way; a file of the person's is left as it was.
  @Test("--cast refuses a folder, a link, a FIFO, a device, the data folder, files of the person's and a clash")
  func refusedBeforeTheScreenOpens() async throws {
    let folder = try ShopFolder("cast-refused")
    let notes = folder.file("notes.txt").path
    #expect(FileManager.default.createFile(atPath: notes, contents: Data("mine\n".utf8)))
    let link = folder.file("link.cast").path
    #expect(symlink(notes, link) == 0)
    let fifo = folder.file("fifo.cast").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // The person's own asciinema recording, as `asciinema rec` writes its header.
    let demo = folder.file("demo.cast").path
    let demoText =
      "{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1700000000, \"env\": {\"SHELL\": "
      + "\"/bin/bash\", \"TERM\": \"xterm-256color\"}, \"title\": \"My conference demo\"}\n[0.5, \"o\", \"hi\"]\n"
    #expect(FileManager.default.createFile(atPath: demo, contents: Data(demoText.utf8)))
    let log = folder.file("events.jsonl").path
    let dump = folder.file("screen.txt").path
    let cases: [(arguments: [String], environment: [String: String], fragment: String)] = [
      (["--cast", folder.root.path], [:], "--cast \(folder.root.path): is a folder (expected a file name"),
      (["--cast", link], [:], "--cast \(link): is a symbolic link; monkeyshop does not write through it"),
      (["--cast", fifo], [:], "--cast \(fifo): is a FIFO, not a regular file"),
      (["--cast", "/dev/null"], [:], "--cast /dev/null: is a device, not a regular file"),
      (
        ["--cast", folder.data.appendingPathComponent("session.cast").path], [:],
        "is in the data folder, whose files only monkeyshop writes"
      ),
      (["--cast", notes], [:], "--cast \(notes): is not a monkeyshop recording; it is left as it is"),
      (["--cast", demo], [:], "--cast \(demo): is not a monkeyshop recording; it is left as it is"),
      (["--cast", notes + "/session.cast"], [:], "cannot create the folder \(notes)"),
      (["--cast", log, "--log-file", log], [:], "--cast and --log-file name the same file, \(log)"),
      (["--cast", dump], ["MONKEYSHOP_SCREEN_DUMP": dump], "--cast and MONKEYSHOP_SCREEN_DUMP name the same file"),
    ]
    for (arguments, environment, fragment) in cases {
      let result = try await Child(arguments, in: folder, environment: environment).wait()
      #expect(result.exitStatus == 64, "\(arguments): \(result)")
      #expect(result.stderr.contains(fragment), "\(arguments): \(result)")
      #expect(result.stderr.contains("the storefront did not open"), "\(arguments): \(result)")
      #expect(result.stdout.isEmpty, "\(arguments): \(result)")
    }
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "mine\n")
    #expect(try String(contentsOfFile: demo, encoding: .utf8) == demoText)
    #expect(!FileManager.default.fileExists(atPath: log), "nothing was written")
  }
}
