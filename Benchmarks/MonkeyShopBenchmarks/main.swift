// In-process benchmarks: durable delivery beside a raw durable write, its growth with past
// transactions, a 10,000-product catalog (read by the shop's own XML reader and by Foundation's),
// and the walkthrough library. Run through Benchmarks/run, which also measures the storefront in a
// pseudo-terminal; `--catalog-readers` runs the catalog readers alone.
import Foundation
import MonkeyShopCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--write-catalog", let path = arguments.dropFirst().first {
  _ = try bigCatalog(10_000, at: path)
  exit(0)
}
if arguments.first == "--catalog-readers" {
  try compareCatalogReaders()
  exit(0)
}
let repository = URL(fileURLWithPath: arguments.first ?? ".")
let catalog = try CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)
let start = Date(timeIntervalSince1970: 1_800_000_000)

// MARK: Measuring

struct Sample {
  var seconds: [Double]
  var median: Double { percentile(0.5) }
  var p99: Double { percentile(0.99) }
  func percentile(_ p: Double) -> Double {
    let sorted = seconds.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
  }
}

func time(_ body: () throws -> Void) rethrows -> Double {
  var begin = timespec()
  var end = timespec()
  clock_gettime(CLOCK_MONOTONIC, &begin)
  try body()
  clock_gettime(CLOCK_MONOTONIC, &end)
  return Double(end.tv_sec - begin.tv_sec) + Double(end.tv_nsec - begin.tv_nsec) / 1e9
}

func sample(_ iterations: Int, setup: (Int) throws -> Void = { _ in }, _ body: (Int) throws -> Void) rethrows -> Sample
{
  var seconds: [Double] = []
  for index in 0..<iterations {
    try setup(index)
    seconds.append(try time { try body(index) })
  }
  return Sample(seconds: seconds)
}

func format(_ seconds: Double) -> String {
  seconds < 1e-3 ? String(format: "%.1f µs", seconds * 1e6) : String(format: "%.2f ms", seconds * 1e3)
}

func report(_ name: String, _ value: String) {
  print(name.padding(toLength: 52, withPad: " ", startingAt: 0) + value)
}

func temporaryFolder(_ name: String) -> String {
  let path = NSTemporaryDirectory() + "monkeyshop-bench-\(getpid())-\(name)"
  try? FileManager.default.removeItem(atPath: path)
  try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

// MARK: Durable writes

/// The floor: write a wallet-sized file to a temporary name, fsync, rename, fsync the folder.
func rawDurableWrite(folder: String, bytes: Data) {
  let path = folder + "/raw.json"
  let temporary = path + ".tmp"
  let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  fsync(fd)
  close(fd)
  rename(temporary, path)
  let directory = open(folder, O_RDONLY | O_DIRECTORY)
  fsync(directory)
  close(directory)
}

/// The state a data folder is left in after `count` purchases delivered and finished.
func history(_ count: Int) throws -> MemoryStorage {
  let storage = MemoryStorage()
  let credits = CreditManager(storage: storage, catalog: catalog)
  for index in 0..<count {
    let transaction = try storage.update { state, _ in
      var store = AppStore(state: state, catalog: catalog)
      store.state.conditions.latency = .instant
      let now = start.addingTimeInterval(Double(index))
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: now)
      let answered = store.advance(to: now)
      state = store.state
      return answered[0]
    }
    _ = try credits.deliver(transaction)
    try storage.update { state, _ in
      var store = AppStore(state: state, catalog: catalog)
      try store.finish(transaction.id)
      state = store.state
    }
  }
  return storage
}

/// Per transaction: the store answers (not timed), then the app credits and finishes (timed),
/// each beside a raw durable write in the same iteration, so both see the same disk.
func deliveries(in folder: DataFolder, rawFolder: String, iterations: Int) throws -> (delivery: Sample, raw: Sample) {
  let credits = CreditManager(storage: folder, catalog: catalog)
  let bytes = try JSONEncoder().encode(Wallet(balance: 12345))
  var delivery: [Double] = []
  var raw: [Double] = []
  for index in 0..<iterations {
    raw.append(time { rawDurableWrite(folder: rawFolder, bytes: bytes) })
    let (transaction, _) = try folder.changeStore(catalog: catalog) { store in
      store.state.conditions.latency = .instant
      let now = start.addingTimeInterval(1e6 + Double(index))
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: now)
      return store.advance(to: now)[0]
    }
    delivery.append(
      try time {
        _ = try credits.deliver(transaction)
        _ = try folder.changeStore(catalog: catalog) { try $0.finish(transaction.id) }
      })
  }
  return (Sample(seconds: delivery), Sample(seconds: raw))
}

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

