import Foundation

/// A JSON reader straight into `JSONValue`: a `.storekit` file of 100,000 products is read in a
/// fraction of a second, where JSONDecoder, trying each type in turn for every value, took
/// seconds. `JSONShape.check` has already refused keys written twice and deep nesting; this reads
/// RFC 8259 JSON and refuses anything else.
extension JSONValue {
  package struct SyntaxError: Error {}

  package static func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
    let parsed = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> JSONValue? in
      var reader = JSONReader(bytes: buffer.bindMemory(to: UInt8.self))
      // A byte order mark, as some editors write.
      if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
      guard let value = try? reader.value(depth: 0) else { return nil }
      reader.skipSpace()
      return reader.index == reader.bytes.count ? value : nil
    }
    guard let parsed else { throw SyntaxError() }
    return parsed
  }
}

private struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
    guard depth <= JSONShape.depthLimit else { throw .init() }
    skipSpace()
    guard index < bytes.count else { throw .init() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var fields: [String: JSONValue] = [:]
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(fields)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .init() }
        let key = try string()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw .init() }
        index += 1
        fields[key] = try value(depth: depth + 1)
        skipSpace()
        guard index < bytes.count else { throw .init() }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw .init() }
        index += 1
        return .object(fields)
      }
    case UInt8(ascii: "["):
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        items.append(try value(depth: depth + 1))
        skipSpace()
        guard index < bytes.count else { throw .init() }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw .init() }
        index += 1
        return .array(items)
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      return try number()
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONValue.SyntaxError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw .init() }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw .init() }
    index += count
  }

  /// `-12`, `0.99`, `1e3`: a whole number that fits `Int` is `.integer`, any other `.number`.
  mutating func number() throws(JSONValue.SyntaxError) -> JSONValue {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    guard index > digitsStart else { throw .init() }
    // "0" may not be followed by more digits (RFC 8259: no leading zeros).
    if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw .init() }
    var whole = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      whole = false
      index += 1
      let fraction = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      guard index > fraction else { throw .init() }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      whole = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      let exponent = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      guard index > exponent else { throw .init() }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if whole, let integer = Int(text) { return .integer(integer) }
    guard let double = Double(text), double.isFinite else { throw .init() }
    return .number(double)
  }

  /// A string, its escapes decoded; control characters raw in it are not JSON.
  mutating func string() throws(JSONValue.SyntaxError) -> String {
    index += 1
    let start = index
    // The common case: no escape, one slice of UTF-8.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = try validUTF8(start..<index)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      guard byte >= 0x20 else { throw .init() }
      index += 1
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: try validUTF8(start..<index).unicodeScalars)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(scalars)
      }
      if byte == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count else { throw .init() }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            // A surrogate pair: the low half must follow.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw .init() }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw .init() }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw .init() }
          scalars.append(scalar)
        default:
          throw .init()
        }
        continue
      }
      guard byte >= 0x20 else { throw .init() }
      let run = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
        bytes[index] >= 0x20
      {
        index += 1
      }
      scalars.append(contentsOf: try validUTF8(run..<index).unicodeScalars)
    }
    throw .init()
  }

  mutating func hex4() throws(JSONValue.SyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw .init() }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw .init()
      }
      code = code << 4 | UInt32(digit)
      index += 1
    }
    return code
  }

  /// The bytes as a string; bytes that are not UTF-8 are not JSON.
  func validUTF8(_ range: Range<Int>) throws(JSONValue.SyntaxError) -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[range])
    guard let text = String(validating: slice, as: UTF8.self) else { throw .init() }
    return text
  }
}
