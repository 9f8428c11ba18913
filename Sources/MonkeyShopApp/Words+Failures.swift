import MonkeyShopDomain

extension Words {
  /// A failure as the storefront shows it, on the status line and in the log: in English its
  /// message; in Japanese the shop's own Japanese where the failure has it (the app's own failures,
  /// the store's, the wallet's, a condition's, a busy data folder), else what kind of failure its ID
  /// is, then the message as the store or the system gave it (a data file's problem, the App
  /// Store's words), so the person reads what happened in Japanese and still has the detail.
  func shown(_ failure: ShopFailure) -> ShopFailure {
    guard language == .ja else { return failure }
    if let japanese = failure.japanese { return ShopFailure(failure.errorID, japanese) }
    return ShopFailure(failure.errorID, Self.kind(of: failure.errorID).ja + ": " + failure.message)
  }

  /// What kind of failure an error ID is, in a few words.
  static func kind(of errorID: ErrorID) -> Phrase {
    switch errorID {
    case .productRequestFailed: Phrase("the product request failed", "商品を取得できませんでした")
    case .networkLostDuringPurchase: Phrase("the network was lost mid-purchase", "購入中に通信が切れました")
    case .purchasesRestricted: Phrase("purchases are restricted", "購入は制限されています")
    case .purchaseCancelled: Phrase("the purchase was cancelled", "購入はキャンセルされました")
    case .askToBuyDeclined: Phrase("Ask to Buy declined", "承認と購入で拒否されました")
    case .purchaseInterrupted: Phrase("the purchase was interrupted", "購入は中断されました")
    case .forcedError: Phrase("the error the conditions ask for", "条件で指定したエラーです")
    case .productNotAvailable: Phrase("the product is not available", "商品はありません")
    case .invalidQuantity: Phrase("the quantity is refused", "数量が正しくありません")
    case .insufficientBalance: Phrase("not enough credits", "クレジットが足りません")
    case .unreadableDataFile: Phrase("a data file cannot be read", "データファイルを読み込めません")
    case .invalidCatalog: Phrase("the catalog is refused", "カタログが正しくありません")
    case .unknownTransaction: Phrase("no such transaction", "取引が見つかりません")
    case .invalidCondition: Phrase("a condition's value is refused", "条件の値が正しくありません")
    case .cannotWriteDataFile: Phrase("a data file cannot be written", "データファイルに書き込めません")
    case .invalidAmount: Phrase("the amount is refused", "数が正しくありません")
    case .balanceOverflow: Phrase("the balance would be too large", "残高が上限を超えます")
    case .dataFolderBusy: Phrase("another monkeyshop holds the data folder", "別の monkeyshop がデータフォルダを使用中です")
    case .invalidArgument: Phrase("an argument is refused", "引数が正しくありません")
    case .deliveryIncomplete: Phrase("a delivery did not end", "受け取りが終わっていません")
    case .cannotWriteOutput: Phrase("an output file cannot be written", "出力ファイルに書き込めません")
    case .invalidWalkthrough: Phrase("the walkthrough is refused", "ウォークスルーが正しくありません")
    case .walkthroughFailed: Phrase("the walkthrough failed", "ウォークスルーが失敗しました")
    case .terminalUnavailable: Phrase("no terminal", "ターミナルがありません")
    case .cannotListen: Phrase("the server cannot listen", "サーバーが待ち受けできません")
    case .tooFewFileDescriptors:
      Phrase("too few file descriptors to start the server", "サーバーを起動するにはファイル記述子が足りません")
    }
  }
}