let iterations = 200
let rawFolder = temporaryFolder("raw")
print("Durable delivery: credit the wallet, then finish in the store; two files, each written")
print("temp + fsync + rename + fsync folder. Raw: one such write of a wallet-sized file.")
for past in [10, 1_000, 100_000] {
  let memory = try history(past)
  let folder = DataFolder(path: temporaryFolder("delivery-\(past)"))
  try folder.update { store, wallet in
    store = memory.store
    wallet = memory.wallet
  }
  let (delivery, raw) = try deliveries(in: folder, rawFolder: rawFolder, iterations: iterations)
  let sizes = "wallet \(fileSize(folder.walletPath)) B, store \(fileSize(folder.storePath)) B"
  report(
    "durable delivery, \(past) past transactions",
    "median \(format(delivery.median))  p99 \(format(delivery.p99))  raw \(format(raw.median))  "
      + String(format: "%.2f× raw, %.2f× per file", delivery.median / raw.median, delivery.median / raw.median / 2)
      + "  (\(sizes))")
  if past == 100_000 {
    let lockAndRead = try sample(iterations) { _ in try folder.update { _, _ in } }
    report("  of which: lock + read both files, no write", "median \(format(lockAndRead.median))")
  }
}

// MARK: A 10,000-product catalog

func bigCatalog(_ count: Int, at path: String? = nil) throws -> String {
  let products: [[String: Any]] = (0..<count).map { index in
    [
      "productIdentifier": "com.monkeyshop.bulk.\(index)", "type": "consumable", "credits": index % 50 + 1,
      "localizations": ["en": ["title": "Bulk pack \(index)", "description": "Credits in bulk, pack \(index)"]],
      "prices": ["USA": "0.99", "JPN": "160"],
    ]
  }
  let data = try PropertyListSerialization.data(
    fromPropertyList: ["products": products], format: .xml, options: 0)
  let path = path ?? temporaryFolder("catalog") + "/products.plist"
  try data.write(to: URL(fileURLWithPath: path))
  return path
}

/// A product as `PropertyListDecoder` reads it.
struct DecodedProduct: Decodable {
  struct Localization: Decodable {
    let title: String
    let description: String
  }
  let productIdentifier: String
  let type: String
  let credits: Int
  let localizations: [String: Localization]
  let prices: [String: String]
  let availableInStore: Bool?
}

struct DecodedCatalog: Decodable {
  let products: [DecodedProduct]
  let defaultStorefront: String?
}

/// The same 10,000-product catalog read by the shop's XML reader and by Foundation's two readers,
/// each to the values it gives (no validation), and by the whole catalog loader.
func compareCatalogReaders() throws {
  let data = try Data(contentsOf: URL(fileURLWithPath: try bigCatalog(10_000)))
  let iterations = 15
  let fast = try sample(iterations) { _ in
    guard XMLPropertyList.parse(data) is [String: Any] else { throw CocoaError(.propertyListReadCorrupt) }
  }
  let serialization = try sample(iterations) { _ in
    _ = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
  }
  let decoder = try sample(iterations) { _ in
    _ = try PropertyListDecoder().decode(DecodedCatalog.self, from: data)
  }
  let loader = try sample(iterations) { _ in _ = try CatalogLoader.parse(data, path: "products.plist") }
  let size = String(format: "%.1f MB", Double(data.count) / 1e6)
  report("10,000-product catalog, XMLPropertyList", "median \(format(fast.median))  (\(size) of XML)")
  for (name, reader) in [("PropertyListSerialization", serialization), ("PropertyListDecoder", decoder)] {
    report(
      "10,000-product catalog, \(name)",
      "median \(format(reader.median))  " + String(format: "%.1f× XMLPropertyList", reader.median / fast.median))
  }
  report("10,000-product catalog, CatalogLoader.parse", "median \(format(loader.median))  (reader and checks)")
}

try compareCatalogReaders()
let bigPath = try bigCatalog(10_000)
var big: Catalog!
let load = time { big = try! CatalogLoader.load(path: bigPath) }
report("10,000-product catalog: load", format(load))
var grid = TextGrid(size: ScreenSize(width: 80, height: 24))
var runtime: ShopRuntime!
let firstFrame = time {
  runtime = ShopRuntime(catalog: big, storage: MemoryStorage(), language: .en, launchDate: start, onCrash: { _ in })
  runtime.start(now: start)
  runtime.tick(now: start.addingTimeInterval(1))
  runtime.draw(on: &grid)
}
report("10,000-product catalog: first frame (after load)", format(firstFrame))
let scroll = try sample(2_000) { index in
  runtime.handle(index < 1_000 ? .down : .up, now: start.addingTimeInterval(2))
  var frame = TextGrid(size: ScreenSize(width: 80, height: 24))
  runtime.draw(on: &frame)
}
report("10,000-product catalog: scroll key + frame", "median \(format(scroll.median))  p99 \(format(scroll.p99))")

// MARK: Walkthroughs

let library = repository.appendingPathComponent("Walkthroughs")
let files = ((try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? [])
  .filter { $0.hasSuffix(".yaml") }.sorted().map { library.appendingPathComponent($0).path }
if !files.isEmpty {
  var passed = 0
  let whole = try time {
    for file in files {
      let walkthrough = try WalkthroughParser.load(path: file)
      if WalkthroughRunner(catalog: catalog).run(walkthrough).passed { passed += 1 }
    }
  }
  report("walkthrough library (\(files.count) files, \(passed) pass)", format(whole))
}
