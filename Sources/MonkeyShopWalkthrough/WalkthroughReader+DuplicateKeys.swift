import Yams

/// A key given twice in one mapping, told as every other problem is: where it repeats, what was
/// found there and what was expected. The YAML reader names only the place the key first appeared
/// (Yams' `duplicatedKeysInMapping`), so the repeat is found here.
extension WalkthroughReader {
  func duplicateKeyProblem(_ key: String, first: Mark, in text: String) -> WalkthroughError.Problem {
    let expected = "(expected each key once in a mapping)"
    guard let again = Self.repeatOf(key, first: first, in: text) else {
      return .init(
        path: path, line: first.line, column: first.column,
        message: "not valid YAML: duplicate key '\(key)' \(expected)")
    }
    let firstPlace = again.line == first.line ? "line \(first.line), column \(first.column)" : "line \(first.line)"
    return .init(
      path: path, line: again.line, column: again.column,
      message: "not valid YAML: duplicate key '\(key)', first on \(firstPlace) \(expected)")
  }

  /// Where `key`, first at `first`, comes again in the same mapping (line and column, from 1). The
  /// first place, and any other the reader then stops at, is given a name of its own and the text
  /// composed again; then the mapping holding the first place is searched for the next key of
  /// that name. Nil when a place cannot be renamed (a key written with escapes, or not a string).
  static func repeatOf(_ key: String, first: Mark, in text: String) -> (line: Int, column: Int)? {
    var lines = text.components(separatedBy: "\n").map { Array($0.unicodeScalars) }
    var renamed = Renamings()
    var next = (key: key, mark: first)
    for attempt in 0..<32 {
      guard renamed.rename(next.key, at: next.mark, in: &lines, to: "monkeyshop-first-key-\(attempt)") else {
        return nil
      }
      let composed = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
      do {
        guard let root = try Yams.compose(yaml: composed) else { return nil }
        return renamed.repeatOf(key, in: root)
      } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
        guard let name = duplicates.first else { return nil }
        next = (name, context.mark)
      } catch {
        return nil
      }
    }
    return nil
  }
}

/// The keys given a name of their own while looking for a repeat, and how each moved the text after
/// it on its line.
private struct Renamings {
  struct Renaming {
    let line: Int
    /// In the text as it is now.
    var column: Int
    let name: String
    let key: String
    /// How many characters longer the name is than the key as written.
    let shift: Int
  }

  var all: [Renaming] = []

  /// Writes `name` over `key` at `mark` (1-based line and column of the text as it is now), the key
  /// plain or quoted; false when the text there is not the key.
  mutating func rename(_ key: String, at mark: Mark, in lines: inout [[Unicode.Scalar]], to name: String) -> Bool {
    let row = mark.line - 1
    let start = mark.column - 1
    guard lines.indices.contains(row), start >= 0, start <= lines[row].count else { return false }
    let rest = lines[row][start...]
    let plain = Array(key.unicodeScalars)
    var width: Int?
    if rest.starts(with: plain) {
      width = plain.count
    } else {
      for quote in ["\"", "'"] as [Unicode.Scalar] where rest.starts(with: [quote] + plain + [quote]) {
        width = plain.count + 2
      }
    }
    guard let width else { return false }
    let written = Array(name.unicodeScalars)
    lines[row].replaceSubrange(start..<start + width, with: written)
    let shift = written.count - width
    for index in all.indices where all[index].line == mark.line && all[index].column > mark.column {
      all[index].column += shift
    }
    all.append(Renaming(line: mark.line, column: mark.column, name: name, key: key, shift: shift))
    return true
  }

  /// The place in the original text of the first key named `key` after the first renamed one, in
  /// the mapping that holds it.
  func repeatOf(_ key: String, in root: Node) -> (line: Int, column: Int)? {
    guard let first = all.first else { return nil }
    guard let mapping = Self.mapping(holding: first.name, in: root) else { return nil }
    let keys = Array(mapping.keys)
    guard let start = keys.firstIndex(where: { $0.string == first.name }) else { return nil }
    for candidate in keys[(start + 1)...] {
      let original = all.first { $0.name == candidate.string }?.key ?? candidate.string
      guard original == key, let mark = candidate.mark else { continue }
      return (mark.line, originalColumn(of: mark))
    }
    return nil
  }

  /// A column of the text as it is now, in the original text.
  private func originalColumn(of mark: Mark) -> Int {
    mark.column - all.filter { $0.line == mark.line && $0.column < mark.column }.reduce(0) { $0 + $1.shift }
  }

  private static func mapping(holding name: String, in node: Node) -> Node.Mapping? {
    switch node {
    case .mapping(let mapping):
      if mapping.keys.contains(where: { $0.string == name }) { return mapping }
      for (key, value) in mapping {
        if let found = self.mapping(holding: name, in: key) ?? self.mapping(holding: name, in: value) { return found }
      }
      return nil
    case .sequence(let sequence):
      for element in sequence {
        if let found = self.mapping(holding: name, in: element) { return found }
      }
      return nil
    default:
      return nil
    }
  }
}
