import CNCurses
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

@testable import MonkeyShopTerminal

/// Text drawn at the edges of the screen: what shows, on the terminal and in the in-memory grid that
/// tests, walkthroughs and golden files read.
@Suite("Clipping", .tags(.screen))
struct ClippingTests {
  @Test("a wide character that does not fit before the right edge is left out whole, not cut in half")
  func wideAtTheRightEdge() throws {
    let clipped = try #require(ClippedText("モンキー", x: 5, columns: 10))
    #expect(clipped.text == "モン")
    #expect(clipped.x == 5)
    #expect(clipped.width == 4)
  }

  @Test("a wide character straddling the left edge is left out whole; what follows keeps its columns")
  func wideAtTheLeftEdge() throws {
    let clipped = try #require(ClippedText("アイウ", x: -1, columns: 10))
    #expect(clipped.text == "イウ")
    #expect(clipped.x == 1)
  }

  @Test("ASCII is cut at the edge; nothing shows of text entirely off the row")
  func ascii() throws {
    let clipped = try #require(ClippedText("monkey credits", x: 4, columns: 10))
    #expect(clipped.text == "monkey")
    #expect(clipped.isASCII)
    #expect(ClippedText("right of it", x: 10, columns: 10) == nil)
    #expect(ClippedText("left", x: -4, columns: 10) == nil)
    #expect(ClippedText("", x: 0, columns: 10) == nil)
  }

  @Test("controls take no cell and are not drawn; combining marks stay with their letter")
  func zeroWidth() throws {
    let clipped = try #require(ClippedText("a\u{1B}[2Jb e\u{301}", x: 0, columns: 10))
    #expect(clipped.text == "a[2Jb e\u{301}")
    #expect(clipped.width == 7)
  }

  @Test("a device that counts a character wider drops it at the edge rather than wrap it onto the next row")
  func edgeWidth() throws {
    let clipped = try #require(ClippedText("ab★", x: 7, columns: 10) { $0 == "★" ? 2 : 1 })
    #expect(clipped.text == "ab")
    let inside = try #require(ClippedText("★ab", x: 7, columns: 10) { $0 == "★" ? 2 : 1 })
    #expect(inside.text == "★ab", "away from the edge the character keeps its own width")
  }

  /// Puts that reach the edges, with wide characters, overwritten halves and controls.
  static let puts: [(text: String, x: Int, y: Int)] = [
    ("Bulk pack 1 — 5 monkey credits", 0, 0),
    ("モンキー", 77, 1),
    ("アイウ", -1, 2),
    ("right edge", 75, 3),
    ("a\u{1B}[31mb", 0, 4),
    ("ABCDEF", 0, 5), ("ア", 1, 5),
    ("ア", 0, 6), ("x", 1, 6),
    ("カタカナ", 0, 7), ("ab", 2, 7),
    ("カタカナ", 0, 9), ("ab", 1, 9),
    ("カタカナ", 0, 10), ("a", 2, 10),
    ("カタカナ", 0, 11), ("ア", 1, 11),
    ("カタカナ", 10, 12), ("|", 13, 12),
    ("e\u{301}tude", 3, 8),
    ("The last cell", 67, 23),
    ("👨‍👩‍👧‍👦 family 🧑🏽‍🚀 ok", 0, 13), ("|", 20, 13),
    ("🏳️‍🌈 flag ❤️ 🇯🇵 end", 0, 14), ("|", 16, 14),
  ]

  @Test("an emoji sequence is drawn as its emoji side by side: every terminal gives them the same cells")
  func emojiSequences() throws {
    let family = try #require(ClippedText("👨‍👩‍👧‍👦|", x: 0, columns: 80))
    #expect(family.text == "👨👩👧👦|")
    #expect(family.width == 9)
    #expect(TextWidth.of("🧑🏽‍🚀") == 4, "astronaut and rocket, the skin tone left out")
    #expect(TextWidth.drawn("🧑🏽‍🚀") == "🧑🚀")
    #expect(TextWidth.drawn("❤️") == "❤", "the variation selector left out: one cell everywhere")
    #expect(TextWidth.of("🇯🇵") == 2, "two regional indicators, one cell each")
    #expect(TextWidth.of("e\u{301}") == 1, "a combining mark stays with its letter")
  }

  @Test("the terminal shows the cells the in-memory grid shows")
  func terminalAndGridAgree() throws {
    var grid = TextGrid(size: ScreenSize(width: 80, height: 24))
    for put in Self.puts { grid.put(put.text, x: put.x, y: put.y) }
    let lines = try CursesScreen.use { screen in
      werase(screen.window)
      var canvas = NCursesCanvas(
        window: screen.window, size: ScreenSize(width: 80, height: 24), palette: Palette(isMonochrome: true))
      for put in Self.puts { canvas.put(put.text, x: put.x, y: put.y) }
      return (0..<24).map { screen.line(Int32($0)) }
    }
    for row in 0..<24 { #expect(lines[row] == grid.line(row), "row \(row)") }
    #expect(grid.line(1).hasSuffix("モ"))
    #expect(grid.line(23).hasSuffix("The last cell"))
  }
}
