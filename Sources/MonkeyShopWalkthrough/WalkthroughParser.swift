import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import Yams

/// A walkthrough file that cannot run: every problem found, each with the file, the line and what
/// was expected. Nothing of the walkthrough has run.
public struct WalkthroughError: Error, Sendable, CustomStringConvertible {
  public struct Problem: Sendable, CustomStringConvertible {
    public let path: String
    /// Nil when the problem is the file itself (missing, unreadable).
    public let line: Int?
    /// The column, where the place is a character rather than a line (a YAML syntax error).
    public let column: Int?
    public let message: String

    public init(path: String, line: Int?, column: Int? = nil, message: String) {
      self.path = path
      self.line = line
      self.column = column
      self.message = message
    }

    public var description: String {
      guard let line else { return "\(path): \(message)" }
      return "\(path):\(line)" + (column.map { ":\($0)" } ?? "") + ": \(message)"
    }
  }

  public let problems: [Problem]

  public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Reads walkthrough YAML (docs/walkthroughs.md). The YAML is composed into nodes, which keep their line, so
/// every refusal can say where it is; values are checked with the same rules the store and the
/// key map use (`Conditions.set`, `Key(name:)`).
public enum WalkthroughParser {
  /// Reads a walkthrough file. With the catalog it will run on, a storefront the catalog has no
  /// prices in is refused here, with its line, rather than failing the run. A file not found is
  /// told with the library's walkthrough its name is a slip of, if one is.
  public static func load(path: String, catalog: Catalog? = nil, library: String? = nil) throws(WalkthroughError)
    -> Walkthrough
  {
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      let problem =
        exists ? "cannot be read" : "no such file" + WalkthroughLibrary.suggestion(for: path, library: library)
      throw WalkthroughError(problems: [
        .init(path: path, line: nil, message: "\(problem) (expected a walkthrough YAML file)")
      ])
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw WalkthroughError(problems: [.init(path: path, line: nil, message: "not UTF-8 text (expected YAML)")])
    }
    return try parse(text, path: path, catalog: catalog)
  }

  /// `500ms`, `2s`, `1.5s`, `2m` in seconds, as a `wait:` step reads them; nil for anything else.
  public static func duration(_ text: String) -> TimeInterval? { WalkthroughReader.duration(text) }

  /// A duration well written but longer than a wait may be (a day).
  public static func isTooLong(_ text: String) -> Bool { WalkthroughReader.isTooLong(text) }

  /// `80x24`, `120×40`: a screen of 1 to 1000 cells each way, as `size:` and `--size` take it.
  public static func screenSize(_ text: String) -> ScreenSize? {
    let parts = text.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...1000).contains(width),
      (1...1000).contains(height)
    else { return nil }
    return ScreenSize(width: width, height: height)
  }

  public static func parse(_ text: String, path: String, catalog: Catalog? = nil) throws(WalkthroughError)
    -> Walkthrough
  {
    var reader = WalkthroughReader(path: path, catalog: catalog)
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch {
      throw WalkthroughError(problems: [reader.syntaxProblem(error, in: text)])
    }
    guard let root else {
      throw WalkthroughError(
        problems: [.init(path: path, line: 1, message: "the file is empty (expected a mapping with name and steps)")])
    }
    let walkthrough = reader.walkthrough(root)
    if walkthrough == nil, reader.problems.isEmpty {
      reader.fail(line: root.mark?.line ?? 1, "not a walkthrough (expected a mapping with name and steps)")
    }
    guard let walkthrough, reader.problems.isEmpty else {
      // In the order of the file, as a compiler lists them.
      let ordered = reader.problems.enumerated().sorted {
        ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
      }
      throw WalkthroughError(problems: ordered.map(\.element))
    }
    return walkthrough
  }
}

/// Walks the node tree, collecting every problem rather than stopping at the first.
struct WalkthroughReader {
  let path: String
  /// The catalog the walkthrough will run on, when known: storefronts are checked against it.
  var catalog: Catalog?
  var problems: [WalkthroughError.Problem] = []

  static let topFields = [
    "name", "description", "size", "language", "storekit", "storefront", "wallet", "conditions", "steps",
  ]

  mutating func fail(_ node: Node?, _ message: String) {
    problems.append(.init(path: path, line: node?.mark?.line, message: message))
  }

  mutating func fail(line: Int, _ message: String) {
    problems.append(.init(path: path, line: line, message: message))
  }

