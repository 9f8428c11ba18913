import MonkeyShopDomain

/// Small drawing helpers shared by the storefront's panels.
extension Canvas {
  /// A framed box with a title in its top edge, its inside cleared.
  public mutating func box(_ rect: Rect, title: String, style: Style = Style(tint: .accent)) {
    guard rect.width >= 4, rect.height >= 2 else { return }
    fill(rect)
    let inner = rect.width - 2
    put("┌" + TextWidth.repeated(.rule, inner) + "┐", x: rect.x, y: rect.y, style: style)
    for row in (rect.y + 1)..<(rect.y + rect.height - 1) {
      put("│", x: rect.x, y: row, style: style)
      put("│", x: rect.x + rect.width - 1, y: row, style: style)
    }
    put("└" + TextWidth.repeated(.rule, inner) + "┘", x: rect.x, y: rect.y + rect.height - 1, style: style)
    let label = TextWidth.truncate(" \(title) ", to: inner - 2)
    put(label, x: rect.x + 2, y: rect.y, style: Style(tint: style.tint, bold: true))
  }

  /// Blanks the rows a centred overlay spans, edge to edge: nothing of the screen beneath shows
  /// beside it.
  public mutating func band(_ rect: Rect) {
    fill(Rect(x: 0, y: rect.y, width: size.width, height: rect.height))
  }

  /// A section heading: `── Title ─────` across the width.
  public mutating func rule(_ title: String, x: Int = 0, y: Int, width: Int) {
    let head = TextWidth.truncate("── \(title) ", to: width)
    let rest = max(0, width - TextWidth.of(head))
    put(head, x: x, y: y, style: Style(tint: .accent, bold: true))
    put(TextWidth.repeated(.rule, rest), x: x + TextWidth.of(head), y: y, style: .muted)
  }

  /// Text fitted to a width, drawn in one call.
  public mutating func put(_ text: String, x: Int, y: Int, width: Int, style: Style = .plain) {
    put(TextWidth.fit(text, to: width), x: x, y: y, style: style)
  }

  /// A rectangle of a given size centred on the screen.
  public func centered(width: Int, height: Int) -> Rect {
    let width = min(width, size.width)
    let height = min(height, size.height)
    return Rect(x: (size.width - width) / 2, y: (size.height - height) / 2, width: width, height: height)
  }
}

extension Notice.Tone {
  public var style: Style {
    switch self {
    case .info: Style(tint: .accent)
    case .success: Style(tint: .success, bold: true)
    case .warning: Style(tint: .warning, bold: true)
    case .failure: Style(tint: .danger, bold: true)
    }
  }
}
