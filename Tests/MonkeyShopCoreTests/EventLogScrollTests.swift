import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The event log scrolls back with PgUp/PgDn/Home/End; a view scrolled back stays put.
@Suite(.tags(.screen)) struct EventLogScrollTests {
  /// A storefront with a long log: ten spends after buying ten credits.
  static func busyShop() -> ShopHarness {
    let shop = ShopHarness(conditions: { $0.latency = .instant }, balance: 20)
    shop.runtime.resized(ScreenSize(width: 80, height: 24), now: shop.now)
    for _ in 0..<12 { shop.press("s") }
    return shop
  }

  static func logLines(_ screen: TextGrid) -> [String] {
    let lines = screen.lines
    guard let rule = lines.firstIndex(where: { $0.contains("StoreKit events") }) else { return [] }
    return Array(lines[(rule + 1)...].prefix { !$0.hasPrefix(" 5 buy-5") && !$0.hasPrefix(" Fed the monkey") })
  }

  @Test func pageUpShowsOlderEventsAndSaysSo() {
    let shop = Self.busyShop()
    #expect(shop.screen().contains("balance 8"))
    shop.press(.pageUp)
    let screen = shop.screen()
    #expect(!screen.contains("balance 8"), "the newest event is scrolled out of view\n\(screen)")
    #expect(screen.contains("newer below · End follows"), "\(screen)")
    shop.press(.home)
    #expect(shop.screen().contains("SKPaymentQueue.default().add(observer)"), "Home: the first event")
    shop.press(.pageUp)
    #expect(shop.screen().contains("PgUp: the event log shows its first event"))
    shop.press(.end)
    #expect(shop.screen().contains("balance 8"))
    #expect(!shop.screen().contains("newer below"))
    shop.press(.pageDown)
    #expect(shop.screen().contains("PgDn: the event log shows its newest event"))
  }

  /// Each entry's first row on the screen: its time and the start of its text.
  static func entryStarts(_ screen: TextGrid) -> Set<String> {
    Set(logLines(screen).filter { $0.hasPrefix(" 00:") }.map { String($0.prefix(40)) })
  }

  @Test(
    "PgUp to the first entry, then PgDn to the last, shows every entry: none wrapped onto several rows is skipped",
    arguments: [Language.en, .ja])
  func pagingSkipsNoEntry(language: Language) {
    // An interrupted purchase logs entries three rows long at 80×24, beside one-row ones.
    let shop = ShopHarness(conditions: { $0.interruptedPurchases = true }, language: language)
    shop.runtime.resized(ScreenSize(width: 80, height: 24), now: shop.now)
    for _ in 0..<2 {
      shop.press("5")
      shop.press(.enter)
      shop.wait(3)
    }
    let everyEntry = Self.entryStarts(shop.screen(80, 200))
    var seenUp = Self.entryStarts(shop.screen())
    for _ in 0..<40 where !shop.screen().text.contains("PgUp:") {
      shop.press(.pageUp)
      seenUp.formUnion(Self.entryStarts(shop.screen()))
    }
    #expect(everyEntry.subtracting(seenUp).isEmpty, "never on screen paging up: \(everyEntry.subtracting(seenUp))")
    var seenDown = Self.entryStarts(shop.screen())
    for _ in 0..<40 where !shop.screen().text.contains("PgDn:") {
      shop.press(.pageDown)
      seenDown.formUnion(Self.entryStarts(shop.screen()))
    }
    #expect(
      everyEntry.subtracting(seenDown).isEmpty, "never on screen paging down: \(everyEntry.subtracting(seenDown))")
  }

  /// 40 entries, each one or three rows long at 80 columns, in the order `seed` gives.
  static func seededLog(_ seed: UInt64, at time: Date) -> [LogEntry] {
    var state = seed
    return (0..<40).map { index in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let long = (state >> 33) % 3 == 0
      let product =
        long ? (0..<12).map { "com.monkeyshop.entry\(index).\($0)" }.joined(separator: " ") : "entry\(index)"
      return LogEntry(time: time, event: .paymentAdded(productIdentifier: product, quantity: 1))
    }
  }

  /// Logs of one- and three-row entries in every order a few seeds give: from the first entry,
  /// PgDn after PgDn shows every entry whole at some point, and each page keeps the previous
  /// page's bottom entry at its top when the next entry fits beside it.
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func pageDownShowsEveryEntryWhole(seed: UInt64) {
    var model = ShopModelUpdateTests.shop()
    _ = model.update(.resized(ScreenSize(width: 80, height: 24)))
    model.log = Self.seededLog(seed, at: model.launchDate)
    let heights = Set(
      model.log.map { ShopView.logRows(of: $0, model, width: model.logArea.width - ShopView.logTextX).count })
    #expect(heights == [1, 3], "the log mixes one- and three-row entries: \(heights)")
    _ = ShopModelUpdateTests.press(&model, .home)
    var end = model.log.count - model.logScroll
    var seen = Set(model.firstLogEntryShown(end: end)..<end)
    for _ in 0..<40 where model.logScroll > 0 {
      _ = ShopModelUpdateTests.press(&model, .pageDown)
      let next = model.log.count - model.logScroll
      let top = model.firstLogEntryShown(end: next)
      #expect(top <= end, "entry \(end) was never shown: the page after it starts at \(top)")
      seen.formUnion(top..<next)
      end = next
    }
    #expect(model.logScroll == 0)
    #expect(seen == Set(model.log.indices), "never shown whole: \(Set(model.log.indices).subtracting(seen).sorted())")
  }

  /// The same logs from the end: PgUp after PgUp brings an older entry into view every time (a
  /// press that changes only the header's count looks like a key that did nothing), and shows
  /// every entry whole at some point.
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func pageUpAlwaysShowsAnOlderEntry(seed: UInt64) {
    var model = ShopModelUpdateTests.shop()
    _ = model.update(.resized(ScreenSize(width: 80, height: 24)))
    model.log = Self.seededLog(seed, at: model.launchDate)
    var top = model.firstLogEntryShown(end: model.log.count)
    var seen = Set(top..<model.log.count)
    for _ in 0..<40 where model.logScroll < model.logScrollLimit {
      _ = ShopModelUpdateTests.press(&model, .pageUp)
      let end = model.log.count - model.logScroll
      let first = model.firstLogEntryShown(end: end)
      #expect(first < top, "PgUp showed nothing older: the top entry stayed \(top)")
      #expect(end >= top, "entry \(end) was skipped: the page above \(top) ends before it")
      seen.formUnion(first..<end)
      top = first
    }
    #expect(model.logScroll == model.logScrollLimit)
    #expect(seen == Set(model.log.indices), "never shown whole: \(Set(model.log.indices).subtracting(seen).sorted())")
  }

  @Test func newEventsDoNotYankAScrolledBackView() {
    let shop = Self.busyShop()
    shop.press(.pageUp)
    let before = Self.logLines(shop.screen())
    shop.press("s")
    #expect(Self.logLines(shop.screen()) == before, "the same events stay in view")
    #expect(shop.screen().contains("3 newer below") || shop.screen().contains("newer below"))
    shop.press(.end)
    shop.press("s")
    #expect(shop.screen().contains("balance 6"), "at the end the log follows new events")
  }

  @Test func aLongLogLineWrapsAndKeepsItsCode() {
    let shop = ShopHarness()
    shop.press("5")
    shop.press(.escape)
    let screen = shop.screen()
    #expect(screen.contains(".failed payment 1 SKErrorDomain") && screen.contains("  2 paymentCancelled"), "\(screen)")
    #expect(!screen.lines.contains { $0.contains("…") && $0.contains("SKErrorDomain") }, "\(screen)")
  }

  @Test func aWideScreenShowsTheLogBesideTheProducts() throws {
    let shop = ShopHarness()
    shop.press("j++0")
    shop.press(.enter)
    shop.wait(2)
    let screen = shop.screen(200, 60)
    let products = try #require(screen.lines.firstIndex { $0.contains("10 Monkey Credits") })
    #expect(screen.line(products).contains("00:0"), "a log entry on the product's row\n\(screen)")
    #expect(screen.line(2).contains("StoreKit events"), "the log starts beside the balance")
    try Golden.check(screen.text, named: "purchased-200x60")
  }
}