  /// The problem a YAML reader's error is, in `text`, the file read.
  func syntaxProblem(_ error: any Error, in text: String) -> WalkthroughError.Problem {
    if let error = error as? YamlError {
      switch error {
      case .duplicatedKeysInMapping(let duplicates, let context):
        if let key = duplicates.first { return duplicateKeyProblem(key, first: context.mark, in: text) }
      case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
        .composer(let context, let problem, let mark, _):
        var message = "not valid YAML: \(problem)"
        if Self.isTab(at: mark, in: text) {
          message = "not valid YAML: a tab (expected spaces: YAML indents with spaces, not tabs)"
        } else if let context, !context.text.isEmpty {
          message +=
            " (\(context.text)" + (context.mark.line == mark.line ? ")" : " that starts on line \(context.mark.line))")
        }
        // The YAML reader stops at its first syntax error: the file's other problems come once it
        // is fixed, so the message says where, to the character.
        return .init(path: path, line: mark.line, column: mark.column, message: message)
      default:
        break
      }
    }
    return .init(path: path, line: nil, message: "not valid YAML: \(error)")
  }

  /// Whether the character at a YAML reader's mark (1-based line and column) is a tab: the
  /// reader says only that it "cannot start any token".
  static func isTab(at mark: Mark, in text: String) -> Bool {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard mark.line >= 1, mark.line <= lines.count else { return false }
    let line = Array(lines[mark.line - 1])
    return mark.column >= 1 && mark.column <= line.count && line[mark.column - 1] == "\t"
  }

  // MARK: The file

  mutating func walkthrough(_ root: Node) -> Walkthrough? {
    guard let fields = fields(root, of: "the walkthrough", allowed: Self.topFields) else { return nil }
    var name: String?
    var summary: String?
    var size = ScreenSize.minimum
    var language = Language.en
    var storefront: [ConditionSetting] = []
    var conditions: [ConditionSetting] = []
    var balance = 0
    var steps: [WalkthroughStep]?
    for (key, value) in fields {
      switch key {
      case "name": name = text(value, "name", expected: "the walkthrough's title")
      case "description": summary = text(value, "description", expected: "a sentence saying what it shows")
      case "size": size = screenSize(value) ?? size
      case "language":
        let code = text(value, "language", expected: "en or ja")
        if let code {
          if let known = Language(rawValue: code) {
            language = known
          } else {
            fail(value, "unknown language '\(code)' (expected en or ja)")
          }
        }
      case "storefront":
        if let code = text(value, "storefront", expected: "a storefront code such as USA") {
          storefront += condition(.storefront, code, at: value).map { [$0] } ?? []
        }
      case "storekit":
        // The app's StoreKit (`storekit: 2`), a condition like the storefront.
        if let api = text(value, "storekit", expected: "1 or 2") {
          storefront += condition(.storeKit, api, at: value).map { [$0] } ?? []
        }
      case "wallet": balance = wallet(value) ?? balance
      case "conditions": conditions += settings(value, in: "conditions")
      case "steps": steps = self.steps(value)
      default: break
      }
    }
    if name == nil, !fields.contains(where: { $0.key == "name" }) {
      fail(line: root.mark?.line ?? 1, "missing field 'name' (expected the walkthrough's title)")
    }
    if steps == nil, !fields.contains(where: { $0.key == "steps" }) {
      fail(line: root.mark?.line ?? 1, "missing field 'steps' (expected a list of steps)")
    }
    guard let name, let steps else { return nil }
    checkOrder(steps)
    // The storefront comes first, so `conditions:` can still change it.
    return Walkthrough(
      name: name, summary: summary, path: path, size: size, language: language, conditions: storefront + conditions,
      balance: balance, steps: steps)
  }

  mutating func screenSize(_ node: Node) -> ScreenSize? {
    guard let value = text(node, "size", expected: "WIDTHxHEIGHT, such as 120x40") else { return nil }
    guard let size = WalkthroughParser.screenSize(value) else {
      fail(node, "'\(value)' is not a screen size (expected WIDTHxHEIGHT, such as 80x24 or 120x40)")
      return nil
    }
    // Below it every screen check would see only "terminal too small": refused as `--size` is.
    guard size.isLargeEnough else {
      fail(node, "size \(value) is smaller than the storefront's \(ScreenSize.minimum) (expected at least 80x24)")
      return nil
    }
    return size
  }

