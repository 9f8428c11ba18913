import Foundation
import Testing

@testable import MonkeyShopDomain
@testable import MonkeyShopWalkthrough

/// The README and the pages of docs/ checked against the code, so they cannot drift: every link
/// resolves, every screenshot is the golden screen it says it is, the walkthrough library and the
/// lists of event names, fields, steps and conditions are the ones the code accepts, and the
/// architecture page names only targets, types, messages, effects and files that exist.
/// `MONKEYSHOP_UPDATE_GOLDEN=1` rewrites the screenshots from the golden files (docs/testing.md).
@Suite(.tags(.pure)) struct DocumentationTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and every page of docs/, by path relative to the repository.
  static let pages: [String] = {
    let docs =
      (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path))
      ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  static func text(_ page: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8)
  }

  // MARK: The README and its links

  @Test("the README is a front page: at most 250 lines")
  func readmeIsShort() throws {
    let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines <= 250, "README.md has \(lines) lines")
  }

  @Test("every page of docs/ is linked from the README")
  func readmeLinksEveryPage() throws {
    let linked = Set(
      Markdown.links(in: try Self.text("README.md")).map { $0.split(separator: "#").first.map(String.init) ?? $0 })
    for page in Self.pages where page != "README.md" {
      #expect(linked.contains(page), "README.md does not link \(page)")
    }
  }

  @Test("every link between the README and the pages of docs/ leads to a file, and to a heading there")
  func linksResolve() throws {
    #expect(Self.pages.count > 1, "no pages in docs/")
    for page in Self.pages {
      let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
      for link in Markdown.links(in: try Self.text(page)) where !link.contains("://") && !link.hasPrefix("mailto:") {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].isEmpty ? page : (folder == "." ? parts[0] : folder + "/" + parts[0])
        let url = Self.repository.appendingPathComponent(target).standardizedFileURL
        #expect(FileManager.default.fileExists(atPath: url.path), "\(page): the link \(link) leads nowhere")
        guard parts.count == 2, target.hasSuffix(".md"), let linked = try? String(contentsOf: url, encoding: .utf8)
        else { continue }
        #expect(
          Markdown.anchors(in: linked).contains(parts[1]),
          "\(page): the link \(link) names no heading of \(target) (it has \(Markdown.anchors(in: linked).sorted()))")
      }
    }
  }

  // MARK: Screenshots

  @Test("every screenshot marked with a golden screen is that golden screen")
  func screenshotsAreGoldenScreens() throws {
    let updating = ProcessInfo.processInfo.environment["MONKEYSHOP_UPDATE_GOLDEN"] == "1"
    var found = 0
    for page in Self.pages {
      let text = try Self.text(page)
      var rewritten = ""
      var copied = text.startIndex
      for shot in Markdown.screenshots(in: text) {
        found += 1
        let golden = try String(
          contentsOf: Golden.folder.appendingPathComponent(shot.name + ".txt"), encoding: .utf8)
        rewritten += text[copied..<shot.body.lowerBound] + golden
        copied = shot.body.upperBound
        if !updating {
          #expect(
            String(text[shot.body]) == golden,
            """
            \(page): the screenshot marked golden: \(shot.name) is not Golden/\(shot.name).txt; \
            MONKEYSHOP_UPDATE_GOLDEN=1 swift test --filter DocumentationTests rewrites it
            """)
        }
      }
      rewritten += text[copied...]
      if updating, rewritten != text {
        try rewritten.write(to: Self.repository.appendingPathComponent(page), atomically: true, encoding: .utf8)
      }
    }
    #expect(found >= 1, "no screenshot is marked with its golden screen")
  }

  // MARK: Walkthroughs

  @Test("the event names the walkthrough page lists are those a walkthrough may expect")
  func eventNames() throws {
    let listed = try Markdown.firstColumn(ofTableMarked: "event names", in: Self.text("docs/walkthroughs.md"))
    #expect(listed.count == Set(listed).count, "an event is listed twice: \(listed)")
    #expect(Set(listed) == Set(Expectation.eventNames), Markdown.difference(listed, Expectation.eventNames))
  }

  @Test("the walkthrough page's tables of fields, steps and checks are those the reader accepts")
  func formatTables() throws {
    let page = try Self.text("docs/walkthroughs.md")
    let fields = try Markdown.firstColumn(ofTableUnder: "## The file", in: page)
    #expect(Set(fields) == Set(WalkthroughReader.topFields), Markdown.difference(fields, WalkthroughReader.topFields))
    let steps = try Markdown.firstColumn(ofTableUnder: "## Steps", in: page)
    #expect(Set(steps) == Set(WalkthroughStep.kinds), Markdown.difference(steps, WalkthroughStep.kinds))
    let checks = try Markdown.firstColumn(ofTableUnder: "## Checks (`expect`)", in: page)
    #expect(Set(checks) == Set(Expectation.fields), Markdown.difference(checks, Expectation.fields))
  }

  @Test("the walkthrough page names every condition a walkthrough takes, and every store operation of its store step")
  func walkthroughConditionsAndStoreOperations() throws {
    let page = try Self.text("docs/walkthroughs.md")
    let rows = page.split(separator: "\n")
    let conditionsRow = try #require(rows.first { $0.hasPrefix("| `conditions` |") })
    // The names before the pointer to the commands page's table of values.
    let named = Markdown.codeSpans(in: conditionsRow.split(separator: "(").first ?? "").filter {
      $0 != "conditions" && $0 != "monkeyshop store set"
    }
    let conditions = Condition.allCases.map(\.rawValue)
    #expect(named.sorted() == conditions.sorted(), Markdown.difference(named, conditions))
    let storeRow = try #require(rows.first { $0.hasPrefix("| `store: ") })
    let spans = Set(Markdown.codeSpans(in: storeRow))
    let operations = StoreOperation.allCases.map(\.rawValue)
    #expect(
      operations.allSatisfy(spans.contains), Markdown.difference(operations.filter(spans.contains), operations))
  }

  @Test("the library table lists every walkthrough of Walkthroughs/, and a count of them is right")
  func library() throws {
    let folder = Self.repository.appendingPathComponent("Walkthroughs").path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
    let page = try Self.text("docs/walkthroughs.md")
    let listed = try Markdown.firstColumn(ofTableMarked: "library", in: page, keepingExtensions: true)
    #expect(Set(listed) == Set(files), Markdown.difference(listed, files))
    // "30 walkthroughs" wherever the README or the walkthrough page gives their number.
    for name in ["README.md", "docs/walkthroughs.md"] {
      for count in Markdown.numbers(before: " walkthroughs", in: try Self.text(name)) {
        #expect(count == files.count, "\(name) says \(count) walkthroughs; Walkthroughs/ holds \(files.count)")
      }
    }
  }

  // MARK: Conditions

  @Test("the conditions table of the commands page lists every condition of the store")
  func conditions() throws {
    let listed = try Markdown.firstColumn(ofTableMarked: "conditions", in: Self.text("docs/commands.md"))
    let conditions = Condition.allCases.map(\.rawValue)
    #expect(Set(listed) == Set(conditions), Markdown.difference(listed, conditions))
  }

  // MARK: Architecture

  @Test("the architecture page names every target of Sources, and only those")
  func architectureTargets() throws {
    let region = try Markdown.region(marked: "checked against Sources", in: Self.text("docs/architecture.md"))
    let named = Set(Markdown.folders(in: region))
    let sources = Self.repository.appendingPathComponent("Sources").path
    let targets = try FileManager.default.contentsOfDirectory(atPath: sources).filter { name in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: sources + "/" + name, isDirectory: &isFolder) && isFolder.boolValue
    }
    #expect(named == Set(targets), Markdown.difference(Array(named), targets))
    let manifest = try Self.text("Package.swift")
    for target in targets {
      #expect(manifest.contains("name: \"\(target)\""), "Package.swift has no target \(target)")
    }
  }

  @Test("every message, effect, type and file the architecture page names exists in Sources")
  func architectureNames() throws {
    let region = try Markdown.region(marked: "checked against Sources", in: Self.text("docs/architecture.md"))
    let code = SourceIndex(root: Self.repository.appendingPathComponent("Sources"))
    let cases = Markdown.dottedNames(in: region)
    #expect(cases.contains("crashRecorded") && cases.contains("addPayment"), "the diagram lost its names: \(cases)")
    for name in cases {
      #expect(code.cases.contains(name), "docs/architecture.md names .\(name), which no enum in Sources has")
    }
    for token in Markdown.codeSpans(in: region) {
      if token.contains("/") || token.hasSuffix(".swift") {
        let path = Self.repository.appendingPathComponent(token).path
        #expect(
          FileManager.default.fileExists(atPath: path), "docs/architecture.md names \(token), which does not exist")
      } else if let match = token.wholeMatch(of: /([A-Z][A-Za-z0-9]*)(?:\.([a-z][A-Za-z0-9]*))?/) {
        let type = String(match.1)
        #expect(
          code.types.contains(type) || code.targets.contains(type),
          "docs/architecture.md names \(type), which Sources neither declares nor has as a target")
        if let member = match.2 {
          #expect(code.members.contains(String(member)), "docs/architecture.md names \(token): no \(member) in Sources")
        }
      }
    }
  }
}

