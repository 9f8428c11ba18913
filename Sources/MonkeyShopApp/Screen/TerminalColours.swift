/// How a style looks on a terminal, in the terms every colour terminal shares: the eight ANSI
/// colours and the dim attribute. The ncurses canvas and recordings (`CastScreen`) both read it,
/// so the storefront and its recordings show the same colours.
extension Tint {
  /// The ANSI colour number (0–7, as `COLOR_RED` and SGR 31 count them) text of this tint is drawn
  /// in; nil for the terminal's own foreground.
  public var ansiColour: Int? {
    switch self {
    case .accent: 6
    case .success: 2
    case .warning: 3
    case .danger: 1
    // Muted text keeps the person's own foreground, dimmed (`showsDim`).
    case .muted: nil
    case .price: 5
    }
  }
}

extension Style {
  /// Muted text is dim even without colour, so it stays secondary.
  public var showsDim: Bool { dim || tint == .muted }
}
