import Foundation
import MonkeyShopDomain

extension ShopModel {
  /// The part of the screen that has the keys now.
  public var keyContext: KeyContext {
    switch overlay {
    case nil: .main
    case .paymentSheet: .paymentSheet
    case .transactions, .transactionDetail: .transactions
    case .conditions: .conditions
    case .help: .help
    case .confirmQuit: .confirmQuit
    case .confirmSwitch: .confirmSwitch
    }
  }

  /// The transaction manager's selection, in its list or its detail.
  var managerSelection: Int? {
    switch overlay {
    case .transactions(let selection), .transactionDetail(let selection): selection
    default: nil
    }
  }

  /// The transaction whose detail is open.
  var inspectedTransactionID: String? {
    guard case .transactionDetail = overlay else { return nil }
    return selectedTransaction?.id
  }

  /// The conditions panel's selected row, while it is open.
  var conditionSelection: Int? {
    if case .conditions(let selection) = overlay { return selection }
    return nil
  }

  public var selectedTransaction: StoreTransaction? {
    guard let selection = managerSelection else { return nil }
    let list = transactionList
    return (0..<list.count).contains(selection) ? list[newestFirst: selection] : nil
  }

  /// Whether `transaction` is an Ask to Buy request the store still holds, which approving or
  /// declining answers. One only the history lists was dropped by a store reset.
  public func awaitsAnswer(_ transaction: StoreTransaction) -> Bool {
    transaction.state == .deferred && store.transactions.contains { $0.id == transaction.id }
  }

  /// Why `a` or `d` cannot answer the selected transaction: `notDeferred`, or a request dropped.
  func whyNotAnswer(_ notDeferred: Reason) -> Reason? {
    guard let transaction = selectedTransaction, transaction.state == .deferred else { return notDeferred }
    return awaitsAnswer(transaction) ? nil : .askToBuyDropped
  }

  /// The bindings that can act now, for the hint bar and an overlay's footer: the part of the
  /// screen's own, then the one key of everywhere they name, help (which opens from anywhere but
  /// help itself), each named by what it does now.
  public var activeBindings: [KeyBinding] {
    let everywhere = keyContext == .help ? [] : KeyMap.bindings(in: .global)
    var active: [KeyBinding] = []
    for binding in KeyMap.bindings(in: keyContext) + everywhere where binding.inHintBar && binding.whyNot(self) == nil {
      let hinted = binding.hinted(in: self)
      if !hinted.keys.isEmpty { active.append(hinted) }
    }
    return active
  }

  /// Whether the payment sheet open is for a product owned already: its Buy gets the product again,
  /// and does not charge for it again.
  var paymentSheetGetsAgain: Bool {
    guard case .paymentSheet(let sheet) = overlay else { return false }
    return owned.owns(sheet.productIdentifier)
  }

  /// Whether the screen shows only "terminal too small": then nothing the person cannot see acts.
  public var isScreenTooSmall: Bool { screenSize.map { !$0.isLargeEnough } ?? false }

  /// Whether a status no longer describes the shop: a key's reason that no longer holds (purchases
  /// allowed again, products loaded, the product request answered), or a failed product request
  /// since requested again.
  func isStale(_ notice: Notice) -> Bool {
    switch notice {
    case .cannot(_, .notInThisOverlay):
      return overlay == nil
    case .cannot(_, .notAStorefrontKey):
      return overlay != nil
    case .cannot(_, .cameBeforeProducts):
      return response == nil
    case .cannot(let keys, let reason):
      let bindings = KeyMap.bindings(in: keyContext) + KeyMap.bindings(in: .global)
      return !bindings.contains { $0.keyLabel == keys && $0.whyNot(self) == reason }
    case .productsFailed:
      if case .failed = products { return false }
      return true
    case .conditionSet(let condition, let value):
      return condition.value(in: store.conditions, defaultStorefront: catalog.defaultStorefront) != value
    // A balance the status gives that another monkeyshop has since changed (a purchase or a
    // spend in another terminal): the header and the log say the new one.
    case .spent(let balance), .refundTakenBack(_, _, let balance):
      return self.balance != balance
    default:
      return false
    }
  }

