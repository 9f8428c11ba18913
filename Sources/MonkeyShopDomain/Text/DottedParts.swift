/// Text of parts joined by periods, each part one or more of A–Z, a–z, 0–9, `-` and `_` (the
/// characters of Base64URL, and of a product ID's reverse-DNS words): a JWS in compact
/// serialization has three, a product ID two or more. Read byte by byte: every stored transaction
/// is checked when it is read, and asking each character for its Unicode properties cost more than
/// the rest of decoding it.
public enum DottedParts {
  /// How many parts `text` has; nil when a part is empty or holds another character.
  public static func count(_ text: String) -> Int? {
    var parts = 1
    var partLength = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "."):
        guard partLength > 0 else { return nil }
        parts += 1
        partLength = 0
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        partLength += 1
      default: return nil
      }
    }
    return partLength > 0 ? parts : nil
  }
}
