import MonkeyShopDomain

/// What a key does, in each part of the screen.
public enum ShopAction: String, Sendable, CaseIterable {
  case selectPrevious, selectNext, quantityUp, quantityDown
  case buySelected, buyFive, buyTen
  case toggleRestrictions, toggleNetwork, toggleAskToBuy, toggleInterrupted
  case openConditions, spend, openTransactions, switchStoreKit, requestProducts, restorePurchases, openHelp
  /// Hosted content (StoreKit 1): pause, resume or start again a failed or cancelled download;
  /// cancel it.
  case pauseDownload, cancelDownload
  case quit, quitNow, redraw, suspend
  case confirmPayment, cancelPayment
  case approve, decline, resolve, refund
  /// The transaction manager: a transaction's detail, and back to the list.
  case inspect
  case nextValue, previousValue
  case close
  case confirmQuit, keepRunning
  /// The question `l` asks mid-purchase: switch StoreKit now (the app restarts), or keep this one.
  case switchNow, keepStoreKit
  /// The event log on the storefront, the list in the transaction manager.
  case pageUp, pageDown, toTop, toBottom
}

/// The part of the screen that has the keys.
public enum KeyContext: String, Sendable, CaseIterable {
  case main, paymentSheet, transactions, conditions, help, confirmQuit, confirmSwitch
  /// Keys that act the same everywhere: quit at once, repaint, suspend.
  case global

  public var title: Phrase {
    switch self {
    case .global: Phrase("Everywhere", "どこでも")
    case .main: Phrase("Storefront", "ストア")
    case .paymentSheet: Phrase("Payment sheet", "支払いシート")
    case .transactions: Phrase("Transaction manager", "取引マネージャ")
    case .conditions: Phrase("Conditions panel", "条件パネル")
    case .help: Phrase("Help", "ヘルプ")
    case .confirmQuit: Phrase("Quit?", "終了?")
    case .confirmSwitch: Phrase("Switch StoreKit?", "StoreKit を切替?")
    }
  }
}

/// One row of the key map: the keys, the action, the words for help and the hint bar, and when it
/// can act. Help, the hint bar and key settling all read this one table.
public struct KeyBinding: Sendable {
  public let keys: [Key]
  public let action: ShopAction
  public let context: KeyContext
  /// Short label for the hint bar.
  public let hint: Phrase
  /// A sentence for the help overlay.
  public let help: Phrase
  /// Nil when the action can act now; otherwise why not, told to the user who presses it.
  public let whyNot: @Sendable (ShopModel) -> Reason?
  /// Shown in the hint bar (navigation keys are left to help).
  public let inHintBar: Bool
  /// The hint bar's label when the key does something else now than `hint` says (Enter on the
  /// payment sheet of a product owned already gets it again); nil, or none: `hint`.
  public let hintNow: (@Sendable (ShopModel) -> Phrase?)?

  init(
    _ keys: [Key], _ action: ShopAction, _ context: KeyContext, hint: Phrase, help: Phrase,
    inHintBar: Bool = true, hintNow: (@Sendable (ShopModel) -> Phrase?)? = nil,
    whyNot: @escaping @Sendable (ShopModel) -> Reason? = { _ in nil }
  ) {
    self.keys = keys
    self.action = action
    self.context = context
    self.hint = hint
    self.help = help
    self.inHintBar = inHintBar
    self.hintNow = hintNow
    self.whyNot = whyNot
  }

  /// The binding as the hint bar and an overlay's footer name it now: its hint is what the key does
  /// in this shop.
  func hinted(in model: ShopModel) -> KeyBinding {
    let now = hintNow?(model)
    // Almost always the binding as it is: no key taken (only the walkthrough player takes any),
    // no other words. A copy of it is made only when one of them changes.
    let takenHere = model.keysTaken[context]
    let taken = takenHere.map { taken in keys.contains { taken.contains($0) } } ?? false
    guard now != nil || taken else { return self }
    let left = taken ? keys.filter { takenHere?.contains($0) != true } : keys
    return KeyBinding(left, action, context, hint: now ?? hint, help: help, inHintBar: inHintBar, whyNot: whyNot)
  }