  /// What takes the place of a status that went stale: nothing, except for a key refused while
  /// the products were loading. The products came a moment later and the key did nothing, so the
  /// status says so and asks for the key again (or gives the reason it still cannot act), rather
  /// than leaving a key that seemed to do nothing. The app does not act on it by itself.
  func successor(ofStale notice: Notice) -> Notice? {
    guard case .cannot(let keys, .productsLoading) = notice, response != nil,
      let binding = (KeyMap.bindings(in: keyContext) + KeyMap.bindings(in: .global)).first(where: {
        $0.keyLabel == keys
      })
    else { return nil }
    return .cannot(keys: keys, binding.whyNot(self) ?? .cameBeforeProducts)
  }

  mutating func press(_ key: Key) -> [ShopEffect] {
    guard let binding = KeyMap.binding(for: key, in: keyContext) else {
      guard !isScreenTooSmall else { return [] }
      switch overlay {
      // On the storefront a key that does nothing says so, and where it acts, rather than leave
      // the last key's status as if it answered this one.
      case nil:
        let actsIn = [KeyContext.paymentSheet, .transactions, .conditions].first { context in
          KeyMap.bindings(in: context).contains { $0.keys.contains(key) }
        }
        status = .cannot(keys: key.description, .notAStorefrontKey(actsIn: actsIn))
      // Help has no keys of its own to explain: any other key closes it, as htop's help does
      // ("Press any key to return"). The key does nothing else: it was pressed to leave help.
      case .help: closeHelp()
      // In an overlay a key that does nothing says so where the person is looking.
      default: status = .cannot(keys: key.description, .notInThisOverlay)
      }
      return []
    }
    // Under "terminal too small" only quitting acts: an Enter would confirm a payment sheet no one sees.
    if isScreenTooSmall, !binding.actsOnATooSmallScreen { return [] }
    if let reason = binding.whyNot(self) {
      status = .cannot(keys: binding.keyLabel, reason)
      return []
    }
    return perform(binding.action)
  }

  private mutating func perform(_ action: ShopAction) -> [ShopEffect] {
    switch action {
    case .selectPrevious, .selectNext:
      move(action == .selectNext ? 1 : -1)
      return []
    case .quantityUp, .quantityDown:
      // The quantity is the app's, set on its SKMutablePayment before the payment is added; the
      // payment sheet shows it and does not change it.
      guard let product = selectedProduct else { return [] }
      quantities[product.productIdentifier] = Self.clampQuantity(
        quantity(for: product) + (action == .quantityUp ? 1 : -1))
      return []
    case .buySelected:
      return addPayment(selectedProduct)
    case .buyFive:
      return addPayment(product(granting: 5))
    case .buyTen:
      return addPayment(product(granting: 10))
    case .confirmPayment, .cancelPayment:
      guard case .paymentSheet(let sheet) = overlay else { return [] }
      overlay = nil
      // Bought: the purchase is in flight from this key on, though the store's answer that says so
      // comes back as a message (a `q` read with this key must still ask).
      if action == .confirmPayment, inFlight[sheet.transactionID] == nil { inFlight[sheet.transactionID] = now }
      return [
        .answerPaymentSheet(transactionID: sheet.transactionID, confirmed: action == .confirmPayment, at: date(at: now))
      ]
    case .toggleRestrictions:
      return toggle(.purchasesAllowed)
    case .toggleNetwork:
      return toggle(.network)
    case .toggleAskToBuy:
      return toggle(.askToBuy)
    case .toggleInterrupted:
      return toggle(.interruptedPurchases)
    case .openConditions:
      overlay = .conditions(selection: 0)
      return []
    case .spend:
      return [.spend(1)]
    case .openTransactions:
      overlay = .transactions(selection: 0)
      return [.readHistory]
    case .switchStoreKit:
      return switchStoreKit()
    case .switchNow:
      closeSwitchQuestion()
      return [.setCondition(.storeKit, value: "\(storeKit.other.rawValue)", at: date(at: now))]
    case .keepStoreKit:
      closeSwitchQuestion()
      status = .storeKitKept(storeKit)
      return []
    case .requestProducts:
      return requestProducts()
    case .restorePurchases:
      return restorePurchases()
    case .pauseDownload:
      return downloadToPauseOrResume == nil ? startDownloadAgain() : pauseOrResumeDownload()
    case .cancelDownload:
      return cancelDownload()
    case .openHelp:
      overlay = .help(over: overlay)
      return []
    case .quit:
      if isMidPurchase {
        overlay = .confirmQuit(over: overlay)
      } else {
        isFinished = true
      }
      return []
    case .quitNow, .confirmQuit:
      isFinished = true
      return []
    case .redraw:
      return [.screen(.redraw)]
    case .suspend:
      return [.screen(.suspend)]
    case .close:
      // A transaction's detail closes back to the list it was opened from, help to where it was opened.
      if case .transactionDetail(let selection) = overlay {
        overlay = .transactions(selection: selection)
      } else if case .help = overlay {
        closeHelp()
      } else {
        overlay = nil
      }
      return []
    case .keepRunning:
      // Back to the payment sheet it was asked from, unless its purchase was answered meanwhile.
      guard case .confirmQuit(let beneath) = overlay else { return [] }
      overlay = beneath
      closeAnsweredPaymentSheet()
      return []
    case .inspect:
      switch overlay {
      case .transactions(let selection): overlay = .transactionDetail(selection: selection)
      case .transactionDetail(let selection): overlay = .transactions(selection: selection)
      default: break
      }
      return []
    case .approve, .decline, .resolve, .refund:
      guard let transaction = selectedTransaction else { return [] }
      switch action {
      case .approve: return [.approve(transaction.id)]
      case .decline: return [.decline(transaction.id)]
      case .refund: return [.refund(transaction.id, .other, at: date(at: now))]
      default: return [.resolve(transaction.id, at: date(at: now))]
      }
    case .pageUp, .pageDown, .toTop, .toBottom:
      page(action)
      return []
    case .nextValue, .previousValue:
      guard case .conditions(let selection) = overlay else { return [] }
      return step(Condition.allCases[selection], by: action == .nextValue ? 1 : -1)
    }
  }

