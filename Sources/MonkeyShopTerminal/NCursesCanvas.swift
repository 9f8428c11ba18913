import CNCurses
import MonkeyShopCore

/// The storefront's `Canvas` on a real terminal. Text is clipped with `TextWidth`, the same rule the
/// in-memory `TextGrid` uses, so tests and the terminal agree cell for cell.
public struct NCursesCanvas: Canvas {
  public let size: ScreenSize
  private let window: UnsafeMutablePointer<WINDOW>
  private let palette: Palette

  init(window: UnsafeMutablePointer<WINDOW>, size: ScreenSize, palette: Palette) {
    self.window = window
    self.size = size
    self.palette = palette
  }

  public mutating func put(_ text: String, x: Int, y: Int, style: Style) {
    guard y >= 0, y < size.height, x < size.width else { return }
    if x >= 0, let width = TextWidth.asciiWidth(text), width == text.utf8.count {
      return putASCII(text, x: x, y: y, count: min(width, size.width - x), style: style)
    }
    var column = x
    var start: Int?
    var wide: [wchar_t] = []
    for character in text {
      let width = TextWidth.of(character)
      // Control characters and stray combining marks take no cell; TextGrid skips them too.
      guard width > 0 else { continue }
      // Clip by the wider of our width and the C library's: ncurses wraps a character that does not
      // fit onto the next row, so a disagreement at the right edge must not spill over.
      let libcWidth = Int(ms_wcwidth(character.unicodeScalars.first?.value ?? 0))
      if column + max(width, libcWidth) > size.width { break }
      if column >= 0 {
        if start == nil { start = column }
        wide += character.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
      }
      column += width
    }
    guard let start, !wide.isEmpty else { return }
    let (attributes, pair) = palette.attributes(for: style)
    ms_set_style(window, attributes, pair)
    // Writing the bottom-right cell returns ERR (the cursor cannot move on) but the cell is drawn.
    _ = wmove(window, Int32(y), Int32(start))
    _ = waddnwstr(window, wide, Int32(wide.count))
    ms_set_style(window, 0, 0)
  }

  /// Plain ASCII, the bulk of every frame: no per-character width lookups.
  private func putASCII(_ text: String, x: Int, y: Int, count: Int, style: Style) {
    guard count > 0 else { return }
    let (attributes, pair) = palette.attributes(for: style)
    ms_set_style(window, attributes, pair)
    _ = wmove(window, Int32(y), Int32(x))
    _ = text.withCString { waddnstr(window, $0, Int32(count)) }
    ms_set_style(window, 0, 0)
  }
}
