import Foundation
import MonkeyShopDomain

/// Everything the storefront knows, as plain values: `update` changes it, `view` draws it.
public struct ShopModel: Sendable {
  public enum ProductsState: Equatable, Sendable {
    case notRequested
    /// `canMakePayments` is false: no request is made (the sample's behaviour).
    case restricted
    /// Asked; the App Store answers at this model time.
    case loading(answerAt: Int)
    case loaded(AppStore.ProductsResponse)
    case failed(ProductRequestError)
  }

  /// The App Store's payment sheet for a payment already in the queue: it shows the payment's
  /// product and quantity, and its answer decides what becomes of that transaction.
  public struct PaymentSheet: Equatable, Sendable {
    public var transactionID: String
    public var productIdentifier: String
    public var quantity: Int

    public init(transactionID: String, productIdentifier: String, quantity: Int) {
      self.transactionID = transactionID
      self.productIdentifier = productIdentifier
      self.quantity = quantity
    }

    init(_ transaction: StoreTransaction) {
      self.init(
        transactionID: transaction.id, productIdentifier: transaction.productIdentifier,
        quantity: transaction.quantity)
    }
  }

  /// A purchase the app will pay for once the App Store has returned its product.
  public struct PendingPurchase: Equatable, Sendable {
    public let productIdentifier: String
    public let quantity: Int
  }

  public indirect enum Overlay: Equatable, Sendable {
    case paymentSheet(PaymentSheet)
    case transactions(selection: Int)
    /// The transaction manager showing one transaction whole: its signed payload, whether it
    /// verifies, and which StoreKit 2 sequences hold it.
    case transactionDetail(selection: Int)
    case conditions(selection: Int)
    /// Help, opened from anywhere: it closes back to the overlay it was opened over (nil: the
    /// storefront).
    case help(over: Overlay? = nil)
    /// `q` mid-purchase asks first; kept shopping, it closes back to where it was asked (the
    /// payment sheet, or nil: the storefront).
    case confirmQuit(over: Overlay? = nil)
    /// StoreKit switched mid-purchase (`l`, or the conditions panel's StoreKit row): the switch
    /// restarts the app, so it asks first. Answered, it closes back to where it was asked (nil: the
    /// storefront).
    case confirmSwitch(over: Overlay? = nil)

    /// A question about the purchase in flight: the status beneath it, which describes that
    /// purchase, stays while it is asked.
    var asksAboutThePurchase: Bool {
      switch self {
      case .confirmQuit, .confirmSwitch: true
      default: false
      }
    }
  }

  public let catalog: Catalog
  public private(set) var words: Words
  /// When the app launched: model time counts from here.
  public let launchDate: Date
  /// Model time: whole milliseconds since launch, as the last message said.
  public internal(set) var now = 0

