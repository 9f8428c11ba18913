import Foundation

/// A property-list value with its type kept: what the catalog loader reads (from `XMLPropertyList`,
/// or from Foundation for whatever that reader leaves alone) and what `catalog import` writes.
package indirect enum PropertyListValue: Equatable, Sendable {
  case dictionary([String: PropertyListValue])
  case array([PropertyListValue])
  case string(String)
  /// An `<integer>` within 64 bits.
  case integer(Int64)
  /// An `<integer>` beyond 64 bits, as written: kept only to say where one is, since Foundation
  /// refuses a document that holds one.
  case oversizedInteger(String)
  case real(Double)
  case boolean(Bool)
  case date(Date)
  case data(Data)

  /// How it reads in a message: "is a number".
  package var typeName: String {
    switch self {
    case .dictionary: "a dictionary"
    case .array: "an array"
    case .string: "a string"
    case .integer, .oversizedInteger, .real: "a number"
    case .boolean: "a boolean"
    case .date: "a date"
    case .data: "data"
    }
  }

  /// Foundation's reading of `data` (XML in any encoding, binary, or the old text format); its
  /// error when it refuses the data.
  ///
  /// `PropertyListSerialization` reads it first, only to refuse what it refuses: it stops at a
  /// nesting limit ("Too many nested arrays or dictionaries") and at a binary plist whose objects
  /// refer to themselves, where `PropertyListDecoder` recurses until the stack runs out (100,000
  /// nested `<array>`s) or never returns (a cycle). What it accepts, `PropertyListDecoder` turns into
  /// typed values.
  package static func foundationReading(_ data: Data) throws -> PropertyListValue {
    _ = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    return try PropertyListDecoder().decode(PropertyListValue.self, from: data)
  }
}

extension PropertyListValue: Decodable {
  private struct EntryKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// A dictionary, an array, or the first of the single values that reads: `<true/>` and `<false/>`
  /// only as booleans, a whole number as an integer (a `<real>` without a fraction too, which the
  /// catalog reads as the same whole number), then reals, strings, dates and data.
  package init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: EntryKey.self) {
      var entries: [String: PropertyListValue] = [:]
      for key in keyed.allKeys { entries[key.stringValue] = try keyed.decode(PropertyListValue.self, forKey: key) }
      self = .dictionary(entries)
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var items: [PropertyListValue] = []
      while !unkeyed.isAtEnd { items.append(try unkeyed.decode(PropertyListValue.self)) }
      self = .array(items)
    } else {
      let single = try decoder.singleValueContainer()
      if let flag = try? single.decode(Bool.self) {
        self = .boolean(flag)
      } else if let whole = try? single.decode(Int64.self) {
        self = .integer(whole)
      } else if let large = try? single.decode(UInt64.self) {
        self = .oversizedInteger(String(large))
      } else if let real = try? single.decode(Double.self) {
        self = .real(real)
      } else if let text = try? single.decode(String.self) {
        self = .string(text)
      } else if let date = try? single.decode(Date.self) {
        self = .date(date)
      } else {
        self = .data(try single.decode(Data.self))
      }
    }
  }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(booleanLiteral value: Bool) { self = .boolean(value) }
  package init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