/// What the Swift sources declare, found by reading them: enough to tell whether a name the docs use
/// is there.
struct SourceIndex {
  var types: Set<String> = []
  var cases: Set<String> = []
  var members: Set<String> = []
  var targets: Set<String> = []

  init(root: URL) {
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    targets = Set(files.filter { !$0.contains("/") })
    for file in files where file.hasSuffix(".swift") {
      guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
      for line in text.split(separator: "\n") {
        var code = line.drop { $0 == " " }
        if code.hasPrefix("//") { continue }
        // Words of the line, in order: `public enum Notice: Equatable` is public, enum, Notice, ….
        let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        for (keyword, name) in zip(words, words.dropFirst()) {
          switch keyword {
          case "struct", "enum", "class", "protocol", "actor", "typealias": types.insert(String(name))
          case "func", "var", "let": members.insert(String(name))
          default: break
          }
        }
        // `case a, b(x: Int), c`: a declaration, not a pattern (`case .a:`, `case let`).
        for modifier in ["public ", "indirect "] where code.hasPrefix(modifier) {
          code = code.dropFirst(modifier.count)
        }
        guard code.hasPrefix("case "), let first = code.dropFirst(5).first, first.isLowercase,
          !code.hasPrefix("case let")
        else { continue }
        var depth = 0
        var name = ""
        var collecting = true
        for character in code.dropFirst(5) {
          switch character {
          case "(": depth += 1
          case ")": depth -= 1
          case "," where depth == 0:
            if !name.isEmpty { cases.insert(name) }
            name = ""
            collecting = true
            continue
          default: break
          }
          if depth == 0, collecting, character.isLetter || character.isNumber || character == "_" {
            name.append(character)
          } else if !name.isEmpty {
            collecting = false
          }
        }
        if !name.isEmpty { cases.insert(name) }
      }
    }
    members.formUnion(cases)
  }
}

