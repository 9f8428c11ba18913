import Foundation
import MonkeyShopDomain

/// The overlays drawn over the storefront: the payment sheet, the transaction manager, the
/// conditions panel, help and the quit question.
struct OverlayView {
  let model: ShopModel
  var words: Words { model.words }

  func draw(on canvas: inout some Canvas) {
    switch model.overlay {
    case nil: return
    case .paymentSheet(let sheet): drawSheet(sheet, on: &canvas)
    case .transactions(let selection): drawTransactions(selection: selection, on: &canvas)
    case .transactionDetail: drawTransactionDetail(on: &canvas)
    case .conditions(let selection): drawConditions(selection: selection, on: &canvas)
    case .help: drawHelp(on: &canvas)
    case .confirmQuit: drawQuestion(words.quitQuestion(purchaseInFlight: model.isMidPurchase), on: &canvas)
    case .confirmSwitch:
      drawQuestion(
        words.switchQuestion(to: model.storeKit.other, purchaseInFlight: model.isMidPurchase), on: &canvas)
    }
  }

  /// The App Store's confirmation of a payment in the queue: product, quantity (the app's, shown
  /// and not changed here), unit price, total, Buy / Cancel.
  private func drawSheet(_ sheet: ShopModel.PaymentSheet, on canvas: inout some Canvas) {
    guard let product = model.catalog.product(sheet.productIdentifier) else { return }
    let rect = canvas.centered(width: 60, height: 14 + max(1, statusLines(width: 60 - 4).count))
    canvas.band(rect)
    canvas.box(rect, title: words.appStore)
    let x = rect.x + 3
    let width = rect.width - 6
    let storefront = model.storefront
    let owned = model.paymentSheetGetsAgain
    let unit = product.price(in: storefront) ?? 0
    let total = unit * Decimal(sheet.quantity)
    var y = rect.y + 2
    canvas.put(product.localization(words.language.rawValue).title, x: x, y: y, width: width, style: .bold)
    y += 1
    canvas.put(words.inAppPurchase(product), x: x, y: y, width: width, style: .muted)
    y += 2
    let rows: [(String, String, Style)] = [
      (words.quantityLabel, "\(sheet.quantity)", Style(bold: true)),
      (words.unitPrice, storefront.format(unit), .plain),
      owned
        ? (words.total, words.ownedNotCharged, Style(tint: .success, bold: true))
        : (words.total, storefront.format(total), Style(tint: .price, bold: true)),
      ("", product.credits.map { words.creditsGranted($0 * sheet.quantity) } ?? "", Style(tint: .success)),
      (words.account, words.sandboxAccount, .muted),
    ]
    for (label, value, style) in rows {
      canvas.put(label, x: x, y: y, style: .muted)
      canvas.put(value, x: x + 16, y: y, width: width - 16, style: style)
      y += 1
    }
    y += 1
    // The product row's words: an owned product is got again, not bought (it is not charged again).
    let buy = "[ \(owned ? words.getAgain : words.confirm) ]"
    let cancel = "[ \(words.cancel) ]"
    canvas.put(buy, x: x, y: y, style: Style(tint: .success, bold: true, reverse: true))
    canvas.put(cancel, x: x + TextWidth.of(buy) + 3, y: y, style: .bold)
    drawStatus(on: &canvas, rect: rect)
    drawKeys(on: &canvas, rect: rect)
  }

