import MonkeyShopApp
import MonkeyShopDomain

/// One frame as the app drew it, row by row: what each `put` wrote. The terminal compares a frame
/// with the one before it and writes only the rows that differ, so a key that changes two rows costs
/// two rows of drawing, not a whole screen.
public struct FrameRecord: Canvas {
  /// Text written on a row from a column in a style.
  struct Put: Equatable {
    var text: String
    var x: Int
    var style: Style
  }

  public let size: ScreenSize
  private(set) var rows: [[Put]]

  init(size: ScreenSize) {
    self.size = size
    rows = Array(repeating: [], count: max(0, size.height))
  }

  public mutating func put(_ text: String, x: Int, y: Int, style: Style) {
    guard y >= 0, y < size.height, x < size.width, !text.isEmpty else { return }
    rows[y].append(Put(text: text, x: x, style: style))
  }
}
