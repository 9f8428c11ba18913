import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The repository, found from this file so the tests run from any directory.
private let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// docs/commands.md: nothing read from a file reaches a terminal raw. One rule says what a terminal acts on;
/// the headless output shows it escaped, the storefront draws nothing for it.
@Suite("Terminal text", .tags(.pure))
struct TerminalTextTests {
  @Test("escape sequences, BEL, C1, DEL and bidirectional controls are shown escaped")
  func escapesControls() {
    #expect(TerminalText.escaped("a\u{1B}]0;title\u{7}b") == #"a\u{1B}]0;title\u{7}b"#)
    #expect(TerminalText.escaped("\u{1B}[2J") == #"\u{1B}[2J"#)
    #expect(TerminalText.escaped("\u{1B}]52;c;cHduZWQ=\u{7}") == #"\u{1B}]52;c;cHduZWQ=\u{7}"#)
    #expect(TerminalText.escaped("x\u{9B}31m\u{9D}\u{7F}") == #"x\u{9B}31m\u{9D}\u{7F}"#)
    #expect(TerminalText.escaped("\u{202E}olleh\u{2066}\u{2069}\u{202A}") == #"\u{202E}olleh\u{2066}\u{2069}\u{202A}"#)
    #expect(TerminalText.escaped("line\nnext\ttab\r\0") == #"line\nnext\ttab\r\u{0}"#)
  }

  @Test("printable text is kept as it is: Japanese, currency, emoji, combining marks, backslashes")
  func keepsPrintableText() {
    for text in ["モンキークレジット 5", "￥160 · £0.99 · 0,99 €", "🐒", "e\u{301}", #"C:\path\u{1B}"#, ""] {
      #expect(TerminalText.escaped(text) == text)
    }
  }

  @Test("escaping twice is escaping once: escaped parts can be put together and escaped again")
  func idempotent() {
    let text = "\u{1B}[2J \u{9B} \u{202E} \\ \n"
    let once = TerminalText.escaped(text)
    #expect(TerminalText.escaped(once) == once)
    #expect(!once.unicodeScalars.contains(where: TerminalText.isControl))
  }

  @Test("JSON: controls JSONSerialization leaves in become \\uXXXX, and the document reads back the same")
  func json() throws {
    let value = ["path": "a\u{9B}b\u{202E}c\u{7F}d\u{1B}"]
    let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
    let escaped = TerminalText.escapedJSON(String(decoding: data, as: UTF8.self))
    #expect(!escaped.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" })
    #expect(escaped.contains(#"\u009B"#) && escaped.contains(#"\u202E"#) && escaped.contains(#"\u007F"#))
    let back = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
    #expect(back == value)
  }

  @Test("the storefront's screen draws nothing for what the headless output escapes")
  func storefrontUsesTheSameRule() {
    var grid = TextGrid(size: ScreenSize(width: 40, height: 1))
    grid.put("A\u{1B}[2J\u{9B}B\u{202E}C\u{2067}D\u{7F}E", x: 0, y: 0)
    #expect(grid.line(0) == "A[2JBCDE")
    #expect(TextWidth.of("\u{202E}x\u{2069}") == 1)
    #expect(TextWidth.of("\u{1B}\u{9B}\u{7F}") == 0)
  }

  @Test("a transcript shows the walkthrough's name, say: and expected screen escaped")
  func transcriptEscapes() throws {
    let yaml = """
      name: "Pwn \\e]0;title\\a"
      steps:
        - say: "clear \\e[2J, \\x9B31m and \\u202Eolleh"
        - launch
        - expect: { screen: "Buy \\e]52;c;cHduZWQ=\\a" }
      """
    let walkthrough = try WalkthroughParser.parse(yaml, path: "hostile.yaml")
    let catalog = try CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)
    let result = WalkthroughRunner(catalog: catalog).run(walkthrough)
    let transcript = Transcript.text(result)
    #expect(!transcript.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" }, "\(transcript)")
    #expect(transcript.contains(#"▶ Pwn \u{1B}]0;title\u{7}"#), "\(transcript)")
    #expect(transcript.contains(#"say: clear \u{1B}[2J, \u{9B}31m and \u{202E}olleh"#), "\(transcript)")
    #expect(transcript.contains(#"Buy \u{1B}]52;c;cHduZWQ=\u{7}"#), "\(transcript)")
  }

  @Test("the headless commands print only through Output: no print( elsewhere in Sources/monkeyshop")
  func onlyOutputPrints() throws {
    let folder = repository.appendingPathComponent("Sources/monkeyshop")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
    #expect(files.contains("Output.swift"))
    for file in files where file != "Output.swift" {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.components(separatedBy: "\n").enumerated() {
        let code = line.components(separatedBy: "//").first ?? ""
        let writes = ["print(", "FileHandle.standardError", "FileHandle.standardOutput", "fputs(", "putchar("]
        #expect(!writes.contains { code.contains($0) }, "\(file):\(number + 1): \(line)")
      }
    }
  }
}
