import Foundation
import MonkeyShopDomain

/// Every string the storefront shows, in English and Japanese. One place, so a translation never
/// drifts from the screen it belongs to.
public struct Words: Sendable {
  public let language: Language
  /// The key table the texts take their key names from, so a text that names a key names the one
  /// that acts.
  let keyMap: [KeyBinding]

  public init(_ language: Language) { self.init(language, keyMap: KeyMap.bindings) }

  init(_ language: Language, keyMap: [KeyBinding]) {
    self.language = language
    self.keyMap = keyMap
  }

  func say(_ en: String, _ ja: String) -> String { language == .ja ? ja : en }

  /// The name of the key that does `action` in `context` (its first key): `p`, `Tab`, `End`.
  func key(_ action: ShopAction, in context: KeyContext = .main) -> String {
    keyMap.first { $0.action == action && $0.context == context }?.keys.first?.description ?? ""
  }

  // Header and balance
  var shopTitle: String { say("monkeyshop — Monkey Credits", "monkeyshop — モンキークレジット") }
  func storefront(_ code: String, locale: String) -> String {
    say("Storefront \(code) · \(locale)", "ストアフロント \(code) · \(locale)")
  }
  /// The balance; below zero (refunds took back credits already spent) it is shown as owed.
  func balance(_ credits: Int) -> String {
    guard credits < 0 else { return say(counted(credits, "monkey credit"), "\(credits) モンキークレジット") }
    return say("\(counted(-credits, "monkey credit")) owed", "\(-credits) モンキークレジットの未払い")
  }
  func unfinished(_ count: Int) -> String { say("\(count) unfinished", "未完了 \(count)") }

  // Products
  var products: String { say("Products", "商品") }
  func buyButton(_ button: BuyButton) -> String {
    switch button {
    case .loading: say("loading...", "読み込み中...")
    case .networkDown: say("Network down?", "ネットワーク切断?")
    case .appStoreDisabled: say("AppStore disabled", "AppStore 無効")
    case .notAvailable: notAvailable
    case .buy(let price): say("Buy \(price)", "購入 \(price)")
    }
  }
  var restricted: String {
    say("purchases are restricted (canMakePayments is false)", "購入が制限されています (canMakePayments が false)")
  }
  var getAgain: String { say("Get again", "再入手") }
  /// The payment sheet's total for a non-consumable owned already: Apple makes a regular
  /// transaction and does not charge again (Apple, cited in ShopUpdate+Downloads.swift).
  var ownedNotCharged: String { say("owned already: not charged again", "購入済み: 再び請求されません") }
  var notAvailable: String { say("Not available", "販売されていません") }
  func quantity(_ quantity: Int) -> String { say("qty \(quantity)", "数量 \(quantity)") }
  func invalidIdentifiers(_ ids: [String]) -> String {
    say("invalidProductIdentifiers: \(ids.joined(separator: ", "))", "無効な商品ID: \(ids.joined(separator: ", "))")
  }

  // Conditions
  var conditions: String { say("Conditions", "条件") }
  func conditionName(_ condition: Condition) -> String { condition.descriptor.label.text(language) }
  func conditionValue(_ condition: Condition, _ value: String) -> String { condition.shown(value, in: language) }

  // Event log
  func eventLog(_ storeKit: StoreKitAPI) -> String {
    say("StoreKit events (\(storeKit))", "StoreKit イベント (\(storeKit))")
  }

  /// A transaction detail taller than its box, or a list longer than its page: rows below, rows
  /// above, and the key that shows them (no arrow: ↓ and ↑ move to another transaction there).
  var detailMoreBelow: String {
    let key = key(.pageDown, in: .global)
    return say("more below: \(key)", "下に続きあり: \(key)")
  }
  var detailMoreAbove: String {
    let key = key(.pageUp, in: .global)
    return say("more above: \(key)", "上にもあり: \(key)")
  }

  func scrolledBack(_ entries: Int) -> String {
    let end = key(.toBottom, in: .global)
    return say("\(entries) newer below · \(end) follows", "新しい \(entries) 件は下 · \(end) で最新")
  }