  /// Every transaction ever made, newest first, a page at a time, with what can be done to it.
  private func drawTransactions(selection: Int, on canvas: inout some Canvas) {
    let size = canvas.size
    let rect = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
    let list = model.transactionList
    canvas.box(rect, title: words.transactionsTitle(selected: min(selection + 1, list.count), of: list.count))
    let statusRows = drawStatus(on: &canvas, rect: rect)
    let x = rect.x + 2
    let width = rect.width - 4
    guard list.count > 0 else {
      canvas.put(words.noTransactions, x: x, y: rect.y + 2, style: .muted)
      return drawKeys(on: &canvas, rect: rect)
    }
    let rows = max(1, rect.height - 3 - max(1, statusRows))
    // Pages: the one the selection is on, so PgDn shows the next page whole; the last page is
    // filled with the last transactions, so End shows a whole page too.
    let first = max(0, min(selection - selection % rows, list.count - rows))
    let page = list.newestFirst(first..<first + rows)
    let cells = [words.transactionColumns] + page.map(cells(of:))
    let lines = Self.table(cells, width: width, least: leastColumnWidths(list))
    canvas.put(lines[0], x: x, y: rect.y + 1, style: Style(tint: .accent, bold: true))
    for (offset, transaction) in page.enumerated() {
      let index = first + offset
      let style: Style = index == selection ? .focus : (transaction.awaitsFinish ? Style(tint: .warning) : .plain)
      canvas.put(lines[offset + 1], x: x, y: rect.y + 2 + offset, style: style)
    }
    let reserved = drawMoreMarkers(above: first > 0, below: first + rows < list.count, rect: rect, on: &canvas)
    drawKeys(on: &canvas, rect: rect, reserving: reserved)
  }

  /// Rows out of view are said on the box's edges, with the key that brings them (the transaction
  /// list's and a transaction detail's), as the walkthrough player says a panel's. Returns the
  /// columns the lower one takes from the footer.
  func drawMoreMarkers(above: Bool, below: Bool, rect: Rect, on canvas: inout some Canvas) -> Int {
    let marker = Style(tint: .warning, bold: true, reverse: true)
    if above {
      let text = " \(words.detailMoreAbove) "
      canvas.put(text, x: rect.x + rect.width - TextWidth.of(text) - 2, y: rect.y, style: marker)
    }
    guard below else { return 0 }
    let text = " \(words.detailMoreBelow) "
    canvas.put(text, x: rect.x + rect.width - TextWidth.of(text) - 2, y: rect.y + rect.height - 1, style: marker)
    return TextWidth.of(text) + 1
  }

  /// A transaction's row: id, product, quantity, state, finished, note.
  private func cells(of transaction: StoreTransaction) -> [String] {
    let note: String
    if let date = transaction.revocationDate {
      note = words.refunded(on: date)
    } else if transaction.hasPurchaseIssue {
      note = words.resolvedWith(key: words.key(.resolve, in: .transactions))
    } else if let failure = transaction.failure {
      // The error ID first: a narrow note column cuts the SKError code, never the ID a tester quotes.
      note = "\(failure.errorID) \(failure.code.label)"
    } else if let original = transaction.resolvedFromTransactionID {
      note = words.fromTransaction(original)
    } else if transaction.state == .deferred, !model.awaitsAnswer(transaction) {
      note = words.askToBuyDroppedNote
    } else {
      let answers = [ShopAction.approve, .decline].map { words.key($0, in: .transactions) }
      note = transaction.state == .deferred ? answers.joined(separator: "/") : ""
    }
    let finished = transaction.finished ? words.finished : (transaction.awaitsFinish ? words.unfinishedState : "—")
    return [
      transaction.id, transaction.productIdentifier, "\(transaction.quantity)",
      words.transactionState(transaction.state),
      finished, note,
    ]
  }

  /// The least width of each column but the note, whatever the page shows, so the columns stand
  /// still from page to page: the whole list's widest ID (the newest: numbers grow), the catalog's
  /// widest product identifier, and the widest word a state or the finished column can be.
  private func leastColumnWidths(_ list: TransactionList) -> [Int] {
    let widest = { (texts: [String]) in texts.map(TextWidth.of).max() ?? 0 }
    return [
      list.count > 0 ? TextWidth.of(list[newestFirst: 0].id) : 0,
      widest(model.catalog.products.map(\.productIdentifier)),
      0,
      widest(TransactionState.allCases.map(words.transactionState)),
      widest([words.finished, words.unfinishedState, "—"]),
    ]
  }

  /// The note's room that decides the gaps: a cancelled payment's, the commonest failure, whole
  /// (`MS-E0004 SKErrorDomain 2 paymentCancelled`), so at 100 columns it is whole with one space.
  static let noteRoom = 41

