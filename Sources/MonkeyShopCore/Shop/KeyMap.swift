/// What a key does, in each part of the screen.
public enum ShopAction: String, Sendable, CaseIterable {
  case selectPrevious, selectNext, quantityUp, quantityDown
  case buySelected, buyFive, buyTen
  case toggleRestrictions, toggleNetwork, toggleAskToBuy, toggleInterrupted
  case openConditions, spend, openTransactions, toggleVocabulary, requestProducts, openHelp
  case quit, quitNow
  case confirmPayment, cancelPayment
  case approve, decline, resolve
  case nextValue, previousValue
  case close
  case confirmQuit, keepRunning
}

/// The part of the screen that has the keys.
public enum KeyContext: String, Sendable, CaseIterable {
  case main, paymentSheet, transactions, conditions, help, confirmQuit

  public var title: String {
    switch self {
    case .main: "Storefront"
    case .paymentSheet: "Payment sheet"
    case .transactions: "Transaction manager"
    case .conditions: "Conditions panel"
    case .help: "Help"
    case .confirmQuit: "Quit?"
    }
  }
}

/// One row of the key map: the keys, the action, the words for help and the hint bar, and when it
/// can act. Help, the hint bar and key handling all read this one table.
public struct KeyBinding: Sendable {
  public let keys: [Key]
  public let action: ShopAction
  public let context: KeyContext
  /// Short label for the hint bar.
  public let hint: String
  /// A sentence for the help overlay.
  public let help: String
  /// Nil when the action can act now; otherwise why not, told to the user who presses it.
  public let whyNot: @Sendable (ShopModel) -> String?
  /// Shown in the hint bar (navigation keys are left to help).
  public let inHintBar: Bool

  init(
    _ keys: [Key], _ action: ShopAction, _ context: KeyContext, hint: String, help: String,
    inHintBar: Bool = true, whyNot: @escaping @Sendable (ShopModel) -> String? = { _ in nil }
  ) {
    self.keys = keys
    self.action = action
    self.context = context
    self.hint = hint
    self.help = help
    self.inHintBar = inHintBar
    self.whyNot = whyNot
  }

  /// `↑/k`, `Enter/b`.
  public var keyLabel: String { keys.map(\.description).joined(separator: "/") }
}

public enum KeyMap {
  public static let bindings: [KeyBinding] = [
    // Storefront
    KeyBinding(
      [.character("5")], .buyFive, .main, hint: "buy-5", help: "buy the 5-credit product",
      whyNot: { $0.whyNotBuyable($0.product(granting: 5)) }),
    KeyBinding(
      [.character("0")], .buyTen, .main, hint: "buy-10", help: "buy the 10-credit product",
      whyNot: { $0.whyNotBuyable($0.product(granting: 10)) }),
    KeyBinding([.tab], .openTransactions, .main, hint: "transactions", help: "transaction manager"),
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .main, hint: "select", help: "previous product",
      inHintBar: false, whyNot: { $0.selection > 0 ? nil : "the first product is selected" }),
    KeyBinding(
      [.down, .character("j")], .selectNext, .main, hint: "select", help: "next product",
      inHintBar: false,
      whyNot: { $0.selection + 1 < $0.catalog.products.count ? nil : "the last product is selected" }),
    KeyBinding(
      [.character("+"), .character("=")], .quantityUp, .main, hint: "qty+", help: "quantity +1 (up to 10)",
      inHintBar: false, whyNot: { $0.quantity < 10 ? nil : "a payment buys at most 10" }),
    KeyBinding(
      [.character("-"), .character("−")], .quantityDown, .main, hint: "qty−", help: "quantity −1",
      inHintBar: false, whyNot: { $0.quantity > 1 ? nil : "a payment buys at least 1" }),
    KeyBinding(
      [.character("r")], .toggleRestrictions, .main, hint: "restrict",
      help: "restrictions on/off"),
    KeyBinding([.character("n")], .toggleNetwork, .main, hint: "network", help: "network up/down"),
    KeyBinding([.character("a")], .toggleAskToBuy, .main, hint: "ask", help: "Ask to Buy on/off"),
    KeyBinding(
      [.character("i")], .toggleInterrupted, .main, hint: "interrupt", help: "interrupted on/off"),
    KeyBinding(
      [.character("c")], .openConditions, .main, hint: "conditions",
      help: "conditions panel"),
    KeyBinding(
      [.enter, .character("b")], .buySelected, .main, hint: "buy", help: "buy the selected product",
      whyNot: { $0.whyNotBuyable($0.selectedProduct) }),
    KeyBinding(
      [.character("s")], .spend, .main, hint: "spend", help: "spend a credit",
      whyNot: { $0.balance > 0 ? nil : "no monkey credits to spend" }),
    KeyBinding(
      [.character("l")], .toggleVocabulary, .main, hint: "SK1/SK2",
      help: "log in SK1 / SK2 names"),
    KeyBinding(
      [.character("R")], .requestProducts, .main, hint: "reload", help: "request products again",
      whyNot: { $0.canMakePayments ? nil : "purchases are restricted: no product request is made" }),
    KeyBinding([.character("?")], .openHelp, .main, hint: "help", help: "this help"),
    KeyBinding(
      [.character("q")], .quit, .main, hint: "quit", help: "quit (asks if purchasing)"),
    KeyBinding([.ctrlC], .quitNow, .main, hint: "quit now", help: "quit at once", inHintBar: false),

