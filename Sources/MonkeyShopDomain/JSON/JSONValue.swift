import Foundation

/// A JSON value with its type kept: for JSON whose shape is checked field by field, so a message
/// (or an App Store Server API error) can say what was found instead — a `.storekit` file, a
/// request body, the header of a signed transaction — and for writing JSON whose keys are not
/// known in advance.
package enum JSONValue: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  package static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let whole = try? container.decode(Int.self) {
      self = .integer(whole)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let items = try? container.decode([JSONValue].self) {
      self = .array(items)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// How it reads in a message: "is a number".
  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The value as a line of text shows it: a string as itself, others as JSON writes them.
  package var text: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .integer(let value): "\(value)"
    case .number(let value): "\(value)"
    case .string(let value): value
    case .array, .object: "…"
    }
  }
}
