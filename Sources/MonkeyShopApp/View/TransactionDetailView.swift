import Foundation
import MonkeyShopDomain

/// The transaction manager's detail of one transaction: what the App Store signed for it (the
/// decoded payload), what verifying it gives the app, and which StoreKit 2 sequences hold it.
extension OverlayView {
  /// Rows of the detail; an explanation may be left out when the box cannot hold everything,
  /// never a field of the payload.
  private struct Part {
    let lines: [String]
    var style: Style = .plain
    var explains = false
    /// Whether the first line is the part's heading, drawn as one.
    var headed = false
  }

  func drawTransactionDetail(on canvas: inout some Canvas) {
    let size = canvas.size
    let rect = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
    guard let inspection = model.inspection, let selection = model.managerSelection else { return }
    let transaction = inspection.transaction
    canvas.box(
      rect, title: words.detailTitle(transaction, selected: selection + 1, of: model.transactionList.count))
    let statusRows = drawStatus(on: &canvas, rect: rect)
    let width = rect.width - 4
    let room = rect.height - 2 - max(1, statusRows)
    var parts = detailParts(inspection, width: width)
    // What does not fit: the explanations go first, from the last.
    while parts.reduce(0, { $0 + $1.lines.count }) > room, let index = parts.lastIndex(where: \.explains) {
      parts.remove(at: index)
    }
    var y = rect.y + 1
    for part in parts {
      for (index, line) in part.lines.enumerated() where y < rect.y + 1 + room {
        let style = part.headed && index == 0 ? Style(tint: .accent, bold: true) : part.style
        canvas.put(line, x: rect.x + 2, y: y, width: width, style: style)
        y += 1
      }
    }
    drawKeys(on: &canvas, rect: rect)
  }

  private func detailParts(_ inspection: TransactionInspection, width: Int) -> [Part] {
    let transaction = inspection.transaction
    let summary = [
      "\(transaction.productIdentifier) ×\(transaction.quantity)", words.transactionState(transaction.state),
      transaction.finished ? words.finished : (transaction.awaitsFinish ? words.unfinishedState : "—"),
      transaction.resolvedFromTransactionID.map(words.fromTransaction) ?? "",
      transaction.revocationDate.map(words.refunded(on:)) ?? "",
    ].filter { !$0.isEmpty }.joined(separator: " · ")
    var parts = [Part(lines: ShopView.wrap(summary, width: width, lines: 2), style: .bold)]
    if let failure = transaction.failure {
      parts.append(
        Part(
          lines: ShopView.wrap("\(failure.errorID) \(failure.code.label) — \(failure.message)", width: width, lines: 3),
          style: Style(tint: .warning)))
    }
    guard let payload = inspection.payload else {
      parts.append(Part(lines: ShopView.wrap(words.notSigned, width: width, lines: 4), style: .muted))
      return parts
    }
    parts.append(
      Part(
        lines: ShopView.wrap(words.verification(inspection.verifies), width: width, lines: 2),
        style: Style(tint: inspection.verifies ? .success : .warning)))
    parts.append(Part(lines: [words.sequences(inspection.sequences)], style: Style(tint: .accent)))
    let why = words.sequencesWhy(
      consumable: inspection.consumable, includeConsumableHistory: model.store.conditions.includeConsumableHistory,
      restores: transaction.restoredTransactionID)
    parts.append(Part(lines: ShopView.wrap(why, width: width, lines: 2), style: .muted, explains: true))
    parts.append(Part(lines: [words.payloadHeading], style: Style(tint: .accent, bold: true)))
    parts.append(Part(lines: Self.flow(payload.lines, width: width)))
    if let notifications = model.detailNotifications, notifications.transactionID == transaction.id,
      !notifications.listings.isEmpty
    {
      // Left out whole, as an explanation is, where the box cannot hold it: the payload comes first.
      let url = model.store.notifications.url
      let lines = notifications.listings.map { words.serverNotification($0, url: url) }
      parts.append(Part(lines: [words.serverNotificationsHeading] + lines, explains: true, headed: true))
    }
    parts.append(Part(lines: ShopView.wrap(words.jwsHint, width: width, lines: 2), style: .muted, explains: true))
    return parts
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
