// In-process benchmarks: durable delivery beside a raw durable write, a whole purchase with 10 to
// 100,000 past transactions, a 10,000-product catalog (read by the shop's own XML reader and by
// Foundation's), and the walkthrough library. Run through Benchmarks/run, which also measures the
// storefront in a pseudo-terminal and counts what a purchase of the real binary writes;
// `--catalog-readers` runs the catalog readers alone; `--write-data-folder PATH N` writes a data
// folder as N past purchases leave it; `--record-cost lookup|page|refund PATH` times one of those on
// such a folder, in a process of its own so its peak memory is that operation's
// (Benchmarks/record_cost.py).
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--write-storekit", let path = arguments.dropFirst().first,
  let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
{
  try bigStoreKitFile(count, at: path)
  exit(0)
}
if arguments.first == "--write-catalog", let path = arguments.dropFirst().first {
  _ = try bigCatalog(10_000, at: path)
  exit(0)
}
if arguments.first == "--catalog-readers" {
  try compareCatalogReaders()
  exit(0)
}
let start = Date(timeIntervalSince1970: 1_800_000_000)
if arguments.first == "--write-data-folder", let path = arguments.dropFirst().first,
  let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
{
  try writeDataFolder(path, past: count, storedJWS: arguments.dropFirst(3).first == "--stored-jws")
  exit(0)
}
if arguments.first == "--record-cost", let operation = arguments.dropFirst().first,
  let path = arguments.dropFirst(2).first
{
  try recordCost(operation, folder: DataFolder(path: path), at: start)
  exit(0)
}
let repository = URL(fileURLWithPath: arguments.first ?? ".")
let catalog = try CatalogLoader.load(path: repository.appendingPathComponent("products.plist").path)

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

