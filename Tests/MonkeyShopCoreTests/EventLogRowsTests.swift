import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The event log's rows as a person reads them: every entry whole or begun with its time, a
/// Japanese entry wrapped as cleanly as an English one, and one clock for the screen and the file.
@Suite(.tags(.screen)) struct EventLogRowsTests {
  /// The rows under the event log's rule, up to the status line.
  static func logLines(_ screen: TextGrid) -> [String] {
    let lines = screen.lines
    guard let rule = lines.firstIndex(where: { $0.contains("StoreKit events") || $0.contains("StoreKit イベント") })
    else { return [] }
    return Array(lines[(rule + 1)..<(lines.count - 2)])
  }

  static func startsWithTime(_ line: String) -> Bool {
    line.range(of: #"^ \d\d:\d\d\.\d\d\d "#, options: .regularExpression) != nil
  }

  @Test func afterScrollingTheTopRowOfTheLogAlwaysBeginsAnEntry() {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, balance: 3)
    // Cancelled purchases log entries that wrap onto a second row at 80 columns.
    for _ in 0..<4 {
      shop.press("5")
      shop.press(.escape)
      shop.press("s")
    }
    var model = shop.model
    model.screenSize = ScreenSize(width: 80, height: 24)
    #expect(model.logScrollLimit > 4)
    for scroll in 0...model.logScrollLimit {
      model.logScroll = scroll
      var grid = TextGrid(size: ScreenSize(width: 80, height: 24))
      ShopView(model: model).draw(on: &grid)
      let log = Self.logLines(grid)
      #expect(log.first.map(Self.startsWithTime) == true, "scrolled back \(scroll):\n\(grid)")
      #expect(!log.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "scrolled back \(scroll):\n\(grid)")
    }
  }

  @Test(arguments: [Language.en, .ja])
  func scrolledBackTheTopEntryIsWholeAndHomeShowsTheFirst(language: Language) throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, balance: 3, language: language)
    // Cancelled purchases and spends: entries of one row and of two, mixed.
    for _ in 0..<6 {
      shop.press("5")
      shop.press(.escape)
      shop.press("s")
    }
    var model = shop.model
    model.screenSize = ScreenSize(width: 80, height: 24)
    let first = try #require(model.log.first).text(language)
    for scroll in 1...model.logScrollLimit {
      model.logScroll = scroll
      var grid = TextGrid(size: ScreenSize(width: 80, height: 24))
      ShopView(model: model).draw(on: &grid)
      let log = Self.logLines(grid)
      #expect(log.first.map(Self.startsWithTime) == true, "scrolled back \(scroll):\n\(grid)")
      // The top entry is whole: its rows up to the next entry's time say all of it, uncut.
      let top = log.prefix { $0 == log.first || !Self.startsWithTime($0) }
      #expect(!top.contains { $0.contains("…") }, "scrolled back \(scroll):\n\(grid)")
      #expect(!log.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "scrolled back \(scroll):\n\(grid)")
      if scroll == model.logScrollLimit {
        #expect(log.first?.contains(String(first.prefix(20))) == true, "Home does not show the first entry:\n\(grid)")
      }
    }
  }

  @Test func aJapaneseEntryWrapsWithoutABlankRowAndIsNotCut() throws {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, language: .ja)
    shop.press(.down, .down, .enter)
    shop.press(.enter)
    shop.wait(0.1)
    var screen = shop.screen()
    for _ in 0..<10 where !screen.contains("すべてのダウンロードが終わるまで") {
      shop.press(.pageUp)
      screen = shop.screen()
    }
    let log = Self.logLines(screen)
    let note = try #require(log.firstIndex { $0.contains("すべてのダウンロードが終わるまで") }, "\(screen)")
    let rows = log[note...].prefix { $0 == log[note] || !Self.startsWithTime($0) }
    #expect(!rows.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "a blank row:\n\(screen)")
    #expect(!rows.contains { $0.contains("…") }, "cut:\n\(screen)")
    #expect(rows.joined().contains("ダウンロード)"), "the entry's end:\n\(screen)")
  }

  @Test(arguments: [40, 50, 68, 76])
  func wrappingKeepsEveryCharacterOnRowsThatFit(width: Int) {
    let words = Words(.ja)
    for text in [words.downloadNote(.finishAfterDownloads), Words(.en).downloadNote(.finishAfterDownloads)] {
      let rows = ShopView.wrap(text, width: width, lines: 10)
      #expect(rows.allSatisfy { TextWidth.of($0) <= width }, "\(rows)")
      #expect(!rows.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(rows)")
      let joined = rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
      #expect(joined.filter { $0 != " " } == text.filter { $0 != " " }, "\(rows)")
    }
  }

  @Test func theJSONLinesLogAndTheScreenCountTheSameMilliseconds() {
    // A launch date with a fraction of a second, as a real one has: a `Date` a whole number of
    // milliseconds later can come back a hair short of it.
    let launch = Date(timeIntervalSince1970: 1_800_000_000.123_456)
    for milliseconds in 0..<3000 {
      let entry = LogEntry(time: launch.addingTimeInterval(Double(milliseconds) / 1000), event: .observerAdded)
      let json = LogRecord(entry, launchDate: launch, language: .en).ms
      #expect(json == milliseconds)
      let shown = String(format: "00:%02d.%03d", milliseconds / 1000, milliseconds % 1000)
      #expect(LogClock.format(from: launch, to: entry.time) == shown)
      if json != milliseconds { break }
    }
  }

  /// The JSON log's `time` and its `ms` agree: 2026-01-01T00:00:00Z plus 400 ms is written `.400`,
  /// though the `Date` holds a hair less.
  @Test func theJSONLinesLogsTimeAgreesWithItsMilliseconds() {
    let launch = Date(timeIntervalSince1970: 1_767_225_600)
    for milliseconds in 0..<3000 {
      let entry = LogEntry(time: launch.addingTimeInterval(Double(milliseconds) / 1000), event: .observerAdded)
      let record = LogRecord(entry, launchDate: launch, language: .en)
      let expected = String(format: "2026-01-01T00:00:%02d.%03dZ", milliseconds / 1000, milliseconds % 1000)
      #expect(record.time == expected && record.ms == milliseconds)
      if record.time != expected { break }
    }
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
  }
}