    // Payment sheet
    KeyBinding([.enter, .character("y")], .confirmPayment, .paymentSheet, hint: "buy", help: "confirm the purchase"),
    KeyBinding(
      [.escape, .character("n")], .cancelPayment, .paymentSheet, hint: "cancel", help: "cancel (paymentCancelled)"),
    KeyBinding(
      [.character("+"), .character("="), .right], .quantityUp, .paymentSheet, hint: "qty+",
      help: "quantity +1", whyNot: { $0.sheetQuantity < 10 ? nil : "a payment buys at most 10" }),
    KeyBinding(
      [.character("-"), .character("−"), .left], .quantityDown, .paymentSheet, hint: "qty−",
      help: "quantity −1", whyNot: { $0.sheetQuantity > 1 ? nil : "a payment buys at least 1" }),
    KeyBinding([.ctrlC], .quitNow, .paymentSheet, hint: "quit now", help: "quit at once", inHintBar: false),

    // Transaction manager
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .transactions, hint: "select", help: "previous transaction",
      inHintBar: false),
    KeyBinding(
      [.down, .character("j")], .selectNext, .transactions, hint: "select", help: "next transaction",
      inHintBar: false),
    KeyBinding(
      [.character("a")], .approve, .transactions, hint: "approve", help: "approve Ask to Buy",
      whyNot: { $0.selectedTransaction?.state == .deferred ? nil : "only a deferred transaction can be approved" }),
    KeyBinding(
      [.character("d")], .decline, .transactions, hint: "decline", help: "decline Ask to Buy",
      whyNot: { $0.selectedTransaction?.state == .deferred ? nil : "only a deferred transaction can be declined" }),
    KeyBinding(
      [.character("v")], .resolve, .transactions, hint: "resolve", help: "resolve an interruption",
      whyNot: {
        $0.selectedTransaction?.hasPurchaseIssue == true ? nil : "only an interrupted purchase can be resolved"
      }),
    KeyBinding([.escape, .tab, .character("q")], .close, .transactions, hint: "close", help: "close"),
    KeyBinding([.ctrlC], .quitNow, .transactions, hint: "quit now", help: "quit at once", inHintBar: false),

    // Conditions panel
    KeyBinding(
      [.up, .character("k")], .selectPrevious, .conditions, hint: "select", help: "previous condition",
      inHintBar: false),
    KeyBinding(
      [.down, .character("j")], .selectNext, .conditions, hint: "select", help: "next condition", inHintBar: false),
    KeyBinding(
      [.right, .enter], .nextValue, .conditions, hint: "change", help: "next value"),
    KeyBinding([.left], .previousValue, .conditions, hint: "back", help: "previous value"),
    KeyBinding([.escape, .character("c"), .character("q")], .close, .conditions, hint: "close", help: "close"),
    KeyBinding([.ctrlC], .quitNow, .conditions, hint: "quit now", help: "quit at once", inHintBar: false),

    // Help
    KeyBinding([.escape, .character("?"), .character("q")], .close, .help, hint: "close", help: "close help"),
    KeyBinding([.ctrlC], .quitNow, .help, hint: "quit now", help: "quit at once", inHintBar: false),

    // Quit confirmation
    KeyBinding([.character("y"), .enter], .confirmQuit, .confirmQuit, hint: "quit", help: "quit now"),
    KeyBinding([.character("n"), .escape], .keepRunning, .confirmQuit, hint: "stay", help: "keep shopping"),
    KeyBinding([.ctrlC], .quitNow, .confirmQuit, hint: "quit now", help: "quit at once", inHintBar: false),
  ]

  public static func binding(for key: Key, in context: KeyContext) -> KeyBinding? {
    bindings.first { $0.context == context && $0.keys.contains(key) }
  }

  public static func bindings(in context: KeyContext) -> [KeyBinding] {
    bindings.filter { $0.context == context }
  }
}
