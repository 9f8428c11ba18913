import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Faults (DESIGN "Tests, in layers" 5): monkeyshop killed at any instant, at the crash points, and
/// several monkeyshops on one wallet at once. What must hold: every purchase the store charged is
/// credited exactly once, nothing stays unfinished after a launch, no file is ever torn.
@Suite("Crashes and concurrency", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct CrashAndConcurrencyTests {
  // MARK: Crash points

  @Test("killed before delivery: the next launch delivers the purchase")
  func crashBeforeDelivery() async throws {
    let folder = try ShopFolder("before-delivery")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.ten, "--crash", "beforeDelivery", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    #expect(crashed.stdout.contains("CRASH at beforeDelivery"), "\(crashed)")
    #expect(try await walletBalance(folder) == 0, "nothing delivered yet")
    let paid = try await storeTransactions(folder)
    #expect(paid.map(\.state) == ["purchased"] && paid.first?.finished == false, "charged, not finished: \(paid)")

    // The launch (a buy of the other product) takes delivery first, then buys.
    let launch = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try expectSuccess(launch)
    #expect(launch.stdout.contains("#1 (redelivered)"), "\(launch)")
    #expect(try await walletBalance(folder) == 15)
    try await expectAllFinished(folder)
  }

  @Test("killed after delivery, before finishing: the next launch finishes it without crediting again")
  func crashAfterDeliveryBeforeFinish() async throws {
    let folder = try ShopFolder("after-delivery")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.ten, "--crash", "afterDeliveryBeforeFinish", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    #expect(try await walletBalance(folder) == 10, "credited before the crash")
    #expect(try await storeTransactions(folder).first?.finished == false)

    let launch = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    try expectSuccess(launch)
    #expect(launch.stdout.contains("already credited"), "\(launch)")
    #expect(try await walletBalance(folder) == 15, "credited once")
    try await expectAllFinished(folder)
  }

  @Test("the crashPoint condition kills the next purchase once, then disarms")
  func crashPointCondition() async throws {
    let folder = try ShopFolder("crash-condition")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("store", "set", "crashPoint", "beforeDelivery", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.five, in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    let show = try await monkeyshop("store", "show", in: folder)
    #expect(
      show.stdout.split(separator: "\n").contains { $0.split(separator: " ") == ["crashPoint", "off"] },
      "disarmed: \(show)")
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 10)
    try await expectAllFinished(folder)
  }

  @Test("a wallet reset between a crash and the relaunch does not bring a delivered purchase back")
  func resetAfterCrash() async throws {
    let folder = try ShopFolder("reset-after-crash")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let crashed = try await monkeyshop("buy", ShippedCatalog.ten, "--crash", "afterDeliveryBeforeFinish", in: folder)
    #expect(crashed.killedBy == SIGKILL, "\(crashed)")
    try await expectSuccess(monkeyshop("wallet", "reset", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 5)
    try await expectAllFinished(folder)
  }

  // MARK: Killed at any instant

  @Test("crash harness: purchases killed with SIGKILL at random instants are each credited exactly once")
  func randomKills() async throws {
    let folder = try ShopFolder("harness")
    let seed =
      ProcessInfo.processInfo.environment["MONKEYSHOP_E2E_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 1...UInt64.max)
    var random = SplitMix64(seed: seed)
    var log: [String] = ["seed \(seed) (rerun with MONKEYSHOP_E2E_SEED=\(seed))"]
    func context() -> Comment { Comment(rawValue: log.joined(separator: "\n")) }

    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    // How long a purchase takes here, so the kills spread over a whole purchase, start to end. It
    // changes with the machine's load, so the window follows the purchases that were not killed.
    var lifetimes: [Duration] = []
    var started = ContinuousClock.now
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    lifetimes.append(ContinuousClock.now - started)
    // The store keeps only the latest finished transactions, so every one is recorded as it is
    // seen after each round; the newest view of each wins.
    var seen: [String: TransactionRecord] = [:]
    func record(_ transactions: [TransactionRecord]) {
      for transaction in transactions { seen[transaction.id] = transaction }
    }
    record(try await storeTransactions(folder))

    let products = [ShippedCatalog.five, ShippedCatalog.ten]
    var outcomes: [String: Int] = [:]
    for round in 0..<30 {
      let product = products[Int(random.next() % 2)]
      let quantity = Int(random.next() % 3) + 1
      // Every tenth purchase dies at a crash point instead of at a random instant.
      let crashPoint = round % 10 == 4 ? "beforeDelivery" : round % 10 == 9 ? "afterDeliveryBeforeFinish" : nil
      var arguments = ["buy", product, "--quantity", "\(quantity)"]
      if let crashPoint { arguments += ["--crash", crashPoint] }
      let window = lifetimes.suffix(5).sorted()[lifetimes.suffix(5).count / 2] * 1.2
      started = ContinuousClock.now
      let child = try Child(arguments, in: folder)
      var delay = Duration.zero
      if crashPoint == nil {
        delay = window * (Double(random.next() % 1_000_000) / 1_000_000)
        usleep(UInt32(delay / .microseconds(1)))
        child.kill(SIGKILL)
      }
      let result = try await child.wait()
      if result.exitStatus == 0 { lifetimes.append(ContinuousClock.now - started) }
      let ending = result.killedBy.map { "signal \($0)" } ?? "exit \(result.exitStatus ?? -1)"
      outcomes[ending, default: 0] += 1
      log.append("\(round): \(product) ×\(quantity) \(crashPoint ?? "kill after \(delay) of \(window)") → \(ending)")
      if crashPoint != nil { #expect(result.killedBy == SIGKILL, "\(result)\n\(context())") }
      #expect(result.killedBy == SIGKILL || result.exitStatus == 0, "\(result)\n\(context())")
      // Between kills the files are always whole.
      try expectWholeFiles(folder, context())
      // Read from store.json itself (the same fields as `store transactions --json`): a process
      // per round would make the harness twice as long.
      if let data = folder.bytes(folder.storePath) {
        record(try JSONDecoder().decode(StoreFile.self, from: data).transactions)
      }
    }
    log.append("outcomes: \(outcomes)")

    // One final launch takes delivery of whatever the kills left.
    let launch = try await monkeyshop("buy", ShippedCatalog.ten, in: folder)
    #expect(launch.exitStatus == 0, "\(launch)\n\(context())")

    let transactions = try await storeTransactions(folder)
    record(transactions)
    let all = seen.values.sorted { Int($0.id) ?? 0 < Int($1.id) ?? 0 }
    let owed = all.filter { $0.state == "purchased" }.map(\.credits).reduce(0, +)
    #expect(try await walletBalance(folder) == owed, "wallet = Σ purchased \(all)\n\(context())")
    // Unfinished transactions are never dropped, so the store's own list shows every one left.
    #expect(transactions.allSatisfy { $0.finished }, "\(transactions.filter { !$0.finished })\n\(context())")
    #expect(all.allSatisfy { $0.finished && $0.state == "purchased" }, "\(all)\n\(context())")
    try expectWholeFiles(folder, context())

    // A writer killed between creating its temporary file and renaming it leaves it behind; the
    // name is fixed, so however many writers were killed there is at most one per file.
    let leftovers = folder.dataFolderNames().filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.count <= 2, "\(leftovers)\n\(context())")
    print("crash harness: seed \(seed), \(outcomes), temporary files left by killed writers: \(leftovers)")
  }

  @Test("the storefront killed with SIGKILL mid-purchase: the next launch delivers it exactly once")
  func storefrontKilledMidPurchase() async throws {
    let folder = try ShopFolder("storefront-kill")
    try await expectSuccess(monkeyshop("store", "set", "latency", "slow", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99", timeout: .seconds(15))
    try await tmux.press("5")
    try await tmux.waitFor("Total")
    try await tmux.press("Enter")
    try await tmux.waitForScreen("the purchase in progress") { $0.balanceLine?.contains("purchasing") == true }
    kill(try await tmux.storefrontPID(), SIGKILL)
    try await tmux.waitForForeground("bash")
    let charged = try await storeTransactions(folder)
    #expect(charged.map(\.state) == ["purchasing"], "the store is still answering: \(charged)")

    // The next launch: a headless purchase on the same slow store. The storefront's payment is
    // answered first (it was added first), then this one's.
    let launch = try await monkeyshop("buy", ShippedCatalog.ten, in: folder, timeout: .seconds(30))
    try expectSuccess(launch)
    #expect(try await walletBalance(folder) == 15, "\(launch)")
    let transactions = try await storeTransactions(folder)
    #expect(transactions.map(\.state) == ["purchased", "purchased"], "\(transactions)")
    #expect(transactions.allSatisfy { $0.finished }, "\(transactions)")

    // Another launch adds nothing more.
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: folder))
    #expect(try await walletBalance(folder) == 20)
  }

  // MARK: One wallet, several processes

  @Test("four processes buying and spending on one wallet at once lose no update")
  func concurrentBuyersAndSpenders() async throws {
    let folder = try ShopFolder("concurrent")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))

    /// One process's loop: ten purchases, a spend after every third.
    @Sendable func shopper(_ number: Int) async throws -> (credited: Int, spent: Int, ids: [String]) {
      var credited = 0
      var spent = 0
      var ids: [String] = []
      let product = number % 2 == 0 ? ShippedCatalog.five : ShippedCatalog.ten
      for purchase in 1...10 {
        // A buy queued behind the other three may wait for the lock as long as any command does
        // (30 s) before it is hung.
        let result = try await monkeyshop("buy", product, in: folder, timeout: .seconds(40))
        #expect(result.exitStatus == 0, "shopper \(number): \(result)")
        if result.exitStatus == 0 { credited += ShippedCatalog.credits[product] ?? 0 }
        // purchased: transaction #N, balance B monkey credits
        if let id = result.stdout.split(separator: "#").last?.split(separator: ",").first { ids.append(String(id)) }
        if purchase % 3 == 0 {
          let spend = try await monkeyshop("spend", "2", in: folder)
          // Refused (too little in the wallet) is fine: it must then change nothing.
          #expect(spend.exitStatus == 0 || spend.exitStatus == 1, "shopper \(number): \(spend)")
          if spend.exitStatus == 0 { spent += 2 }
        }
      }
      return (credited, spent, ids)
    }

    let results = try await withThrowingTaskGroup(of: (credited: Int, spent: Int, ids: [String]).self) { group in
      for number in 0..<4 { group.addTask { try await shopper(number) } }
      var results: [(credited: Int, spent: Int, ids: [String])] = []
      for try await result in group { results.append(result) }
      return results
    }
    let credited = results.map(\.credited).reduce(0, +)
    let spent = results.map(\.spent).reduce(0, +)
    #expect(try await walletBalance(folder) == credited - spent, "credited \(credited), spent \(spent)")

    let ids = results.flatMap(\.ids)
    #expect(ids.count == 40 && Set(ids).count == 40, "every purchase has its own transaction: \(ids.sorted())")
    let transactions = try await storeTransactions(folder)
    #expect(transactions.allSatisfy { $0.finished && $0.state == "purchased" }, "\(transactions)")
    try expectWholeFiles(folder, "")
  }
}

// MARK: Helpers

/// No transaction waits to be finished.
private func expectAllFinished(_ folder: ShopFolder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
  let transactions = try await storeTransactions(folder)
  #expect(
    transactions.allSatisfy { $0.finished }, "unfinished: \(transactions.filter { !$0.finished })",
    sourceLocation: sourceLocation)
}

/// Both data files parse as whole JSON objects with their schema version.
private func expectWholeFiles(
  _ folder: ShopFolder, _ context: Comment, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for path in [folder.walletPath, folder.storePath] where FileManager.default.fileExists(atPath: path) {
    do {
      let object = try folder.jsonObject(path)
      let version = path == folder.walletPath ? 4 : 1
      #expect(object["schemaVersion"] as? Int == version, "\(path)\n\(context)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(path) is torn: \(error)\n\(context)", sourceLocation: sourceLocation)
    }
  }
}

/// `store.json` as far as the harness reads it.
private struct StoreFile: Decodable {
  let transactions: [TransactionRecord]
}