  // Payment sheet
  var appStore: String { "App Store" }
  /// The product's type as App Store Connect names it: "Consumable", "Non-Consumable".
  func inAppPurchase(_ product: Product) -> String {
    product.isNonConsumable
      ? say("In-App Purchase · Non-Consumable", "App 内課金 · 非消耗型")
      : say("In-App Purchase · Consumable", "App 内課金 · 消耗型")
  }
  var quantityLabel: String { say("Quantity", "数量") }
  var unitPrice: String { say("Unit price", "単価") }
  var total: String { say("Total", "合計") }
  var account: String { say("Account", "アカウント") }
  var sandboxAccount: String { "sandbox@monkeyshop.test" }
  var confirm: String { say("Buy", "購入") }
  var cancel: String { say("Cancel", "キャンセル") }
  func creditsGranted(_ credits: Int) -> String {
    say("+" + counted(credits, "monkey credit"), "+\(credits) モンキークレジット")
  }

  // Progress and results

  /// The status line of a notice; product identifiers become the product's title.
  func notice(_ notice: Notice, title: (String) -> String) -> String {
    switch notice {
    case .purchasing(let product, let quantity, let sheetSkipped):
      let skipped = sheetSkipped ? say(" (payment sheet skipped)", " (支払いシート省略)") : ""
      return say(
        "Purchasing \(title(product)) ×\(quantity)\(skipped)…", "\(title(product)) ×\(quantity) を購入中\(skipped)…")
    case .purchased(let product, let quantity, let credits):
      return say(
        "Purchased \(title(product)) ×\(quantity): +\(counted(credits, "credit"))",
        "\(title(product)) ×\(quantity) を購入しました: +\(credits) クレジット")
    case .redelivered(let ids, let credits, let crash):
      let list = Self.list(ids.map { "#\($0)" }, and: say("and", "と"))
      let plural = ids.count > 1
      var text =
        credits > 0
        ? say(
          "Unfinished \(plural ? "transactions" : "transaction") \(list) delivered at launch: +\(counted(credits, "credit"))",
          "未完了の取引 \(list) を起動時に受け取りました: +\(credits) クレジット")
        : say(
          "Unfinished \(plural ? "transactions" : "transaction") \(list) \(plural ? "were" : "was") already credited: finished, not credited again",
          "未完了の取引 \(list) は付与済み: 二重付与せずに完了しました")
      // What left it unfinished comes second, so what the launch did stays on the first line.
      if let crash {
        let before =
          crash.point == .beforeDelivery ? say("delivering", "受け取る") : say("finishing", "完了する")
        text += say(
          " — the app crashed before \(before) #\(crash.transactionID) (crash point \(crash.point.rawValue))",
          " — 前回アプリは #\(crash.transactionID) を\(before)前にクラッシュしました (\(crash.point.rawValue))")
      }
      return text
    case .alreadyDelivered(let id):
      return say(
        "Transaction #\(id) was already credited: finished without crediting again",
        "取引 #\(id) は付与済み: 二重付与せずに完了しました")
    case .cancelled(let product):
      return say("Purchase of \(title(product)) cancelled", "\(title(product)) の購入をキャンセルしました")
    case .declined(let product):
      return say(
        "Purchase of \(title(product)) cancelled — the app saw .failed, SKErrorDomain 2; Apple does not say which state a decline brings (see the log's ↳ note)",
        "\(title(product)) の購入をキャンセルしました — アプリに届いたのは .failed (SKErrorDomain 2)。拒否がどの状態になるかは Apple 未記載 (ログの ↳ 注記)"
      )
    case .interrupted(let id, let failure):
      let text = say(
        "The app sees a cancel (\(failure.code.label)); the App Store interrupted payment \(id): resolve it in the transaction manager (\(key(.openTransactions)))",
        "アプリにはキャンセル (\(failure.code.label)); App Store が支払い \(id) を中断: 取引マネージャ (\(key(.openTransactions))) で解決してください")
      return ShopFailure(failure.errorID, text).formatted
    case .purchaseFailed(let failure):
      // The App Store's words stay as Apple wrote them, marked as Apple's.
      let error = failure.error
      let apple = say("Apple: \"\(error.localizedDescription)\"", "Appleのメッセージ: \"\(error.localizedDescription)\"")
      return ShopFailure(error.errorID, say("Purchase failed: ", "購入に失敗しました: ") + "\(apple) — \(error.code.label)")
        .formatted
    case .waitingForApproval(let id):
      return say(
        "Waiting for approval (Ask to Buy), payment \(id): \(key(.openTransactions)) to approve or decline",
        "承認待ち (承認と購入) 支払い \(id): \(key(.openTransactions)) で承認または拒否")
    case .spent(let balance):
      return say("Fed the monkey: 1 credit spent, \(balance) left", "おさるにごはん: 1 クレジット使用、残り \(balance)")
    case .conditionSet(let condition, let value):
      let name = conditionName(condition)
      let shown = conditionValue(condition, value)
      return say("\(name) is now \(shown)", "\(name)を「\(shown)」にしました")
    case .appSwitched(let storeKit):
      return say(
        "The app restarted, written with \(storeKit) (one app never mixes the two APIs)",
        "アプリを \(storeKit) で書かれたものとして再起動しました (一つのアプリで二つの API は混ぜません)")
    case .storeKitKept(let storeKit):
      return say("Still \(storeKit): the app was not switched", "\(storeKit) のまま: 切り替えませんでした")
    case .productsFailed(let error):
      // As a failed purchase says it: the App Store's words marked as Apple's, then the code.
      let apple = say("Apple: \"\(error.code.message)\"", "Appleのメッセージ: \"\(error.code.message)\"")
      let failure = ShopFailure(
        error.errorID, say("Product request failed: ", "商品の取得に失敗しました: ") + "\(apple) — \(error.code.label)")
      return failure.formatted + say(" — \(key(.requestProducts)) to retry", " — \(key(.requestProducts)) で再取得")
    case .finishedElsewhere(let id, let state):
      return say(
        state == .purchased
          ? "Transaction #\(id) was purchased: another monkeyshop delivered and finished it"
          : "Payment \(id) \(state == .failed ? "failed" : "ended \(state)"): another monkeyshop finished it",
        state == .purchased
          ? "取引 #\(id) は\(transactionState(state)): 別の monkeyshop が受け取り、完了しました"
          : "支払い \(id) は\(transactionState(state)): 別の monkeyshop が受け取り、完了しました")
    case .vanished(let id):
      return shown(ShopFailure.vanished(id)).formatted
    case .crashed:
      return say("The app crashed", "アプリがクラッシュしました")
    case .failed(let failure):
      return shown(failure).formatted
    case .cannot(let keys, let reason):
      return "\(keys): \(self.reason(reason))"
    case .storeKit2(.pending(let product)):
      return say(
        "Waiting for approval (Ask to Buy) of \(title(product)): .pending, no transaction until a parent answers",
        "\(title(product)) の承認待ち (承認と購入): .pending、保護者が答えるまで取引はありません")
    case .storeKit2(.unverified(let id)):
      return say(
        "Transaction #\(id) failed verification (.unverified): not credited, left unfinished",
        "取引 #\(id) は検証に失敗しました (.unverified): 付与せず、未完了のまま")
    case .refundTakenBack(let id, let credits, let balance):
      return say(
        "Transaction #\(id) was refunded: \(counted(credits, "credit")) taken back, balance \(balance)",
        "取引 #\(id) は返金されました: \(credits) クレジットを回収、残高 \(balance)")
    case .refundedBeforeDelivery(let id):
      return say(
        "Transaction #\(id) was refunded before it was delivered: nothing credited",
        "取引 #\(id) は付与前に返金されました: 何も付与しません")
    case .refundNotTold(let id):
      return say(
        "Transaction #\(id) was refunded; StoreKit 1 does not tell the app, so the credits stay",
        "取引 #\(id) は返金されました。StoreKit 1 はアプリに知らせないため、クレジットは残ります")
    case .download(let notice):
      return downloadNotice(notice, title: title)
    case .restoreFinished(let restored):
      return say(
        "Restore finished: \(counted(restored, "purchase")) restored (consumables are never restored)",
        "復元が完了しました: \(restored) 件 (消耗型は復元されません)")
    }
  }

