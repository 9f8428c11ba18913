import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop walkthrough FILE --cast OUT.cast` through the built binary, the recording played
/// by asciinema's own `asciinema cat` (asciinema 2.4.0 from PyPI, as .ci/run installs it) into a
/// real terminal (tmux), where it must leave the screen the walkthrough player draws.
@Suite("Walkthrough recordings played by asciinema", .tags(.endToEnd, .needsPython), .timeLimit(.minutes(3)))
struct WalkthroughCastEndToEndTests {
  private var buyFive: String { Locations.repository.appendingPathComponent("Walkthroughs/buy-5.yaml").path }

  private func asciinemaCat(_ path: String, in folder: ShopFolder) async throws -> String {
    try await Asciinema.cat(path, in: folder)
  }

  /// The screen a terminal of `size` shows after `output` is written to it.
  private func terminalScreen(after output: String, size: ScreenSize, in folder: ShopFolder) async throws -> Screen {
    try await Asciinema.screen(after: output, width: size.width, height: size.height, in: folder) { screen in
      screen.lines.contains { $0.hasPrefix(" ⌫ ") || $0.contains("the walkthrough stops here") }
    }
  }

  /// The last frame the player draws for a walkthrough, as the binary records it by default.
  private func lastFrame(_ path: String, language: Language, size: ScreenSize) throws -> TextGrid {
    let catalog = try CatalogLoader.load(path: Locations.catalog)
    let walkthrough = try WalkthroughParser.load(path: path, catalog: catalog)
    var last: TextGrid?
    _ = Cast.record(walkthrough, catalog: catalog, language: language, size: size, pause: 2) { last = $1 }
    return try #require(last)
  }

  /// The recording is written where asked (its folder made), asciinema plays it to the end, and a
  /// terminal fed what it plays shows the walkthrough's last screen, cell for cell.
  @Test("--cast writes a recording asciinema plays; played into tmux it ends on the player's last screen")
  func asciinemaPlaysTheRecording() async throws {
    let folder = try ShopFolder("cast-buy-5")
    let path = folder.root.appendingPathComponent("new casts/buy 5's.cast").path
    let result = try await monkeyshop("walkthrough", buyFive, "--cast", path, in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    #expect(result.stdout.contains("✓ passed"), "the transcript as without --cast: \(result)")
    // The command to play it works pasted into a shell: the path is one quoted word.
    let quoted = "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    #expect(result.stdout.contains("to \(path): asciinema play \(quoted)"), "\(result)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1767225600,"))
    let played = try await asciinemaCat(path, in: folder)
    let screen = try await terminalScreen(after: played, size: .minimum, in: folder)
    let expected = try lastFrame(buyFive, language: .en, size: .minimum)
    #expect(
      Array(screen.lines.prefix(expected.size.height)) == expected.lines, "tmux:\n\(screen)\nplayer:\n\(expected.text)")
    #expect(screen.contains("The walkthrough is over: every step held."), "\(screen)")
    #expect(screen.showsBalance(5), "\(screen)")
  }

  /// A path with an escape character is shown escaped, and the command to play it still names it:
  /// bash finds the file from the word the message gives.
  @Test("the command to play a recording whose path holds an escape character names that file in bash")
  func pathWithAnEscapeCharacter() async throws {
    let folder = try ShopFolder("cast-escape")
    let path = folder.file("red\u{1B}[31m it's").path + ".cast"
    let result = try await monkeyshop("walkthrough", buyFive, "--cast", path, in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    #expect(!result.stdout.contains("\u{1B}"), "no raw escape reaches the terminal: \(result)")
    let word = try #require(result.stdout.components(separatedBy: "asciinema play ").last?.split(separator: "\n").first)
    let found = try await Child(
      executable: "/bin/bash", ["-c", "test -f \(word) && printf found"], in: folder, environment: folder.environment()
    ).wait()
    #expect(found.stdout == "found", "\(word): \(found)")
  }

  /// Japanese takes two cells a character in a real terminal too: the recording of a Japanese
  /// walkthrough with a Japanese band, at 100×30, ends on exactly the player's screen.
  @Test("--lang ja --size 100x30: wide characters land where the player put them in tmux")
  func japaneseInARealTerminal() async throws {
    let folder = try ShopFolder("cast-ja")
    let walkthrough = folder.file("ja.yaml").path
    let yaml = """
      name: 5クレジットを購入
      language: ja
      storefront: JPN
      steps:
        - launch
        - say: おさるのごはんを買います。
        - press: ["5", Enter]
        - wait: 2s
        - expect: { balance: 5, screen: "5 モンキークレジット" }
      """
    #expect(FileManager.default.createFile(atPath: walkthrough, contents: Data(yaml.utf8)))
    let path = folder.file("ja.cast").path
    let result = try await monkeyshop(
      "walkthrough", walkthrough, "--cast", path, "--lang", "ja", "--size", "100x30", in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    let size = ScreenSize(width: 100, height: 30)
    let screen = try await terminalScreen(after: try await asciinemaCat(path, in: folder), size: size, in: folder)
    let expected = try lastFrame(walkthrough, language: .ja, size: size)
    #expect(
      Array(screen.lines.prefix(expected.size.height)) == expected.lines, "tmux:\n\(screen)\nplayer:\n\(expected.text)")
    #expect(screen.contains("ウォークスルーは終わりました"), "\(screen)")
  }

  /// A walkthrough whose check fails exits 1 as without --cast, and its recording ends on the
  /// failure, which the band spells out.
  @Test("a failing walkthrough is recorded up to its failure and exits 1")
  func aFailureIsRecorded() async throws {
    let folder = try ShopFolder("cast-fails")
    let walkthrough = folder.file("fails.yaml").path
    let yaml = "name: Expects too much\nsteps:\n  - launch\n  - expect: { balance: 99 }\n  - say: Never shown.\n"
    #expect(FileManager.default.createFile(atPath: walkthrough, contents: Data(yaml.utf8)))
    let path = folder.file("fails.cast").path
    let result = try await monkeyshop("walkthrough", walkthrough, "--cast", path, in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    #expect(result.stdout.contains("✗ expect balance 99"), "the transcript as without --cast: \(result)")
    let played = try await asciinemaCat(path, in: folder)
    let screen = try await terminalScreen(after: played, size: .minimum, in: folder)
    #expect(screen.contains("✗ step 2 (line 4): expect balance 99"), "\(screen)")
    #expect(!played.contains("Never shown."))
  }

  /// What cannot be recorded is refused before anything runs (exit 64, nothing on standard output),
  /// and a file that is not a recording is left as it was; an earlier recording is replaced.
  @Test("--cast refuses a file of the person's, a folder, two walkthroughs and a small --size; replaces a recording")
  func refusedBeforeRunning() async throws {
    let folder = try ShopFolder("cast-refused")
    let notes = folder.file("notes.txt").path
    #expect(FileManager.default.createFile(atPath: notes, contents: Data("mine\n".utf8)))
    let link = folder.file("link.cast").path
    #expect(symlink(notes, link) == 0)
    let cases: [(arguments: [String], fragment: String)] = [
      (
        [buyFive, "--cast", notes],
        "--cast \(notes): is not a monkeyshop recording; it is left as it is"
      ),
      ([buyFive, "--cast", folder.root.path], "--cast \(folder.root.path): is a folder"),
      ([buyFive, "--cast", link], "--cast \(link): is a symbolic link; monkeyshop does not write through it"),
      ([buyFive, buyFive, "--cast", "two.cast"], "records one walkthrough"),
      (
        [Locations.repository.appendingPathComponent("Walkthroughs").path, "--cast", "all.cast"],
        "records one walkthrough"
      ),
      ([buyFive, "--cast", "small.cast", "--size", "60x20"], "is smaller than the storefront's 80×24"),
      ([buyFive, "--size", "100x30"], "--size is the size of a recording: it goes with --cast"),
      ([buyFive, "--play", "--cast", "play.cast"], "no --play"),
    ]
    for (arguments, fragment) in cases {
      let result = try await Child(["walkthrough"] + arguments, in: folder).wait()
      #expect(result.exitStatus == 64, "\(arguments): \(result)")
      #expect(result.stderr.contains(fragment), "\(arguments): \(result)")
      #expect(result.stdout.isEmpty, "nothing ran: \(result)")
    }
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "mine\n")
    let path = folder.file("again.cast").path
    for _ in 0..<2 {
      let result = try await monkeyshop("walkthrough", buyFive, "--cast", path, "-q", in: folder)
      #expect(result.exitStatus == 0, "\(result)")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("{\"version\": 2,"))
  }
}