  /// Rows of cells as lines of `width` cells: each column but the last as wide as its widest cell
  /// on the page, and at least `least` (a product identifier at most 30), and a space, so the
  /// note, last, keeps the rest of the width (an error's ID and SKError code whole at 100 columns).
  static func table(_ rows: [[String]], width: Int, least: [Int] = []) -> [String] {
    let columns = max(0, (rows.map(\.count).max() ?? 0) - 1)
    let widths = (0..<columns).map { column in
      let widest = max(
        column < least.count ? least[column] : 0,
        rows.map { column < $0.count ? TextWidth.of($0[column]) : 0 }.max() ?? 0)
      return min(column == 1 ? 30 : widest, widest)
    }
    // Two spaces between columns where the note keeps its room, else one, so a long identifier
    // never runs into the quantity. Decided by the columns alone, not by the notes a page shows,
    // so paging moves no column.
    let gap = widths.reduce(0, +) + 2 * columns + Self.noteRoom <= width ? "  " : " "
    return rows.map { cells in
      let fixed = zip(cells, widths).map { TextWidth.fit($0, to: $1) + gap }.joined()
      return TextWidth.fit(fixed + (cells.count > columns ? cells[columns] : ""), to: width)
    }
  }

  /// Every condition with its value; the selected one can be changed with ← →.
  private func drawConditions(selection: Int, on canvas: inout some Canvas) {
    let conditions = Condition.allCases
    let rect = canvas.centered(width: 60, height: conditions.count + 4 + max(1, statusLines(width: 60 - 4).count))
    canvas.band(rect)
    canvas.box(rect, title: words.conditions)
    for (index, condition) in conditions.enumerated() {
      let y = rect.y + 2 + index
      let value = words.conditionValue(
        condition, condition.value(in: model.store.conditions, defaultStorefront: model.catalog.defaultStorefront))
      let selected = index == selection
      let line = TextWidth.fit(words.conditionName(condition), to: 22) + (selected ? "◀ \(value) ▶" : "  \(value)")
      canvas.put(line, x: rect.x + 3, y: y, width: rect.width - 6, style: selected ? .focus : .plain)
    }
    drawStatus(on: &canvas, rect: rect)
    drawKeys(on: &canvas, rect: rect)
  }

  /// Help, generated from the key map: every key of every part of the screen.
  private func drawHelp(on canvas: inout some Canvas) {
    let size = canvas.size
    // The whole screen (its footer says how to close it): at 80×24 the key map fills two columns of 22.
    let rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
    canvas.box(rect, title: words.help)
    // A heading (no keys) or a key line: its keys, then what they do.
    var lines: [(keys: String?, text: String)] = []
    // The keys that act everywhere close the storefront's own list, as Ctrl-C always did. Keys
    // another part of the screen takes (Enter in the walkthrough player's free play) are not listed
    // where they do not act.
    for context in KeyContext.allCases where ![.help, .confirmQuit, .confirmSwitch, .global].contains(context) {
      lines.append((nil, context.title.text(words.language)))
      let keys =
        KeyMap.helpLines(in: context, without: model.keysTaken[context] ?? [])
        + (context == .main ? KeyMap.helpLines(in: .global) : [])
      lines += keys.map { ($0.keys, $0.help.text(words.language)) }
    }
    let rows = rect.height - 2
    let columns = stride(from: 0, to: lines.count, by: rows).map { lines[$0..<min(lines.count, $0 + rows)] }
    // Each column's keys as wide as its longest and one space: its texts get the rest.
    let keyWidths = columns.map { column in 1 + (column.compactMap { $0.keys.map(TextWidth.of) }.max() ?? 0) }
    let widths = Self.columnWidths(
      zip(columns, keyWidths).map { column, keyWidth in
        column.map { ($0.keys == nil ? 0 : keyWidth) + TextWidth.of($0.text) }.max() ?? 0
      }, fitting: rect.width - 4, gap: 2)
    var x = rect.x + 2
    for ((column, keyWidth), width) in zip(zip(columns, keyWidths), widths) {
      for (row, line) in column.enumerated() {
        let y = rect.y + 1 + row
        if let keys = line.keys {
          canvas.put(TextWidth.fit(keys, to: keyWidth) + line.text, x: x, y: y, width: width, style: .plain)
        } else {
          canvas.put(line.text, x: x, y: y, width: width, style: Style(tint: .accent, bold: true))
        }
      }
      x += width + 2
    }
    drawKeys(on: &canvas, rect: rect)
  }

