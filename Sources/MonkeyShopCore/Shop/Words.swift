import Foundation

/// The storefront's UI language.
public enum Language: String, Sendable, CaseIterable {
  case en, ja

  /// `--lang`, else `LANG` / `LC_ALL` / `LC_MESSAGES` starting with `ja`, else English.
  public static func resolve(explicit: String?, environment: [String: String]) -> Language {
    if let explicit, let language = Language(rawValue: explicit.lowercased().prefix(2).description) {
      return language
    }
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        return value.lowercased().hasPrefix("ja") ? .ja : .en
      }
    }
    return .en
  }
}

/// A short text in both languages, for tables such as the key map.
public struct Phrase: Sendable {
  public let en: String
  public let ja: String

  public init(_ en: String, _ ja: String) {
    self.en = en
    self.ja = ja
  }

  public func text(_ language: Language) -> String { language == .ja ? ja : en }
}

/// Every string the storefront shows, in English and Japanese. One place, so a translation never
/// drifts from the screen it belongs to.
public struct Words: Sendable {
  public let language: Language

  public init(_ language: Language) { self.language = language }

  private func say(_ en: String, _ ja: String) -> String { language == .ja ? ja : en }

  /// A string given in both languages where it is used (the key map's reasons).
  func pick(_ en: String, _ ja: String) -> String { say(en, ja) }

  // Header and balance
  var shopTitle: String { say("monkeyshop — Monkey Credits", "monkeyshop — モンキークレジット") }
  func storefront(_ code: String, locale: String) -> String {
    say("Storefront \(code) · \(locale)", "ストアフロント \(code) · \(locale)")
  }
  func balance(_ credits: Int) -> String { say("\(credits) monkey credits", "\(credits) モンキークレジット") }
  func unfinished(_ count: Int) -> String { say("\(count) unfinished", "未完了 \(count)") }

  // Products
  var products: String { say("Products", "商品") }
  var loading: String { "loading..." }
  var networkDown: String { "Network down?" }
  var appStoreDisabled: String { "AppStore disabled" }
  var restricted: String {
    say("purchases are restricted (canMakePayments is false)", "購入が制限されています (canMakePayments が false)")
  }
  var quantityAtMost: String {
    let limit = AppStore.quantityLimit.upperBound
    return say("a payment buys at most \(limit)", "1 回の支払いは最大 \(limit) 個")
  }
  var quantityAtLeast: String {
    let limit = AppStore.quantityLimit.lowerBound
    return say("a payment buys at least \(limit)", "1 回の支払いは最低 \(limit) 個")
  }
  var productsLoading: String { say("products are loading", "商品を読み込み中です") }
  var requestFailed: String {
    say(
      "the product request failed (network down?): press R to request again",
      "商品の取得に失敗しました (ネットワーク切断?): R で再取得")
  }
  func invalidProduct(_ id: String) -> String {
    say("\(id) is in invalidProductIdentifiers", "\(id) は invalidProductIdentifiers にあります")
  }
  func eventLogSwitched(_ vocabulary: Vocabulary) -> String {
    say("Event log: \(vocabulary.rawValue)", "イベントログ: \(vocabulary.rawValue)")
  }
  var notAvailable: String { say("Not available", "販売されていません") }
  func buy(_ price: String) -> String { say("Buy \(price)", "購入 \(price)") }
  func quantity(_ quantity: Int) -> String { say("qty \(quantity)", "数量 \(quantity)") }
  var noProducts: String { say("The App Store returned no products.", "App Store から商品が返されませんでした。") }
  func invalidIdentifiers(_ ids: [String]) -> String {
    say("invalidProductIdentifiers: \(ids.joined(separator: ", "))", "無効な商品ID: \(ids.joined(separator: ", "))")
  }

  // Conditions
  var conditions: String { say("Conditions", "条件") }
  func conditionName(_ name: String) -> String {
    switch name {
    case "purchasesAllowed": say("purchases", "購入")
    case "network": say("network", "ネットワーク")
    case "askToBuy": say("Ask to Buy", "承認と購入")
    case "interruptedPurchases": say("interrupted", "中断")
    case "failNext": say("fail next", "次を失敗")
    case "failAll": say("fail all", "全て失敗")
    case "latency": say("latency", "遅延")
    case "storefront": say("storefront", "ストアフロント")
    case "crashPoint": say("crash", "クラッシュ")
    default: name
    }
  }
  func conditionValue(_ name: String, _ value: String) -> String {
    switch (name, value) {
    case ("purchasesAllowed", "true"): say("allowed", "許可")
    case ("purchasesAllowed", "false"): say("RESTRICTED", "制限中")
    case ("network", "up"): say("up", "接続")
    case ("network", "down"): say("DOWN", "切断")
    case (_, "on"): say("ON", "オン")
    case (_, "off"): say("off", "オフ")
    default: value
    }
  }

