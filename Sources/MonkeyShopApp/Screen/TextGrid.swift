import MonkeyShopDomain

/// The in-memory screen: the cells a person would see, for tests, walkthroughs and golden files.
public struct TextGrid: Canvas, CustomStringConvertible {
  public struct Cell: Hashable, Sendable {
    /// Empty for the right half of a wide character.
    public var text: String
    public var style: Style
  }

  public let size: ScreenSize
  public private(set) var cells: [[Cell]]

  public init(size: ScreenSize) {
    self.size = size
    cells = Array(
      repeating: Array(repeating: Cell(text: " ", style: .plain), count: size.width), count: size.height)
  }

  public mutating func put(_ text: String, x: Int, y: Int, style: Style) {
    guard y >= 0, y < size.height, let clipped = ClippedText(text, x: x, columns: size.width) else { return }
    var column = clipped.x
    for character in clipped.text {
      let width = clipped.isASCII ? 1 : TextWidth.of(character)
      clearHalf(atRow: y, column: column)
      cells[y][column] = Cell(text: String(character), style: style)
      if width == 2 {
        clearHalf(atRow: y, column: column + 1)
        cells[y][column + 1] = Cell(text: "", style: style)
      }
      column += width
    }
  }

  /// Overwriting half of a wide character blanks its other half, as a terminal does.
  private mutating func clearHalf(atRow y: Int, column: Int) {
    if cells[y][column].text.isEmpty, column > 0 {
      cells[y][column - 1].text = " "
    } else if column + 1 < size.width, cells[y][column + 1].text.isEmpty,
      TextWidth.of(cells[y][column].text) == 2
    {
      cells[y][column + 1].text = " "
    }
  }

  /// One line of the screen as text, trailing spaces removed.
  public func line(_ y: Int) -> String {
    var text = cells[y].map(\.text).joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  public var lines: [String] { (0..<size.height).map(line) }

  /// The whole screen as text, as `tmux capture-pane -p` prints it.
  public var text: String { lines.joined(separator: "\n") }

  public var description: String { "\n" + text }

  public func contains(_ fragment: String) -> Bool {
    lines.contains { $0.contains(fragment) }
  }

  /// Where text is drawn in a style (focus, colour): for tests that check more than the letters.
  public func style(at x: Int, _ y: Int) -> Style { cells[y][x].style }
}
