import Foundation

/// The markup of an XML property list: tags, what is skipped between values (the declaration,
/// comments, processing instructions, whitespace) and matching bytes against text.
extension XMLPropertyList.Parser {
  // MARK: Tags

  enum Tag {
    case string, dict, array, integer, real, `true`, `false`, key
  }

  /// After `<`: a known element name, then `>` or `/>`, with whitespace allowed before either.
  mutating func openTag() -> (Tag, empty: Bool)? {
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "a"), bytes[index] <= UInt8(ascii: "z") { index += 1 }
    let tag: Tag
    switch index - start {
    case 3 where matches("key", at: start): tag = .key
    case 4 where matches("dict", at: start): tag = .dict
    case 4 where matches("real", at: start): tag = .real
    case 4 where matches("true", at: start): tag = .true
    case 5 where matches("array", at: start): tag = .array
    case 5 where matches("false", at: start): tag = .false
    case 6 where matches("string", at: start): tag = .string
    case 7 where matches("integer", at: start): tag = .integer
    default: return nil
    }
    skipWhitespace()
    guard index < bytes.count else { return nil }
    if bytes[index] == .greaterThan {
      index += 1
      return (tag, false)
    }
    guard index + 1 < bytes.count, bytes[index] == .slash, bytes[index + 1] == .greaterThan else { return nil }
    index += 2
    return (tag, true)
  }

  /// `</name>`, with whitespace allowed before the `>`.
  mutating func closeTag(_ name: StaticString) -> Bool {
    guard index + 1 < bytes.count, bytes[index] == .lessThan, bytes[index + 1] == .slash,
      matches(name, at: index + 2)
    else { return false }
    index += 2 + name.utf8CodeUnitCount
    skipWhitespace()
    guard index < bytes.count, bytes[index] == .greaterThan else { return false }
    index += 1
    return true
  }

  // MARK: Skipping

  /// Whitespace, comments and processing instructions between elements; false at the end of
  /// the data or at anything malformed. Leaves `index` at a `<`.
  mutating func skipMisc() -> Bool {
    while true {
      skipWhitespace()
      guard index + 1 < bytes.count, bytes[index] == .lessThan else { return false }
      switch bytes[index + 1] {
      case .questionMark:
        index += 2
        guard skipProcessingInstruction() else { return false }
      case .exclamationMark:
        guard starts(with: "<!--"), skipComment() else { return false }
      default:
        return true
      }
    }
  }

  /// At `<!--`: past the next `-->`.
  mutating func skipComment() -> Bool {
    index += 4
    while index + 2 < bytes.count {
      if bytes[index] == .minus, bytes[index + 1] == .minus, bytes[index + 2] == .greaterThan {
        index += 3
        return true
      }
      index += 1
    }
    return false
  }

  /// After `<?`: past the next `?>`.
  mutating func skipProcessingInstruction() -> Bool {
    while index + 1 < bytes.count {
      if bytes[index] == .questionMark, bytes[index + 1] == .greaterThan {
        index += 2
        return true
      }
      index += 1
    }
    return false
  }

  /// At `<!DOCTYPE`: past its `>`; an internal subset (`[…]`) is left to Foundation.
  mutating func skipDoctype() -> Bool {
    index += 9
    while index < bytes.count {
      switch bytes[index] {
      case .greaterThan:
        index += 1
        return true
      case .openBracket:
        return false
      default:
        index += 1
      }
    }
    return false
  }

  mutating func skipWhitespace() {
    while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
  }

  func isWhitespace(_ byte: UInt8) -> Bool {
    byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn
  }

  // MARK: Matching

  func starts(with text: StaticString) -> Bool { matches(text, at: index) }

  func matches(_ text: StaticString, at position: Int) -> Bool {
    let length = text.utf8CodeUnitCount
    guard position >= 0, position + length <= bytes.count else { return false }
    let expected = text.utf8Start
    for offset in 0..<length where bytes[position + offset] != expected[offset] { return false }
    return true
  }
}

extension UInt8 {
  static let tab = UInt8(ascii: "\t")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let exclamationMark = UInt8(ascii: "!")
  static let quote = UInt8(ascii: "\"")
  static let ampersand = UInt8(ascii: "&")
  static let apostrophe = UInt8(ascii: "'")
  static let plus = UInt8(ascii: "+")
  static let minus = UInt8(ascii: "-")
  static let period = UInt8(ascii: ".")
  static let slash = UInt8(ascii: "/")
  static let semicolon = UInt8(ascii: ";")
  static let lessThan = UInt8(ascii: "<")
  static let greaterThan = UInt8(ascii: ">")
  static let questionMark = UInt8(ascii: "?")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
}