  /// Why a key cannot act now.
  func reason(_ reason: Reason) -> String {
    switch reason {
    case .noSuchProduct: notAvailable
    case .restricted: restricted
    case .productsLoading: say("products are loading", "商品を読み込み中です")
    case .cameBeforeProducts:
      say(
        "pressed before the products arrived; nothing happened: press it again",
        "商品が届く前に押されたため何も起きませんでした: もう一度押してください")
    case .requestFailed:
      say(
        "the product request failed (network down?): press \(key(.requestProducts)) to request again",
        "商品の取得に失敗しました (ネットワーク切断?): \(key(.requestProducts)) で再取得")
    case .invalidProduct(let id):
      say("\(id) is in invalidProductIdentifiers", "\(id) は invalidProductIdentifiers にあります")
    case .firstProductSelected: say("the first product is selected", "先頭の商品です")
    case .lastProductSelected: say("the last product is selected", "最後の商品です")
    case .firstConditionSelected: say("the first condition is selected", "先頭の条件です")
    case .lastConditionSelected: say("the last condition is selected", "最後の条件です")
    case .quantityOnlyForConsumables:
      say("a non-consumable is bought one at a time", "非消耗型は 1 個ずつ購入します")
    case .quantityAtMost:
      say(
        "a payment buys at most \(AppStore.quantityLimit.upperBound)",
        "1 回の支払いは最大 \(AppStore.quantityLimit.upperBound) 個")
    case .quantityAtLeast:
      say(
        "a payment buys at least \(AppStore.quantityLimit.lowerBound)",
        "1 回の支払いは最低 \(AppStore.quantityLimit.lowerBound) 個")
    case .nothingToSpend: say("no monkey credits to spend", "使えるモンキークレジットがありません")
    case .creditsOwed(let owed):
      say(
        "\(counted(owed, "monkey credit")) owed: refunds took back credits already spent; nothing can be spent until purchases pay them back",
        "\(owed) モンキークレジットの未払い: 返金で使用済みのクレジットが回収されました。購入で返済されるまで使えません")
    case .noRequestWhileRestricted:
      say("purchases are restricted: no product request is made", "購入が制限されているため商品は取得されません")
    case .askToBuyDropped:
      say(
        "a store reset dropped this Ask to Buy request: nothing can answer it now",
        "ストアのリセットでこの承認と購入のリクエストは破棄されました: もう応答できません")
    case .onlyDeferredCanBeApproved:
      say("only a deferred transaction can be approved", "承認できるのは保留中 (.deferred) の取引だけです")
    case .onlyDeferredCanBeDeclined:
      say("only a deferred transaction can be declined", "拒否できるのは保留中 (.deferred) の取引だけです")
    case .onlyPurchasedCanBeRefunded:
      say("only a purchased transaction not refunded yet can be refunded", "返金できるのは未返金の購入済み取引だけです")
    case .noTransactionSelected: noTransactions
    case .onlyInterruptedCanBeResolved:
      say("only an interrupted purchase can be resolved", "解決できるのは中断された購入だけです")
    case .logAtStart: say("the event log shows its first event", "イベントログは先頭です")
    case .logAtEnd: say("the event log shows its newest event", "イベントログは最新です")
    case .detailAtStart: say("the detail shows its first row", "詳細は先頭です")
    case .detailAtEnd: say("the detail shows its last row", "詳細は末尾です")
    case .notInThisOverlay: say("only the keys below act here", "ここでは下のキーだけが使えます")
    case .notAStorefrontKey(let context?):
      say(
        "a key of the \(context.title.en.lowercased()), not of the storefront; ? lists the keys",
        "\(context.title.ja)のキーで、ストアでは使えません。? でキー一覧")
    case .notAStorefrontKey(nil):
      say("not a storefront key; ? lists the keys", "ストアのキーではありません。? でキー一覧")
    case .noDownload: say("no download to act on", "操作できるダウンロードはありません")
    }
  }