/// Just enough Markdown reading for these checks.
enum Markdown {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The targets of `[text](target)` links.
  static func links(in text: String) -> [String] {
    text.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
  }

  /// The anchors GitHub gives the headings of a page: lower case, punctuation dropped, spaces as
  /// hyphens.
  static func anchors(in text: String) -> Set<String> {
    var anchors: Set<String> = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
      let slug = title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
      anchors.insert(slug.replacingOccurrences(of: " ", with: "-"))
    }
    return anchors
  }

  /// `<!-- golden: NAME -->` followed by a fenced block: the name, and the block's lines.
  static func screenshots(in text: String) -> [(name: String, body: Range<String.Index>)] {
    text.matches(of: /<!-- golden: ([A-Za-z0-9-]+) -->\n```[a-z]*\n((?:.*\n)*?)```/).map {
      ($0.1.description, $0.2.startIndex..<$0.2.endIndex)
    }
  }

  /// The text between `<!-- MARK…` and `<!-- /MARK`.
  static func region(marked mark: String, in text: String) throws -> Substring {
    guard let start = text.range(of: "<!-- \(mark)"),
      let end = text.range(of: "<!-- /", range: start.upperBound..<text.endIndex)
    else { throw Failure(description: "no region marked '\(mark)'") }
    return text[start.upperBound..<end.lowerBound]
  }

  /// The names in backticks in the first column of the table in the region marked `mark`: `a` of
  /// `` `a: VALUE` ``, each name once per backtick.
  static func firstColumn(ofTableMarked mark: String, in text: String, keepingExtensions: Bool = false) throws
    -> [String]
  {
    firstColumn(ofTableIn: try region(marked: mark, in: text), keepingExtensions: keepingExtensions)
  }

  /// The same, for the first table after a heading.
  static func firstColumn(ofTableUnder heading: String, in text: String) throws -> [String] {
    guard let start = text.range(of: "\n" + heading + "\n") else { throw Failure(description: "no heading \(heading)") }
    let rest = text[start.upperBound...]
    let end = rest.range(of: "\n#")?.lowerBound ?? rest.endIndex
    return firstColumn(ofTableIn: rest[..<end], keepingExtensions: false)
  }

  private static func firstColumn(ofTableIn text: Substring, keepingExtensions: Bool) -> [String] {
    var names: [String] = []
    var rows = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        // The table ends at the first line after it that is not a row.
        if rows > 0 { break }
        continue
      }
      rows += 1
      // The header and the line under it name no entry.
      if rows <= 2 { continue }
      let cell = line.dropFirst().prefix { $0 != "|" }
      for span in cell.matches(of: /`([^`]+)`/) {
        let name =
          keepingExtensions
          ? span.1.firstMatch(of: /^[A-Za-z][A-Za-z0-9._-]*/) : span.1.firstMatch(of: /^[A-Za-z][A-Za-z0-9_]*/)
        if let name { names.append(String(name.0)) }
      }
    }
    return names
  }

  /// The numbers written just before `suffix` (`30 walkthroughs`).
  static func numbers(before suffix: String, in text: String) -> [Int] {
    text.matches(of: /(\d+)/).compactMap { match in
      text[match.range.upperBound...].hasPrefix(suffix) ? Int(match.1) : nil
    }
  }

  /// `Name/` at the start of a line of a fenced block (after indentation): the folders of a tree.
  static func folders(in region: Substring) -> [String] {
    region.split(separator: "\n").compactMap { line in
      line.firstMatch(of: /^\s{2}([A-Za-z][A-Za-z0-9]*)\//).map { String($0.1) }
    }
  }

  /// `.name` wherever it stands for a message, an effect or another enum case: after a space,
  /// `(`, `/` or a backtick, never after a letter (`Package.swift`, `e.g.`).
  static func dottedNames(in region: Substring) -> Set<String> {
    Set(region.matches(of: /(?:^|[\s(\/`])\.([a-z][A-Za-z0-9]*)/.anchorsMatchLineEndings()).map { String($0.1) })
  }

  /// The text of every code span (`` `x` ``) outside fenced blocks.
  static func codeSpans(in region: Substring) -> [String] {
    var spans: [String] = []
    var inCode = false
    for line in region.split(separator: "\n") {
      if line.hasPrefix("```") {
        inCode.toggle()
        continue
      }
      guard !inCode else { continue }
      spans += line.matches(of: /`([^`]+)`/).map { String($0.1) }
    }
    return spans
  }

  /// What one list has that the other lacks, for a failure message.
  static func difference(_ documented: [String], _ code: [String]) -> Comment {
    let missing = Set(code).subtracting(documented).sorted()
    let extra = Set(documented).subtracting(code).sorted()
    return "the docs lack \(missing); the code has no \(extra)"
  }
}
