import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

/// The repository, found from this file so the tests run from any directory.
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let catalog = try! CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

private func bundled(_ name: String) throws -> Walkthrough {
  try WalkthroughParser.load(path: repository.appendingPathComponent("Walkthroughs/\(name).yaml").path)
}

/// A recording and every frame it holds, as the player drew it.
private struct Recorded {
  var cast: Cast
  var frames: [(time: TimeInterval, grid: TextGrid)]
}

private func record(
  _ walkthrough: Walkthrough, language: Language? = nil, size: ScreenSize = .minimum, pause: TimeInterval = 1,
  colours: Bool = true
) -> Recorded {
  var frames: [(time: TimeInterval, grid: TextGrid)] = []
  let cast = Cast.record(
    walkthrough, catalog: catalog, language: language, size: size, pause: pause, colours: colours
  ) { frames.append(($0, $1)) }
  return Recorded(cast: cast, frames: frames)
}

/// A small terminal: the cursor moves, erases and SGR attributes a recording uses, characters as
/// wide as the storefront counts them. Anything else it is sent is a test failure.
private struct Terminal {
  struct Cell: Equatable {
    var text = " "
    var bold = false
    var dim = false
    var reverse = false
    var colour: Int?
  }

  let width: Int
  let height: Int
  var cells: [[Cell]]
  var row = 0
  var column = 0
  var pen = Cell()
  var cursorVisible = true
  var problems: [String] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    cells = Array(repeating: Array(repeating: Cell(), count: width), count: height)
  }

  mutating func feed(_ output: String) {
    var scalars = Array(output.unicodeScalars)[...]
    while let scalar = scalars.first {
      if scalar == "\u{1B}" {
        scalars = scalars.dropFirst()
        guard scalars.first == "[" else {
          problems.append("an escape that is not a CSI sequence")
          return
        }
        scalars = scalars.dropFirst()
        var parameters = ""
        while let next = scalars.first, "0123456789;?".unicodeScalars.contains(next) {
          parameters.unicodeScalars.append(next)
          scalars = scalars.dropFirst()
        }
        guard let final = scalars.first else {
          problems.append("a CSI sequence cut short")
          return
        }
        scalars = scalars.dropFirst()
        control(final, parameters)
        continue
      }
      // Whole characters, as the terminal draws them.
      var character = String(scalar)
      scalars = scalars.dropFirst()
      while let next = scalars.first, next != "\u{1B}", String(character.unicodeScalars + [next]).count == 1 {
        character.unicodeScalars.append(next)
        scalars = scalars.dropFirst()
      }
      put(Character(character))
    }
  }

  private mutating func control(_ final: Unicode.Scalar, _ parameters: String) {
    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    switch final {
    case "H":
      row = min(height, max(1, numbers.first.flatMap { $0 } ?? 1)) - 1
      column = min(width, max(1, numbers.count > 1 ? numbers[1] ?? 1 : 1)) - 1
    case "G":
      column = min(width, max(1, numbers.first.flatMap { $0 } ?? 1)) - 1
    case "J" where parameters == "2":
      cells = Array(repeating: Array(repeating: Cell(), count: width), count: height)
    case "K" where parameters.isEmpty || parameters == "0":
      for x in column..<width { cells[row][x] = Cell() }
    case "m":
      for number in numbers.map({ $0 ?? 0 }) {
        switch number {
        case 0: pen = Cell()
        case 1: pen.bold = true
        case 2: pen.dim = true
        case 7: pen.reverse = true
        case 30...37: pen.colour = number - 30
        default: problems.append("SGR \(number)")
        }
      }
    case "h" where parameters == "?25": cursorVisible = true
    case "l" where parameters == "?25": cursorVisible = false
    default: problems.append("CSI \(parameters)\(final)")
    }
  }

  private mutating func put(_ character: Character) {
    let cells = TextWidth.of(character)
    guard column + cells <= width else {
      problems.append("'\(character)' written past the right edge of row \(row + 1)")
      return
    }
    var cell = pen
    cell.text = String(character)
    self.cells[row][column] = cell
    if cells == 2 {
      cell.text = ""
      self.cells[row][column + 1] = cell
    }
    column += cells
  }

  func line(_ y: Int) -> String {
    var text = cells[y].map(\.text).joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  var lines: [String] { (0..<height).map(line) }

  /// The differences from a screen the player drew: letters everywhere, styles where they show.
  func differences(from grid: TextGrid) -> [String] {
    var found: [String] = []
    for y in 0..<height where line(y) != grid.line(y) {
      found.append("row \(y + 1): terminal '\(line(y))', screen '\(grid.line(y))'")
    }
    for y in 0..<height {
      for x in 0..<width {
        let style = grid.style(at: x, y)
        let cell = cells[y][x]
        guard grid.cells[y][x].text != " " || style.reverse, found.count < 20 else { continue }
        let expected = (style.bold, style.showsDim, style.reverse, style.tint?.ansiColour)
        if expected != (cell.bold, cell.dim, cell.reverse, cell.colour) {
          found.append("row \(y + 1) column \(x + 1) '\(cell.text)': style \(cell), screen \(style)")
        }
      }
    }
    return found
  }
}

