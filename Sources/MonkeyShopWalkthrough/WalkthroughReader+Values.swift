import Foundation
import MonkeyShopDomain
import Yams

/// Reading plain values, and wording problems: durations, node descriptions, suggestions.
extension WalkthroughReader {
  // MARK: Values

  /// The fields of a mapping, refusing unknown and repeated ones with their line.
  mutating func fields(_ node: Node, of context: String, allowed: [String], unknown: String = "field")
    -> [(key: String, value: Node)]?
  {
    guard let mapping = node.mapping else {
      fail(node, "\(context) is \(Self.describe(node)) (expected a mapping of \(allowed.joined(separator: ", ")))")
      return nil
    }
    var result: [(key: String, value: Node)] = []
    var seen: [String: Int] = [:]
    for (keyNode, value) in mapping {
      guard let key = keyNode.scalar?.string else {
        fail(
          keyNode,
          "a key of \(context) is \(Self.describe(keyNode)) (expected one of \(allowed.joined(separator: ", ")))")
        continue
      }
      guard allowed.contains(key) else {
        let hint = Self.suggestion(key, allowed)
        fail(
          keyNode,
          "unknown \(unknown) '\(key)' in \(context)\(hint) (expected one of \(allowed.joined(separator: ", ")))")
        continue
      }
      if let first = seen[key] {
        fail(keyNode, "'\(key)' appears twice in \(context) (first on line \(first))")
        continue
      }
      seen[key] = keyNode.mark?.line ?? 0
      result.append((key, value))
    }
    return result
  }

  mutating func text(_ node: Node, _ field: String, expected: String) -> String? {
    guard let scalar = node.scalar, scalar.style != .plain || node.null == nil else {
      fail(node, "\(field) is \(Self.describe(node)) (expected \(expected))")
      return nil
    }
    return scalar.string
  }

  mutating func strings(_ node: Node, _ field: String, expected: String) -> [String] {
    if let sequence = node.sequence {
      return sequence.compactMap { text($0, field, expected: expected) }
    }
    return text(node, field, expected: expected).map { [$0] } ?? []
  }

  mutating func integer(_ node: Node, _ field: String, range: ClosedRange<Int>, expected: String) -> Int? {
    guard let text = text(node, field, expected: expected) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      fail(node, "\(field) '\(text)' is not a valid value (expected \(expected))")
      return nil
    }
    return value
  }

  /// A transaction as a step or a check names it: `last`, or an id the store could have given (a
  /// number from 1, as it writes them). Any other can never name one, so it is refused with the file
  /// rather than when the step runs.
  mutating func transactionID(_ node: Node, _ field: String) -> String? {
    guard let id = text(node, field, expected: "a transaction id or last") else { return nil }
    guard id == "last" || StoreTransaction.canBeID(id) else {
      fail(node, "'\(id)' is not a transaction (expected a transaction id, a number from 1 such as 3, or last)")
      return nil
    }
    return id
  }

  mutating func flag(_ node: Node, _ field: String) -> Bool? {
    guard let text = text(node, field, expected: "true or false") else { return nil }
    switch text.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default:
      fail(node, "\(field) '\(text)' is not a valid value (expected true or false)")
      return nil
    }
  }

  // MARK: Wording

  /// The longest a `wait:` (or `--auto`) may be: a day of virtual time.
  static let longestDuration: TimeInterval = 86_400

  /// `2s`, `500ms`, `1.5s`, `2m` in seconds, up to `longestDuration`.
  static func duration(_ text: String) -> TimeInterval? {
    anyDuration(text).flatMap { $0 <= longestDuration ? $0 : nil }
  }

  /// A duration past `longestDuration`: well written, but too long.
  static func isTooLong(_ text: String) -> Bool { anyDuration(text).map { $0 > longestDuration } ?? false }

  /// `2s`, `500ms`, `1.5s`, `2m` in seconds, however long.
  private static func anyDuration(_ text: String) -> TimeInterval? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (unit, scale) in units where text.hasSuffix(unit) {
      let number = text.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
      guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number),
        value.isFinite, value >= 0
      else { return nil }
      return value * scale
    }
    return nil
  }

  static func describe(_ node: Node) -> String {
    if node.mapping != nil { return "a mapping" }
    if node.sequence != nil { return "a list" }
    if node.null != nil { return "empty" }
    if let text = node.scalar?.string { return "'\(text)'" }
    return "an alias"
  }

  /// ` (did you mean 'screen'?)` when a name is one or two edits from a known one.
  static func suggestion(_ name: String, _ known: [String]) -> String { DidYouMean.suggestion(name, known) }
}
