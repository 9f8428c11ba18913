import Foundation

/// The one JSON encoder of what monkeyshop prints for scripts: every `--json` output and every line
/// of `--log-file`. Keys sorted, slashes unescaped, and every control character JSON's own
/// notation (`TerminalText.escapedJSON`), so the document is valid and holds none raw. Dates are
/// strings the types give in ISO 8601 (`ISO8601.string`); numbers and booleans are JSON's.
public enum JSONOutput {
  public enum Layout: Sendable {
    /// Indented, one field a line: a `--json` document.
    case document
    /// One line: a JSON Lines record.
    case line
  }

  /// The value as JSON text, or the encoder's error: a caller prints nothing it could not encode
  /// whole, and fails.
  public static func text(_ value: some Encodable, layout: Layout = .document) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      layout == .document
      ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return TerminalText.escapedJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
  }
}