/// Each frame's output, replayed in order on a terminal, must leave the screen the player drew.
private func replayDifferences(_ recorded: Recorded) -> [String] {
  var terminal = Terminal(width: recorded.cast.size.width, height: recorded.cast.size.height)
  var found: [String] = []
  for (event, frame) in zip(recorded.cast.events, recorded.frames) {
    terminal.feed(event.output)
    found += terminal.problems.map { "at \(event.time) s: \($0)" }
    terminal.problems = []
    found += terminal.differences(from: frame.grid).map { "at \(event.time) s: \($0)" }
    if found.count > 20 { break }
  }
  return found
}

@Suite("Walkthrough recordings (asciicast v2)", .tags(.walkthroughs))
struct WalkthroughCastTests {
  /// Every frame of `buy-5`, replayed on a terminal from the recording's output, is the screen the
  /// player drew: the storefront above the narration band, with its colours, bold and reverse.
  @Test func everyFrameReplaysToTheScreenThePlayerDrew() throws {
    let recorded = record(try bundled("buy-5"))
    #expect(recorded.cast.events.count == recorded.frames.count)
    #expect(recorded.frames.count > 10, "a frame for each step and the spinner's turns")
    #expect(replayDifferences(recorded) == [])
    let last = try #require(recorded.frames.last).grid
    #expect(last.contains("5 monkey credits"), "\(last)")
    #expect(last.contains("The walkthrough is over"), "\(last)")
    #expect(last.lines.contains { $0.hasPrefix("── Walkthrough: Buy 5 credits") }, "\(last)")
  }

