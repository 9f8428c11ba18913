import Foundation

/// Everything the storefront knows, as plain values: `update` changes it, `view` draws it.
public struct ShopModel: Sendable {
  public enum ProductsState: Equatable, Sendable {
    case notRequested
    /// `canMakePayments` is false: no request is made (the sample's behaviour).
    case restricted
    case loading(answerAt: Date)
    case loaded(AppStore.ProductsResponse)
    case failed(ProductRequestError)
  }

  public struct PaymentSheet: Equatable, Sendable {
    public var productIdentifier: String
    public var quantity: Int
  }

  public enum Overlay: Equatable, Sendable {
    case paymentSheet(PaymentSheet)
    case transactions(selection: Int)
    case conditions(selection: Int)
    case help
    case confirmQuit
  }

  public enum Tone: Sendable {
    case info, success, warning, failure
  }

  /// The line under the log that says what just happened.
  public struct Status: Equatable, Sendable {
    public var text: String
    public var tone: Tone
  }

  public let catalog: Catalog
  public let words: Words
  /// When the app launched: log times count from here.
  public internal(set) var launchDate: Date
  public internal(set) var now: Date

  public internal(set) var store = StoreState()
  public internal(set) var balance = 0
  public internal(set) var products = ProductsState.notRequested
  public internal(set) var selection = 0
  public internal(set) var quantity = 1
  public internal(set) var overlay: Overlay?
  public internal(set) var status: Status?
  public internal(set) var log: [LogEntry] = []
  /// Every entry ever recorded, including those the capped log has dropped.
  public private(set) var recordedCount = 0
  public internal(set) var vocabulary = Vocabulary.storeKit1
  /// Transactions this session added and the store has not answered yet.
  public internal(set) var inFlight: [String: Date] = [:]
  /// Transactions delivered again at launch, unfinished from an earlier run.
  public internal(set) var redelivered: Set<String> = []
  /// The transaction the last payment of this session became.
  public internal(set) var lastAddedTransactionID: String?
  /// Transactions being delivered or finished now, so a second notice does not start it twice.
  var handling: Set<String> = []
  public internal(set) var isFinished = false
  /// The last failure this session, for a headless command's message and exit status.
  public internal(set) var lastFailure: (id: ErrorID, text: String)?
  /// Set when the store could not answer the purchases in flight: no more answers are awaited
  /// (which would retry a failing write forever) until the data folder is read again.
  public internal(set) var answersHeld = false
  /// Whether to request products at launch: the storefront does, a headless `buy` does not.
  let requestsProducts: Bool

  public static let logLimit = 500

  public init(catalog: Catalog, language: Language, now: Date, requestsProducts: Bool = true) {
    self.catalog = catalog
    self.words = Words(language)
    self.launchDate = now
    self.now = now
    self.requestsProducts = requestsProducts
  }

  // MARK: Derived

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
  func whyNotBuyable(_ product: Product?) -> String? {
    guard let product else { return words.notAvailable }
    switch products {
    case .restricted: return words.restricted
    case .notRequested, .loading: return words.productsLoading
    case .failed: return words.requestFailed
    case .loaded(let response):
      guard response.contains(product.productIdentifier) else {
        return words.invalidProduct(product.productIdentifier)
      }
      return canMakePayments ? nil : words.restricted
    }
  }

  /// What the buy button of a product reads.
  public func buyButton(_ product: Product) -> String {
    switch products {
    case .restricted: return words.appStoreDisabled
    case .notRequested, .loading: return words.loading
    case .failed: return words.networkDown
    case .loaded(let response):
      guard response.contains(product.productIdentifier), let price = product.displayPrice(in: storefront)
      else { return words.notAvailable }
      return canMakePayments ? words.buy(price) : words.appStoreDisabled
    }
  }

  /// The product bought by the `5` / `0` keys: the one granting that many credits.
  func product(granting credits: Int) -> Product? {
    catalog.products.first { $0.credits == credits }
  }

  public var isPurchaseInFlight: Bool { !inFlight.isEmpty }

  public var unfinishedCount: Int { store.unfinished.count }

  /// Transactions newest first, as the transaction manager lists them.
  public var transactionsNewestFirst: [StoreTransaction] { store.transactions.reversed() }

  // MARK: Time

  static let spinnerInterval: TimeInterval = 0.125

  /// When the model next needs a tick: a product request's answer or the progress spinner.
  public var nextDeadline: Date? {
    var deadlines: [Date] = []
    if case .loading(let answerAt) = products { deadlines.append(answerAt) }
    if let started = inFlight.values.min() {
      let elapsed = now.timeIntervalSince(started)
      let frame = (elapsed / Self.spinnerInterval).rounded(.down) + 1
      deadlines.append(started.addingTimeInterval(frame * Self.spinnerInterval))
    }
    return deadlines.min()
  }

  // MARK: Recording

  mutating func record(_ event: LogEvent) {
    log.append(LogEntry(time: now, event: event))
    recordedCount += 1
    if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
  }

  /// A failure the user must see: logged with its error ID, shown, and kept for the exit status.
  mutating func fail(_ id: ErrorID, _ text: String) {
    lastFailure = (id, text)
    record(.error(id, text))
    say(text, .failure)
  }

  mutating func say(_ text: String, _ tone: Tone) {
    status = Status(text: text, tone: tone)
  }

  mutating func setNow(_ date: Date) { now = max(now, date) }
}
