import CNCurses
import MonkeyShopApp
import MonkeyShopDomain

/// The storefront's `Canvas` on a real terminal. Text is clipped by `ClippedText`, the rule the
/// in-memory `TextGrid` uses too, so tests and the terminal agree cell for cell.
public struct NCursesCanvas: Canvas {
  public let size: ScreenSize
  private let window: UnsafeMutablePointer<WINDOW>
  private let palette: Palette
  /// For each row, the columns where a wide character drawn in this frame starts. Text written over
  /// either half of one blanks the other half, as a terminal does and `TextGrid` does; ncurses
  /// leaves it, and the terminal then shows the row's text shifted by a cell.
  private var wideStarts: [Set<Int>]

  /// The canvas of one frame, on a window just erased.
  init(window: UnsafeMutablePointer<WINDOW>, size: ScreenSize, palette: Palette) {
    self.window = window
    self.size = size
    self.palette = palette
    wideStarts = Array(repeating: [], count: max(0, size.height))
  }

  public mutating func put(_ text: String, x: Int, y: Int, style: Style) {
    // Clipped by the wider of our width and the C library's at the right edge: ncurses wraps a
    // character that does not fit onto the next row, so a disagreement there must not spill over.
    guard y >= 0, y < size.height,
      let clipped = ClippedText(text, x: x, columns: size.width, edgeWidth: Self.libcWidth)
    else { return }
    // A wide character half drawn over keeps nothing of itself: ncurses would leave its other half
    // behind, and the terminal would show the text one cell away from where it was put.
    let end = clipped.x + clipped.width
    if wideStarts[y].remove(clipped.x - 1) != nil { ms_blank_cell(window, Int32(y), Int32(clipped.x - 1)) }
    let leavesRightHalf = wideStarts[y].contains(end - 1)
    followWideCharacters(of: clipped, y: y)
    let (attributes, pair) = palette.attributes(for: style)
    ms_set_style(window, attributes, pair)
    // Writing the bottom-right cell returns ERR (the cursor cannot move on) but the cell is drawn.
    _ = wmove(window, Int32(y), Int32(clipped.x))
    if clipped.isASCII {
      _ = clipped.text.withCString { waddnstr(window, $0, Int32(clipped.width)) }
    } else {
      let wide = clipped.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
      _ = waddnwstr(window, wide, Int32(wide.count))
    }
    ms_set_style(window, 0, 0)
    if leavesRightHalf { ms_blank_cell(window, Int32(y), Int32(end)) }
  }

  /// The wide characters drawn over are gone; those of `clipped` are new.
  private mutating func followWideCharacters(of clipped: ClippedText, y: Int) {
    if !wideStarts[y].isEmpty {
      wideStarts[y] = wideStarts[y].filter { $0 < clipped.x || $0 >= clipped.x + clipped.width }
    }
    guard clipped.hasWide else { return }
    var column = clipped.x
    for character in clipped.text {
      let width = TextWidth.of(character)
      if width == 2 { wideStarts[y].insert(column) }
      column += width
    }
  }

  private static func libcWidth(_ character: Character) -> Int {
    Int(ms_wcwidth(character.unicodeScalars.first?.value ?? 0))
  }
}
