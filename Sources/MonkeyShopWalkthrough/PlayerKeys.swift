import MonkeyShopApp
import MonkeyShopDomain

/// What a key does in the player.
enum PlayerAction: Equatable, Sendable {
  /// The next step, or the end of the wait in progress.
  case next
  /// Back to the state before the last step performed.
  case back
  case restart
  /// Starts typing the number of a step to go to.
  case goTo
  case pauseAuto
  case openHelp
  case quit
  /// An overlay taller than the rows above the band: its hidden rows.
  case scrollDown, scrollUp
  /// Typing a step's number.
  case digit, confirmEntry, deleteDigit, cancelEntry
  /// In free play, the step keys: the walkthrough is over, they step no more.
  case walkthroughOver
  /// In free play the storefront's own quit: listed, not acted on by the player.
  case storefrontQuit
}

/// The part of the player that has the keys.
enum PlayerKeyContext: Equatable, Sendable, CaseIterable {
  case stepping, entry, freePlay, help

  var title: Phrase {
    let goTo = PlayerWords(.en).key(.goTo)
    return switch self {
    case .stepping: Phrase("Playing the walkthrough", "ウォークスルーの再生")
    case .entry: Phrase("Going to a step (\(goTo))", "手順へ移動 (\(goTo))")
    case .freePlay: Phrase("Free play, after the last step", "自由操作（最後の手順の後）")
    case .help: Phrase("This help", "このヘルプ")
    }
  }
}

/// One row of the player's key table: the keys, the action, the words for the band's keys line
/// and for help, and when it can act: the storefront's `KeyBinding`, for the player.
struct PlayerKeyBinding: Sendable {
  let keys: [Key]
  let action: PlayerAction
  let context: PlayerKeyContext
  let hint: Phrase
  let help: Phrase
  let inHintBar: Bool
  /// Nil when the action can act now; otherwise why not, told in the band.
  let whyNot: @Sendable (PlayerModel) -> Phrase?

  init(
    _ keys: [Key], _ action: PlayerAction, _ context: PlayerKeyContext, hint: Phrase, help: Phrase,
    inHintBar: Bool = true,
    whyNot: @escaping @Sendable (PlayerModel) -> Phrase? = { _ in nil }
  ) {
    self.keys = keys
    self.action = action
    self.context = context
    self.hint = hint
    self.help = help
    self.inHintBar = inHintBar
    self.whyNot = whyNot
  }

  /// `b/⌫/←`: each key as the band names it.
  var keyLabel: String { keys == PlayerKeys.digits ? "0–9" : keys.map(Self.name(of:)).joined(separator: "/") }

  /// A key as the band names it: Backspace is `⌫`, for room.
  static func name(of key: Key) -> String { key == .backspace ? "⌫" : key.description }
}

enum PlayerKeys {
  static let digits: [Key] = (0...9).map { .character(Character("\($0)")) }

