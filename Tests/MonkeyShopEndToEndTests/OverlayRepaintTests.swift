import Foundation
import Testing

/// What the terminal shows after overlays open and close is what the storefront drew: tmux's pane,
/// cell for cell, against the frame the storefront also writes as text (`MONKEYSHOP_SCREEN_DUMP`,
/// the in-memory grid the golden screens are made of). A wide character cut by a box's edge, a
/// border piece never repainted, a row shifted by a cell: the pane and the grid then differ.
@Suite("Overlays repaint in tmux", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct OverlayRepaintTests {
  enum Setting: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case english, japanese, wideTitles

    var testDescription: String { rawValue }
  }

  /// An overlay: the keys that open it, what it alone shows once open (in either language; the
  /// event log may show "App Store" or "#2" too), and the keys that close it again.
  struct Overlay: Sendable {
    let open: [String]
    let shows: String
    let close: [String]
  }

  /// Every overlay but the quit question (which needs a purchase in flight): the conditions panel,
  /// the transaction manager, a transaction's detail (Esc goes back to the list, then closes it),
  /// help, and the payment sheet of each buy key.
  static let overlays: [Overlay] = [
    Overlay(open: ["c"], shows: "◀", close: ["Escape"]),
    Overlay(open: ["Tab"], shows: "│ # ", close: ["Escape"]),
    // The newest transaction, the purchase: a cancelled payment that came after would have no payload.
    Overlay(open: ["Tab", "Enter"], shows: "VerificationResult", close: ["Escape", "Escape"]),
    Overlay(open: ["?"], shows: "Ctrl-C", close: ["Escape"]),
    Overlay(open: ["5"], shows: "┌─ App Store", close: ["Escape"]),
    Overlay(open: ["0"], shows: "┌─ App Store", close: ["Escape"]),
    Overlay(open: ["Enter"], shows: "┌─ App Store", close: ["Escape"]),
    Overlay(open: ["b"], shows: "┌─ App Store", close: ["Escape"]),
  ]

  @Test(
    "each overlay opens and closes with the pane showing exactly the storefront's frame", arguments: Setting.allCases)
  func overlaysLeaveNothingBehind(_ setting: Setting) async throws {
    let folder = try ShopFolder("overlays-\(setting)")
    let dump = folder.root.appendingPathComponent("frame.txt").path
    var catalog = Locations.catalog
    var arguments: [String] = []
    switch setting {
    case .english: break
    case .japanese: arguments = ["--lang", "ja"]
    case .wideTitles:
      catalog = try Self.wideTitleCatalog(in: folder)
    }
    // Slow: a purchase stays in flight for 8 s, long enough to look at the quit question.
    let slow = try await monkeyshop("store", "set", "latency", "slow", "--catalog", catalog, in: folder)
    #expect(slow.exitStatus == 0, "\(slow)")
    let tmux = try await TmuxSession(folder: folder, width: 80, height: 24)
    defer { tmux.close() }
    try await tmux.launchStorefront(arguments, environment: ["MONKEYSHOP_SCREEN_DUMP": dump], catalog: catalog)
    try await Self.waitForPaneToMatch(tmux, dump: dump, showing: "$1.99")
    // A cancelled purchase, so the transaction manager has a row to draw.
    try await tmux.press("5")
    try await Self.waitForPaneToMatch(tmux, dump: dump, showing: "App Store")
    try await tmux.press("Escape")
    try await Self.waitForPaneToMatch(tmux, dump: dump, hiding: "App Store")

    // The quit question, over a purchase in flight; then the purchase, the newest transaction,
    // is the one whose detail opens.
    try await tmux.press("5")
    try await Self.waitForPaneToMatch(tmux, dump: dump, showing: "App Store")
    // Buy and q in one write: on a loaded machine, waiting for the pane between them could outlast
    // the purchase's 8 s, and q would then quit without a question.
    try await tmux.press("Enter", "q")
    try await Self.waitForPaneToMatch(tmux, dump: dump, showing: "(y/n)")
    try await tmux.press("Escape")
    try await Self.waitForPaneToMatch(tmux, dump: dump, hiding: "┌")
    try await tmux.waitForScreen("the purchase to finish", timeout: .seconds(15)) { screen in
      screen.showsBalance(5) && screen.balanceLine.map { !$0.contains("purchasing") && !$0.contains("購入中") } == true
    }

    for overlay in Self.overlays {
      for key in overlay.open { try await tmux.press(key) }
      try await Self.waitForPaneToMatch(tmux, dump: dump, showing: overlay.shows)
      for key in overlay.close { try await tmux.press(key) }
      try await Self.waitForPaneToMatch(tmux, dump: dump, hiding: "┌")
    }
    // A resize repaints everything; the rows must still agree after it.
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "100", "-y", "30")
    try await Self.waitForPaneToMatch(tmux, dump: dump, size: (100, 30))
    try await tmux.press("?")
    try await Self.waitForPaneToMatch(tmux, dump: dump, showing: "Ctrl-C")
    try await tmux.press("Escape")
    try await Self.waitForPaneToMatch(tmux, dump: dump, hiding: "┌")
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
  }

  /// Waits until the dumped frame is the one asked for (it holds `showing`, lacks `hiding`, has the
  /// size), then until the pane shows exactly that frame; fails with both when they never agree.
  static func waitForPaneToMatch(
    _ tmux: TmuxSession, dump: String, showing: String? = nil, hiding: String? = nil, size: (Int, Int)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    var frame: [String] = []
    var pane: [String] = []
    while ContinuousClock.now < deadline {
      frame = lines(of: (try? String(contentsOfFile: dump, encoding: .utf8)) ?? "")
      let text = frame.joined(separator: "\n")
      let wanted =
        showing.map(text.contains) ?? true && !(hiding.map(text.contains) ?? false)
        && size.map { frame.count == $0.1 } ?? true
      if wanted {
        pane = lines(of: try await tmux.screen().text)
        if pane == frame { return }
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    let differing = (0..<max(frame.count, pane.count)).filter { index in
      (frame.indices.contains(index) ? frame[index] : nil) != (pane.indices.contains(index) ? pane[index] : nil)
    }
    Issue.record(
      """
      the pane never showed the storefront's frame (rows \(differing) differ).
      frame:
      \(frame.joined(separator: "\n"))
      pane:
      \(pane.joined(separator: "\n"))
      """, sourceLocation: sourceLocation)
  }

  /// Rows without trailing spaces, as `capture-pane -p` prints them.
  static func lines(of text: String) -> [String] {
    var rows = text.components(separatedBy: "\n").map { row in
      String(row.reversed().drop { $0 == " " }.reversed())
    }
    if rows.last == "" { rows.removeLast() }
    return rows
  }

  /// The shipped catalog with an English title in full-width letters and one of emoji sequences:
  /// a family joined by U+200D, a skin tone, a flag with a variation selector.
  static func wideTitleCatalog(in folder: ShopFolder) throws -> String {
    var text = try String(contentsOfFile: Locations.catalog, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "<string>5 Monkey Credits</string>",
      with: "<string>ＦＵＬＬ　ＷＩＤＴＨ Monkey Credits ５ with a long full-width tail ＡＢＣＤＥＦＧＨＩＪＫ</string>")
    text = text.replacingOccurrences(
      of: "<string>10 Monkey Credits</string>",
      with: "<string>👨‍👩‍👧‍👦 Family 10 🧑🏽‍🚀 Credits 🏳️‍🌈 and more 👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻</string>")
    let path = folder.root.appendingPathComponent("wide.plist").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