  /// The file is asciicast v2: a header line asciinema reads (version, size, the virtual clock's
  /// start, title, TERM), then `[time, "o", data]` lines whose data is each frame's output, in
  /// time order, starting at 0.
  @Test func theFileIsAsciicastVersion2() throws {
    let recorded = record(try bundled("buy-5"))
    let lines = recorded.cast.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "", "the file ends with a newline")
    let header = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any], "\(lines[0])")
    #expect(header["version"] as? Int == 2)
    #expect(header["width"] as? Int == 80)
    #expect(header["height"] as? Int == 24)
    #expect(header["timestamp"] as? Int == 1_767_225_600, "2026-01-01, where every walkthrough's clock starts")
    #expect(header["title"] as? String == "Buy 5 credits: the happy path")
    #expect((header["env"] as? [String: String])?["TERM"] == "xterm-256color")
    let events = lines.dropFirst().dropLast()
    #expect(events.count == recorded.cast.events.count)
    var previous = -1.0
    for (line, event) in zip(events, recorded.cast.events) {
      let array = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
      #expect(array.count == 3)
      let time = try #require(array[0] as? Double, "\(line)")
      #expect(time >= previous, "times only grow: \(line)")
      previous = time
      #expect(array[1] as? String == "o")
      #expect(array[2] as? String == event.output)
    }
    #expect(recorded.cast.events.first?.time == 0)
    let duration = try #require(header["duration"] as? Double)
    #expect(abs(duration - recorded.cast.duration) < 0.000_001)
  }

  /// The same walkthrough records to the same bytes: nothing in it comes from the wall clock.
  @Test func aRecordingIsTheSameEveryTime() throws {
    let walkthrough = try bundled("network-lost-mid-purchase")
    #expect(record(walkthrough).cast.text == record(walkthrough).cast.text)
  }

  /// A wait lasts its virtual time in the recording, its countdown running down with it; steps
  /// come `pause` apart.
  @Test func aWaitTakesItsVirtualTimeAndStepsComeAPauseApart() throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: A long wait
      steps:
        - launch
        - wait: 30s
        - say: Done waiting.
      """, path: "long-wait.yaml")
    let recorded = record(walkthrough, pause: 1.5)
    func time(of text: String) throws -> TimeInterval {
      try #require(recorded.frames.first { $0.grid.contains(text) }?.time, "no frame shows \(text)")
    }
    let fifteen = try time(of: "— 15.0s left")
    let five = try time(of: "— 5.0s left")
    #expect(abs((five - fifteen) - 10) < 0.11, "10 s of countdown take 10 s: \(fifteen) → \(five)")
    let done = try time(of: "Done waiting.")
    #expect(abs((done - five) - (5 + 1.5)) < 0.11, "the next step comes 1.5 s after the wait ended: \(five) → \(done)")
    #expect(try time(of: "wait 30s") >= 1.5, "the first step comes after a pause")
  }

  /// Japanese text takes two cells a character: replayed, every character lands where the player
  /// put it, titles, prices and the band alike.
  @Test func japaneseWideCharactersLandWhereThePlayerPutThem() throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: 5クレジットを購入
      language: ja
      storefront: JPN
      steps:
        - launch
        - say: 購入します。
        - press: ["5", Enter]
        - wait: 2s
        - expect: { balance: 5 }
      """, path: "ja.yaml")
    let recorded = record(walkthrough, language: .ja)
    #expect(replayDifferences(recorded) == [])
    let last = try #require(recorded.frames.last).grid
    #expect(last.contains("5 モンキークレジット"), "\(last)")
    #expect(last.contains("ウォークスルーは終わりました"), "\(last)")
  }

  /// Text from the walkthrough reaches the recording as the screen shows it: escapes, bells and
  /// C1 controls in a name or a narration are not in the output (which holds only the recording's
  /// own CSI sequences), and the title shows them escaped.
  @Test func controlCharactersFromTheWalkthroughNeverReachTheRecording() throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: "Evil \\e]0;owned\\a title\\x9B2J"
      steps:
        - launch
        - say: "Look \\e[31mred\\e[0m and \\e]52;c;Zm9v\\a here\\r\\n"
      """, path: "evil.yaml")
    let recorded = record(walkthrough)
    #expect(replayDifferences(recorded) == [])
    for event in recorded.cast.events {
      var rest = event.output.unicodeScalars[...]
      while let scalar = rest.first {
        rest = rest.dropFirst()
        if scalar == "\u{1B}" {
          #expect(rest.first == "[", "only CSI sequences: \(event.output.debugDescription)")
          rest = rest.dropFirst()
          while let next = rest.first, "0123456789;?".unicodeScalars.contains(next) { rest = rest.dropFirst() }
          #expect(rest.first.map { "HGJKmhl".unicodeScalars.contains($0) } == true)
          rest = rest.dropFirst()
        } else {
          #expect(
            !TerminalText.isControl(scalar), "U+\(String(scalar.value, radix: 16)) in \(event.output.debugDescription)")
        }
      }
    }
    #expect(recorded.cast.title == "Evil \\u{1B}]0;owned\\u{7} title\\u{9B}2J")
    // The file holds no control character raw: only the newlines between its lines.
    #expect(!recorded.cast.text.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" })
    #expect(recorded.frames.contains { $0.grid.contains("Look [31mred[0m and ]52;c;Zm9v here") })
  }

  /// A walkthrough that fails is recorded up to the step that failed; the last frame says why.
  @Test func aFailingWalkthroughIsRecordedUpToItsFailure() throws {
    let walkthrough = try WalkthroughParser.parse(
      """
      name: Expects too much
      steps:
        - launch
        - expect: { balance: 99 }
        - say: Never shown.
      """, path: "fails.yaml")
    let recorded = record(walkthrough)
    let last = try #require(recorded.frames.last).grid
    #expect(last.contains("✗ step 2 (line 4): expect balance 99"), "\(last)")
    #expect(last.contains("the walkthrough stops here"), "\(last)")
    #expect(!recorded.frames.contains { $0.grid.contains("Never shown.") })
    #expect(replayDifferences(recorded) == [])
  }

  /// Without colours (NO_COLOR), styles still show as bold, dim and reverse.
  @Test func withoutColoursOnlyAttributesAreSent() throws {
    let recorded = record(try bundled("buy-5"), colours: false)
    let output = recorded.cast.events.map(\.output).joined()
    #expect(!output.contains(";3"), "no SGR colour")
    #expect(output.contains("\u{1B}[0;1;7m"), "bold reverse (the focused product)")
    #expect(output.hasSuffix("\u{1B}[?25h"), "the cursor is shown again at the end")
  }

  /// A larger terminal gets the storefront at that size, the band at its foot.
  @Test func aRecordingTakesTheSizeAsked() throws {
    let recorded = record(try bundled("buy-5"), size: ScreenSize(width: 120, height: 40))
    #expect(recorded.cast.text.hasPrefix("{\"version\": 2, \"width\": 120, \"height\": 40,"))
    #expect(replayDifferences(recorded) == [])
    let last = try #require(recorded.frames.last).grid
    // Free play's band: seven rows, the last narration over the two saying the walkthrough is over.
    #expect(last.line(33).hasPrefix("── Walkthrough: Buy 5 credits"), "\(last)")
    #expect(last.line(39).contains("q or Ctrl-C quit"), "\(last)")
  }
}

@Suite("Where a recording is written", .tags(.walkthroughs))
struct CastPlaceTests {
  /// A data folder none of these paths is in.
  static var elsewhere: DataFolder { DataFolder(path: NSTemporaryDirectory() + "monkeyshop-no-such-data-folder") }

  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cast-place-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A file that is not a recording is never replaced; a recording monkeyshop made, a walkthrough's
  /// or the storefront's, or an empty file is.
  @Test func onlyAnEarlierRecordingOrAnEmptyFileIsReplaced() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let notes = root.appendingPathComponent("notes.txt").path
    try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
    #expect {
      try Cast.prepare(notes, dataFolder: Self.elsewhere)
    } throws: { error in
      "\(error)".contains("\(notes): is not a monkeyshop recording; it is left as it is")
    }
    let json = root.appendingPathComponent("package.json").path
    try Data("{\"version\": \"1.0\", \"name\": \"x\"}\n".utf8).write(to: URL(fileURLWithPath: json))
    #expect(throws: ReportFile.PlaceError.self) { try Cast.prepare(json, dataFolder: Self.elsewhere) }
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")

    let walkthrough = root.appendingPathComponent("walkthrough.cast").path
    try Data(record(try bundled("buy-5")).cast.text.utf8).write(to: URL(fileURLWithPath: walkthrough))
    try Cast.prepare(walkthrough, dataFolder: Self.elsewhere)
    let session = root.appendingPathComponent("session.cast").path
    let live = LiveCast(path: session)
    var grid = TextGrid(size: ScreenSize(width: 100, height: 30))
    grid.put("Monkey Shop", x: 0, y: 0, style: .plain)
    live.record(grid)
    live.finish()
    try Cast.prepare(session, dataFolder: Self.elsewhere)
    let empty = root.appendingPathComponent("empty.cast").path
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    try Cast.prepare(empty, dataFolder: Self.elsewhere)
    try Cast.prepare(root.appendingPathComponent("new/folder/buy.cast").path, dataFolder: Self.elsewhere)
    var isFolder: ObjCBool = false
    #expect(
      FileManager.default.fileExists(atPath: root.appendingPathComponent("new/folder").path, isDirectory: &isFolder))
    #expect(isFolder.boolValue)
  }

  /// A person's own asciicast files, as asciinema writes them in each version, and one shaped like
  /// monkeyshop's but not made by it, are never replaced.
  @Test(arguments: [
    (
      "v2.cast",
      "{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1700000000, \"env\": {\"SHELL\": "
        + "\"/bin/bash\", \"TERM\": \"xterm-256color\"}, \"title\": \"My conference demo\"}\n[0.5, \"o\", \"hi\"]\n"
    ),
    (
      "look-alike.cast",
      "{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1700000000, \"title\": "
        + "\"My conference demo\", \"env\": {\"TERM\": \"xterm-256color\"}}\n[0.5, \"o\", \"hi\"]\n"
    ),
    (
      "v1.json",
      "{\"version\": 1, \"width\": 80, \"height\": 24, \"duration\": 1.5, \"command\": null, \"title\": null, "
        + "\"env\": {\"TERM\": \"xterm-256color\"}, \"stdout\": [[0.5, \"hi\"]]}\n"
    ),
    (
      "v3.cast",
      "{\"version\": 3, \"term\": {\"cols\": 80, \"rows\": 24}, \"timestamp\": 1700000000}\n[0.5, \"o\", \"hi\"]\n"
    ),
    ("one-line.cast", "{\"version\": 2, \"width\": 80}\n"),
  ])
  func anAsciicastFileOfThePersonsIsNotReplaced(name: String, text: String) throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect {
      try Cast.prepare(path, dataFolder: Self.elsewhere)
    } throws: { error in
      "\(error)".contains("\(path): is not a monkeyshop recording; it is left as it is")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
  }
}