  /// Switches to the other StoreKit, from `l` or the conditions panel's StoreKit row. The switch
  /// restarts the app: mid-purchase it asks first, as quitting does, over where it was asked.
  private mutating func switchStoreKit() -> [ShopEffect] {
    guard !isMidPurchase else {
      overlay = .confirmSwitch(over: overlay)
      return []
    }
    return [.setCondition(.storeKit, value: "\(storeKit.other.rawValue)", at: date(at: now))]
  }

  /// The switch question answered: back to where it was asked.
  private mutating func closeSwitchQuestion() {
    guard case .confirmSwitch(let beneath) = overlay else { return }
    overlay = beneath
  }

  /// A switch of the storefront: the condition's next value.
  private mutating func toggle(_ condition: Condition) -> [ShopEffect] { step(condition, by: 1) }

  /// The value of a condition `step` places along its choices, wrapping around. StoreKit has two,
  /// so either way is the other, switched by the one rule of `l`.
  private mutating func step(_ condition: Condition, by step: Int) -> [ShopEffect] {
    if condition == .storeKit { return switchStoreKit() }
    let values = condition.choices(catalog)
    guard !values.isEmpty else { return [] }
    let current = condition.value(in: store.conditions, defaultStorefront: catalog.defaultStorefront)
    // A value off the list (a storefront the catalog does not price) sits before its first choice:
    // → goes to the first, ← to the last.
    let next =
      values.firstIndex(of: current).map { values[($0 + step + values.count) % values.count] }
      ?? (step > 0 ? values[0] : values[values.count - 1])
    return [.setCondition(condition, value: next, at: date(at: now))]
  }

  /// The quantity a payment for `product` carries: the row's for a consumable, always 1 for a
  /// non-consumable. "The quantity applies to consumable Apple In-App Purchases and non-renewing
  /// subscriptions" (https://developer.apple.com/documentation/storekit/product/purchaseoption/quantity(_:));
  /// App Store Server API's `quantity` is "The number of purchased consumable products"
  /// (https://developer.apple.com/documentation/appstoreserverapi/quantity).
  public func quantity(for product: Product) -> Int {
    product.isNonConsumable ? 1 : quantities[product.productIdentifier, default: 1]
  }

  /// The selected row's quantity.
  public var quantity: Int { selectedProduct.map(quantity(for:)) ?? 1 }

  /// Apple's limit for one payment, from the store that enforces it.
  static func clampQuantity(_ quantity: Int) -> Int {
    min(AppStore.quantityLimit.upperBound, max(AppStore.quantityLimit.lowerBound, quantity))
  }

