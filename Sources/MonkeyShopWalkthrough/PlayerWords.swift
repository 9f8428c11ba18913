import Foundation
import MonkeyShopApp
import MonkeyShopDomain

/// Every string of the walkthrough player's band, in English and Japanese, in one place (as `Words`
/// is for the storefront). What the walkthrough file says (its name, `say:` lines, texts, event and
/// state names, the details of a failed check) is shown as written.
struct PlayerWords: Sendable {
  let language: Language
  /// The player's key table the texts take their key names from.
  let keyTable: [PlayerKeyBinding]

  init(_ language: Language, keyTable: [PlayerKeyBinding] = PlayerKeys.bindings) {
    self.language = language
    self.keyTable = keyTable
  }

  private func say(_ en: String, _ ja: String) -> String { language == .ja ? ja : en }

  /// The name of the key that does `action` in `context`, as the band names it: its first key.
  func key(_ action: PlayerAction, in context: PlayerKeyContext = .stepping) -> String {
    keyTable.first { $0.action == action && $0.context == context }?.keys.first.map(PlayerKeyBinding.name(of:)) ?? ""
  }

  /// Every key that does `action` in `context`: `Space/Enter`.
  func keys(_ action: PlayerAction, in context: PlayerKeyContext = .stepping) -> [String] {
    keyTable.first { $0.action == action && $0.context == context }?.keys.map(PlayerKeyBinding.name(of:)) ?? []
  }

  /// Why `p` does nothing when the walkthrough is played without `--auto`.
  var noAutoToPause: String {
    let next = keys(.next).joined(separator: "/")
    return say(
      "\(key(.pauseAuto)) pauses --auto; played without it, a step comes only on \(next)",
      "\(key(.pauseAuto)) は --auto の一時停止です。--auto なしでは手順は \(next) でだけ進みます")
  }

  // MARK: The band's frame

  func title(_ name: String) -> String { say("Walkthrough: \(name)", "ウォークスルー: \(name)") }
  func progress(done: Int, of total: Int) -> String { say("step \(done)/\(total)", "手順 \(done)/\(total)") }

  // MARK: Keys

  var skipWait: String { say("skip the wait", "待ちを飛ばす") }
  var freePlayQuit: String {
    let keys = keys(.storefrontQuit, in: .freePlay)
    return say(keys.joined(separator: " or ") + " quit", keys.joined(separator: " または ") + " で終了")
  }
  func upNext(_ step: String) -> String { say("next: \(step)", "次: \(step)") }
  var narration: String { say("narration", "ナレーション") }

  var helpTitle: String { say("Walkthrough player: keys", "ウォークスルー再生: キー") }
  var moreBelow: String { say("\(key(.scrollDown)) more", "\(key(.scrollDown)) 続きあり") }
  var moreAbove: String { say("\(key(.scrollUp)) more", "\(key(.scrollUp)) 上にもあり") }
  func goToPrompt(_ typed: String, of total: Int) -> String {
    say("go to step (0–\(total)): \(typed)▏", "移動先の手順 (0–\(total)): \(typed)▏")
  }
  /// Enter or Space in free play: the walkthrough is over; `instead` is the storefront's other key
  /// for what the key would do there (`b buy`).
  /// A storefront key pressed while the walkthrough plays (Esc where the next step presses Esc):
  /// the steps press the storefront's keys, and the player's keys only step, go back or quit.
  func stepsPressKeys(key pressed: String) -> String {
    let next = keys(.next).joined(separator: "/")
    return say(
      "\(pressed): the walkthrough's steps press the storefront's keys — \(next) takes the next step, \(key(.quit)) quits",
      "\(pressed): ストアフロントのキーはウォークスルーの手順が押します — \(next) で次の手順、\(key(.quit)) で終了")
  }

  /// At the failure band: no step comes any more, by a key or by itself; going back, starting
  /// again act (and quitting, which the keys line shows). Short enough for 80 columns after the
  /// key's name.
  var stoppedAtFailure: String {
    say(
      "the walkthrough stopped at a failed step — \(key(.back)) goes back, \(key(.restart)) restarts",
      "失敗した手順で止まっています — \(key(.back)) で戻る、\(key(.restart)) で最初から")
  }

  func overNotice(key: String, instead: String?) -> String {
    let rest = instead.map { say(" — in the storefront, \($0)", "。ストアフロントでは \($0)") } ?? ""
    return say("The walkthrough is over: \(key) steps no more", "ウォークスルーは終わりました: \(key) ではもう進みません") + rest
  }
  func smallerThanNeeded(has: ScreenSize, needs: ScreenSize) -> String {
    say(
      "Terminal \(has), smaller than the \(needs) this needs: tall panels scroll (\(key(.scrollDown)))",
      "端末 \(has) は必要な \(needs) より小さいため、長いパネルはスクロールします (\(key(.scrollDown)))")
  }

  // MARK: Timing

