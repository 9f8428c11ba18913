import Foundation

/// Every text the storefront and the player can show, read from their sources: each
/// `say(english, japanese)` and `Phrase(english, japanese)` with its string literals, and every
/// other string literal of the files that hold the words. Read from the code, so a text added
/// tomorrow is checked without anyone listing it.
struct SourceTexts {
  /// One English text and its Japanese one, as literals: what is interpolated (`\(title)`) is
  /// `⟦⟧`, and a literal inside an interpolation (`\(plural ? "transactions" : "transaction")`)
  /// is a piece of its own.
  struct Pair: CustomStringConvertible {
    let place: String
    let english: [String]
    let japanese: [String]
    var description: String { "\(place): \(english.joined(separator: " ")) / \(japanese.joined(separator: " "))" }
  }

  /// A string literal outside `say` and `Phrase`.
  struct Literal: CustomStringConvertible {
    let place: String
    let pieces: [String]
    var description: String { "\(place): \(pieces.joined(separator: " "))" }
  }

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The sources whose texts the storefront and the player show: the words, the key tables, the
  /// notices, the log, the views, the conditions, the errors of the store, the wallet and the data
  /// folder.
  static let folders = [
    "Sources/MonkeyShopApp", "Sources/MonkeyShopWalkthrough", "Sources/MonkeyShopDomain/Store",
    "Sources/MonkeyShopStorage",
  ]

  static func swiftFiles() -> [URL] {
    folders.flatMap { folder -> [URL] in
      let url = root.appendingPathComponent(folder)
      let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
      return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }.sorted { $0.path < $1.path }
  }

  /// Every pair of every source file.
  static func pairs() throws -> [Pair] {
    try swiftFiles().flatMap { file in
      var reader = Reader(try String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent)
      return reader.read().pairs
    }
  }

  /// The literals outside `say` and `Phrase` of the files named.
  static func looseLiterals(in names: [String]) throws -> [Literal] {
    try swiftFiles().filter { names.contains($0.lastPathComponent) }.flatMap { file in
      var reader = Reader(try String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent)
      return reader.read().loose
    }
  }

  /// A small reader of Swift source: enough to find calls and their string literals, skipping
  /// comments.
  struct Reader {
    let characters: [Character]
    let file: String
    var index = 0
    var pairs: [Pair] = []
    var loose: [Literal] = []

    /// The line of each character.
    let lines: [Int]

    init(_ text: String, file: String) {
      characters = Array(text)
      self.file = file
      var line = 1
      lines = characters.map { character in
        defer { if character == "\n" { line += 1 } }
        return line
      }
    }

    var line: Int { index < lines.count ? lines[index] : (lines.last ?? 1) }

    func peek(_ offset: Int = 0) -> Character? {
      index + offset < characters.count ? characters[index + offset] : nil
    }

    func follows(_ text: String) -> Bool {
      guard peek() == text.first else { return false }
      return text.enumerated().allSatisfy { peek($0.offset) == $0.element }
    }

    mutating func read() -> (pairs: [Pair], loose: [Literal]) {
      while index < characters.count {
        if skipComment() { continue }
        if let call = callName() {
          let place = "\(file):\(line)"
          index += call.count + 1
          let arguments = readArguments()
          if arguments.count == 2, !arguments[0].isEmpty || !arguments[1].isEmpty {
            pairs.append(Pair(place: place, english: arguments[0], japanese: arguments[1]))
          } else {
            let pieces = arguments.flatMap { $0 }
            if !pieces.isEmpty { loose.append(Literal(place: place, pieces: pieces)) }
          }
          continue
        }
        if peek() == "\"" {
          let place = "\(file):\(line)"
          loose.append(Literal(place: place, pieces: readString()))
          continue
        }
        index += 1
      }
      return (pairs, loose)
    }

    /// `say(` or `Phrase(` at the index, not part of a longer name (`func say(` declares it).
    func callName() -> String? {
      for name in ["say", "Phrase"] where follows(name + "(") {
        let before = index > 0 ? characters[index - 1] : " "
        if before.isLetter || before.isNumber || before == "_" || before == "." { return nil }
        let start = characters[..<index].suffix(5)
        if String(start) == "func " { return nil }
        return name
      }
      return nil
    }

    mutating func skipComment() -> Bool {
      if follows("//") {
        while let character = peek(), character != "\n" { index += 1 }
        return true
      }
      if follows("/*") {
        while index < characters.count, !follows("*/") { index += 1 }
        index += 2
        return true
      }
      return false
    }