  /// Widths for columns of text side by side: each as wide as its longest line where all fit;
  /// otherwise the columns narrower than an equal share keep their width and the others share the
  /// rest, so a short column never leaves room unused while a long one is cut.
  static func columnWidths(_ natural: [Int], fitting available: Int, gap: Int) -> [Int] {
    var room = available - gap * max(0, natural.count - 1)
    guard natural.reduce(0, +) > room else { return natural }
    var widths = natural
    var open = Array(natural.indices)
    while !open.isEmpty {
      let share = room / open.count
      let fitting = open.filter { natural[$0] <= share }
      guard !fitting.isEmpty else {
        for index in open { widths[index] = share }
        break
      }
      for index in fitting { room -= natural[index] }
      open.removeAll { fitting.contains($0) }
    }
    return widths
  }

  /// A yes-or-no question (quit, switch StoreKit), its answer keys in its text.
  private func drawQuestion(_ text: String, on canvas: inout some Canvas) {
    let rect = canvas.centered(width: TextWidth.of(text) + 6, height: 5)
    canvas.band(rect)
    canvas.box(rect, title: "monkeyshop", style: Style(tint: .warning))
    canvas.put(text, x: rect.x + 3, y: rect.y + 2, style: .bold)
  }

  /// Whether the open overlay shows the status line inside itself, where the person is looking.
  static func showsStatus(_ overlay: ShopModel.Overlay?) -> Bool {
    switch overlay {
    case .paymentSheet, .transactions, .transactionDetail, .conditions: true
    case nil, .help, .confirmQuit, .confirmSwitch: false
    }
  }

  /// The status (what just happened, or why a key did nothing) wrapped to `width`, whole: an error
  /// ID at its end is never cut off. No rows without a status.
  func statusLines(width: Int) -> [String] {
    guard let status = model.status else { return [] }
    return ShopView.wrap(words.notice(status, title: model.title(of:)), width: width, lines: 6)
  }

  /// The status on the last rows inside the box, as many as it needs; returns how many it took.
  @discardableResult
  func drawStatus(on canvas: inout some Canvas, rect: Rect) -> Int {
    guard let status = model.status else { return 0 }
    let lines = statusLines(width: rect.width - 4).suffix(max(1, rect.height - 3))
    let top = rect.y + rect.height - 1 - lines.count
    for (offset, line) in lines.enumerated() {
      canvas.put(line, x: rect.x + 2, y: top + offset, width: rect.width - 4, style: status.tone.style)
    }
    return lines.count
  }

  /// The keys of the open overlay that can act now, on its bottom edge: each by its first key, so
  /// they fit (help lists the others). Help's key comes last where the edge has room for it whole,
  /// so a person inside the overlay sees help is there; the overlay's own keys come first.
  func drawKeys(on canvas: inout some Canvas, rect: Rect, reserving reserved: Int = 0) {
    var labels: [String] = []
    var previous: KeyBinding?
    let bindings = model.activeBindings
    let help = bindings.first { $0.action == .openHelp }
    for binding in bindings where binding.action != .openHelp {
      let hint = binding.hint.text(words.language)
      // ↑ and ↓ share one label: "↑↓ select".
      if binding.action == .selectNext, previous?.action == .selectPrevious, let last = previous {
        labels[labels.count - 1] = "\(last.keys[0].description)\(binding.keys[0].description) \(hint)"
      } else {
        labels.append("\(binding.keys[0].description) \(hint)")
      }
      previous = binding
    }
    let room = rect.width - 4 - reserved
    var text = " " + labels.joined(separator: " · ") + " "
    if let help {
      let withHelp =
        " "
        + (labels + ["\(help.keys[0].description) \(help.hint.text(words.language))"])
        .joined(separator: " · ") + " "
      if TextWidth.of(withHelp) <= room { text = withHelp }
    }
    canvas.put(
      TextWidth.truncate(text, to: room), x: rect.x + 2, y: rect.y + rect.height - 1, style: .muted
    )
  }
}
