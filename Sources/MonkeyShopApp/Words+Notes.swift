import Foundation
import MonkeyShopDomain

extension Words {
  /// A note of the event log.
  func note(_ note: LogNote) -> String {
    switch note {
    case .unfinishedAtLaunch(let count):
      say(
        count == 1
          ? "1 unfinished transaction from an earlier run: the queue delivers it again"
          : "\(count) unfinished transactions from an earlier run: the queue delivers them again",
        "前回の実行から未完了の取引 \(count) 件: キューが再び届けます")
    case .crashedLastRun(let crash):
      say(
        "the app crashed last run at \(crash.point.rawValue) with #\(crash.transactionID)",
        "前回アプリは #\(crash.transactionID) の \(crash.point.rawValue) でクラッシュしました")
    case .askToBuyWaits:
      say("Ask to Buy: the purchase waits for a parent; do not finish it", "承認と購入: 保護者の承認待ち。finish() しないこと")
    case .finishedElsewhere(let id, let state):
      say(
        "\(name(id, state)) was answered and finished by another monkeyshop",
        "\(name(id, state)) は別の monkeyshop が受け取り完了しました")
    case .creditedBeforeStop:
      say(
        "credited before the app stopped; finishing it now keeps it from coming back",
        "アプリ停止前に付与済み。ここで完了すれば再配信されません")
    case .creditedByAnother(let id):
      say(
        "#\(id) was credited by \(anotherMonkeyshop); finishing it keeps it from coming back",
        "#\(id) は\(anotherMonkeyshop)が付与済み。ここで完了すれば再配信されません")
    case .paymentSheetSkipped:
      say(
        "skipPaymentSheet: no payment sheet, added as if Buy was tapped",
        "skipPaymentSheet: シートなしで「購入」を押したものとして追加")
    case .paymentSheetAnswered(let confirmed):
      confirmed
        ? say("payment sheet: Buy — the App Store processes the payment", "支払いシート: 購入 — App Store が支払いを処理")
        : say("payment sheet: Cancel", "支払いシート: キャンセル")
    case .paymentSheetShownAgain(let id):
      say(
        "payment \(id) is still purchasing, its sheet unanswered: the App Store shows it again",
        "支払い \(id) はシート未回答のまま購入中: App Store がシートを再表示")
    case .interruptedLooksCancelled(let id):
      say(
        "the App Store interrupted payment \(id); the app gets only SKErrorDomain 2 and reads a cancel (Apple documents no code for an interruption)",
        "App Store が支払い \(id) を中断。アプリには SKErrorDomain 2 しか届かずキャンセルと判断 (中断のコードは Apple 未記載)")
    case .declineEndsFailed:
      say(
        "Apple says to wait for \"another callback that indicates the final status\" and does not say which state a decline brings: here it ends .failed, SKErrorDomain 2, read as a cancel",
        "Apple は「最終状態を示す別のコールバック」を待つよう記載するが、拒否がどの状態になるかは記載なし: ここでは .failed (SKErrorDomain 2) で終わりキャンセル扱い")
    case .askToBuyDropped(let id):
      say(
        "a store reset dropped Ask to Buy request \(id): no callback reaches the app (Apple does not say what an unanswered request sends)",
        "ストアのリセットで承認と購入のリクエスト \(id) は破棄: アプリにはコールバックなし (応答のないリクエストについて Apple は記載なし)")
    case .walletChangedElsewhere(let balance):
      say("another monkeyshop changed the wallet: balance \(balance)", "別の monkeyshop がウォレットを変更: 残高 \(balance)")
    case .updatesRepeatUnfinished(let count):
      say(
        "Transaction.updates also emits \(count == 1 ? "it" : "each of them") once at launch: crediting must be idempotent",
        "Transaction.updates も起動時に同じ取引を一度送ります: 付与は冪等でなければなりません")
    case .pendingArrivesThroughUpdates:
      say(
        "Ask to Buy: no transaction yet; if a parent approves, it arrives through Transaction.updates",
        "承認と購入: まだ取引はありません。保護者が承認すると Transaction.updates に届きます")
    case .declineDeliversNothing:
      say(
        "declined: StoreKit 2 gives the app no result, transaction or update (Apple documents none)",
        "拒否: StoreKit 2 はアプリに結果も取引も更新も渡しません (Apple の記載なし)")
    case .refundNotToldToStoreKit1:
      say(
        "StoreKit 1 tells the app nothing of a consumable's refund (Apple sends the REFUND notification to the server)",
        "StoreKit 1 は消耗型の返金をアプリに知らせません (Apple は REFUND 通知をサーバへ送ります)")
    case .refundedBeforeDelivery(let id):
      say(
        "#\(id) has a revocationDate: refunded before it was delivered, so nothing is credited; finishing it",
        "#\(id) には revocationDate があります: 付与前に返金されたため何も付与せず、完了します")
    case .alreadyTakenBack(let id):
      say("#\(id) was taken back already: nothing more taken", "#\(id) は回収済み: これ以上回収しません")
    case .consumablesNeverRestored:
      say(
        "consumables are never restored: the credits bought stay only in the wallet",
        "消耗型は復元されません: 購入したクレジットはウォレットにのみ残ります")
    }
  }
}

extension Words {
  /// Told on standard error as a crash point kills the app (the shell says only `Killed`): where it
  /// died, and what its next launch shows.
  public func crashPointKilled(_ point: CrashPoint) -> String {
    say(
      "monkeyshop: crash point \(point.rawValue): the app was killed (SIGKILL), as a crashed app dies;"
        + " launch it again to see what StoreKit delivers at launch",
      "monkeyshop: クラッシュポイント \(point.rawValue): アプリを強制終了しました (SIGKILL、クラッシュと同じ)。"
        + "もう一度起動すると、起動時に StoreKit が届けるものが分かります")
  }
}
