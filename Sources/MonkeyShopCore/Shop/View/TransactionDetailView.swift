import Foundation

/// The transaction manager's detail of one transaction: what the App Store signed for it (the
/// decoded payload), what verifying it gives the app, and which StoreKit 2 sequences hold it.
extension OverlayView {
  func drawTransactionDetail(on canvas: inout some Canvas) {
    let size = canvas.size
    let rect = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
    guard let inspection = model.inspection, let selection = model.managerSelection else { return }
    let list = model.transactionList
    let transaction = inspection.transaction
    canvas.box(rect, title: words.detailTitle(transaction, selected: selection + 1, of: list.count))
    let statusRows = drawStatus(on: &canvas, rect: rect)
    let x = rect.x + 2
    let width = rect.width - 4
    let bottom = rect.y + rect.height - 1 - max(1, statusRows)
    var y = rect.y + 1
    /// Puts each line on its own row while there is room; false once the box is full.
    func put(_ lines: [String], style: Style = .plain) {
      for line in lines where y < bottom {
        canvas.put(line, x: x, y: y, width: width, style: style)
        y += 1
      }
    }
    let summary = [
      "\(transaction.productIdentifier) ×\(transaction.quantity)", words.transactionState(transaction.state),
      transaction.finished ? words.finished : (transaction.awaitsFinish ? words.unfinishedState : "—"),
      transaction.isRevoked ? transaction.revocationDate.map(words.refunded(on:)) ?? "" : "",
    ].filter { !$0.isEmpty }.joined(separator: " · ")
    put([summary], style: .bold)
    guard let payload = inspection.payload else {
      put(ShopView.wrap(words.notSigned, width: width, lines: 4), style: .muted)
      return drawKeys(on: &canvas, rect: rect)
    }
    put(
      ShopView.wrap(words.verification(inspection.verifies), width: width, lines: 2),
      style: Style(tint: inspection.verifies ? .success : .warning))
    put([words.sequences(inspection.sequences)], style: Style(tint: .accent))
    let consumable = model.catalog.product(transaction.productIdentifier)?.credits != nil
    put(
      ShopView.wrap(
        words.sequencesWhy(
          consumable: consumable, includeConsumableHistory: model.store.conditions.includeConsumableHistory),
        width: width, lines: 2),
      style: .muted)
    put([words.payloadHeading], style: Style(tint: .accent, bold: true))
    put(Self.flow(payload.lines, width: width))
    put(ShopView.wrap(words.jwsHint, width: width, lines: 2), style: .muted)
    drawKeys(on: &canvas, rect: rect)
  }

  /// `key: value` lines two to a row where both fit in half the width, in their order.
  static func flow(_ lines: [String], width: Int) -> [String] {
    let half = (width - 2) / 2
    var rows: [String] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if index + 1 < lines.count, TextWidth.of(line) <= half, TextWidth.of(lines[index + 1]) <= half {
        rows.append(TextWidth.fit(line, to: half) + "  " + lines[index + 1])
        index += 2
      } else {
        rows.append(line)
        index += 1
      }
    }
    return rows
  }
}
