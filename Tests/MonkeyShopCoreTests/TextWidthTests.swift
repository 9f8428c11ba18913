import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// The screen measures most text scalar by scalar (`TextWidth.simpleWidth`) instead of walking
/// grapheme clusters: these check that the shortcut gives the cells the character-by-character
/// rule gives, and that what a canvas draws is the same either way.
@Suite("Text widths measured scalar by scalar agree with the character rule", .tags(.pure))
struct TextWidthTests {
  /// Scalars from every block the shortcut takes, and from its edges.
  static let pool: [Unicode.Scalar] = [
    0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x2FF, 0x2010, 0x2026, 0x2030, 0x205F, 0x2070, 0x20AC, 0x20CF, 0x2100, 0x2190,
    0x231A, 0x23F3, 0x2500, 0x2588, 0x25FC, 0x25FD, 0x2614, 0x26A1, 0x2705, 0x2728, 0x2B50, 0x2BFF, 0x3000, 0x3029,
    0x3030, 0x3041, 0x3096, 0x309B, 0x30FC, 0x3400, 0x4E00, 0x9FFF, 0xFF01, 0xFF60, 0xFFE0, 0xFFE6,
  ].map { Unicode.Scalar($0)! }

  /// The rule the shortcut stands in for: each character measured on its own.
  static func characterWidth(_ text: String) -> Int { text.reduce(0) { $0 + TextWidth.of($1) } }

  static func characterTruncate(_ text: String, to width: Int) -> String {
    var used = 0
    var result = ""
    for character in text {
      let cells = TextWidth.of(character)
      if used + cells > width { break }
      used += cells
      result.append(character)
    }
    return result
  }

  static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 0...24, using: &generator) {
      text.unicodeScalars.append(pool.randomElement(using: &generator)!)
    }
    return text
  }

  @Test("widths, truncations and clipped text agree on 2,000 random strings")
  func agree() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let text = Self.randomText(&generator)
      #expect(TextWidth.simpleWidth(text) != nil, "\(text.unicodeScalars.map(\.value))")
      #expect(TextWidth.of(text) == Self.characterWidth(text), "\(text)")
      let width = Int.random(in: 0...30, using: &generator)
      #expect(TextWidth.truncate(text, to: width) == Self.characterTruncate(text, to: width), "\(text) to \(width)")
      // Drawn from any column, left of the screen or near its right edge, the cells are the same
      // as those of the same text drawn character by character.
      let x = Int.random(in: -3...20, using: &generator)
      var grid = TextGrid(size: ScreenSize(width: 24, height: 1))
      grid.put(text, x: x, y: 0)
      var reference = TextGrid(size: ScreenSize(width: 24, height: 1))
      var column = x
      for character in text {
        reference.put("\u{200B}" + String(character), x: column, y: 0)
        column += TextWidth.of(character)
      }
      #expect(grid.line(0) == reference.line(0), "\(text) at \(x)")
    }
  }

  @Test("a mark, a joiner or a selector leaves the shortcut to the character rule")
  func joinersTakeTheLongWay() {
    for text in ["e\u{301}", "👍🏽", "❤\u{FE0F}", "ｶﾞ", "\u{1F1EF}\u{1F1F5}", "가"] {
      #expect(TextWidth.simpleWidth(text) == nil, "\(text)")
    }
  }

  @Test("repeated runs are the characters they stand for")
  func repeated() {
    for count in [0, 1, 7, 80, 511, 512, 600] {
      #expect(TextWidth.repeated(.rule, count) == String(repeating: "─", count: count))
      #expect(TextWidth.repeated(.space, count) == String(repeating: " ", count: count))
    }
    #expect(TextWidth.repeated(.bar, -1) == "")
  }
}
