import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// The `expect:` checks: what each expected and what it found, in English and Japanese. The
/// transcript, `--json` and JUnit give the English; the player's band the language it plays in.
extension WalkthroughSession {
  func check(_ expectation: Expectation, on screen: TextGrid?) -> Check {
    switch expectation {
    case .screen(let text):
      let expected = Phrase("\"\(text)\" on the screen", "画面に「\(text)」")
      guard let screen else { return Check(expectation, passed: false, expected: expected, found: notRunning) }
      let found = screen.contains(text)
      return Check(
        expectation, passed: found, expected: expected,
        found: found ? Phrase("on the screen", "画面にあります") : Phrase("not on the screen", "画面にありません"))
    case .notScreen(let text):
      let expected = Phrase("no \"\(text)\" on the screen", "画面に「\(text)」がないこと")
      guard let screen else { return Check(expectation, passed: false, expected: expected, found: notRunning) }
      if let row = screen.lines.firstIndex(where: { $0.contains(text) }) {
        let line = screen.lines[row].trimmingCharacters(in: .whitespaces)
        return Check(
          expectation, passed: false, expected: expected,
          found: Phrase("on line \(row + 1): \(line)", "\(row + 1) 行目: \(line)"))
      }
      return Check(expectation, passed: true, expected: expected, found: Phrase("not on the screen", "画面にありません"))
    case .status(let text):
      let expected = Phrase("\"\(text)\" on the status line", "ステータス行に「\(text)」")
      guard let app else { return Check(expectation, passed: false, expected: expected, found: notRunning) }
      let line = app.model.statusText
      return Check(
        expectation, passed: line?.contains(text) == true, expected: expected,
        found: line.map { Phrase("the status line reads \"\($0)\"", "ステータス行は「\($0)」") }
          ?? Phrase("no status", "ステータスなし"))
    case .balance(let balance):
      let stored = storage.wallet.balance
      return Check(
        expectation, passed: stored == balance,
        expected: Phrase("\(balance) credits in the wallet", "ウォレットに \(balance) クレジット"),
        found: Phrase("\(stored) credits", "\(stored) クレジット"))
    case .event(let name):
      let names = windowNames
      return Check(
        expectation, passed: names.contains(name),
        expected: Phrase("\(name) logged \(window.en)", "\(window.ja)に \(name) が記録"),
        found: names.isEmpty ? Phrase("no events", "イベントなし") : Phrase(names.joined(separator: ", ")))
    case .events(let expected):
      let names = windowNames
      let missing = Self.firstMissing(expected, in: names)
      var found = names.isEmpty ? Phrase("no events", "イベントなし") : Phrase(names.joined(separator: ", "))
      if let missing {
        found =
          missing == 0
          ? found + Phrase(" (no \(expected[0]))", "（\(expected[0]) なし）")
          : found
            + Phrase(
              " (no \(expected[missing]) after \(expected[missing - 1]))",
              "（\(expected[missing - 1]) の後に \(expected[missing]) なし）")
      }
      let order = expected.joined(separator: " → ")
      return Check(
        expectation, passed: missing == nil,
        expected: Phrase("\(order) in this order \(window.en)", "\(window.ja)に \(order) の順"), found: found)
    case .transaction(let expected):
      return check(expected, expectation)
    case .notification(let type):
      let recorded = storage.notifications.map(\.notificationType.rawValue)
      return Check(
        expectation, passed: recorded.contains(type.rawValue),
        expected: Phrase(
          "an App Store Server Notification \(type.rawValue) recorded",
          "App Store Server Notification \(type.rawValue) の記録"),
        found: recorded.isEmpty
          ? Phrase("no notification recorded", "通知の記録なし")
          : Phrase("recorded: " + recorded.joined(separator: ", "), "記録: " + recorded.joined(separator: ", ")))
    }
  }

