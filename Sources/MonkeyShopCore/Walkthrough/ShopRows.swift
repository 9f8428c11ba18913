import Foundation

/// The storefront in fewer rows than it lays itself out in: the player's band takes the bottom of
/// an 80×24 terminal, and the storefront needs 24 rows. It is drawn at full height off screen,
/// then the rows a person misses least are left out until it fits: the hint bar (the band lists the
/// keys that act), blank rows, then the oldest lines of the event log, so the newest events, the
/// balance and the status stay in sight. Only when none of those is left are the bottom rows cut.
/// An open overlay (the payment sheet, the transaction manager) is drawn over the result at the
/// height that is left, so it lays itself out whole rather than losing rows.
struct ShopRows {
  /// Draws `model`'s storefront in the top `rows` rows of `canvas`.
  static func draw(_ model: ShopModel, on canvas: inout some Canvas, rows: Int, keepsHintBar: Bool) {
    let width = canvas.size.width
    var underneath = model
    underneath.overlay = nil
    let size = ScreenSize(width: width, height: max(rows, ScreenSize.minimum.height))
    var grid = TextGrid(size: size)
    ShopView(model: underneath).draw(on: &grid)
    // The hint bar lists the keys of the overlay that is open: it comes from the screen with it.
    var whole = TextGrid(size: size)
    if keepsHintBar { ShopView(model: model).draw(on: &whole) }
    ShopRows(grid: grid, keepsHintBar: keepsHintBar).draw(on: &canvas, rows: rows, hintBar: whole)
    var region = RegionCanvas(base: canvas, size: ScreenSize(width: width, height: rows))
    OverlayView(model: model).draw(on: &region)
    canvas = region.base
  }

  /// The storefront as drawn at full height.
  let grid: TextGrid
  /// Whether the hint bar (the last row) must stay: in free play the storefront's keys act.
  let keepsHintBar: Bool

  /// The rows of `grid` to show, top to bottom, at most `count`.
  func rows(fitting count: Int) -> [Int] {
    var kept = Array(0..<grid.size.height)
    var excess = kept.count - count
    guard excess > 0 else { return kept }
    func drop(_ row: Int) {
      guard excess > 0, let index = kept.firstIndex(of: row) else { return }
      kept.remove(at: index)
      excess -= 1
    }
    if !keepsHintBar { drop(grid.size.height - 1) }
    for row in kept.reversed() where isBlank(row) { drop(row) }
    // The oldest log lines, keeping the newest one.
    let logRows = kept.filter { Self.isLogLine(grid.line($0)) }
    for row in logRows.dropLast() { drop(row) }
    return Array(kept.prefix(count))
  }

  /// Copies the rows that fit onto the top `count` rows of `canvas`, the hint bar from `hintBar`.
  func draw(on canvas: inout some Canvas, rows count: Int, hintBar: TextGrid) {
    let last = grid.size.height - 1
    for (y, row) in rows(fitting: count).enumerated() {
      copy(row: row, of: row == last ? hintBar : grid, to: y, on: &canvas)
    }
  }

  private func isBlank(_ row: Int) -> Bool {
    grid.cells[row].allSatisfy { $0.text == " " && $0.style == .plain }
  }

  /// A line of the event log: ` 01:02.250  …`, as the storefront writes its times (`LogClock`).
  static func isLogLine(_ line: String) -> Bool {
    line.prefixMatch(of: /^ \d{2,}:\d{2}\.\d{3}\s\s/) != nil
  }

  /// One row, a run of text per style, so the canvas sees the same text and styles the storefront
  /// put there (the right half of a wide character comes with its left half).
  private func copy(row: Int, of grid: TextGrid, to y: Int, on canvas: inout some Canvas) {
    var run = ""
    var runStart = 0
    var runStyle = Style.plain
    for (x, cell) in grid.cells[row].enumerated() where !cell.text.isEmpty {
      if cell.style != runStyle, !run.isEmpty {
        canvas.put(run, x: runStart, y: y, style: runStyle)
        run = ""
      }
      if run.isEmpty {
        runStart = x
        runStyle = cell.style
      }
      run += cell.text
    }
    if !run.isEmpty { canvas.put(run, x: runStart, y: y, style: runStyle) }
  }
}
