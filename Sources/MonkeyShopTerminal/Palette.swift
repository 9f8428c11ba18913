import CNCurses
import MonkeyShopApp

/// Maps a `Style` to ncurses attributes and a colour pair. In monochrome (NO_COLOR, or a terminal
/// without colour) tints are dropped and bold, reverse and dim still show focus and emphasis.
struct Palette {
  let isMonochrome: Bool

  /// Call once after newterm. Pair numbers are the tints' raw values.
  static func setUp(forceMonochrome: Bool) -> Palette {
    guard !forceMonochrome, has_colors(), start_color() != ERR else { return Palette(isMonochrome: true) }
    // -1 keeps the user's own background (and foreground, for muted text).
    let background: Int16 = use_default_colors() != ERR ? -1 : Int16(COLOR_BLACK)
    for tint in Tint.allCases {
      init_pair(Int16(tint.rawValue), foreground(tint, background: background), background)
    }
    return Palette(isMonochrome: false)
  }

  private static func foreground(_ tint: Tint, background: Int16) -> Int16 {
    // The terminal's own foreground on its own background; on black, white.
    tint.ansiColour.map(Int16.init) ?? (background == -1 ? -1 : Int16(COLOR_WHITE))
  }

  func attributes(for style: Style) -> (attributes: Int32, pair: Int32) {
    var attributes: Int32 = 0
    if style.bold { attributes |= ms_attr_bold() }
    if style.reverse { attributes |= ms_attr_reverse() }
    if style.showsDim { attributes |= ms_attr_dim() }
    guard !isMonochrome, let tint = style.tint else { return (attributes, 0) }
    return (attributes, Int32(tint.rawValue))
  }
}