/// Writes a data folder as `count` purchases of 5 credits, delivered and finished, leave it: the
/// newest finished transactions in the store, the others in the App Store's record, every one
/// credited. Built directly rather than by `count` purchases: the record is written 50,000
/// transactions a change, so a million take a minute.
/// `storedJWS`: each transaction keeps a signed transaction as a purchase of this version does,
/// shaped as one (three Base64URL parts: a header, the payload's fields, 64 bytes of signature) but
/// not signed, which for a million transactions would take longer than the rest of the run: what
/// the server serves (docs/performance.md). Without it, the server signs each transaction it serves.
func writeDataFolder(_ path: String, past count: Int, storedJWS: Bool = false) throws {
  try FileManager.default.createDirectory(
    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  let transactions = (0..<count).map { $0 + 1 }.map { number in
    StoreTransaction(
      id: "\(number)", productIdentifier: "com.monkeyshop.credits.5", quantity: 1, state: .purchased,
      purchaseDate: start.addingTimeInterval(Double(number)), finished: true, environment: .sandbox)
  }.map { transaction in
    var transaction = transaction
    if storedJWS {
      // What the App Store recorded at purchase, as the shaped signed transaction says it.
      transaction.record = PurchaseRecord(
        price: 990, currency: "USD", type: PurchaseRecord.consumable, bundleId: "com.monkeyshop.app", credits: 5)
      transaction.storefront = "USA"
      transaction.signedPurchase = shapedJWS(transaction)
    }
    return transaction
  }
  let kept = transactions.suffix(StoreState.finishedHistoryLimit)
  let folder = DataFolder(path: path)
  let past = transactions.dropLast(kept.count)
  for batch in stride(from: past.startIndex, to: past.endIndex, by: 50_000) {
    try folder.update { store, wallet in
      store.leaving = Array(past[batch..<min(batch + 50_000, past.endIndex)])
      store.lastTransactionNumber = count
      wallet.lastTransactionNumber = count
    }
  }
  try folder.update { store, wallet in
    store.conditions.latency = .instant
    store.transactions = Array(kept)
    store.lastTransactionNumber = count
    wallet.balance = 5 * count
    if count > 0 { wallet.recordCredit(count, store: store) }
    wallet.lastTransactionNumber = count
  }
}

/// A signed transaction's shape and size, unsigned (`writeDataFolder`).
func shapedJWS(_ transaction: StoreTransaction) -> String {
  func part(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
  let milliseconds = Int64(transaction.purchaseDate.timeIntervalSince1970 * 1000)
  let payload = """
    {"appTransactionId":"704295373919744811","bundleId":"com.monkeyshop.app","currency":"USD",\
    "environment":"Sandbox","inAppOwnershipType":"PURCHASED","originalPurchaseDate":\(milliseconds),\
    "originalTransactionId":"\(transaction.id)","price":990,"productId":"\(transaction.productIdentifier)",\
    "purchaseDate":\(milliseconds),"quantity":1,"signedDate":\(milliseconds),"storefront":"USA",\
    "storefrontId":"143441","transactionId":"\(transaction.id)","transactionReason":"PURCHASE","type":"Consumable"}
    """
  return part(#"{"alg":"ES256","typ":"JWT"}"#) + "." + part(payload) + "." + part(String(repeating: "s", count: 64))
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

/// Whole purchases, as the app makes them: the payment added and answered (the store written),
/// the credits delivered (the wallet), the transaction finished (the store, and the history when
/// the oldest finished transaction moves there).
func purchases(in folder: DataFolder, iterations: Int) throws -> Sample {
  let credits = CreditManager(storage: folder, catalog: catalog)
  return try sample(iterations) { index in
    let (transaction, _) = try folder.changeStore(catalog: catalog) { store in
      let now = start.addingTimeInterval(1e7 + Double(index))
      _ = try store.add(productIdentifier: "com.monkeyshop.credits.5", quantity: 1, at: now)
      return store.advance(to: now)[0]
    }
    _ = try credits.deliver(transaction)
    _ = try folder.changeStore(catalog: catalog) { try $0.finish(transaction.id) }
  }
}

let iterations = 200
let rawFolder = temporaryFolder("raw")
print("Durable delivery: credit the wallet, then finish in the store; two files, each written")
print("temp + fsync + rename + fsync folder, and the history appended to (fsync) when the oldest")
print("finished transaction moves there. Raw: one such write of a wallet-sized file.")
for past in [10, 1_000, 10_000, 100_000] {
  let path = temporaryFolder("delivery-\(past)")
  try writeDataFolder(path, past: past)
  let folder = DataFolder(path: path)
  let (delivery, raw) = try deliveries(in: folder, rawFolder: rawFolder, iterations: iterations)
  let sizes =
    "wallet \(fileSize(folder.walletPath)) B, store \(fileSize(folder.storePath)) B, "
    + "record \(fileSize(folder.recordPath) / 1024) KB"
  report(
    "durable delivery, \(past) past transactions",
    "median \(format(delivery.median))  p99 \(format(delivery.p99))  raw \(format(raw.median))  "
      + String(format: "%.2f× raw", delivery.median / raw.median) + "  (\(sizes))")
  let purchase = try purchases(in: folder, iterations: iterations)
  report(
    "  whole purchase (add, answer, deliver, finish)", "median \(format(purchase.median))  p99 \(format(purchase.p99))")
  if past == 100_000 {
    let lockAndRead = try sample(iterations) { _ in try folder.update { _, _ in } }
    report("  of which: lock + read wallet and store, no write", "median \(format(lockAndRead.median))")
    let listing = try sample(5) { _ in _ = try folder.readEveryTransaction() }
    report("  listing every transaction (store transactions)", "median \(format(listing.median))")
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

/// An Xcode StoreKit configuration file (version 4.0, as Xcode 16 writes it) of `count` products: ten
/// consumables (`com.monkeyshop.bulk.0` to `.9`, for `--credits`), the rest non-consumables, each
/// with an English and a Japanese localization; every hundredth one new, its texts empty as Xcode
/// leaves them. For `catalog import` timings (docs/performance.md).
func bigStoreKitFile(_ count: Int, at path: String) throws {
  var text = #"{"identifier":"BENCH001","nonRenewingSubscriptions":[],"products":["#
  for index in 0..<count {
    let empty = index % 100 == 99
    let name = empty ? "" : "Bulk pack \(index)"
    let description = empty ? "" : "Credits in bulk, pack \(index)"
    if index > 0 { text += "," }
    text +=
      #"{"displayPrice":"0.99","familyShareable":false,"internalID":"\#(100_000_000 + index)","#
      + #""localizations":[{"description":"\#(description)","displayName":"\#(name)","locale":"en_US"},"#
      + #"{"description":"まとめ買い \#(index)","displayName":"まとめ \#(index)","locale":"ja"}],"#
      + #""productID":"com.monkeyshop.bulk.\#(index)","referenceName":"Bulk \#(index)","#
      + #""type":"\#(index < 10 ? "Consumable" : "NonConsumable")"}"#
  }
  text += #"],"settings":{"_storefront":"CHN"},"subscriptionGroups":[],"version":{"major":4,"minor":0}}"#
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
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
    guard case .dictionary? = XMLPropertyList.parse(data) else { throw CocoaError(.propertyListReadCorrupt) }
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
