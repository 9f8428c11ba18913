import Foundation
import MonkeyShopDomain

/// The transaction manager's detail of one transaction: what the App Store signed for it (the
/// decoded payload), what verifying it gives the app, and which StoreKit 2 sequences hold it.
extension OverlayView {
  /// Rows of the detail, each part's lines in its style.
  private struct Part {
    let lines: [String]
    var style: Style = .plain
    /// Whether the first line is the part's heading, drawn as one.
    var headed = false
  }

  /// The detail's box on a screen, its rows (every one: a detail taller than its box scrolls, it
  /// leaves nothing out), how many of them the box shows at once and how many are out of view.
  struct DetailLayout {
    let transaction: StoreTransaction
    let rect: Rect
    let rows: [(text: String, style: Style)]
    let room: Int
    var hidden: Int { max(0, rows.count - room) }
  }

  func detailLayout(size: ScreenSize) -> DetailLayout? {
    let rect = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
    guard let inspection = model.inspection else { return nil }
    let statusRows = model.status == nil ? 0 : statusLines(width: rect.width - 4).suffix(max(1, rect.height - 3)).count
    let room = max(1, rect.height - 2 - max(1, statusRows))
    let rows = detailParts(inspection, width: rect.width - 4).flatMap { part in
      part.lines.enumerated().map { index, line in
        (line, part.headed && index == 0 ? Style(tint: .accent, bold: true) : part.style)
      }
    }
    return DetailLayout(transaction: inspection.transaction, rect: rect, rows: rows, room: room)
  }

  func drawTransactionDetail(on canvas: inout some Canvas) {
    guard let selection = model.managerSelection, let layout = detailLayout(size: canvas.size) else { return }
    let rect = layout.rect
    canvas.box(
      rect,
      title: words.detailTitle(layout.transaction, selected: selection + 1, of: model.transactionList.count))
    drawStatus(on: &canvas, rect: rect)
    let scroll = min(model.detailScroll, layout.hidden)
    for (offset, row) in layout.rows.dropFirst(scroll).prefix(layout.room).enumerated() {
      canvas.put(row.text, x: rect.x + 2, y: rect.y + 1 + offset, width: rect.width - 4, style: row.style)
    }
    let reserved = drawMoreMarkers(above: scroll > 0, below: scroll < layout.hidden, rect: rect, on: &canvas)
    drawKeys(on: &canvas, rect: rect, reserving: reserved)
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
    parts.append(Part(lines: ShopView.wrap(why, width: width, lines: 2), style: .muted))
    parts.append(Part(lines: [words.payloadHeading], style: Style(tint: .accent, bold: true)))
    parts.append(Part(lines: Self.flow(payload.lines, width: width)))
    if let notifications = model.detailNotifications, notifications.transactionID == transaction.id,
      !notifications.listings.isEmpty
    {
      let url = model.store.notifications.url
      let lines = notifications.listings.map { words.serverNotification($0, url: url) }
      parts.append(Part(lines: [words.serverNotificationsHeading] + lines, headed: true))
    }
    parts.append(Part(lines: ShopView.wrap(words.jwsHint, width: width, lines: 2), style: .muted))
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

extension ShopModel {
  /// Rows of the open transaction detail out of its box on the screen as it is now (80×24 where
  /// there is no screen): PgDn and End scroll to them.
  var detailHiddenRows: Int {
    OverlayView(model: self).detailLayout(size: screenSize.map { $0.isLargeEnough ? $0 : .minimum } ?? .minimum)?
      .hidden ?? 0
  }

  /// The screen height at which the open transaction detail shows every row without scrolling, at
  /// a width: how tall the walkthrough player draws the storefront it windows.
  public func transactionDetailHeight(width: Int) -> Int? {
    guard case .transactionDetail = overlay else { return nil }
    let view = OverlayView(model: self)
    guard let layout = view.detailLayout(size: ScreenSize(width: width, height: ScreenSize.minimum.height)) else {
      return nil
    }
    return ScreenSize.minimum.height + layout.hidden
  }
}