  /// Whether it acts while the screen is too small to show anything but the size it needs: quitting
  /// (and answering the quit question, which that screen shows), nothing else.
  public var actsOnATooSmallScreen: Bool {
    [.quit, .quitNow, .confirmQuit, .keepRunning].contains(action)
  }

  /// `↑/k`, `Enter/b`.
  public var keyLabel: String { keys.map(\.description).joined(separator: "/") }
}

public enum KeyMap {
  public static let bindings: [KeyBinding] = [
    // Storefront
    KeyBinding(
      [.character("5")], .buyFive, .main, hint: Phrase("buy-5", "5を購入"),
      help: Phrase("buy the 5-credit product", "5 クレジットの商品を購入"),
      whyNot: { $0.whyNotBuyable($0.product(granting: 5)) }),
    KeyBinding(
      [.character("0")], .buyTen, .main, hint: Phrase("buy-10", "10を購入"),
      help: Phrase("buy the 10-credit product", "10 クレジットの商品を購入"),
      whyNot: { $0.whyNotBuyable($0.product(granting: 10)) }),
    KeyBinding(
      [.tab], .openTransactions, .main, hint: Phrase("transactions", "取引"),
      help: Phrase("transaction manager", "取引マネージャ")),
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .main, hint: Phrase("select", "選択"),
      help: Phrase("previous / next product", "前・次の商品"),
      inHintBar: false, whyNot: { $0.selection > 0 ? nil : .firstProductSelected }),
    KeyBinding(
      [.down, .character("j")], .selectNext, .main, hint: Phrase("select", "選択"), help: Phrase("next product", "次の商品"),
      inHintBar: false,
      whyNot: {
        $0.selection + 1 < $0.catalog.products.count ? nil : .lastProductSelected
      }),
    KeyBinding(
      [.character("+"), .character("=")], .quantityUp, .main, hint: Phrase("qty+", "数量+"),
      help: Phrase("quantity +1 (up to 10)", "数量 +1 (最大 10)"),
      inHintBar: false,
      whyNot: {
        if $0.selectedProduct?.isNonConsumable == true { return .quantityOnlyForConsumables }
        return $0.quantity < AppStore.quantityLimit.upperBound ? nil : .quantityAtMost
      }),
    KeyBinding(
      [.character("-"), .character("−")], .quantityDown, .main, hint: Phrase("qty−", "数量−"),
      help: Phrase("quantity −1", "数量 −1"),
      inHintBar: false,
      whyNot: {
        $0.quantity > AppStore.quantityLimit.lowerBound
          ? nil : .quantityAtLeast
      }
    ),
    KeyBinding(
      [.character("r")], .toggleRestrictions, .main, hint: Phrase("restrict", "制限"),
      help: Phrase("restrictions on/off", "機能制限 オン/オフ")),
    KeyBinding(
      [.character("n")], .toggleNetwork, .main, hint: Phrase("network", "ネット"),
      help: Phrase("network up/down", "ネットワーク 接続/切断")),
    KeyBinding(
      [.character("a")], .toggleAskToBuy, .main, hint: Phrase("ask", "承認と購入"),
      help: Phrase("Ask to Buy on/off", "承認と購入 オン/オフ")),
    KeyBinding(
      [.character("i")], .toggleInterrupted, .main, hint: Phrase("interrupt", "中断"),
      help: Phrase("interrupted on/off", "購入の中断 オン/オフ")),
    KeyBinding(
      [.character("c")], .openConditions, .main, hint: Phrase("conditions", "条件"),
      help: Phrase("conditions panel", "条件パネル")),
    KeyBinding(
      [.enter, .character("b")], .buySelected, .main, hint: Phrase("buy", "購入"),
      help: Phrase("buy the selected product", "選択中の商品を購入"),
      whyNot: { $0.whyNotBuyable($0.selectedProduct) }),
    KeyBinding(
      [.character("o")], .restorePurchases, .main, hint: Phrase("restore", "復元"),
      help: Phrase("Restore Purchases", "購入を復元")),
    KeyBinding(
      [.character("p")], .pauseDownload, .main, hint: Phrase("pause/resume", "一時停止/再開"),
      help: Phrase("pause/resume/retry download", "DL: 一時停止/再開/再試行"),
      whyNot: { $0.downloadToPauseOrResume == nil && $0.downloadToStartAgain == nil ? .noDownload : nil }),
    KeyBinding(
      [.character("x")], .cancelDownload, .main, hint: Phrase("cancel dl", "DL取消"),
      help: Phrase("cancel the download", "ダウンロードをキャンセル"),
      whyNot: { $0.downloadToCancel == nil ? .noDownload : nil }),
    KeyBinding(
      [.character("s")], .spend, .main, hint: Phrase("spend", "使う"), help: Phrase("spend a credit", "1 クレジット使う"),
      whyNot: { $0.balance > 0 ? nil : $0.balance < 0 ? .creditsOwed(-$0.balance) : .nothingToSpend }),
    KeyBinding(
      [.character("l")], .switchStoreKit, .main, hint: Phrase("SK1/SK2", "SK1/SK2"),
      help: Phrase("switch StoreKit 1 / 2", "StoreKit 1 / 2 に切替")),
    KeyBinding(
      [.character("R")], .requestProducts, .main, hint: Phrase("reload", "再取得"),
      help: Phrase("request products again", "商品を再取得"),
      whyNot: {
        $0.canMakePayments ? nil : .noRequestWhileRestricted
      }),
    KeyBinding(
      [.character("q")], .quit, .main, hint: Phrase("quit", "終了"),
      help: Phrase("quit (asks if purchasing)", "終了 (購入中は確認)")),