  /// Keys another part of the screen takes before the storefront, by the part of the storefront
  /// where it takes them (the walkthrough player's Enter and Space on the storefront and the
  /// payment sheet in free play, where they step no more): the hint bar, an overlay's footer and
  /// help name only the storefront's other key for the same action (`y buy` on the payment sheet).
  public var keysTaken: [KeyContext: Set<Key>] = [:]
  public internal(set) var store = StoreState()
  /// Every transaction as read when the transaction manager last opened (the history included).
  public internal(set) var transactionHistory: [StoreTransaction] = []
  public internal(set) var balance = 0
  public internal(set) var products = ProductsState.notRequested
  public internal(set) var selection = 0
  /// Each product row's quantity, by product identifier (1 where none was set): `+`/`−` change the
  /// selected row's, and a buy key pays for its own row's.
  public internal(set) var quantities: [String: Int] = [:]
  public internal(set) var overlay: Overlay? {
    // Another transaction's detail, or another panel, shows from its top; help opened over the
    // detail and closed again leaves it where it was.
    didSet {
      guard overlay != oldValue else { return }
      if case .help(let beneath) = overlay, beneath == oldValue { return }
      if case .help(let beneath) = oldValue, beneath == overlay { return }
      detailScroll = 0
    }
  }
  /// How many of the open transaction detail's rows are scrolled out of view above (PgDn).
  public internal(set) var detailScroll = 0
  /// The screen's size, as the terminal last said; nil where there is no screen (headless commands).
  public internal(set) var screenSize: ScreenSize?
  public internal(set) var status: Notice?
  public internal(set) var log: [LogEntry] = []
  /// How many of the newest log entries are scrolled out of view below (PgUp); 0 follows the end.
  public internal(set) var logScroll = 0
  /// Every entry ever recorded, including those the capped log has dropped.
  public private(set) var recordedCount = 0
  /// The StoreKit the app is written with, as the store's conditions say.
  public var storeKit: StoreKitAPI { store.conditions.storeKit }
  /// Transactions this session added and the store has not answered yet, with when they were added.
  public internal(set) var inFlight: [String: Int] = [:]
  /// Transactions delivered again at launch, unfinished from an earlier run.
  public internal(set) var redelivered: Set<String> = []
  /// The transaction the last payment of this session became.
  public internal(set) var lastAddedTransactionID: String?
  /// Transactions being delivered or finished now, so a second notice does not start it twice.
  var settling: Set<String> = []
  public internal(set) var isFinished = false
  /// The last failure this session, for a headless command's message and exit status.
  public internal(set) var lastFailure: ShopFailure?
  /// Set when the store could not answer the purchases in flight: no more answers are awaited
  /// (which would retry a failing write forever) until the data folder is read again.
  public internal(set) var answersHeld = false
  /// Whether to request products at launch: the storefront does, a headless `buy` does not. The
  /// storefront is also the one with a screen to show the App Store's payment sheet on.
  let requestsProducts: Bool
  /// A headless `buy` waiting for its product request's answer before it adds the payment.
  public internal(set) var pendingPurchase: PendingPurchase?
  /// The app's user on the developer's service, as a UUID: passed with every purchase, StoreKit 2's
  /// `.appAccountToken(_:)` purchase option or StoreKit 1's `applicationUsername`
  /// (https://developer.apple.com/documentation/storekit/product/purchaseoption/appaccounttoken(_:),
  /// https://developer.apple.com/documentation/storekit/skmutablepayment/applicationusername).
  /// Nil: the app passes none.
  public internal(set) var appAccountToken: UUID?
  /// The identifiers the product request in flight asked for.
  var requestedIdentifiers: [String] = []
  /// A crash point armed for this run only (`buy --crash`), on top of the store's condition.
  public internal(set) var armedCrash: CrashPoint?
  /// Where the app died, once it has.
  public internal(set) var crashed: CrashPoint?
  /// The non-consumables the app owns, as `owned.json` and this session's deliveries say.
  public internal(set) var owned = OwnedProducts()
  /// The `SKDownload`s of this run (StoreKit 1), oldest first.
  public internal(set) var downloads: [Download] = []
  /// What this session did with transactions: what a headless command reports.
  public internal(set) var settlements = Settlements()
  /// The App Store Server's side as the log last showed it: the store's notifications when last
  /// seen, how many send attempts of each notification the log has shown, and the lines waiting
  /// for the notifications that ended meanwhile to be read (so the lines come in order).
  var serverSeen = MonkeyShopDomain.NotificationQueue()
  var serverAttemptsShown: [Int: Int] = [:]
  var serverLinesWaiting: [(date: Date, event: LogEvent)] = []
  /// The App Store Server Notifications about the transaction whose detail is open, as last read.
  public internal(set) var detailNotifications: (transactionID: String, listings: [NotificationListing])?

  public static let logLimit = 500

  public var language: Language { words.language }

  /// The same storefront, its text in another language: the walkthrough player shows it in the
  /// language asked for while its checks read the walkthrough's own.
  public func speaking(_ language: Language) -> ShopModel {
    var copy = self
    copy.words = Words(language)
    return copy
  }

  public init(
    catalog: Catalog, language: Language, launchDate: Date, requestsProducts: Bool = true,
    armedCrash: CrashPoint? = nil
  ) {
    self.catalog = catalog
    self.words = Words(language)
    self.launchDate = launchDate
    self.requestsProducts = requestsProducts
    self.armedCrash = armedCrash
  }

  // MARK: Derived

  /// The status line as the storefront shows it, for a headless command to print.
  public var statusText: String? { status.map { words.notice($0, title: title(of:)) } }

  public var storefront: Storefront {
    store.conditions.activeStorefront(default: catalog.defaultStorefront)
  }

  public var canMakePayments: Bool { store.conditions.purchasesAllowed }

  public var selectedProduct: Product? {
    catalog.products.indices.contains(selection) ? catalog.products[selection] : nil
  }

  /// Products the App Store answered for, or nil while there is no answer.
  public var response: AppStore.ProductsResponse? {
    if case .loaded(let response) = products { return response }
    return nil
  }

  /// Why a product cannot be bought now, or nil when it can.
  func whyNotBuyable(_ product: Product?) -> Reason? {
    guard let product else { return .noSuchProduct }
    switch products {
    case .restricted: return .restricted
    case .notRequested, .loading: return .productsLoading
    case .failed: return .requestFailed
    case .loaded(let response):
      guard response.contains(product.productIdentifier) else {
        return .invalidProduct(product.productIdentifier)
      }
      return canMakePayments ? nil : .restricted
    }
  }

  /// What the buy button of a product reads.
  public func buyButton(_ product: Product) -> BuyButton {
    switch products {
    case .restricted: return .appStoreDisabled
    case .notRequested, .loading: return .loading
    case .failed: return .networkDown
    case .loaded(let response):
      guard response.contains(product.productIdentifier), let price = product.displayPrice(in: storefront)
      else { return .notAvailable }
      return canMakePayments ? .buy(price: price) : .appStoreDisabled
    }
  }

  /// A product's title in the storefront's language; its identifier if the catalog lacks it.
  func title(of identifier: String) -> String {
    catalog.product(identifier)?.localization(words.language.rawValue).title ?? identifier
  }

  /// The product bought by the `5` / `0` keys: the one granting that many credits.
  func product(granting credits: Int) -> Product? {
    catalog.products.first { $0.credits == credits }
  }