  /// `SKPaymentQueue.add(_:)` with the quantity set on the row: the App Store shows its payment
  /// sheet once the payment is in the queue, or with `skipPaymentSheet` on goes on as if Buy had
  /// been tapped on it.
  private mutating func addPayment(_ product: Product?) -> [ShopEffect] {
    guard let product else { return [] }
    if let index = catalog.position(of: product.productIdentifier) { selection = index }
    let quantity = quantity(for: product)
    if storeKit == .storeKit2 { callPurchase(productIdentifier: product.productIdentifier, quantity: quantity) }
    let skipped = store.conditions.skipPaymentSheet
    return [
      .addPayment(
        productIdentifier: product.productIdentifier, quantity: quantity, showsSheet: !skipped, sheetSkipped: skipped,
        appAccountToken: appAccountToken, at: date(at: now))
    ]
  }

  /// Why a paging key does nothing now: the log at that end on the storefront; nothing to page in
  /// the payment sheet, the conditions panel or the quit question. The transaction manager's list
  /// always pages (at an end it stays there).
  func whyNotPage(logAt end: Reason, logMoves: Bool) -> Reason? {
    switch overlay {
    case nil: logMoves ? nil : end
    // The detail scrolls its rows, up to its first and down to its last.
    case .transactionDetail:
      end == .logAtStart
        ? (min(detailScroll, detailHiddenRows) > 0 ? nil : .detailAtStart)
        : (detailScroll < detailHiddenRows ? nil : .detailAtEnd)
    // Help closes on any key, these too.
    case .transactions, .help: nil
    default: .notInThisOverlay
    }
  }

  /// Pages the list in view: the transaction manager's (newest at the top), else the event log's
  /// (whose top is its first event); in a transaction's detail, its rows (↑↓ still go to the
  /// transaction before or after).
  private mutating func page(_ action: ShopAction) {
    if case .help = overlay {
      closeHelp()
      return
    }
    if case .transactionDetail = overlay {
      let hidden = detailHiddenRows
      let page = transactionPageRows
      switch action {
      case .pageUp: detailScroll = max(0, min(detailScroll, hidden) - page)
      case .pageDown: detailScroll = min(hidden, detailScroll + page)
      case .toTop: detailScroll = 0
      default: detailScroll = hidden
      }
      return
    }
    if managerSelection != nil {
      let page = transactionPageRows
      switch action {
      case .pageUp: move(-page)
      case .pageDown: move(page)
      case .toTop: move(Int.min / 2)
      default: move(Int.max / 2)
      }
      return
    }
    // A page turns by the entries shown, not by rows: an entry wraps onto two or three rows, and
    // an entry partly shown (or not at all) above the top one comes next, never skipped.
    let end = log.count - logScroll
    switch action {
    case .pageUp:
      // The top entry shown stays, at the bottom, with the older ones above it; when no older
      // entry fits above it (it and the one before take three rows each), the page ends with the
      // entry before it instead, so each press brings an older entry into view.
      let top = firstLogEntryShown(end: end)
      let keeping = top + 1 < end ? top + 1 : top
      logScroll = min(logScrollLimit, log.count - (firstLogEntryShown(end: keeping) < top ? keeping : top))
    case .pageDown:
      // The bottom entry shown stays, at the top, with the newer ones below it, as many as fit
      // whole; when the next entry does not fit beside it, the page starts with that entry. The
      // first entry not yet shown is always on the new page, however many rows its neighbours take.
      let next = furthestLogEnd(after: end, keepingFrom: end - 1)
      logScroll = log.count - (next > end ? next : furthestLogEnd(after: end, keepingFrom: end))
    case .toTop: logScroll = logScrollLimit
    default: logScroll = 0
    }
  }

  /// Help closes back to where it was opened, as that is now: a payment sheet answered meanwhile
  /// (elsewhere, or by a network gone down) has closed, and a list's selection stays in the list.
  private mutating func closeHelp() {
    guard case .help(let beneath) = overlay else { return }
    overlay = beneath
    closeAnsweredPaymentSheet()
    clampSelections(keeping: nil)
  }

  private mutating func move(_ step: Int) {
    switch overlay {
    case .transactions(let selection):
      overlay = .transactions(selection: min(max(0, transactionList.count - 1), max(0, selection + step)))
    case .transactionDetail(let selection):
      overlay = .transactionDetail(selection: min(max(0, transactionList.count - 1), max(0, selection + step)))
    case .conditions(let selection):
      overlay = .conditions(selection: min(Condition.allCases.count - 1, max(0, selection + step)))
    default:
      selection = min(catalog.products.count - 1, max(0, selection + step))
    }
  }
}