  /// Why a check about the app found nothing: it is not running.
  var notRunning: Phrase {
    switch appState {
    case .running: Phrase("")
    case .notLaunched: Phrase("the app is not running: add launch", "アプリが起動していません: launch を追加してください")
    case .crashed(let point):
      Phrase(
        "the app is down (crashed at \(point.rawValue)): add relaunch",
        "アプリは落ちています (\(point.rawValue) でクラッシュ): relaunch を追加してください")
    case .quit: Phrase("the app has quit: add relaunch", "アプリは終了しました: relaunch を追加してください")
    }
  }

  private var windowNames: [String] { log[eventWindow.from...].map(\.event.name) }

  private var window: Phrase {
    eventWindow.afterStep == 0
      ? Phrase("since the start", "開始から")
      : Phrase("since step \(eventWindow.afterStep)", "手順 \(eventWindow.afterStep) から")
  }

  /// The index of the first expected name not found in order, or nil when all are.
  static func firstMissing(_ expected: [String], in names: [String]) -> Int? {
    var position = names.startIndex
    for (index, name) in expected.enumerated() {
      guard let found = names[position...].firstIndex(of: name) else { return index }
      position = found + 1
    }
    return nil
  }

  private func check(_ expected: TransactionExpectation, _ expectation: Expectation) -> Check {
    let transactions = storage.store.transactions
    let transaction = expected.id == "last" ? transactions.last : transactions.first { $0.id == expected.id }
    guard let transaction else {
      let known = transactions.map { "#\($0.id)" }.joined(separator: ", ")
      let found =
        transactions.isEmpty
        ? Phrase("no transactions in the store", "ストアに取引はありません")
        : Phrase("no such transaction (the store has \(known))", "その取引はありません (ストアには \(known))")
      return Check(
        expectation, passed: false, expected: Phrase("transaction \(expected)", "取引 \(expected)"), found: found)
    }
    var wrong: [String] = []
    if let state = expected.state, state != transaction.state { wrong.append("state") }
    if let finished = expected.finished, finished != transaction.finished { wrong.append("finished") }
    if let code = expected.errorCode, code != transaction.failure?.code.code { wrong.append("errorCode") }
    if let quantity = expected.quantity, quantity != transaction.quantity { wrong.append("quantity") }
    if let product = expected.product, product != transaction.productIdentifier { wrong.append("product") }
    let what = "#\(transaction.id) \(transaction.productIdentifier) ×\(transaction.quantity) \(transaction.state)"
    var found =
      Phrase(what, what) + (transaction.finished ? Phrase(", finished", "、完了") : Phrase(", unfinished", "、未完了"))
    if let failure = transaction.failure { found = found + Phrase(", \(failure.code)") }
    if !wrong.isEmpty {
      let fields = wrong.joined(separator: ", ")
      found = found + Phrase(" (wrong \(fields))", "（\(fields) が違います）")
    }
    let name =
      expected.id == "last"
      ? Phrase("the last transaction (#\(transaction.id))", "最後の取引 (#\(transaction.id))")
      : Phrase("transaction #\(transaction.id)", "取引 #\(transaction.id)")
    var parts: [Phrase] = []
    if let state = expected.state { parts.append(Phrase("\(state)")) }
    if let finished = expected.finished {
      parts.append(finished ? Phrase("finished", "完了") : Phrase("unfinished", "未完了"))
    }
    if let code = expected.errorCode { parts.append(Phrase("errorCode \(code)")) }
    if let quantity = expected.quantity { parts.append(Phrase("×\(quantity)")) }
    if let product = expected.product { parts.append(Phrase(product)) }
    let listed = Phrase(parts.map(\.en).joined(separator: ", "), parts.map(\.ja).joined(separator: "、"))
    return Check(expectation, passed: wrong.isEmpty, expected: name + Phrase(" ") + listed, found: found)
  }
}

extension Phrase {
  /// The same text in both languages: names, numbers, code.
  init(_ text: String) { self.init(text, text) }

  static func + (left: Phrase, right: Phrase) -> Phrase { Phrase(left.en + right.en, left.ja + right.ja) }
}