  public var isPurchaseInFlight: Bool { !inFlight.isEmpty || pendingPurchase != nil }
  /// Whether a purchase is under way: in flight, or its payment sheet waiting for an answer.
  var isMidPurchase: Bool { isPurchaseInFlight || store.transactions.contains(where: \.awaitsPaymentSheet) }

  public var unfinishedCount: Int { store.unfinished.count }

  // MARK: The event log

  /// The log's rows on the screen as it is now (80×24 where there is no screen), as the layout
  /// gives them.
  var logRows: Int { logArea.rows }

  var logArea: ShopLayout.LogArea {
    ShopLayout(model: self, size: screenSize.map { $0.isLargeEnough ? $0 : .minimum } ?? .minimum).log
  }

  /// How far back the log can scroll: to where its first entry is at the top, with the entries
  /// after it that fit whole below it (some take two or three rows).
  var logScrollLimit: Int {
    let area = logArea
    let fitting = ShopView.entriesFittingFromTheStart(self, rows: area.rows, width: area.width - ShopView.logTextX)
    return max(0, log.count - fitting)
  }

  /// The first entry the log shows whole when `end` entries are up to its bottom.
  func firstLogEntryShown(end: Int) -> Int {
    let area = logArea
    return ShopView.firstEntryShown(self, end: end, rows: area.rows, width: area.width - ShopView.logTextX)
  }

  /// The furthest the log's bottom can go past entry `end - 1` with entry `top` still shown whole.
  func furthestLogEnd(after end: Int, keepingFrom top: Int) -> Int {
    let area = logArea
    let (rows, width) = (area.rows, area.width - ShopView.logTextX)
    var next = end
    while next < log.count, ShopView.firstEntryShown(self, end: next + 1, rows: rows, width: width) <= top { next += 1 }
    return next
  }

  // MARK: Time

  /// Milliseconds between two frames of the progress spinner.
  static let spinnerInterval = 125

  /// The moment of a model time, for the store, which keeps dates.
  public func date(at time: Int) -> Date { launchDate.addingTimeInterval(Double(time) / 1000) }

  /// How far apart two dates may be and still be the same moment. A `Date` is a floating-point
  /// count of seconds (about 0.24 µs apart in this century) and the store file keeps seconds since
  /// 1970, so a date read back from it can differ from the one written in its last bits.
  static let dateNoise: TimeInterval = 0.000_001

  /// The model time of a date: the last whole millisecond reached by then (give or take the noise).
  public func time(at date: Date) -> Int { milliseconds(to: date, rounding: .down) }

  /// The model time a tick must reach for a date to have come: the first whole millisecond not
  /// before it (give or take the noise).
  public func deadline(for date: Date) -> Int { milliseconds(to: date, rounding: .up) }

  private func milliseconds(to date: Date, rounding: FloatingPointRoundingRule) -> Int {
    // A date from a hand-edited store may lie millennia away: time stays within what an Int holds.
    let exact = min(max(date.timeIntervalSince(launchDate) * 1000, -Self.farthest), Self.farthest)
    let nearest = exact.rounded()
    return Int(abs(exact - nearest) * 0.001 <= Self.dateNoise ? nearest : exact.rounded(rounding))
  }

  /// 2^53 ms, some 285,000 years: farther than any date means anything to the shop.
  static let farthest = 9_007_199_254_740_992.0

  /// Whether the store has a payment whose answer is due by now.
  var answersDue: Bool {
    guard !answersHeld, let first = store.nextAnswerDate else { return false }
    return deadline(for: first) <= now
  }

  /// The latest date of a store answer due by now, with the noise a date read back may carry.
  var answersDueDate: Date { date(at: now).addingTimeInterval(Self.dateNoise) }

  /// When the model next needs a tick: a product request's answer, a payment's answer, or the
  /// progress spinner's next frame.
  public var nextDeadline: Int? {
    var deadlines: [Int] = []
    if case .loading(let answerAt) = products { deadlines.append(answerAt) }
    if !answersHeld, let answer = store.nextAnswerDate { deadlines.append(deadline(for: answer)) }
    deadlines += downloads.compactMap(\.nextStepAt)
    if let started = inFlight.values.min() {
      let frames = max(0, now - started) / Self.spinnerInterval + 1
      deadlines.append(started + frames * Self.spinnerInterval)
    }
    return deadlines.min()
  }

  // MARK: Recording

  mutating func record(_ event: LogEvent) {
    log.append(LogEntry(time: date(at: now), event: event, api: storeKit))
    recordedCount += 1
    // A view scrolled back stays on what it shows; one at the end follows the new entry.
    if logScroll > 0 { logScroll = min(logScroll + 1, Self.logLimit - 1) }
    if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
  }

  mutating func note(_ note: LogNote) { record(.note(note)) }

  /// A failure the user must see: logged with its error ID, shown, and kept for the exit status.
  mutating func fail(_ failure: ShopFailure) {
    lastFailure = failure
    record(.error(failure))
    status = .failed(failure)
  }

  /// Time moves only forward: a message from the past does not turn the clock back.
  mutating func advanceClock(to time: Int) { now = max(now, time) }
}