  mutating func wallet(_ node: Node) -> Int? {
    guard let fields = fields(node, of: "wallet", allowed: ["balance"]) else { return nil }
    guard let balance = fields.first(where: { $0.key == "balance" })?.value else {
      fail(node, "wallet needs balance (expected { balance: N })")
      return nil
    }
    return integer(
      balance, "balance", range: 0...Wallet.balanceLimit,
      expected: "a whole number of credits from 0 to \(Wallet.balanceLimit)")
  }

  // MARK: Steps

  mutating func steps(_ node: Node) -> [WalkthroughStep]? {
    guard let sequence = node.sequence else {
      fail(node, "steps is \(Self.describe(node)) (expected a list of steps, one per line starting with '-')")
      return nil
    }
    if sequence.isEmpty { fail(node, "steps is empty (expected at least one step, such as launch)") }
    return sequence.compactMap { node in
      let count = problems.count
      let step = step(node)
      // Never drop a step silently: a step that did not parse has said why, or says so here.
      if step == nil, problems.count == count { fail(node, "this step cannot be read") }
      return step
    }
  }

  mutating func step(_ node: Node) -> WalkthroughStep? {
    let line = node.mark?.line ?? 0
    let kinds = WalkthroughStep.kinds.joined(separator: ", ")
    if let scalar = node.scalar {
      let kind = scalar.string
      switch kind {
      case "launch": return WalkthroughStep(line: line, .launch(waitForProducts: true))
      case "relaunch": return WalkthroughStep(line: line, .relaunch(waitForProducts: true))
      case "snapshot": return WalkthroughStep(line: line, .snapshot(title: nil))
      default:
        if WalkthroughStep.kinds.contains(kind) {
          fail(node, "step '\(kind)' needs a value (expected \(kind): \(Self.valueHint(kind)))")
        } else {
          fail(node, "unknown step '\(kind)'\(Self.suggestion(kind, WalkthroughStep.kinds)) (expected one of \(kinds))")
        }
        return nil
      }
    }
    guard let mapping = node.mapping else {
      fail(node, "a step is \(Self.describe(node)) (expected one of \(kinds), or 'kind: value')")
      return nil
    }
    let keys = mapping.map { $0.key.scalar?.string ?? "?" }
    guard mapping.count == 1, let first = mapping.first else {
      fail(node, "one step has \(keys.count) kinds (\(keys.joined(separator: ", "))): put each on its own '-' line")
      return nil
    }
    let (keyNode, value) = (first.key, first.value)
    let kind = keyNode.scalar?.string ?? ""
    guard WalkthroughStep.kinds.contains(kind) else {
      fail(keyNode, "unknown step '\(kind)'\(Self.suggestion(kind, WalkthroughStep.kinds)) (expected one of \(kinds))")
      return nil
    }
    guard let action = action(kind, value) else { return nil }
    return WalkthroughStep(line: line, action)
  }

  static func valueHint(_ kind: String) -> String {
    switch kind {
    case "press": "a key or a list of keys"
    case "wait": "a duration such as 500ms, 2s or 2m"
    case "set": "{ condition: value }"
    case "store": "{ \(StoreOperation.allCases.map(\.rawValue).joined(separator: "|")): ID or last }"
    case "crash": "beforeDelivery or afterDeliveryBeforeFinish"
    case "expect": "{ \(Expectation.fields.joined(separator: ", ")) }"
    case "say": "a line of narration"
    case "appAccountToken": "a UUID, or none"
    default: "a value"
    }
  }

