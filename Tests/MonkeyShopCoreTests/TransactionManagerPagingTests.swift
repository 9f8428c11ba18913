import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The transaction manager lists every transaction ever made, newest first, a page at a time.
@Suite("Transaction manager: every transaction, paged", .tags(.screen))
struct TransactionManagerPagingTests {
  /// A storefront whose data folder has seen `count` purchases, delivered and finished.
  /// A storefront whose data folder has seen `count` purchases, delivered and finished (those
  /// numbered in `failing` failed, and finished).
  static func shop(after count: Int, failing: Set<Int> = []) throws -> ShopHarness {
    let shop = ShopHarness(launch: false)
    let catalog = ShopHarness.catalog
    for index in 0..<count {
      let (transaction, _) = try shop.storage.changeStore(catalog: catalog) { store in
        store.state.conditions.latency = .instant
        if failing.contains(index + 1) { store.state.conditions.failNext = .storeKit(.unknown) }
        let now = ShopHarness.start.addingTimeInterval(Double(index - count))
        _ = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: now)
        return store.advance(to: now)[0]
      }
      if transaction.state == .purchased {
        _ = try CreditManager(storage: shop.storage, catalog: catalog).deliver(transaction)
      }
      _ = try shop.storage.changeStore(catalog: catalog) { try $0.finish(transaction.id) }
    }
    shop.launch()
    return shop
  }

  /// The transaction IDs listed on the screen, top to bottom.
  static func listedIDs(_ screen: TextGrid) -> [String] {
    screen.lines.dropFirst(3).compactMap { line in
      let cells = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true)
      guard cells.count > 1, cells[1].hasPrefix("com.monkeyshop"), Int(cells[0]) != nil else { return nil }
      return String(cells[0])
    }
  }

  @Test("31 transactions: End shows a whole page, the last 18 with the oldest at the bottom")
  func theLastPageIsFull() throws {
    let shop = try Self.shop(after: 31)
    shop.press(.tab, .end)
    let screen = shop.screen()
    #expect(screen.text.contains("Transactions (31) · 31 of 31"), "\(screen.text)")
    #expect(Self.listedIDs(screen) == (1...18).reversed().map(String.init), "\(screen.text)")
    // PgUp from there: the page before, whole.
    shop.press(.pageUp)
    #expect(Self.listedIDs(shop.screen()) == (14...31).reversed().map(String.init), "\(shop.screen().text)")
  }

  /// Columns stand still from page to page: the ID column is as wide as the widest ID of the
  /// whole list, and a long note on one page does not narrow the gaps there.
  @Test(arguments: [(105, [Int]()), (34, [33])])
  func columnsStayPutFromPageToPage(count: Int, failing: [Int]) throws {
    let shop = try Self.shop(after: count, failing: Set(failing))
    shop.press(.tab)
    let first = shop.screen().lines
    #expect(first.contains { $0.contains("MS-E") } == !failing.isEmpty, "\(first.joined(separator: "\n"))")
    shop.press(.end)
    let last = shop.screen().lines
    #expect(last.contains { $0.contains(" 1 ") }, "\(last.joined(separator: "\n"))")
    // The heading, and where each row's product starts.
    #expect(first[2] == last[2], "\(first[2])\n\(last[2])")
    let productColumn = { (lines: [String]) in
      Set(
        lines.compactMap { line in
          line.range(of: "com.monkeyshop").map { TextWidth.of(String(line[..<$0.lowerBound])) }
        })
    }
    #expect(productColumn(first).count == 1 && productColumn(first) == productColumn(last), "\(first)\n\(last)")
  }

  @Test(
    "60 transactions, 40 of them in the history: all listed newest first, PgDn/PgUp page, End/Home jump, N of M shown")
  func paging() throws {
    let shop = try Self.shop(after: 60)
    #expect(shop.storage.store.transactions.count == 20)
    shop.press(.tab)
    #expect(shop.storage.historyReads == 1)
    var screen = shop.screen()
    #expect(screen.text.contains("Transactions (60) · 1 of 60"), "\(screen.text)")
    let page = Self.listedIDs(screen)
    #expect(page.first == "60" && page.count == 18, "\(page)")
    #expect(page == (43...60).reversed().map(String.init))

    shop.press(.pageDown)
    screen = shop.screen()
    #expect(screen.text.contains("Transactions (60) · 19 of 60"), "\(screen.text)")
    #expect(Self.listedIDs(screen) == (25...42).reversed().map(String.init))

    shop.press(.end)
    screen = shop.screen()
    #expect(screen.text.contains("Transactions (60) · 60 of 60"), "\(screen.text)")
    #expect(Self.listedIDs(screen).last == "1")
    #expect(shop.model.selectedTransaction?.id == "1")

    shop.press(.pageUp)
    #expect(shop.screen().text.contains("· 42 of 60"))
    shop.press(.home)
    #expect(shop.screen().text.contains("· 1 of 60"))
    #expect(shop.model.selectedTransaction?.id == "60")
  }

  @Test(
    "a purchase while the manager is open adds to the list and loses none, though it moves the oldest to the history")
  func purchaseWhileOpen() throws {
    let shop = try Self.shop(after: 25)
    shop.press(.tab)
    shop.press(.end)
    #expect(shop.model.selectedTransaction?.id == "1")
    shop.runtime.send(.purchase(productIdentifier: "com.monkeyshop.credits.5", quantity: 1))
    shop.wait(2)
    #expect(shop.storage.store.transaction("6") == nil, "moved to the history")
    #expect(shop.model.transactionList.count == 26)
    #expect(shop.screen().text.contains("Transactions (26)"), "\(shop.screen().text)")
    #expect(shop.model.selectedTransaction?.id == "1", "the selection stays on the transaction chosen")
    shop.press(.end)
    #expect(shop.model.selectedTransaction?.id == "1")
    #expect(shop.model.transactionList[newestFirst: 0].id == "26")
  }

  @Test("paging keys still scroll the event log on the storefront, and do nothing in the payment sheet")
  func pagingElsewhere() throws {
    let shop = try Self.shop(after: 0)
    shop.press(.end)
    #expect(shop.model.status == .cannot(keys: "End", .logAtEnd))
    shop.press("5")
    shop.press(.pageDown)
    #expect(shop.model.status == .cannot(keys: "PgDn", .notInThisOverlay))
  }
}