  /// Who else delivers from the same data folder.
  public var anotherMonkeyshop: String {
    say("another monkeyshop (an open storefront or another command)", "別の monkeyshop (開いているストアフロントか別のコマンド)")
  }

  /// "#3", "#3 and #4", "#3, #4 and #5".
  static func list(_ items: [String], and: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(and) " + items.last!
  }

  /// A transaction's state in the storefront's language.
  func transactionState(_ state: TransactionState) -> String {
    switch state {
    case .purchasing: say("purchasing", "購入中")
    case .purchased: say("purchased", "購入済み")
    case .failed: say("failed", "失敗")
    case .restored: say("restored", "復元")
    case .deferred: say("deferred", "保留中")
    }
  }

  // Transaction manager
  var transactions: String { say("Transactions", "取引") }
  /// The transaction manager's title: how many transactions were ever made, and which is selected.
  func transactionsTitle(selected: Int, of count: Int) -> String {
    say("Transactions (\(count)) · \(selected) of \(count)", "取引 (\(count)) · \(count) 件中 \(selected)")
  }
  func refunded(on date: Date) -> String {
    let day = ISO8601.string(from: date).prefix(10)
    return say("refunded \(day)", "返金済み \(day)")
  }
  var noTransactions: String { say("The store has no transactions yet.", "まだ取引はありません。") }
  var finished: String { say("finished", "完了") }
  var unfinishedState: String { say("UNFINISHED", "未完了") }
  /// The note of an interrupted purchase: the key that resolves it, in words.
  func resolvedWith(key: String) -> String { say("press \(key) to resolve", "\(key) を押して解決") }
  /// The transaction manager's column headings: id, product, quantity, state, finished, note.
  var transactionColumns: [String] {
    [
      "#", say("product", "商品"), say("qty", "数量"), say("state", "状態"), say("finished", "完了"), say("note", "メモ"),
    ]
  }
  func fromTransaction(_ id: String) -> String { say("resolves payment \(id)", "支払い \(id) を解決") }