  mutating func action(_ kind: String, _ value: Node) -> WalkthroughStep.Action? {
    switch kind {
    case "launch", "relaunch":
      var waits = true
      if value.null == nil {
        guard let fields = fields(value, of: kind, allowed: ["waitForProducts"]) else { return nil }
        for (_, node) in fields { waits = flag(node, "waitForProducts") ?? waits }
      }
      return kind == "launch" ? .launch(waitForProducts: waits) : .relaunch(waitForProducts: waits)
    case "press":
      let nodes = value.sequence.map(Array.init) ?? [value]
      if nodes.isEmpty { fail(value, "press has no keys (expected a key or a list of keys)") }
      let keys = nodes.compactMap { key($0) }
      return keys.count == nodes.count && !keys.isEmpty ? .press(keys) : nil
    case "wait":
      guard let text = text(value, "wait", expected: "a duration such as 500ms, 2s, 1.5s or 2m") else { return nil }
      guard let seconds = Self.duration(text) else {
        if Self.isTooLong(text) {
          fail(value, "'\(text)' is too long for a wait (expected at most a day: 1440m, 86400s)")
          return nil
        }
        fail(value, "'\(text)' is not a duration (expected a number with ms, s or m, such as 500ms, 2s, 1.5s or 2m)")
        return nil
      }
      return .wait(seconds)
    case "set":
      let count = problems.count
      let settings = settings(value, in: "set")
      guard problems.count == count else { return nil }
      if settings.isEmpty {
        fail(value, "set has no conditions (expected { condition: value })")
        return nil
      }
      return .set(settings)
    case "store":
      return store(value)
    case "crash":
      guard let text = text(value, "crash", expected: "beforeDelivery or afterDeliveryBeforeFinish") else { return nil }
      guard let point = CrashPoint(rawValue: text) else {
        fail(value, "unknown crash point '\(text)' (expected beforeDelivery or afterDeliveryBeforeFinish)")
        return nil
      }
      return .crash(point)
    case "expect":
      return expectations(value).map { .expect($0) }
    case "snapshot":
      if value.null != nil { return .snapshot(title: nil) }
      return text(value, "snapshot", expected: "a title, or nothing").map { .snapshot(title: $0) }
    case "say":
      guard let text = text(value, "say", expected: "a line of narration") else { return nil }
      let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !line.isEmpty else {
        fail(value, "say is empty (expected a line of narration)")
        return nil
      }
      return .say(line)
    case "appAccountToken":
      guard let text = text(value, "appAccountToken", expected: "a UUID, or none") else { return nil }
      if text == "none" { return .appAccountToken(nil) }
      guard let token = UUID(uuidString: text) else {
        fail(value, "'\(text)' is not a UUID (expected a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138, or none)")
        return nil
      }
      return .appAccountToken(token)
    default:
      return nil
    }
  }

  mutating func key(_ node: Node) -> Key? {
    guard let name = node.scalar?.string else {
      fail(node, "a key is \(Self.describe(node)) (expected a key name such as 5, +, Enter or Esc)")
      return nil
    }
    guard let key = Key(name: name) else {
      let named = Key.named.keys.sorted().joined(separator: ", ")
      let hint = Self.suggestion(name, Array(Key.named.keys))
      fail(node, "unknown key '\(name)'\(hint) (expected a single character or one of \(named))")
      return nil
    }
    return key
  }

  mutating func store(_ value: Node) -> WalkthroughStep.Action? {
    let names = StoreOperation.allCases.map(\.rawValue)
    guard let all = fields(value, of: "store", allowed: names + ["reason"]) else { return nil }
    let fields = all.filter { $0.key != "reason" }
    guard fields.count == 1, let (name, node) = fields.first.map({ ($0.key, $0.value) }),
      let operation = StoreOperation(rawValue: name)
    else {
      fail(value, "store takes one operation (expected { \(names.joined(separator: "|")): ID or last })")
      return nil
    }
    var reason: ConsumptionRequestReason?
    if let reasonNode = all.first(where: { $0.key == "reason" })?.value {
      guard operation == .refundRequest else {
        fail(reasonNode, "reason goes with refundRequest only (expected { refundRequest: ID, reason: REASON })")
        return nil
      }
      guard let text = text(reasonNode, "reason", expected: "a consumptionRequestReason") else { return nil }
      let known = ConsumptionRequestReason.allCases.map(\.rawValue)
      guard let parsed = ConsumptionRequestReason(rawValue: text.uppercased()) else {
        fail(
          reasonNode,
          "unknown reason '\(text)'\(Self.suggestion(text, known)) (expected one of \(known.joined(separator: ", ")))")
        return nil
      }
      reason = parsed
    }
    guard let id = transactionID(node, name) else { return nil }
    return .store(operation, transaction: id, reason: reason)
  }

  // MARK: Order

  /// The app must be running for keys and the screen; launch starts it once, relaunch again.
  mutating func checkOrder(_ steps: [WalkthroughStep]) {
    var launched = false
    for step in steps {
      switch step.action {
      case .launch:
        if launched { fail(line: step.line, "the app is already launched (expected relaunch to start it again)") }
        launched = true
      case .relaunch:
        if !launched { fail(line: step.line, "relaunch before launch (expected launch to start the app first)") }
      case .press, .snapshot:
        if !launched { fail(line: step.line, "\(step.kind) before the app is launched (expected a launch step first)") }
      case .expect(let expectations):
        let screen = expectations.contains {
          if case .screen = $0 { return true }
          if case .notScreen = $0 { return true }
          if case .status = $0 { return true }
          return false
        }
        if screen, !launched {
          fail(line: step.line, "expect screen or status before the app is launched (expected a launch step first)")
        }
      default:
        break
      }
    }
  }

}
