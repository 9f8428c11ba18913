/// The one rule for a misspelt name, wherever one is read (a walkthrough's fields, keys and
/// values, `store set`'s conditions): the known name one or two edits away, if any.
public enum DidYouMean {
  /// ` (did you mean 'screen'?)` when a name is one or two edits from a known one, else "".
  public static func suggestion(_ name: String, _ known: [String]) -> String {
    let scored = known.map { ($0, distance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(2, name.count / 3)) else { return "" }
    return " (did you mean '\(best.0)'?)"
  }

  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