  /// How the app names a transaction (`StoreTransaction.logName`), in the storefront's language.
  func name(_ id: String, _ state: TransactionState) -> String {
    StoreTransaction.hasIdentifier(state) ? "#\(id)" : say("payment \(id)", "支払い \(id)")
  }

  // A transaction's detail in the transaction manager
  func detailTitle(_ transaction: StoreTransaction, selected: Int, of count: Int) -> String {
    let name = name(transaction.id, transaction.state)
    return say("Transaction \(name) · \(selected) of \(count)", "取引 \(name) · \(count) 件中 \(selected)")
  }
  func verification(_ verifies: Bool) -> String {
    verifies
      ? say(
        "VerificationResult: .verified — signed with this data folder's chain",
        "VerificationResult: .verified — 署名はこのデータフォルダの証明書チェーンと一致")
      : say(
        "VerificationResult: .unverified(invalidSignature) — completed under verification fail: a StoreKit 2 app ignores it (StoreKit 1 never checks)",
        "VerificationResult: .unverified(invalidSignature) — 検証「失敗」の設定で完了: StoreKit 2 のアプリは無視します (StoreKit 1 は検証しません)"
      )
  }
  var notSigned: String {
    say(
      "No signed transaction: the App Store signs a transaction once it is purchased or restored; StoreKit 2's purchase() returns none for a pending, cancelled or failed purchase.",
      "署名付きトランザクションはありません: App Store が署名するのは購入済みか復元済みの取引だけで、StoreKit 2 の purchase() は保留・キャンセル・失敗の購入に取引を返しません。")
  }
  /// The same words in both languages: they are API names.
  func sequences(_ sequences: TransactionInspection.Sequences) -> String {
    func mark(_ held: Bool) -> String { held ? "✓" : "✗" }
    return
      "StoreKit 2: Transaction.all \(mark(sequences.all))  unfinished \(mark(sequences.unfinished))  currentEntitlements \(mark(sequences.currentEntitlements))"
  }
  /// Why the sequences hold what they hold.
  func sequencesWhy(consumable: Bool, includeConsumableHistory: Bool, restores purchase: String? = nil) -> String {
    if let purchase {
      return say(
        "a restored transaction is StoreKit 1's copy: StoreKit 2 lists the purchase it restores, #\(purchase)",
        "復元された取引は StoreKit 1 の複製です: StoreKit 2 は復元元の購入 #\(purchase) を挙げます")
    }
    if !consumable {
      return say(
        "a non-consumable stays in Transaction.all, and in currentEntitlements until it is refunded",
        "非消耗型は Transaction.all に残り、返金されるまで currentEntitlements にも入ります")
    }
    return includeConsumableHistory
      ? say(
        "consumable history on: Transaction.all keeps finished consumables; currentEntitlements never holds a consumable",
        "消耗型の履歴 オン: Transaction.all は完了した消耗型も含みます。currentEntitlements に消耗型は入りません")
      : say(
        "a finished consumable leaves Transaction.all unless refunded; currentEntitlements never holds a consumable",
        "完了した消耗型は返金されない限り Transaction.all から外れます。currentEntitlements に消耗型は入りません")
  }
  var payloadHeading: String {
    say("Signed payload (JWSTransactionDecodedPayload, ES256)", "署名ペイロード (JWSTransactionDecodedPayload, ES256)")
  }
  var jwsHint: String {
    let transactions = "monkeyshop store transactions --json"
    let certificate = "store certificate"
    return say(
      "\(transactions): its JWS · \(certificate): the root to verify it",
      "\(transactions): JWS · \(certificate): 検証用のルート証明書")
  }
  var purchasing: String { say("purchasing", "購入中") }

