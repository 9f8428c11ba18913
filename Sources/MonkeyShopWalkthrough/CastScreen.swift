import MonkeyShopApp
import MonkeyShopDomain

/// What a terminal is sent to turn one screen into the next: the bytes of a recording's output
/// events (`Cast`). A frame moves the cursor to each row that changed and writes the row again
/// whole, with ANSI SGR for its styles (the colours the storefront's palette gives each tint,
/// `Tint.ansiColour`), so a player that starts anywhere, or a terminal that counts a character's
/// width differently, gets every row right from its first cell.
///
/// Cells come from the in-memory screen, which holds only what the storefront draws: text read
/// from a catalog or a walkthrough has lost its control characters there (`TextWidth`), and any
/// that reached a cell are left out here too, so the only escapes a recording holds are its own.
public enum CastScreen {
  static let escape = "\u{1B}["

  /// The output that draws `next` on a terminal showing `previous` (nil: a terminal in an unknown
  /// state: the screen is cleared and drawn whole). Styles start and end plain.
  public static func output(from previous: TextGrid?, to next: TextGrid, colours: Bool) -> String {
    var output = ""
    var rows = Array(0..<next.size.height)
    if let previous, previous.size == next.size {
      rows = rows.filter { previous.cells[$0] != next.cells[$0] }
    } else {
      // The cursor is hidden, as the storefront hides it; `closing` shows it again.
      output += "\(escape)?25l\(escape)0m\(escape)H\(escape)2J"
      rows = rows.filter { row in next.cells[row].contains { !isBlank($0) } }
    }
    for row in rows { output += draw(row: row, of: next, colours: colours) }
    return output
  }

  /// Sent after the last frame: the cursor shown again on the bottom row, as the storefront leaves
  /// the terminal when it quits.
  public static func closing(height: Int) -> String {
    "\(escape)0m\(escape)\(max(1, height));1H\(escape)?25h"
  }

  /// One row, from its first cell to its last visible one; the rest is erased.
  private static func draw(row: Int, of grid: TextGrid, colours: Bool) -> String {
    let cells = grid.cells[row]
    var output = "\(escape)\(row + 1);1H"
    var current = Style.plain
    let last = cells.lastIndex { !isBlank($0) } ?? -1
    var column = 0
    // After characters beyond ASCII, the cursor is put where the screen's width rules say the
    // next cell is, whatever widths this terminal gives them (East Asian ambiguous ones differ).
    var placed = true
    var end = 0
    while column <= last {
      let cell = cells[column]
      defer { column += 1 }
      // The right half of a wide character: drawn with its left half.
      if cell.text.isEmpty { continue }
      var text = ""
      text.unicodeScalars.append(contentsOf: cell.text.unicodeScalars.filter { !TerminalText.isControl($0) })
      if text.isEmpty { text = " " }
      let isASCII = TextWidth.asciiWidth(text) != nil
      if isASCII, !placed {
        output += "\(escape)\(column + 1)G"
        placed = true
      }
      if cell.style != current {
        output += sgr(cell.style, colours: colours)
        current = cell.style
      }
      output += text
      end = column + (isASCII ? 1 : max(1, TextWidth.of(text)))
      if !isASCII { placed = false }
    }
    if current != .plain { output += "\(escape)0m" }
    if last < grid.size.width - 1 {
      if !placed { output += "\(escape)\(end + 1)G" }
      output += "\(escape)K"
    }
    return output
  }

  /// A space shows nothing of its style but reverse video (no style sets a background).
  private static func isBlank(_ cell: TextGrid.Cell) -> Bool {
    cell.text == " " && !cell.style.reverse
  }

  /// The SGR sequence of a style, from a reset: bold, dim, reverse, the tint's colour.
  static func sgr(_ style: Style, colours: Bool) -> String {
    var codes = ["0"]
    if style.bold { codes.append("1") }
    if style.showsDim { codes.append("2") }
    if style.reverse { codes.append("7") }
    if colours, let colour = style.tint?.ansiColour { codes.append("3\(colour)") }
    return escape + codes.joined(separator: ";") + "m"
  }
}
