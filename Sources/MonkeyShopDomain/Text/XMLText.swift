/// Text in the XML files monkeyshop writes: the products.plist `catalog import` writes and the
/// JUnit report of `walkthrough --junit`. One rule for both, so each reads back as the same text
/// in any XML 1.0 reader.
public enum XMLText {
  /// Whether XML 1.0 allows the character, raw or as a reference: its `Char` production,
  /// `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`
  /// (https://www.w3.org/TR/xml/#charsets).
  static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }

  /// The text for an element's content or an attribute's value: `& < > " '` as entities, the
  /// controls XML allows (tab, line feed, carriage return, DEL, C1, the bidirectional ones) as
  /// character references, so a reader gets them back exactly (a raw line break in an attribute
  /// would be read as a space) and the file holds none raw. A character XML 1.0 cannot hold at all
  /// is given to `illegal`, which says what to write instead, or throws.
  public static func escaped<Failure: Error>(
    _ text: String, illegal: (Unicode.Scalar) throws(Failure) -> String
  ) throws(Failure) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case _ where !isAllowed(scalar): result += try illegal(scalar)
      case _ where TerminalText.isControl(scalar):
        result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