    /// The string literals of each argument, up to the call's closing parenthesis.
    mutating func readArguments() -> [[String]] {
      var arguments: [[String]] = [[]]
      var depth = 0
      while let character = peek() {
        if skipComment() { continue }
        switch character {
        case "\"":
          arguments[arguments.count - 1] += readString()
          continue
        case "(", "[", "{": depth += 1
        case ")", "]", "}":
          if depth == 0 {
            index += 1
            return arguments
          }
          depth -= 1
        case "," where depth == 0: arguments.append([])
        default: break
        }
        index += 1
      }
      return arguments
    }

    /// A string literal at the index: its text with each interpolation as `⟦⟧`, then the literals
    /// inside its interpolations.
    mutating func readString() -> [String] {
      let triple = follows("\"\"\"")
      index += triple ? 3 : 1
      var text = ""
      var nested: [String] = []
      while let character = peek() {
        if triple ? follows("\"\"\"") : character == "\"" {
          index += triple ? 3 : 1
          break
        }
        if character == "\\" {
          if peek(1) == "(" {
            index += 2
            nested += readInterpolation()
            text += "⟦⟧"
            continue
          }
          if let escaped = peek(1) {
            text += escaped == "n" ? "\n" : String(escaped)
          }
          index += 2
          continue
        }
        text.append(character)
        index += 1
      }
      return [text] + nested
    }

    /// The literals inside an interpolation, up to its closing parenthesis.
    mutating func readInterpolation() -> [String] {
      var depth = 0
      var literals: [String] = []
      while let character = peek() {
        if character == "\"" {
          literals += readString()
          continue
        }
        if character == "(" { depth += 1 }
        if character == ")" {
          if depth == 0 {
            index += 1
            return literals
          }
          depth -= 1
        }
        index += 1
      }
      return literals
    }
  }
}

/// What in a text is English prose, and which key names it writes out.
enum TextCheck {
  /// Lower-case English words a Japanese text may keep: names of StoreKit's API, of a setting or of
  /// a command, written as the code or the command line writes them.
  static let names: Set<String> = [
    // The product and the shell's command that resumes it (`fg`).
    "monkeyshop", "fg",
    // Swift's values, as an API returns them (`canMakePayments` is `false`).
    "true", "false",
    // `Transaction.unfinished`, as the transaction detail's line of StoreKit 2 sequences writes it.
    "unfinished",
    // Walkthrough steps, as a walkthrough file writes them (`- launch`, `- relaunch`).
    "launch", "relaunch",
    // The word a store operation takes for the newest transaction (`store approve last`).
    "last",
  ]

  /// English words of a text that are not names: a word of two letters or more, all lower case,
  /// that is not part of code (`Transaction.all`, `--auto`, `owned.json`, `purchase()`).
  static func englishWords(_ text: String) -> [String] {
    // A command line is a name: `monkeyshop store transactions --json`, `store certificate`.
    if text.hasPrefix("monkeyshop ") || text.hasPrefix("store ") { return [] }
    let characters = Array(text)
    var words: [String] = []
    var index = 0
    func isWordCharacter(_ character: Character) -> Bool {
      character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }
    while index < characters.count {
      guard isWordCharacter(characters[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < characters.count, isWordCharacter(characters[index]) { index += 1 }
      let word = String(characters[start..<index])
      let before = start > 0 ? characters[start - 1] : " "
      let after = index < characters.count ? characters[index] : " "
      let next = index + 1 < characters.count ? characters[index + 1] : " "
      let code = ".-_@/#$%".contains(before) || "(@_/".contains(after) || after == "." && next.isLetter
      let lowercase = word.allSatisfy { $0.isLowercase }
      if word.count >= 2, lowercase, !code, !names.contains(word) { words.append(word) }
    }
    return words
  }

  /// The key names a text writes out: a key table's names (`Tab`, `Enter`, `p`, `↓`) standing
  /// alone. `a` in English is the article, not the key.
  static func keyNames(_ text: String, among names: Set<String>, english: Bool) -> [String] {
    let characters = Array(text)
    var found: [String] = []
    func isWordCharacter(_ character: Character?) -> Bool {
      guard let character else { return false }
      // An interpolation beside a letter makes it part of a word: `v⟦⟧` is a version.
      return character.isLetter || character.isNumber || "_'’⟦⟧".contains(character)
    }
    for name in names.sorted() {
      let pattern = Array(name)
      guard pattern.count <= characters.count else { continue }
      for start in 0...(characters.count - pattern.count)
      where characters[start] == pattern[0] && characters[start..<start + pattern.count].elementsEqual(pattern) {
        let before = start > 0 ? characters[start - 1] : nil
        let after = start + pattern.count < characters.count ? characters[start + pattern.count] : nil
        let standsAlone =
          !isWordCharacter(before) && !isWordCharacter(after) && before != "-" && after != "-" && before != "."
          && before != "\\"
        if standsAlone, !(english && name == "a") { found.append(name) }
      }
    }
    return found
  }
}
