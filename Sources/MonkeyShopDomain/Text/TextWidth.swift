/// How many terminal cells text takes: East Asian wide characters take two, combining marks none.
/// ncurses agrees with this for the characters the shop shows (Japanese titles, currency symbols).
public enum TextWidth {
  public static func of(_ text: String) -> Int {
    if let ascii = asciiWidth(text) { return ascii }
    if let simple = simpleWidth(text) { return simple }
    return text.reduce(0) { $0 + of($1) }
  }

  /// The width of text each of whose scalars is a character of its own: printable, neither a mark
  /// nor anything that joins it to its neighbours (selectors, joiners, Hangul jamo, regional
  /// indicators, skin tones), from the blocks the screen draws with — Latin, punctuation, currency,
  /// arrows, box drawing, blocks, shapes, symbols, kana, CJK ideographs, full-width forms. Such text
  /// is measured scalar by scalar, without walking grapheme clusters; nil for anything else, which
  /// `of(_:)` measures character by character with the same result.
  @inline(__always)
  public static func simpleWidth(_ text: String) -> Int? {
    var width = 0
    for scalar in text.unicodeScalars {
      guard let cells = simpleCells(scalar.value) else { return nil }
      width += cells
    }
    return width
  }

  /// The cells of a scalar that is a character of its own (see `simpleWidth`), else nil.
  @inline(__always)
  public static func simpleCells(_ value: UInt32) -> Int? {
    switch value {
    case 0x20..<0x7F, 0xA0..<0x300, 0x2010...0x2027, 0x2030...0x205F, 0x2070...0x20CF: return 1
    // Box drawing, block elements and most geometric shapes: the rules, bars and frames.
    case 0x2500...0x25FC: return 1
    case 0x2100...0x24FF, 0x25FD...0x2BFF: return isWide(value) ? 2 : 1
    case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xFF01...0xFF60, 0xFFE0...0xFFE6:
      return 2
    default: return nil
    }
  }

  /// Most of the screen is ASCII: its width is its printable byte count, found without
  /// walking grapheme clusters. Nil when the text has anything else.
  @inline(__always)
  public static func asciiWidth(_ text: String) -> Int? {
    // A String of Swift's own keeps its UTF-8 in one piece: its bytes are read in place, by index,
    // instead of through the UTF-8 view's iterator (which an unoptimised build calls generically,
    // byte by byte, at several times the cost).
    if let width = text.utf8.withContiguousStorageIfAvailable(asciiWidth) { return width }
    var width = 0
    for byte in text.utf8 {
      guard byte < 0x80 else { return nil }
      if byte >= 0x20 && byte != 0x7F { width += 1 }
    }
    return width
  }

  private static func asciiWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var width = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      guard byte < 0x80 else { return nil }
      if byte >= 0x20 && byte != 0x7F { width += 1 }
      index += 1
    }
    return width
  }

  /// The cells a character takes as it is drawn (`drawn(_:)`): each of its scalars takes its own
  /// cells, as the C library's `wcwidth` and ncurses count them.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first { return width(scalar) }
    return drawnScalars(of: character).reduce(0) { $0 + width($1) }
  }

  /// What a terminal is given for a character. An emoji sequence (a family joined by U+200D, a
  /// skin tone, a flag's tags, a variation selector) is one glyph of two cells in some terminals
  /// and several glyphs in others (tmux, xterm, the C library's `wcwidth`), so the screen could not
  /// know where the rest of its row lands: its joiners, selectors, skin tones and tags are left
  /// out, and its emoji are drawn side by side, each with the cells every terminal gives it.
  public static func drawn(_ character: Character) -> String {
    let scalars = character.unicodeScalars
    if scalars.count == 1 { return scalars.first.map(TerminalText.isControl) == true ? "" : String(character) }
    var text = ""
    text.unicodeScalars.append(contentsOf: drawnScalars(of: character))
    return text
  }

  private static func drawnScalars(of character: Character) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    for (index, scalar) in character.unicodeScalars.enumerated() {
      if TerminalText.isControl(scalar) { continue }
      if index > 0, isEmojiJoiner(scalar) { continue }
      result.append(scalar)
    }
    return result
  }

  /// U+200D ZERO WIDTH JOINER, the variation selectors VS15 and VS16, the skin-tone modifiers and
  /// the tag characters of subdivision flags.
  private static func isEmojiJoiner(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200D, 0xFE0E, 0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: true
    default: false
    }
  }

  static func width(_ scalar: Unicode.Scalar) -> Int {
    // Controls, by the rule the headless output escapes them by, take no cell and are not drawn.
    if TerminalText.isControl(scalar) { return 0 }
    let value = scalar.value
    if value < 0x7F { return 1 }
    if isWide(value) { return 2 }
    if scalar.properties.generalCategory == .nonspacingMark
      || scalar.properties.generalCategory == .enclosingMark
    {
      return 0
    }
    // Zero-width spaces and joiners, word joiners, the BOM, tags, and Hangul's medial vowels and
    // final consonants, which join the syllable before them: none in the C library's count.
    switch value {
    case 0x200B...0x200D, 0x2060...0x2064, 0xFEFF, 0xE0000...0xE007F, 0x1160...0x11FF, 0xD7B0...0xD7FF: return 0
    default: return 1
    }
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
    0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
    0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
    0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
    0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
    0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
    0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]

  static func isWide(_ value: UInt32) -> Bool {
    guard value >= 0x1100 else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The longest prefix that fits in `width` cells.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if let ascii = asciiWidth(text), ascii == text.utf8.count {
      return ascii <= width ? text : String(text.utf8.prefix(width))!
    }
    if let simple = simpleWidth(text) {
      guard simple > width else { return text }
      var used = 0
      var end = text.unicodeScalars.startIndex
      for index in text.unicodeScalars.indices {
        let cells = simpleCells(text.unicodeScalars[index].value) ?? 1
        if used + cells > width { break }
        used += cells
        end = text.unicodeScalars.index(after: index)
      }
      return String(text.unicodeScalars[..<end])
    }
    var used = 0
    var result = ""
    for character in text {
      let cells = of(character)
      if used + cells > width { break }
      used += cells
      result.append(character)
    }
    return result
  }

  /// Fits text into exactly `width` cells: truncated with `…` when too long, padded otherwise.
  public static func fit(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    let cells = of(text)
    if cells <= width { return text + repeated(.space, width - cells) }
    let cut = truncate(text, to: width - 1) + "…"
    return cut + repeated(.space, width - of(cut))
  }

  /// A one-character string repeated: spaces to pad with, the `─` of rules and frames. Every frame
  /// draws many of them, and `String(repeating:count:)` builds each character by character; these
  /// are cut from a long one made once.
  public static func repeated(_ character: Repeatable, _ count: Int) -> String {
    guard count > 0 else { return "" }
    let long = character.long
    let bytes = character.rawValue.utf8.count
    guard count * bytes <= long.utf8.count else { return String(repeating: character.rawValue, count: count) }
    return String(long.utf8.prefix(count * bytes))!
  }

  /// The characters `repeated(_:_:)` cuts from a long run.
  public enum Repeatable: String, Sendable {
    case space = " "
    case rule = "─"
    case bar = "█"
    case track = "░"

    fileprivate var long: String {
      switch self {
      case .space: Self.spaces
      case .rule: Self.rules
      case .bar: Self.bars
      case .track: Self.tracks
      }
    }

    private static let spaces = String(repeating: " ", count: 512)
    private static let rules = String(repeating: "─", count: 512)
    private static let bars = String(repeating: "█", count: 64)
    private static let tracks = String(repeating: "░", count: 64)
  }
}
