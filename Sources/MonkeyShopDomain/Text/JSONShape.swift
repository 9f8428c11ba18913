import Foundation

/// Checks what Foundation's JSON readers let through in a data file: a key written twice in one
/// object (JSONDecoder silently keeps one of them) and nesting so deep that no monkeyshop file has
/// it (Foundation gives a message that names neither the file nor the place). Foundation offers
/// neither check and no well-kept JSON package on this platform does both, so this small scanner
/// runs before the decoder. It does not validate JSON otherwise: the decoder does that.
public enum JSONShape {
  /// No data file of monkeyshop nests deeper than this.
  public static let depthLimit = 32

  public enum Problem: Error, Equatable {
    case duplicateKey(String, at: String)
    case tooDeep(at: String)
  }

  public static func check(_ data: Data) throws(Problem) {
    var scanner = Scanner(bytes: [UInt8](data))
    try scanner.scan()
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    /// For each open container: the keys seen so far (objects) or nil (arrays), and the path.
    var stack: [(keys: Set<String>?, path: String)] = []
    var pendingKey: String?

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func scan() throws(Problem) {
      var expectingKey = false
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          let path = childPath()
          guard stack.count < JSONShape.depthLimit else { throw .tooDeep(at: path) }
          stack.append((byte == UInt8(ascii: "{") ? [] : nil, path))
          expectingKey = byte == UInt8(ascii: "{")
          pendingKey = nil
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if !stack.isEmpty { stack.removeLast() }
          pendingKey = nil
          expectingKey = false
          index += 1
        case UInt8(ascii: ","):
          expectingKey = stack.last?.keys != nil
          pendingKey = nil
          index += 1
        case UInt8(ascii: "\""):
          let quoted = skipString()
          // Only a key is made a String: a value (a signed transaction's 1.5 KB) is only passed.
          if expectingKey, !stack.isEmpty, stack[stack.count - 1].keys != nil {
            let string = key(quoted)
            // Inserted in place: copying the set for each key made a file of many keys quadratic.
            guard stack[stack.count - 1].keys!.insert(string).inserted else {
              throw .duplicateKey(string, at: stack[stack.count - 1].path)
            }
            pendingKey = string
            expectingKey = false
          }
        default:
          index += 1
        }
      }
    }

    /// The path of a container opened at the current position, as `a.b[0]` (the index is not
    /// tracked; `[]` stands for "in an array").
    private func childPath() -> String {
      guard let parent = stack.last else { return "the top level" }
      let base = parent.path == "the top level" ? "" : parent.path
      if parent.keys == nil { return base + "[]" }
      guard let key = pendingKey else { return base }
      return base.isEmpty ? key : base + "." + key
    }

    /// Passes a string starting at the opening quote: its bytes, quotes included.
    private mutating func skipString() -> (range: Range<Int>, escaped: Bool) {
      let start = index
      index += 1
      var escaped = false
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        if bytes[index] == UInt8(ascii: "\\") { escaped = true }
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      index += 1
      return (start..<min(index, bytes.count), escaped)
    }

    /// A key's text with its escapes decoded, so `"a"` and `"\u0061"` are the same key.
    private func key(_ quoted: (range: Range<Int>, escaped: Bool)) -> String {
      let text = bytes[quoted.range]
      if quoted.escaped,
        let decoded = try? JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed) as? String
      {
        return decoded
      }
      return String(decoding: text.dropFirst().dropLast(), as: UTF8.self)
    }
  }
}