    // Payment sheet
    KeyBinding(
      [.enter, .character("y")], .confirmPayment, .paymentSheet, hint: Phrase("buy", "購入"),
      help: Phrase("confirm the purchase", "購入を確定"),
      // The sheet of a product owned already gets it again, not charged again, as its button says.
      hintNow: { $0.paymentSheetGetsAgain ? Phrase("get again", "再入手") : nil }),
    KeyBinding(
      [.escape, .character("n")], .cancelPayment, .paymentSheet, hint: Phrase("cancel", "キャンセル"),
      help: Phrase("cancel (paymentCancelled)", "キャンセル (paymentCancelled)")),
    // The sheet is a purchase in flight: q asks first, as help's storefront line says, and n comes
    // back to the sheet. Not in the footer, whose room is the sheet's answers'.
    KeyBinding(
      [.character("q")], .quit, .paymentSheet, hint: Phrase("quit", "終了"),
      help: Phrase("quit (asks first)", "終了 (確認あり)"), inHintBar: false),

    // Transaction manager
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .transactions, hint: Phrase("select", "選択"),
      help: Phrase("previous / next transaction", "前・次の取引"),
      inHintBar: false),
    KeyBinding(
      [.down, .character("j")], .selectNext, .transactions, hint: Phrase("select", "選択"),
      help: Phrase("next transaction", "次の取引"),
      inHintBar: false),
    KeyBinding(
      [.character("a")], .approve, .transactions, hint: Phrase("approve", "承認"),
      help: Phrase("approve / decline Ask to Buy", "承認と購入を承認・拒否"),
      whyNot: { $0.whyNotAnswer(.onlyDeferredCanBeApproved) }),
    KeyBinding(
      [.character("d")], .decline, .transactions, hint: Phrase("decline", "拒否"),
      help: Phrase("decline Ask to Buy", "承認と購入を拒否"),
      whyNot: { $0.whyNotAnswer(.onlyDeferredCanBeDeclined) }),
    KeyBinding(
      [.character("v")], .resolve, .transactions, hint: Phrase("resolve", "解決"),
      help: Phrase("resolve an interruption", "中断を解決"),
      whyNot: {
        $0.selectedTransaction?.hasPurchaseIssue == true ? nil : .onlyInterruptedCanBeResolved
      }),
    KeyBinding(
      [.character("f")], .refund, .transactions, hint: Phrase("refund", "返金"),
      help: Phrase("refund (as in Xcode)", "返金 (Xcode と同じ)"),
      whyNot: {
        $0.selectedTransaction?.isRefundable == true ? nil : .onlyPurchasedCanBeRefunded
      }),
    KeyBinding(
      [.enter, .character("i")], .inspect, .transactions, hint: Phrase("detail/list", "詳細/一覧"),
      help: Phrase("detail: JWS, verification", "詳細: JWS・検証"),
      whyNot: { $0.selectedTransaction == nil ? .noTransactionSelected : nil }),
    KeyBinding(
      [.escape, .tab, .character("q")], .close, .transactions, hint: Phrase("close", "閉じる"),
      help: Phrase("close / back to the list", "閉じる・一覧へ戻る")),

    // Conditions panel
    // The panel is short: its footer shows ↑↓ too, as one "↑↓ select".
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .conditions, hint: Phrase("select", "選択"),
      help: Phrase("previous / next condition", "前・次の条件"),
      whyNot: { $0.conditionSelection == 0 ? .firstConditionSelected : nil }),
    KeyBinding(
      [.down, .character("j")], .selectNext, .conditions, hint: Phrase("select", "選択"),
      help: Phrase("next condition", "次の条件"),
      whyNot: { $0.conditionSelection == Condition.allCases.count - 1 ? .lastConditionSelected : nil }),
    // Each condition's values in a ring: → the next, ← the one before (from the last back to the first).
    KeyBinding(
      [.right, .enter], .nextValue, .conditions, hint: Phrase("next", "次の値"),
      help: Phrase("next value", "次の値")),
    KeyBinding(
      [.left], .previousValue, .conditions, hint: Phrase("previous", "前の値"),
      help: Phrase("previous value", "前の値")),
    KeyBinding(
      [.escape, .character("c"), .character("q")], .close, .conditions, hint: Phrase("close", "閉じる"),
      help: Phrase("close", "閉じる")),

    // Help
    KeyBinding(
      [.escape, .character("?"), .character("q")], .close, .help,
      hint: Phrase("close (or any key)", "閉じる (どのキーでも)"),
      help: Phrase("close help", "ヘルプを閉じる")),

    // Quit confirmation. Only y answers yes: Enter buys and confirms the payment sheet, and one
    // pressed out of habit must not quit mid-purchase (it is told that only y and n act here).
    KeyBinding(
      [.character("y")], .confirmQuit, .confirmQuit, hint: Phrase("quit", "終了"),
      help: Phrase("quit now", "終了する")),
    KeyBinding(
      [.character("n"), .escape], .keepRunning, .confirmQuit, hint: Phrase("stay", "続ける"),
      help: Phrase("keep shopping", "買い物を続ける")),

    // Switch confirmation: only y restarts the app, as only y quits.
    KeyBinding(
      [.character("y")], .switchNow, .confirmSwitch, hint: Phrase("switch", "切替"),
      help: Phrase("switch now (the app restarts)", "切り替える (アプリは再起動)")),
    KeyBinding(
      [.character("n"), .escape], .keepStoreKit, .confirmSwitch, hint: Phrase("stay", "そのまま"),
      help: Phrase("keep this StoreKit", "今の StoreKit のまま")),

    // Everywhere: paging acts on what is in view, the event log on the storefront (older events
    // up), the transaction manager's list (older transactions down) and a transaction's detail.
    KeyBinding(
      [.pageUp], .pageUp, .global, hint: Phrase("page up", "前ページ"),
      help: Phrase("page up: log, list, detail", "ログ・一覧・詳細: 前ページ"), inHintBar: false,
      whyNot: { $0.whyNotPage(logAt: .logAtStart, logMoves: $0.logScroll < $0.logScrollLimit) }),
    KeyBinding(
      [.pageDown], .pageDown, .global, hint: Phrase("page down", "次ページ"),
      help: Phrase("page down: log, list, detail", "ログ・一覧・詳細: 次ページ"), inHintBar: false,
      whyNot: { $0.whyNotPage(logAt: .logAtEnd, logMoves: $0.logScroll > 0) }),
    KeyBinding(
      [.home], .toTop, .global, hint: Phrase("top", "先頭"),
      help: Phrase("top: log, list, detail", "ログ・一覧・詳細: 先頭へ"), inHintBar: false,
      whyNot: { $0.whyNotPage(logAt: .logAtStart, logMoves: $0.logScroll < $0.logScrollLimit) }),
    KeyBinding(
      [.end], .toBottom, .global, hint: Phrase("bottom", "末尾"),
      help: Phrase("bottom: log, list, detail", "ログ・一覧・詳細: 末尾へ"), inHintBar: false,
      whyNot: { $0.whyNotPage(logAt: .logAtEnd, logMoves: $0.logScroll > 0) }),
    // Help from anywhere, closing back to where it was opened.
    KeyBinding(
      [.character("?")], .openHelp, .global, hint: Phrase("help", "ヘルプ"),
      help: Phrase("this help, from anywhere", "このヘルプ (どこからでも)")),
    KeyBinding(
      [.ctrlC], .quitNow, .global, hint: Phrase("quit now", "即終了"), help: Phrase("quit at once", "すぐ終了"),
      inHintBar: false),
    KeyBinding(
      [.ctrlL], .redraw, .global, hint: Phrase("redraw", "再描画"), help: Phrase("redraw the screen", "画面を再描画"),
      inHintBar: false),
    KeyBinding(
      [.ctrlZ], .suspend, .global, hint: Phrase("suspend", "一時停止"),
      help: Phrase("suspend (fg resumes)", "一時停止 (fg で再開)"), inHintBar: false),
  ]

  /// The binding of a key: the one of this part of the screen, else the global one.
  public static func binding(for key: Key, in context: KeyContext) -> KeyBinding? {
    bindings.first { $0.context == context && $0.keys.contains(key) }
      ?? bindings.first { $0.context == .global && $0.keys.contains(key) }
  }

  public static func bindings(in context: KeyContext) -> [KeyBinding] {
    byContext[context] ?? []
  }

  /// The table's bindings by part of the screen, each in the table's order: sorted out once, not
  /// every time the hint bar is drawn.
  private static let byContext = Dictionary(grouping: bindings, by: \.context)

  /// Help's lines for a part of the screen: each binding with its keys, a "next" sharing the line
  /// of the "previous" before it and a "decline" the line of the "approve" (whose words name both),
  /// so help fits 80×24. Keys `taken` by
  /// another part of the screen are left out, and a binding left with none.
  /// Actions help lists on the line of the action before them: the second of a pair, the first.
  private static let pairedAfter: [ShopAction: ShopAction] = [.selectNext: .selectPrevious, .decline: .approve]

  public static func helpLines(in context: KeyContext, without taken: Set<Key> = []) -> [(keys: String, help: Phrase)] {
    var lines: [(keys: String, help: Phrase)] = []
    var previous: KeyBinding?
    let bindings = bindings(in: context).map {
      KeyBinding($0.keys.filter { !taken.contains($0) }, $0.action, $0.context, hint: $0.hint, help: $0.help)
    }
    for binding in bindings where !binding.keys.isEmpty {
      if let first = pairedAfter[binding.action], previous?.action == first, let last = lines.popLast() {
        lines.append((last.keys + " " + binding.keyLabel, last.help))
      } else {
        lines.append((binding.keyLabel, binding.help))
      }
      previous = binding
    }
    return lines
  }
}
