import Foundation

/// A strict, byte-level reader of XML property lists, for catalogs of thousands of products.
///
/// Foundation on Linux parses into CoreFoundation objects and then bridges every one of them to
/// Swift. This reader walks the UTF-8 bytes once and builds `PropertyListValue`s directly, to the
/// values `PropertyListSerialization` gives: a dictionary for `<dict>`, an array for `<array>`, and
/// strings, integers, reals and booleans.
///
/// Measured on a generated 10,000-product catalog (5.5 MB of XML), medians of 15 reads, release
/// build, Swift 6.3.1, 2-core AMD EPYC, x86_64 Linux:
///
///     XMLPropertyList.parse                       22 ms
///     PropertyListSerialization.propertyList     138 ms   (6.2×)
///     PropertyListDecoder, a Decodable catalog   160 ms   (7.2×)
///     CatalogLoader.parse (this reader, checks)   46 ms
///
///     swift build -c release --product monkeyshop-benchmarks
///     .build/release/monkeyshop-benchmarks --catalog-readers
///
/// It reads only what a catalog holds, exactly as CoreFoundation reads it: the XML declaration, a
/// `<!DOCTYPE>`, comments and processing instructions, `<plist>`, and the elements `<dict>`,
/// `<key>`, `<array>`, `<string>`, `<integer>`, `<real>`, `<true/>` and `<false/>`, empty
/// elements (`<string/>`, `<dict/>`, `<array/>`), the five XML entities, numeric character
/// references and CDATA. For anything else — `<date>` and `<data>`, which no catalog key takes, a
/// binary plist, another encoding, invalid UTF-8, a malformed or truncated document, or a corner
/// where CoreFoundation has a quirk of its own — it returns nil, and the catalog loader hands the
/// data to Foundation, which reads it or gives the real error; the loader then
/// names the product and key that hold a date or data.
package enum XMLPropertyList {
  /// The property list in `data`, or nil if this reader does not understand it.
  ///
  /// `keepingOversizedIntegers`: an `<integer>` beyond 64 bits, which Foundation refuses the whole
  /// document for, becomes `.oversizedInteger`, so the catalog loader can say where it is.
  package static func parse(_ data: Data, keepingOversizedIntegers: Bool = false) -> PropertyListValue? {
    data.withUnsafeBytes { raw -> PropertyListValue? in
      var parser = Parser(bytes: raw.bindMemory(to: UInt8.self), keepsOversizedIntegers: keepingOversizedIntegers)
      return parser.document()
    }
  }

  /// Deeper nesting is left to Foundation, which has its own limit and error.
  static let maximumDepth = 64

  struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Text being put together from plain runs, entities and CDATA sections.
    var scratch: [UInt8] = []
    /// The entries of the dictionaries being read, innermost last: each dictionary is made once
    /// its size is known, without growing.
    var entries: [(key: String, value: PropertyListValue)] = []

    /// Whether an integer beyond 64 bits is read as `.oversizedInteger` rather than left to
    /// Foundation.
    let keepsOversizedIntegers: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, keepsOversizedIntegers: Bool = false) {
      self.bytes = bytes
      self.keepsOversizedIntegers = keepsOversizedIntegers
    }

    // MARK: Document

    mutating func document() -> PropertyListValue? {
      let count = bytes.count
      // Binary plists, byte order marks, UTF-16 and UTF-32 are Foundation's.
      guard count > 2, bytes[0] != 0, bytes[1] != 0, !starts(with: "bplist") else { return nil }
      if starts(with: "<?xml"), !declaresUTF8() { return nil }
      // The prolog: whitespace, the XML declaration, comments, processing instructions, DOCTYPE.
      while true {
        skipWhitespace()
        guard index + 1 < count, bytes[index] == .lessThan else { return nil }
        switch bytes[index + 1] {
        case .questionMark:
          index += 2
          guard skipProcessingInstruction() else { return nil }
        case .exclamationMark:
          if starts(with: "<!--") {
            // CoreFoundation starts looking for the end of a comment in the prolog one byte late.
            let body = index + 4
            guard skipComment(), index - 3 > body else { return nil }
          } else if starts(with: "<!DOCTYPE") {
            guard skipDoctype() else { return nil }
          } else {
            return nil
          }
        default:
          guard starts(with: "<plist") else { return nil }
          index += 6
          return plist()
        }
      }
    }

    /// Foundation reads the `encoding` of a document that begins with `<?xml`; only UTF-8 is read here.
    func declaresUTF8() -> Bool {
      let count = bytes.count
      var cursor = 5
      while cursor < count {
        let byte = bytes[cursor]
        if byte == .questionMark || byte == .greaterThan { return true }
        cursor += 1
        guard cursor + 8 < count else { return false }
        if byte == UInt8(ascii: "e"), matches("ncoding=", at: cursor) {
          cursor += 8
          guard cursor + 6 < count else { return false }
          let quote = bytes[cursor]
          guard quote == .quote || quote == .apostrophe else { return false }
          return bytes[cursor + 1] | 0x20 == UInt8(ascii: "u") && bytes[cursor + 2] | 0x20 == UInt8(ascii: "t")
            && bytes[cursor + 3] | 0x20 == UInt8(ascii: "f") && bytes[cursor + 4] == UInt8(ascii: "-")
            && bytes[cursor + 5] == UInt8(ascii: "8") && bytes[cursor + 6] == quote
        }
      }
      return true
    }

    /// After `<plist`: its attributes, one value, and `</plist>`. Whatever follows the close tag
    /// is ignored, as Foundation ignores it.
    mutating func plist() -> PropertyListValue? {
      guard index < bytes.count else { return nil }
      if bytes[index] != .greaterThan {
        guard isWhitespace(bytes[index]) else { return nil }
        while index < bytes.count, bytes[index] != .greaterThan { index += 1 }
        guard index < bytes.count, bytes[index - 1] != .slash else { return nil }
      }
      index += 1
      guard let value = nextValue(depth: 0) else { return nil }
      guard skipMisc(), closeTag("plist") else { return nil }
      return value
    }

    // MARK: Values

    /// The next element's value, after whitespace, comments and processing instructions.
    mutating func nextValue(depth: Int) -> PropertyListValue? {
      guard depth < XMLPropertyList.maximumDepth, skipMisc(), index + 1 < bytes.count,
        bytes[index + 1] != .slash
      else { return nil }
      index += 1
      guard let (tag, empty) = openTag() else { return nil }
      return value(tag, empty: empty, depth: depth)
    }

    mutating func value(_ tag: Tag, empty: Bool, depth: Int) -> PropertyListValue? {
      switch tag {
      case .string:
        return empty ? .string("") : text(closing: "string").map(PropertyListValue.string)
      case .dict:
        return empty ? .dictionary([:]) : dictionary(depth: depth + 1)
      case .array:
        return empty ? .array([]) : array(depth: depth + 1)
      case .integer:
        return empty ? nil : integer()
      case .real:
        return empty ? nil : real()
      case .true:
        return empty || closeTag("true") ? .boolean(true) : nil
      case .false:
        return empty || closeTag("false") ? .boolean(false) : nil
      case .key:
        // Foundation takes a <key> outside a dictionary for a string; not read here.
        return nil
      }
    }

    mutating func dictionary(depth: Int) -> PropertyListValue? {
      let first = entries.count
      defer { entries.removeSubrange(first...) }
      while true {
        guard skipMisc(), index + 1 < bytes.count else { return nil }
        if bytes[index + 1] == .slash { break }
        index += 1
        guard let (tag, empty) = openTag(), tag == .key else { return nil }
        let key: String
        if empty {
          key = ""
        } else {
          guard let text = text(closing: "key") else { return nil }
          key = text
        }
        guard let value = nextValue(depth: depth) else { return nil }
        entries.append((key, value))
      }
      guard closeTag("dict") else { return nil }
      var result = [String: PropertyListValue](minimumCapacity: entries.count - first)
      for (key, value) in entries[first...] {
        // Foundation keeps the last of two equal keys, but its keys compare code unit by code
        // unit and Swift's by canonical equivalence: leave duplicates to Foundation.
        guard result.updateValue(value, forKey: key) == nil else { return nil }
      }
      // Foundation reads a lone `CF$UID` entry as a keyed-archiver UID.
      if result.count == 1, result["CF$UID"] != nil { return nil }
      return .dictionary(result)
    }

    mutating func array(depth: Int) -> PropertyListValue? {
      var result: [PropertyListValue] = []
      while true {
        guard skipMisc(), index + 1 < bytes.count else { return nil }
        if bytes[index + 1] == .slash { break }
        guard let value = nextValue(depth: depth) else { return nil }
        result.append(value)
      }
      guard closeTag("array") else { return nil }
      return .array(result)
    }

    /// The text of a `<string>` or `<key>`, up to and including its close tag.
    mutating func text(closing name: StaticString) -> String? {
      let count = bytes.count
      let start = index
      var ascii = true
      var assembled = false
      var mark = start
      while index < count {
        let byte = bytes[index]
        if byte == .lessThan {
          guard index + 1 < count, bytes[index + 1] == .exclamationMark else { break }
          guard starts(with: "<![CDATA[") else { return nil }
          if !assembled { scratch.removeAll(keepingCapacity: true) }
          assembled = true
          scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[mark..<index]))
          index += 9
          let contentStart = index
          while index + 2 < count,
            !(bytes[index] == .closeBracket && bytes[index + 1] == .closeBracket && bytes[index + 2] == .greaterThan)
          {
            index += 1
          }
          guard index + 2 < count else { return nil }
          scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
          ascii = false
          index += 3
          mark = index
        } else if byte == .ampersand {
          if !assembled { scratch.removeAll(keepingCapacity: true) }
          assembled = true
          scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[mark..<index]))
          guard entity() else { return nil }
          ascii = false
          mark = index
        } else {
          if byte >= 0x80 { ascii = false }
          index += 1
        }
      }
      guard index < count else { return nil }
      let result: String?
      if assembled {
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[mark..<index]))
        result = scratch.withUnsafeBufferPointer { Self.string($0, ascii: false) }
      } else {
        result = Self.string(UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: ascii)
      }
      guard let result, closeTag(name) else { return nil }
      return result
    }

    /// Text from UTF-8 bytes; nil for invalid UTF-8 and for a leading byte order mark, which
    /// CoreFoundation drops.
    static func string(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
      if ascii { return String(decoding: utf8, as: UTF8.self) }
      if utf8.count >= 3, utf8[0] == 0xEF, utf8[1] == 0xBB, utf8[2] == 0xBF { return nil }
      return String(validating: utf8, as: UTF8.self)
    }

    /// After `&`: one of the five entities or a character reference, appended to `scratch`.
    mutating func entity() -> Bool {
      for (name, byte) in Self.entities where starts(with: name) {
        scratch.append(byte)
        index += name.utf8CodeUnitCount
        return true
      }
      guard starts(with: "&#") else { return false }
      index += 2
      let hex = index < bytes.count && bytes[index] == UInt8(ascii: "x")
      if hex { index += 1 }
      var value: UInt32 = 0
      var digits = 0
      while index < bytes.count, bytes[index] != .semicolon {
        guard let digit = Self.digit(bytes[index], hex: hex), digits < 8 else { return false }
        value = value * (hex ? 16 : 10) + digit
        digits += 1
        index += 1
      }
      guard index < bytes.count, digits > 0 else { return false }
      index += 1
      // NUL, surrogates and byte order marks have quirks of their own in CoreFoundation.
      guard value != 0, value != 0xFEFF, value != 0xFFFE, let scalar = Unicode.Scalar(value) else { return false }
      scratch.append(contentsOf: UTF8.encode(scalar)!)
      return true
    }

    static let entities: [(name: StaticString, byte: UInt8)] = [
      ("&lt;", .lessThan), ("&gt;", .greaterThan), ("&amp;", .ampersand), ("&apos;", .apostrophe), ("&quot;", .quote),
    ]

    static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
    }

    /// The plain text of a number element, up to its close tag: bytes other than `<` and `&`.
    mutating func plainText() -> Range<Int>? {
      let start = index
      while index < bytes.count, bytes[index] != .lessThan {
        if bytes[index] == .ampersand { return nil }
        index += 1
      }
      return index < bytes.count ? start..<index : nil
    }

    /// `-?[0-9]+` within Int64; Foundation also reads spaces, `+` and hexadecimal, and gives
    /// integers above Int64.max as 128-bit numbers.
    mutating func integer() -> PropertyListValue? {
      guard let range = plainText(), !range.isEmpty else { return nil }
      var cursor = range.lowerBound
      let negative = bytes[cursor] == .minus
      if negative { cursor += 1 }
      guard cursor < range.upperBound else { return nil }
      var magnitude: UInt64 = 0
      var overflow = false
      for position in cursor..<range.upperBound {
        let byte = bytes[position]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        if overflow { continue }
        let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
        guard !overflowTimes, !overflowSum else {
          guard keepsOversizedIntegers else { return nil }
          overflow = true
          continue
        }
        magnitude = sum
      }
      var value: Int64?
      if overflow {
        value = nil
      } else if negative {
        if magnitude <= UInt64(Int64.max) + 1 { value = magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude) }
      } else if magnitude <= UInt64(Int64.max) {
        value = Int64(magnitude)
      }
      guard let value else {
        guard keepsOversizedIntegers, closeTag("integer") else { return nil }
        return .oversizedInteger(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
      }
      guard closeTag("integer") else { return nil }
      return .integer(value)
    }

    /// `[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`, the way Foundation writes reals; `nan`, `inf`
    /// and other spellings are left to Foundation.
    mutating func real() -> PropertyListValue? {
      guard let range = plainText(), !range.isEmpty, range.count <= 64 else { return nil }
      var cursor = range.lowerBound
      let end = range.upperBound
      func digits() -> Bool {
        let start = cursor
        while cursor < end, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") { cursor += 1 }
        return cursor > start
      }
      if bytes[cursor] == .minus || bytes[cursor] == .plus { cursor += 1 }
      guard digits() else { return nil }
      if cursor < end, bytes[cursor] == .period {
        cursor += 1
        guard digits() else { return nil }
      }
      if cursor < end, bytes[cursor] | 0x20 == UInt8(ascii: "e") {
        cursor += 1
        if cursor < end, bytes[cursor] == .minus || bytes[cursor] == .plus { cursor += 1 }
        guard digits() else { return nil }
      }
      guard cursor == end else { return nil }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
      guard let value = Double(text), closeTag("real") else { return nil }
      return .real(value)
    }
  }
}