  // Event log
  func eventLog(_ vocabulary: Vocabulary) -> String {
    say("StoreKit events (\(vocabulary.rawValue))", "StoreKit イベント (\(vocabulary.rawValue))")
  }

  // Payment sheet
  var appStore: String { "App Store" }
  var inAppPurchase: String { say("In-App Purchase · Consumable", "App 内課金 · 消耗型") }
  var quantityLabel: String { say("Quantity", "数量") }
  var unitPrice: String { say("Unit price", "単価") }
  var total: String { say("Total", "合計") }
  var account: String { say("Account", "アカウント") }
  var sandboxAccount: String { "sandbox@monkeyshop.test" }
  var confirm: String { say("Buy", "購入") }
  var cancel: String { say("Cancel", "キャンセル") }
  func creditsGranted(_ credits: Int) -> String { say("+\(credits) monkey credits", "+\(credits) モンキークレジット") }

  // Progress and results
  func purchasing(_ title: String, _ quantity: Int) -> String {
    say("Purchasing \(title) ×\(quantity)…", "\(title) ×\(quantity) を購入中…")
  }
  func purchased(_ title: String, _ quantity: Int, _ credits: Int) -> String {
    say("Purchased \(title) ×\(quantity): +\(credits) credits", "\(title) ×\(quantity) を購入しました: +\(credits) クレジット")
  }
  func redelivered(_ id: String, _ credits: Int) -> String {
    say(
      "Unfinished transaction #\(id) delivered at launch: +\(credits) credits",
      "未完了の取引 #\(id) を起動時に受け取りました: +\(credits) クレジット")
  }
  func alreadyDelivered(_ id: String) -> String {
    say(
      "Transaction #\(id) was already credited: finished without crediting again",
      "取引 #\(id) は付与済み: 二重付与せずに完了しました")
  }
  func cancelled(_ title: String) -> String { say("Purchase of \(title) cancelled", "\(title) の購入をキャンセルしました") }
  func failed(_ summary: String) -> String { say("Purchase failed: \(summary)", "購入に失敗しました: \(summary)") }
  func waitingForApproval(_ id: String) -> String {
    say(
      "Waiting for approval (Ask to Buy), transaction #\(id): Tab to approve or decline",
      "承認待ち (承認と購入) 取引 #\(id): Tab で承認または拒否")
  }
  func interrupted(_ id: String) -> String {
    say(
      "Purchase interrupted (#\(id)): resolve it in the transaction manager (Tab)",
      "購入が中断されました (#\(id)): 取引マネージャ (Tab) で解決してください")
  }
  func spent(_ balance: Int) -> String {
    say("Fed the monkey: 1 credit spent, \(balance) left", "おさるにごはん: 1 クレジット使用、残り \(balance)")
  }
  func productsFailed(_ summary: String) -> String {
    say("Product request failed: \(summary) — R to retry", "商品の取得に失敗しました: \(summary) — R で再取得")
  }
  func finishedElsewhere(_ id: String, _ state: String) -> String {
    say(
      "Transaction #\(id) is \(state): another monkeyshop delivered and finished it",
      "取引 #\(id) は \(state): 別の monkeyshop が受け取り、完了しました")
  }
  func vanished(_ id: String) -> String {
    say(
      "transaction #\(id) is no longer in the store (was it reset?): it will never be answered",
      "取引 #\(id) はストアにありません (リセットされた?): 応答は来ません")
  }

  var crashed: String { say("The app crashed", "アプリがクラッシュしました") }

  // Transaction manager
  var transactions: String { say("Transactions", "取引") }
  var noTransactions: String { say("The store has no transactions yet.", "まだ取引はありません。") }
  var finished: String { say("finished", "完了") }
  var unfinishedState: String { say("UNFINISHED", "未完了") }
  var issue: String { say("issue", "要解決") }

  // Help and quitting
  var help: String { say("Keys", "キー") }
  var quitWhileInFlight: String {
    say("A purchase is in flight. Quit anyway? (y/n)", "購入処理中です。終了しますか? (y/n)")
  }
  var terminalTooSmall: String { say("terminal too small", "ターミナルが小さすぎます") }
  func needs(_ size: ScreenSize, has: ScreenSize) -> String {
    say(
      "needs \(size.width)×\(size.height), has \(has.width)×\(has.height)",
      "\(size.width)×\(size.height) 必要 (現在 \(has.width)×\(has.height))")
  }
}
