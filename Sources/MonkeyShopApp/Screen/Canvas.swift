import MonkeyShopDomain

/// What the storefront draws on: a grid of cells. The terminal implements it with ncurses; tests
/// and walkthroughs use `TextGrid`, so they see exactly the cells a person would.
public protocol Canvas {
  var size: ScreenSize { get }
  /// Writes text from a cell, clipped at the right edge. Wide characters take two cells.
  mutating func put(_ text: String, x: Int, y: Int, style: Style)
}

extension Canvas {
  public mutating func put(_ text: String, x: Int, y: Int) { put(text, x: x, y: y, style: .plain) }

  /// Paints a rectangle with spaces in a style (panel backgrounds, the focus bar).
  public mutating func fill(_ rect: Rect, style: Style = .plain) {
    let blank = TextWidth.repeated(.space, rect.width)
    for row in rect.y..<(rect.y + rect.height) { put(blank, x: rect.x, y: row, style: style) }
  }
}

/// What shows of text written on a row from column `x`: the one clipping rule of every canvas (the
/// terminal, the in-memory grid, a region of either), so tests and the terminal agree cell for cell.
/// Characters are kept whole or dropped whole, by `TextWidth`: a wide character that would straddle
/// the left or right edge is not drawn at all, characters that take no cell are left out, and an
/// emoji sequence is drawn as `TextWidth.drawn` gives it, so every terminal puts it in the same cells.
public struct ClippedText: Hashable, Sendable {
  /// The column of the first cell drawn.
  public let x: Int
  /// The characters drawn.
  public let text: String
  /// The cells they take.
  public let width: Int
  /// Every character is printable ASCII, one cell each.
  public let isASCII: Bool
  /// Some character takes two cells.
  public let hasWide: Bool

  /// Nil when nothing shows. `edgeWidth` is, for a device that may count a character wider than
  /// `TextWidth` does, the cells it needs there, so the character is dropped rather than wrapped
  /// onto the next row when it does not fit before the right edge.
  public init?(_ text: String, x: Int, columns: Int, edgeWidth: ((Character) -> Int)? = nil) {
    guard x < columns else { return nil }
    // Plain ASCII, the bulk of every frame: no per-character width lookups.
    if x >= 0, let ascii = TextWidth.asciiWidth(text), ascii == text.utf8.count {
      let count = min(ascii, columns - x)
      guard count > 0 else { return nil }
      self.x = x
      self.text = count == ascii ? text : String(text.utf8.prefix(count))!
      width = count
      isASCII = true
      hasWide = false
      return
    }
    // Characters of their own (box drawing, punctuation, kana, ideographs): scalar by scalar.
    if TextWidth.simpleWidth(text) != nil {
      var column = x
      var start: String.UnicodeScalarView.Index?
      var end = text.unicodeScalars.startIndex
      var first: Int?
      var hasWide = false
      for index in text.unicodeScalars.indices {
        let scalar = text.unicodeScalars[index]
        let cells = TextWidth.simpleCells(scalar.value) ?? 1
        if column + cells > columns { break }
        // Only at the right edge can the C library's count (at most two cells) matter.
        if column + 2 > columns, let edgeWidth, column + edgeWidth(Character(scalar)) > columns { break }
        if column >= 0 {
          if start == nil {
            start = index
            first = column
          }
          end = text.unicodeScalars.index(after: index)
          hasWide = hasWide || cells == 2
        }
        column += cells
      }
      guard let start, let first else { return nil }
      self.x = first
      self.text = String(text.unicodeScalars[start..<end])
      width = column - first
      isASCII = false
      self.hasWide = hasWide
      return
    }
    var column = x
    var start: Int?
    var visible = ""
    var hasWide = false
    for character in text {
      let cells = TextWidth.of(character)
      guard cells > 0 else { continue }
      if column + max(cells, edgeWidth?(character) ?? 0) > columns { break }
      if column >= 0 {
        if start == nil { start = column }
        visible += TextWidth.drawn(character)
        hasWide = hasWide || cells == 2
      }
      column += cells
    }
    guard let start else { return nil }
    self.x = start
    self.text = visible
    width = column - start
    isASCII = false
    self.hasWide = hasWide
  }
}

public struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public static let minimum = ScreenSize(width: 80, height: 24)

  public var isLargeEnough: Bool { width >= Self.minimum.width && height >= Self.minimum.height }
  public var description: String { "\(width)×\(height)" }
}

public struct Rect: Hashable, Sendable {
  public var x, y, width, height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Colours by meaning; the terminal maps them to colour pairs, or drops them in monochrome.
public enum Tint: Int, CaseIterable, Sendable {
  case accent = 1
  case success
  case warning
  case danger
  case muted
  case price
}

public struct Style: Hashable, Sendable {
  public var tint: Tint?
  public var bold = false
  public var reverse = false
  public var dim = false

  public init(tint: Tint? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false) {
    self.tint = tint
    self.bold = bold
    self.reverse = reverse
    self.dim = dim
  }

  public static let plain = Style()
  public static let bold = Style(bold: true)
  /// Focus must show without colour: reverse video.
  public static let focus = Style(bold: true, reverse: true)
  public static let muted = Style(tint: .muted, dim: true)
}
