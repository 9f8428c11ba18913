/// Text read from a catalog, a walkthrough or a data file, made safe to write to a terminal
/// (docs/commands.md): nothing a terminal would act on reaches it raw.
///
/// One rule, `isControl`, says which scalars a terminal acts on rather than shows: the C0 controls
/// (ESC starts every escape sequence, BEL ends OSC titles and clipboard writes), DEL, the C1
/// controls U+0080–U+009F (U+009B is a one-character CSI, U+009D an OSC), and the bidirectional
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make text read in
/// another order than it is stored. The storefront takes no cell for them and draws nothing
/// (`TextWidth`); the headless commands and transcripts show them escaped, with `escaped(_:)`.
public enum TerminalText {
  /// Whether a terminal would act on this scalar instead of showing it.
  @inline(__always)
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 { return true }
    if value < 0x7F { return false }
    if value < 0xA0 { return true }
    // Bidirectional embeddings, overrides, isolates and marks, and the line and paragraph
    // separators: invisible, yet they reorder or break what follows.
    switch value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0x2028, 0x2029: return true
    default: return false
    }
  }

  /// The text with every control shown as a Swift-style escape: `\n`, `\r`, `\t`, else `\u{1B}`
  /// (hexadecimal, upper case). Everything else is kept, backslashes included, so escaping twice
  /// gives the same text as escaping once: a line built from escaped parts can go through the
  /// output helper again unchanged.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      result += notation(scalar)
    }
    return result
  }

  /// How many scalars of a value `clipped(_:)` keeps: a product ID "can be as long as 100
  /// characters" (https://developer.apple.com/help/app-store-connect/reference/in-app-purchase-information),
  /// and is never clipped.
  public static let clipLength = 100

  /// A value read from a file, as a message quotes it: escaped, and when longer than
  /// `clipLength` scalars, its first ones and `…`, so a message stays one readable line whatever
  /// the file holds (a price of 400 digits, a product ID of a thousand characters).
  /// How many items a listed message names before it counts the rest.
  public static let listLength = 20

  /// `a, b, c`; beyond `listLength` items, the first ones and `and N more`, so a message about a
  /// file of 100,000 products stays one readable line.
  /// `total` counts items not passed (a caller may pass only the first `listLength`).
  public static func listed(_ items: [String], total: Int? = nil, separator: String = ", ") -> String {
    let total = total ?? items.count
    guard total > listLength else { return items.joined(separator: separator) }
    return items.prefix(listLength).joined(separator: separator) + ", and \(total - listLength) more"
  }

  public static func clipped(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > clipLength else { return escaped(text) }
    var kept = ""
    kept.unicodeScalars.append(contentsOf: scalars.prefix(clipLength))
    return escaped(kept) + "…"
  }

  /// Like `escaped(_:)`, but in JSON's own notation (`\u009B`), for JSON text whose strings
  /// JSONSerialization already escaped below U+0020 but left C1, DEL and bidirectional controls
  /// in. Those can only occur inside JSON strings, where `\uXXXX` means the same character, so the
  /// document stays valid and equal.
  public static func escapedJSON(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: isControl) else { return json }
    var result = ""
    result.reserveCapacity(json.utf8.count + 8)
    for scalar in json.unicodeScalars {
      // Newlines and indentation between JSON tokens are layout, not text.
      if !isControl(scalar) || scalar == "\n" || scalar == "\t" || scalar == "\r" {
        result.unicodeScalars.append(scalar)
      } else {
        result += jsonNotation(scalar)
      }
    }
    return result
  }

  /// A JSON string literal of the text: quotes and backslashes escaped, and every control
  /// (`isControl`, all in the Basic Multilingual Plane) written `\u001B`, so a JSON reader gets the
  /// text back exactly and the document holds none raw. For JSON written by hand: asciicast
  /// events, the signed payload whose bytes are fixed before they are signed.
  public static func jsonString(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where isControl(scalar): result += jsonNotation(scalar)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static func jsonNotation(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  private static func notation(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": "\\n"
    case "\r": "\\r"
    case "\t": "\\t"
    default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
  }
}