  // Help and quitting
  var help: String { say("Keys", "キー") }
  /// The quit question: asked while a purchase is in flight, and still open once it has ended (the
  /// person asked to quit), then saying nothing is in flight now.
  func quitQuestion(purchaseInFlight: Bool) -> String {
    let answers = "\(key(.confirmQuit, in: .confirmQuit))/\(key(.keepRunning, in: .confirmQuit))"
    return purchaseInFlight
      ? say("Quit while a purchase is in flight? (\(answers))", "購入処理中です。終了しますか? (\(answers))")
      : say("The purchase has ended. Quit now? (\(answers))", "購入処理は終わりました。終了しますか? (\(answers))")
  }
  /// The switch question: `l` pressed mid-purchase (the switch restarts the app), and still open
  /// once the purchase has ended, then saying so.
  func switchQuestion(to storeKit: StoreKitAPI, purchaseInFlight: Bool) -> String {
    let answers = "\(key(.switchNow, in: .confirmSwitch))/\(key(.keepStoreKit, in: .confirmSwitch))"
    return purchaseInFlight
      ? say(
        "Switch to \(storeKit) mid-purchase? The app restarts (\(answers))",
        "購入処理中です。\(storeKit) に切り替えて再起動しますか? (\(answers))")
      : say(
        "The purchase has ended. Switch to \(storeKit) now? (\(answers))",
        "購入処理は終わりました。\(storeKit) に切り替えますか? (\(answers))")
  }
  var terminalTooSmall: String { say("terminal too small", "ターミナルが小さすぎます") }
  var onlyQuitActs: String {
    say("until it is larger, only \(key(.quit)) (quit) acts", "大きくするまで \(key(.quit)) (終了) 以外のキーは効きません")
  }
  func needs(_ size: ScreenSize, has: ScreenSize) -> String {
    say(
      "needs \(size.width)×\(size.height), has \(has.width)×\(has.height)",
      "\(size.width)×\(size.height) 必要 (現在 \(has.width)×\(has.height))")
  }
}

extension Words {
  /// The transaction manager's note for a deferred transaction a store reset dropped.
  var askToBuyDroppedNote: String { say("dropped by store reset", "リセットで破棄") }
}
