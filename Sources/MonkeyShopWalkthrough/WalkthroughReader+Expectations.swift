import Foundation
import MonkeyShopDomain
import Yams

/// Reading `expect` checks and condition settings.
extension WalkthroughReader {
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
      case "status":
        if let text = text(value, name, expected: "text on the status line") {
          if text.isEmpty {
            fail(value, "status text is empty (expected some text)")
          } else {
            expectations.append(.status(text))
          }
        }
      case "balance":
        if let balance = integer(
          value, name, range: -Wallet.balanceLimit...Wallet.balanceLimit,
          expected: "a number of credits (below 0 when owed)")
        {
          expectations.append(.balance(balance))
        }
      case "event":
        if let event = eventName(value) { expectations.append(.event(event)) }
      case "events":
        guard let sequence = value.sequence, !sequence.isEmpty else {
          let found = value.sequence == nil ? Self.describe(value) : "an empty list"
          fail(
            value,
            "events is \(found) (expected a list of event names in order, such as [purchased, delivered, finished])"
          )
          continue
        }
        let names = sequence.compactMap { eventName($0) }
        if names.count == sequence.count { expectations.append(.events(names)) }
      case "transaction":
        if let expected = transaction(value) { expectations.append(.transaction(expected)) }
      case "notification":
        if let type = notificationType(value) { expectations.append(.notification(type)) }
      default:
        break
      }
    }
    return problems.count == count ? expectations : nil
  }

  mutating func notificationType(_ node: Node) -> NotificationType? {
    let names = NotificationType.allCases.map(\.rawValue)
    guard let name = text(node, "notification", expected: "a notification type such as REFUND") else { return nil }
    guard let type = NotificationType(rawValue: name) else {
      fail(
        node,
        "unknown notification type '\(name)'\(Self.suggestion(name, names)) (expected one of \(names.joined(separator: ", ")))"
      )
      return nil
    }
    return type
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
    // `transaction: deferred` is short for `transaction: { state: deferred }` (docs/walkthroughs.md).
    if node.scalar != nil {
      var expected = TransactionExpectation()
      guard let state = transactionState(node) else { return nil }
      expected.state = state
      return expected
    }
    guard let fields = fields(node, of: "transaction", allowed: TransactionExpectation.fields) else { return nil }
    var expected = TransactionExpectation()
    let count = problems.count
    for (name, value) in fields {
      switch name {
      case "id":
        if let id = transactionID(value, "id") { expected.id = id }
      case "state":
        expected.state = transactionState(value)
      case "finished":
        expected.finished = flag(value, "finished")
      case "errorCode":
        if let text = text(value, "errorCode", expected: "an SKError code") {
          if let code = StoreError(argument: text) {
            expected.errorCode = code.code
          } else {
            fail(value, "unknown SKError code '\(text)' (expected one of \(StoreError.accepted))")
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

  mutating func transactionState(_ node: Node) -> TransactionState? {
    let states = TransactionState.allCases.map(\.description)
    guard let text = text(node, "state", expected: states.joined(separator: "|")) else { return nil }
    guard let state = TransactionState(name: text) else {
      let hint = Self.suggestion(text, states)
      fail(node, "unknown transaction state '\(text)'\(hint) (expected one of \(states.joined(separator: ", ")))")
      return nil
    }
    return state
  }

  // MARK: Conditions

  mutating func settings(_ node: Node, in context: String) -> [ConditionSetting] {
    let names = Condition.allCases.map(\.rawValue)
    guard let fields = fields(node, of: context, allowed: names, unknown: "condition") else { return [] }
    return fields.compactMap { name, value in
      guard let condition = Condition(rawValue: name), let text = text(value, name, expected: condition.values)
      else { return nil }
      return self.condition(condition, text, at: value)
    }
  }

  /// A condition checked as the store would check it, without a store: a storefront against the
  /// catalog's prices when the catalog is known.
  mutating func condition(_ condition: Condition, _ value: String, at node: Node) -> ConditionSetting? {
    var conditions = Conditions()
    do {
      try condition.set(value, in: &conditions)
    } catch {
      fail(node, error.message)
      return nil
    }
    if condition == .storefront, let catalog, let storefront = Storefront.named(value),
      !catalog.pricedStorefronts.contains(storefront)
    {
      let priced = catalog.pricedStorefronts.map(\.code).joined(separator: ", ")
      fail(
        node,
        "the catalog has no prices for storefront \(storefront.code) (expected a storefront it prices: \(priced))")
      return nil
    }
    return ConditionSetting(condition, value)
  }
}