  static let bindings: [PlayerKeyBinding] = [
    // Playing
    PlayerKeyBinding(
      [.character(" "), .enter], .next, .stepping, hint: Phrase("next", "次へ"),
      help: Phrase("next step / skip a wait", "次の手順・待ちを飛ばす"),
      whyNot: { $0.isStopped ? stoppedAtFailure : nil }),
    PlayerKeyBinding(
      [.character("b"), .backspace, .left], .back, .stepping, hint: Phrase("back", "戻る"),
      help: Phrase("back a step (replayed)", "1 手順戻る（再実行）")),
    PlayerKeyBinding(
      [.character("r")], .restart, .stepping, hint: Phrase("restart", "最初から"),
      help: Phrase("start again", "最初から")),
    PlayerKeyBinding(
      [.character("g")], .goTo, .stepping, hint: Phrase("go to step", "手順へ移動"),
      help: Phrase("go to a step by number", "番号で手順へ移動"), inHintBar: false),
    PlayerKeyBinding(
      [.character("p")], .pauseAuto, .stepping, hint: Phrase("pause", "一時停止"),
      help: Phrase("pause/resume --auto", "--auto の一時停止/再開"),
      whyNot: { model in
        // Stopped at a failure, nothing comes by itself to pause: the band's own keys say so.
        if model.isStopped { return stoppedAtFailure }
        return model.autoAdvance == nil ? Phrase(PlayerWords(.en).noAutoToPause, PlayerWords(.ja).noAutoToPause) : nil
      }),
    PlayerKeyBinding(
      [.down, .pageDown], .scrollDown, .stepping, hint: Phrase("more", "続き"),
      help: Phrase("panel or narration below", "長い表示の下の行"),
      whyNot: { $0.overlayRowsBelow + $0.narrationRowsBelow > 0 ? nil : Phrase("nothing below", "下には何もありません") }),
    PlayerKeyBinding(
      [.up, .pageUp], .scrollUp, .stepping, hint: Phrase("back up", "上へ"),
      help: Phrase("panel or narration above", "長い表示の上の行"),
      whyNot: { $0.overlayScroll + $0.narrationScroll > 0 ? nil : Phrase("nothing above", "上には何もありません") }),
    PlayerKeyBinding(
      [.character("?")], .openHelp, .stepping, hint: Phrase("keys", "キー一覧"), help: Phrase("this help", "このヘルプ")),
    PlayerKeyBinding(
      // Not Esc: a step's own panels close with Esc ("next: press Esc"), and a trainer pressing it
      // would lose the session.
      [.character("q")], .quit, .stepping, hint: Phrase("quit", "終了"), help: Phrase("quit", "終了")),

    // Typing a step's number
    PlayerKeyBinding(
      digits, .digit, .entry, hint: Phrase("step", "手順"), help: Phrase("the step's number", "手順の番号"),
      inHintBar: false),
    PlayerKeyBinding(
      [.enter], .confirmEntry, .entry, hint: Phrase("go", "移動"),
      help: Phrase("go there (replayed)", "移動（再実行）"),
      whyNot: { model in
        guard model.entryTarget == nil else { return nil }
        let total = model.walkthrough.steps.count
        guard let typed = model.entry, !typed.isEmpty else {
          return Phrase("type a step's number first", "先に手順の番号を入力してください")
        }
        return Phrase("no step \(typed): the steps are 0–\(total)", "手順 \(typed) はありません（0–\(total)）")
      }),
    PlayerKeyBinding(
      [.backspace], .deleteDigit, .entry, hint: Phrase("delete", "削除"), help: Phrase("delete a digit", "1 桁削除"),
      inHintBar: false),
    PlayerKeyBinding(
      [.escape, .character("q")], .cancelEntry, .entry, hint: Phrase("cancel", "キャンセル"),
      help: Phrase("stay on this step", "この手順のまま")),

    // Free play
    PlayerKeyBinding(
      [.backspace], .back, .freePlay, hint: Phrase("back to the walkthrough", "ウォークスルーに戻る"),
      help: Phrase("back into the walkthrough", "ウォークスルーに戻る")),
    PlayerKeyBinding(
      [.character(" "), .enter], .walkthroughOver, .freePlay, hint: Phrase("", ""),
      help: Phrase("step no more: it is over", "手順はもうありません"), inHintBar: false,
      whyNot: { $0.scene.shop.map { stepKeysOverIn.contains($0.keyContext) } == false ? Phrase("", "") : nil }),
    PlayerKeyBinding(
      [.pageDown], .scrollDown, .freePlay, hint: Phrase("more", "続き"),
      help: Phrase("a tall panel: rows below", "長いパネルの下の行"), inHintBar: false,
      whyNot: { $0.overlayRowsBelow > 0 ? nil : Phrase("", "") }),
    PlayerKeyBinding(
      [.pageUp], .scrollUp, .freePlay, hint: Phrase("back up", "上へ"),
      help: Phrase("a tall panel: rows above", "長いパネルの上の行"), inHintBar: false,
      whyNot: { $0.overlayScroll > 0 ? nil : Phrase("", "") }),
    PlayerKeyBinding(
      [.character("q"), .ctrlC], .storefrontQuit, .freePlay, hint: Phrase("quit", "で終了"),
      help: Phrase("the storefront's quit", "ストアフロントの終了")),

    // Help: any key closes it.
    PlayerKeyBinding(
      [.character("?"), .escape, .character("q")], .openHelp, .help, hint: Phrase("close (or any key)", "閉じる (どのキーでも)"),
      help: Phrase("close help", "ヘルプを閉じる")),
  ]

  /// Why a step key, `p` or a storefront key does nothing at the failure band, and what does act
  /// there.
  static var stoppedAtFailure: Phrase { Phrase(PlayerWords(.en).stoppedAtFailure, PlayerWords(.ja).stoppedAtFailure) }

  /// Where in the storefront the step keys say the walkthrough is over in free play: where Enter
  /// would buy or confirm a payment (its main screen, the payment sheet). In its other panels the
  /// storefront's own Enter acts.
  static let stepKeysOverIn: Set<KeyContext> = [.main, .paymentSheet]

  static func bindings(in context: PlayerKeyContext) -> [PlayerKeyBinding] {
    bindings.filter { $0.context == context }
  }

  static func binding(for key: Key, in context: PlayerKeyContext) -> PlayerKeyBinding? {
    bindings.first { $0.context == context && $0.keys.contains(key) }
  }
}

extension PlayerModel {
  /// The part of the player that has the keys now.
  var keyContext: PlayerKeyContext {
    if helpOpen { return .help }
    if entry != nil { return .entry }
    return isFreePlay ? .freePlay : .stepping
  }

  /// The bindings that can act now, for the band's keys line: below the minimum size only quitting.
  var activeBindings: [PlayerKeyBinding] {
    PlayerKeys.bindings(in: keyContext).filter {
      $0.inHintBar && $0.whyNot(self) == nil && (!isScreenTooSmall || [.quit, .storefrontQuit].contains($0.action))
    }
  }

  /// The step typed after `g`, when it is one the walkthrough has (0: the start).
  var entryTarget: Int? {
    guard let entry, let number = Int(entry), (0...walkthrough.steps.count).contains(number) else { return nil }
    return number
  }
}
