import Foundation
import Yams

/// A walkthrough file that cannot run: every problem found, each with the file, the line and what
/// was expected. Nothing of the walkthrough has run.
public struct WalkthroughError: Error, Sendable, CustomStringConvertible {
  public struct Problem: Sendable, CustomStringConvertible {
    public let path: String
    /// Nil when the problem is the file itself (missing, unreadable).
    public let line: Int?
    public let message: String

    public init(path: String, line: Int?, message: String) {
      self.path = path
      self.line = line
      self.message = message
    }

    public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
  }

  public let problems: [Problem]

  public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Reads walkthrough YAML (SPEC §6). The YAML is composed into nodes, which keep their line, so
/// every refusal can say where it is; values are checked with the same rules the store and the
/// key map use (`Conditions.set`, `Key(name:)`).
public enum WalkthroughParser {
  public static func load(path: String) throws(WalkthroughError) -> Walkthrough {
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      let problem = exists ? "cannot be read" : "no such file"
      throw WalkthroughError(problems: [
        .init(path: path, line: nil, message: "\(problem) (expected a walkthrough YAML file)")
      ])
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw WalkthroughError(problems: [.init(path: path, line: nil, message: "not UTF-8 text (expected YAML)")])
    }
    return try parse(text, path: path)
  }

  public static func parse(_ text: String, path: String) throws(WalkthroughError) -> Walkthrough {
    var reader = Reader(path: path)
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch {
      throw WalkthroughError(problems: [reader.syntaxProblem(error)])
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
private struct Reader {
  let path: String
  var problems: [WalkthroughError.Problem] = []

  static let topFields = ["name", "description", "size", "language", "storefront", "wallet", "conditions", "steps"]

  mutating func fail(_ node: Node?, _ message: String) {
    problems.append(.init(path: path, line: node?.mark?.line, message: message))
  }

  mutating func fail(line: Int, _ message: String) {
    problems.append(.init(path: path, line: line, message: message))
  }

  func syntaxProblem(_ error: any Error) -> WalkthroughError.Problem {
    if let error = error as? YamlError {
      switch error {
      case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
        .composer(let context, let problem, let mark, _):
        var message = "not valid YAML: \(problem)"
        if let context, !context.text.isEmpty {
          message +=
            " (\(context.text)" + (context.mark.line == mark.line ? ")" : " that starts on line \(context.mark.line))")
        }
        return .init(path: path, line: mark.line, message: message)
      default:
        break
      }
    }
    return .init(path: path, line: nil, message: "not valid YAML: \(error)")
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
          storefront = condition("storefront", code, at: value).map { [$0] } ?? []
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
    let parts = value.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...1000).contains(width),
      (1...1000).contains(height)
    else {
      fail(node, "'\(value)' is not a screen size (expected WIDTHxHEIGHT, such as 80x24 or 120x40)")
      return nil
    }
    return ScreenSize(width: width, height: height)
  }

  mutating func wallet(_ node: Node) -> Int? {
    guard let fields = fields(node, of: "wallet", allowed: ["balance"]) else { return nil }
    guard let balance = fields.first(where: { $0.key == "balance" })?.value else {
      fail(node, "wallet needs balance (expected { balance: N })")
      return nil
    }
    return integer(balance, "balance", range: 0...Int.max, expected: "a whole number of credits, 0 or more")
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
    case "store": "{ approve|decline|resolve: ID or last }"
    case "crash": "beforeDelivery or afterDeliveryBeforeFinish"
    case "expect": "{ screen, notScreen, balance, event, events, transaction }"
    case "say": "a line of narration"
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
    guard let fields = fields(value, of: "store", allowed: names) else { return nil }
    guard fields.count == 1, let (name, node) = fields.first.map({ ($0.key, $0.value) }),
      let operation = StoreOperation(rawValue: name)
    else {
      fail(value, "store takes one operation (expected { approve|decline|resolve: ID or last })")
      return nil
    }
    guard let id = text(node, name, expected: "a transaction id or last") else { return nil }
    guard id == "last" || (!id.isEmpty && id.allSatisfy(\.isNumber)) else {
      fail(node, "'\(id)' is not a transaction (expected a transaction id such as 3, or last)")
      return nil
    }
    return .store(operation, transaction: id)
  }

  // MARK: Expectations

  mutating func expectations(_ node: Node) -> [Expectation]? {
    guard let fields = fields(node, of: "expect", allowed: Expectation.fields) else { return nil }
    if fields.isEmpty {
      fail(node, "expect checks nothing (expected one or more of \(Expectation.fields.joined(separator: ", ")))")
      return nil
    }
    let count = problems.count
    var expectations: [Expectation] = []
    for (name, value) in fields {
      switch name {
      case "screen", "notScreen":
        let texts = strings(value, name, expected: "text, or a list of texts")
        for text in texts where text.isEmpty { fail(value, "\(name) text is empty (expected some text)") }
        expectations += texts.map { name == "screen" ? .screen($0) : .notScreen($0) }
      case "balance":
        if let balance = integer(value, name, range: 0...Int.max, expected: "a number of credits") {
          expectations.append(.balance(balance))
        }
      case "event":
        if let event = eventName(value) { expectations.append(.event(event)) }
      case "events":
        guard let sequence = value.sequence, !sequence.isEmpty else {
          fail(
            value,
            "events is \(Self.describe(value)) (expected a list of event names in order, such as [purchased, delivered, finished])"
          )
          continue
        }
        let names = sequence.compactMap { eventName($0) }
        if names.count == sequence.count { expectations.append(.events(names)) }
      case "transaction":
        if let expected = transaction(value) { expectations.append(.transaction(expected)) }
      default:
        break
      }
    }
    return problems.count == count ? expectations : nil
  }

  mutating func eventName(_ node: Node) -> String? {
    guard let name = text(node, "event", expected: "an event name such as purchased") else { return nil }
    guard Expectation.eventNames.contains(name) else {
      let hint = Self.suggestion(name, Expectation.eventNames)
      fail(node, "unknown event '\(name)'\(hint) (expected one of \(Expectation.eventNames.joined(separator: ", ")))")
      return nil
    }
    return name
  }

  mutating func transaction(_ node: Node) -> TransactionExpectation? {
    guard let fields = fields(node, of: "transaction", allowed: TransactionExpectation.fields) else { return nil }
    var expected = TransactionExpectation()
    let count = problems.count
    for (name, value) in fields {
      switch name {
      case "id":
        if let id = text(value, "id", expected: "a transaction id or last") {
          if id == "last" || (!id.isEmpty && id.allSatisfy(\.isNumber)) {
            expected.id = id
          } else {
            fail(value, "'\(id)' is not a transaction (expected a transaction id such as 3, or last)")
          }
        }
      case "state":
        let states = TransactionState.allCases.map(\.description)
        if let text = text(value, "state", expected: states.joined(separator: "|")) {
          if let state = TransactionState(name: text) {
            expected.state = state
          } else {
            fail(value, "unknown transaction state '\(text)' (expected one of \(states.joined(separator: ", ")))")
          }
        }
      case "finished":
        expected.finished = flag(value, "finished")
      case "errorCode":
        if let text = text(value, "errorCode", expected: "an SKError code") {
          if let code = SKErrorCode(argument: text) {
            expected.errorCode = code.rawValue
          } else {
            fail(value, "unknown SKError code '\(text)' (expected one of \(SKErrorCode.accepted))")
          }
        }
      case "quantity":
        expected.quantity = integer(value, "quantity", range: AppStore.quantityLimit, expected: "1 to 10")
      case "product":
        expected.product = text(value, "product", expected: "a product identifier")
      default:
        break
      }
    }
    return problems.count == count ? expected : nil
  }

  // MARK: Conditions

  mutating func settings(_ node: Node, in context: String) -> [ConditionSetting] {
    let names = Conditions.settings.map(\.name)
    guard let fields = fields(node, of: context, allowed: names, unknown: "condition") else { return [] }
    return fields.compactMap { name, value in
      guard let text = text(value, name, expected: Conditions.settings.first { $0.name == name }?.values ?? "a value")
      else { return nil }
      return condition(name, text, at: value)
    }
  }

  /// A condition checked as the store would check it, without a store.
  mutating func condition(_ name: String, _ value: String, at node: Node) -> ConditionSetting? {
    var conditions = Conditions()
    do {
      try conditions.set(name, to: value)
    } catch {
      fail(node, error.description)
      return nil
    }
    return ConditionSetting(name: name, value: value)
  }

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
          return false
        }
        if screen, !launched {
          fail(line: step.line, "expect screen before the app is launched (expected a launch step first)")
        }
      default:
        break
      }
    }
  }

  // MARK: Wording

  /// `2s`, `500ms`, `1.5s`, `2m` in seconds.
  static func duration(_ text: String) -> TimeInterval? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (unit, scale) in units where text.hasSuffix(unit) {
      let number = text.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
      guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number),
        value >= 0, value <= 86_400
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
  static func suggestion(_ name: String, _ known: [String]) -> String {
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