  func waiting(_ step: String, left: TimeInterval) -> String {
    say("\(step) — \(Self.seconds(left)) left", "\(step) — 残り \(Self.seconds(left))")
  }
  func autoNext(in seconds: TimeInterval) -> String {
    say(
      "auto \(Self.seconds(seconds)) (\(key(.pauseAuto)) pause)", "自動 \(Self.seconds(seconds))（\(key(.pauseAuto)) 一時停止）"
    )
  }
  var autoPaused: String { say("auto paused (\(key(.pauseAuto)) resume)", "自動停止中（\(key(.pauseAuto)) 再開）") }

  /// `1.4s`: tenths, as a countdown reads.
  static func seconds(_ seconds: TimeInterval) -> String {
    String(format: "%.1fs", max(0, seconds))
  }

  // MARK: Outcomes

  func done(_ step: String) -> String { say("\(step): done", "\(step): 完了") }
  func failed(_ failure: String) -> String {
    say("✗ \(failure) — the walkthrough stops here", "✗ \(failure) — ウォークスルーはここで止まります")
  }
  func setupFailed(_ error: String) -> String { say("setup: \(error)", "準備: \(error)") }
  func backTo(_ done: Int, of total: Int) -> String {
    say("Replayed to step \(done)/\(total) in virtual time", "仮想時間で手順 \(done)/\(total) まで再実行しました")
  }
  var restarted: String { say("From the beginning", "最初から") }
  var over: String {
    say("The walkthrough is over: every step held.", "ウォークスルーは終わりました（すべての手順が成功）。")
  }
  var freePlay: String {
    say("Free play: the storefront takes its own keys.", "自由操作: ストアフロントのキーが使えます。")
  }

  // MARK: The app's state

  var notRunning: [String] {
    [say("The app is not running yet.", "アプリはまだ起動していません。"), say("\(key(.next)): next step", "\(key(.next)): 次の手順")]
  }
  func crashed(_ point: String) -> [String] {
    [
      say("The app crashed (\(point)).", "アプリがクラッシュしました（\(point)）。"),
      say("It is down until the walkthrough relaunches it.", "ウォークスルーが再起動するまで停止しています。"),
    ]
  }
  var appQuit: [String] { [say("The app has quit.", "アプリは終了しました。")] }

  // MARK: Steps

  /// A step as the band names it: its kind in the band's language, its values as written.
  func step(_ step: WalkthroughStep) -> String {
    switch step.action {
    case .launch(let waits):
      say("launch", "起動") + (waits ? "" : say(" (not waiting for products)", "（商品を待たない）"))
    case .relaunch(let waits):
      say("relaunch", "再起動") + (waits ? "" : say(" (not waiting for products)", "（商品を待たない）"))
    case .press(let keys): say("press ", "キー ") + keys.map(WalkthroughStep.name(of:)).joined(separator: " ")
    case .wait(let seconds): say("wait ", "待つ ") + WalkthroughStep.duration(seconds)
    case .set(let settings): say("set ", "条件 ") + settings.map(\.description).joined(separator: ", ")
    case .store(let operation, let transaction, let reason):
      say("store", "ストア") + " \(operation.rawValue) \(transaction)" + (reason.map { " \($0)" } ?? "")
    case .crash(let point): say("crash ", "クラッシュ ") + point.rawValue
    case .expect(let expectations): say("expect ", "確認 ") + expectations.map(expectation).joined(separator: ", ")
    case .snapshot(let title): say("snapshot", "スナップショット") + (title.map { " \"\($0)\"" } ?? "")
    case .say: narration
    case .appAccountToken(let token):
      say("appAccountToken ", "アカウントトークン ") + (token?.uuidString.lowercased() ?? say("none", "なし"))
    }
  }

  func expectation(_ expectation: Expectation) -> String {
    switch expectation {
    case .screen(let text): say("screen \"\(text)\"", "画面に「\(text)」")
    case .notScreen(let text): say("notScreen \"\(text)\"", "画面にない「\(text)」")
    case .status(let text): say("status \"\(text)\"", "ステータス行に「\(text)」")
    case .balance(let balance): say("balance \(balance)", "残高 \(balance)")
    case .notification(let type): say("notification \(type.rawValue)", "サーバー通知 \(type.rawValue)")
    case .event(let name): say("event \(name)", "イベント \(name)")
    case .events(let names): say("events", "イベント順") + " [\(names.joined(separator: ", "))]"
    case .transaction(let expected): say("transaction \(expected)", "取引 \(expected)")
    }
  }
}

extension PlayerWords {
  /// Where and why a step failed; the details of a check (what was expected, what was found) as
  /// the checker wrote them.
  func failure(_ record: StepRecord) -> String {
    let place = say(
      "step \(record.number) (line \(record.step.line))", "手順 \(record.number)（\(record.step.line) 行目）")
    if let failure = record.failure { return "\(place): \(step(record.step)): \(failure)" }
    let checks = record.checks.filter { !$0.passed }.map { check in
      say("expect ", "確認 ") + expectation(check.expectation) + ": "
        + say(
          "expected \(check.expected), found \(check.found)",
          "期待 \(check.expectedPhrase.ja)、実際 \(check.foundPhrase.ja)")
    }
    return "\(place): " + checks.joined(separator: "; ")
  }
}
