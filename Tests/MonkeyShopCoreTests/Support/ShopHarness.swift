import Foundation

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// The storefront on a manual clock and memory storage: keys in, cells out.
final class ShopHarness {
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let catalog = try! CatalogLoader.load(path: repositoryRoot.appendingPathComponent("products.plist").path)
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  let storage: MemoryStorage
  /// What the app writes through: the memory storage, or a failure when `failWrites` is set.
  let disk: SwitchableStorage
  var now = ShopHarness.start
  private(set) var runtime: ShopRuntime
  private(set) var crashes: [CrashPoint] = []
  let language: Language

  init(
    conditions: (inout Conditions) -> Void = { _ in }, balance: Int = 0, language: Language = .en,
    launch: Bool = true
  ) {
    var store = StoreState()
    conditions(&store.conditions)
    storage = MemoryStorage(store: store, wallet: Wallet(balance: balance))
    disk = SwitchableStorage(storage)
    self.language = language
    runtime = ShopRuntime(catalog: Self.catalog, storage: disk, language: language, launchDate: now, onCrash: { _ in })
    if launch { self.launch() }
  }

  /// Starts the app and lets its launch work (the product request) finish.
  func launch(settle: Bool = true) {
    runtime = ShopRuntime(
      catalog: Self.catalog, storage: disk, language: language, launchDate: now,
      onCrash: { [unowned self] point in crashes.append(point) })
    runtime.start(now: now)
    if settle { wait(Latency.slow.productRequest) }
  }

  var model: ShopModel { runtime.model }

  func press(_ keys: Key...) {
    for key in keys { runtime.handle(key, now: now) }
  }

  func press(_ characters: String) {
    for character in characters { runtime.handle(.character(character), now: now) }
  }

  /// Lets virtual time pass, visiting every deadline on the way.
  func wait(_ seconds: TimeInterval) {
    now = now.addingTimeInterval(seconds)
    runtime.run(until: runtime.model.time(at: now))
  }

  /// Another process changed the store (a headless `store` command).
  func changeStore(_ body: (inout AppStore) throws -> Void) throws {
    _ = try storage.changeStore(catalog: Self.catalog, body)
    runtime.folderChanged(now: now)
  }

  func screen(_ width: Int = 80, _ height: Int = 24) -> TextGrid {
    var grid = TextGrid(size: ScreenSize(width: width, height: height))
    runtime.draw(on: &grid)
    return grid
  }

  var eventNames: [String] { model.log.map(\.event.name) }
}
