import Foundation
import GRDB
import MonkeyShopDomain
import MonkeyShopStorage
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every crash point: each writing command is killed with SIGKILL at every
/// system call it makes in the data folder, one run per call, then the app is launched and what
/// the user sees is checked: a credit given once, a paid purchase credited, no transaction ID
/// repeated, every later command working. Then one more purchase, checked the same way.
///
/// The record's SQLite calls (its locks, its write-ahead log) more than double the crash points:
/// the two conversion cases alone make 437, ten minutes on a 2-core machine, and the migration of
/// an earlier record 298, eight minutes.
/// `MONKEYSHOP_SWEEP_ONLY=TEXT` sweeps only the cases whose command or template names TEXT
/// (`legacy-history`, `earlier-record`, `refund`), for a focused run.
@Suite("Crash-point sweep", .tags(.endToEnd, .crashSweep), .timeLimit(.minutes(60)))
struct CrashPointSweepTests {
  /// A state prepared with ordinary commands, in which the command under test has work to do.
  struct Template: Sendable {
    let name: String
    let setup: [[String]]
    /// What the prepared state must show, so that a change elsewhere cannot make the sweep test an
    /// empty folder: the balance, and each transaction as "state" or "state unfinished".
    let balance: Int
    let transactions: [String]
    /// Left as earlier versions left the folder: the record's transactions in `history.jsonl`, no
    /// `record.sqlite`, so the command converts it first.
    var legacyHistory = false
    /// Left as a monkeyshop older than order IDs left the folder: its record of the first schema
    /// (no order IDs, none of the serving indexes), so the command migrates it first.
    var earlierRecord = false
  }

  static let five = ShippedCatalog.five
  static let ten = ShippedCatalog.ten

  /// #1 bought and finished; #2 (10 credits) paid for and credited, not finished: the app was killed
  /// after delivery.
  static let credited = Template(
    name: "credited-unfinished",
    setup: [["buy", five], ["buy", ten, "--crash", "afterDeliveryBeforeFinish"]],
    balance: 15, transactions: ["purchased", "purchased unfinished"])
  /// #1 bought and finished; #2 (10 credits) paid for, killed before delivery: owed to the user.
  static let owed = Template(
    name: "paid-undelivered",
    setup: [["buy", five], ["buy", ten, "--crash", "beforeDelivery"]],
    balance: 5, transactions: ["purchased", "purchased unfinished"])
  /// `credited`, then #3 (5 credits) waits for a parent's approval.
  static let deferred = Template(
    name: "ask-to-buy",
    setup: credited.setup + [
      ["store", "set", "askToBuy", "on"], ["buy", five], ["store", "set", "askToBuy", "off"],
    ],
    balance: 15, transactions: ["purchased", "purchased", "deferred unfinished"])
  /// #1 waits for a parent's approval: nothing is signed yet, so the folder has no signing chain.
  static let unsigned = Template(
    name: "unsigned",
    setup: [["store", "set", "askToBuy", "on"], ["buy", five], ["store", "set", "askToBuy", "off"]],
    balance: 0, transactions: ["deferred unfinished"])
  /// `credited`, then #3 was interrupted (failed) until the issue is resolved.
  static let interrupted = Template(
    name: "interrupted",
    setup: credited.setup + [
      ["store", "set", "interruptedPurchases", "on"], ["buy", five], ["store", "set", "interruptedPurchases", "off"],
    ],
    balance: 15, transactions: ["purchased", "purchased", "failed"])

  /// 20 purchases of 5 credits, finished: the store file is full, and the next finish moves #1 to
  /// the history, which it makes.
  static let fullStore = Template(
    name: "full-store", setup: Array(repeating: ["buy", five], count: 20),
    balance: 100, transactions: Array(repeating: "purchased", count: 20))
  /// 21 purchases: #1 is in the history already; the next finish appends #2 to it.
  static let withHistory = Template(
    name: "with-history", setup: Array(repeating: ["buy", five], count: 21),
    balance: 105, transactions: Array(repeating: "purchased", count: 21))
  /// `withHistory` with its history in `history.jsonl`, as earlier versions kept it.
  static let legacyHistory = Template(
    name: "legacy-history", setup: withHistory.setup, balance: 105, transactions: withHistory.transactions,
    legacyHistory: true)

  /// 25 purchases, #1 to #5 in a record of the first schema, as an earlier monkeyshop left it.
  static let earlierRecord = Template(
    name: "earlier-record", setup: Array(repeating: ["buy", five], count: 25), balance: 125,
    transactions: Array(repeating: "purchased", count: 25), earlierRecord: true)

  /// A writing command, the state it runs in, and what the balance may be after the next launch,
  /// leaving out the credits of purchases that were not purchased in the template (those are
  /// counted from the store's list: a killed `buy` may or may not have been charged). Two values
  /// when a killed command may or may not have happened (a spend, a wallet reset).
  struct Case: Sendable, CustomTestStringConvertible {
    let command: [String]
    let template: Template
    let allowedBalances: Set<Int>
    var testDescription: String { command.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(command: ["buy", five], template: owed, allowedBalances: [15]),
    Case(command: ["buy", ten, "--crash", "beforeDelivery"], template: credited, allowedBalances: [15]),
    Case(command: ["buy", five, "--crash", "afterDeliveryBeforeFinish"], template: owed, allowedBalances: [15]),
    Case(command: ["spend", "3"], template: credited, allowedBalances: [15, 12]),
    Case(command: ["wallet", "reset"], template: credited, allowedBalances: [15, 0]),
    Case(command: ["store", "reset"], template: credited, allowedBalances: [15]),
    Case(command: ["store", "set", "storefront", "JPN"], template: credited, allowedBalances: [15]),
    Case(command: ["store", "approve", "3"], template: deferred, allowedBalances: [15]),
    Case(command: ["store", "decline", "3"], template: deferred, allowedBalances: [15]),
    Case(command: ["store", "resolve", "3"], template: interrupted, allowedBalances: [15]),
    // A purchase whose finish moves the oldest finished transaction to the history: made, then
    // appended to.
    Case(command: ["buy", five], template: fullStore, allowedBalances: [100]),
    Case(command: ["buy", five], template: withHistory, allowedBalances: [105]),
    // A refund of a transaction only the history lists, which brings it back into the store (the
    // launch after it may take the 5 credits back).
    Case(command: ["store", "refund", "1"], template: withHistory, allowedBalances: [105, 100]),
    // The conversion of a history.jsonl into the record: by a purchase (which then records #2
    // there), and by a listing, which takes the lock only for it.
    Case(command: ["buy", five], template: legacyHistory, allowedBalances: [105]),
    Case(command: ["store", "transactions"], template: legacyHistory, allowedBalances: [105]),
    // The migration of an earlier record (its order IDs filled in, its indexes made) by a purchase,
    // which then records #6 there.
    Case(command: ["buy", five], template: earlierRecord, allowedBalances: [125]),
    // A non-consumable whose hosted content is unpacked into the data folder: after any kill the
    // content is whole or absent, and whole once the launch has finished the purchase.
    Case(command: ["buy", HostedPackage.jungleMap], template: credited, allowedBalances: [15]),
    // Making the signing chain: after any kill the chain is whole or absent, and every signed
    // command works.
    Case(command: ["store", "certificate", "--pem"], template: unsigned, allowedBalances: [0]),
  ]

  /// Where one run is killed: the K-th call of one system call into the data folder (in a thread).
  struct CrashPoint: Sendable, CustomStringConvertible {
    let syscall: String
    let occurrence: Int
    var description: String { "KILL at \(syscall) #\(occurrence)" }
  }

  /// Crash points run at once: one per core of the 2-core CI machine.
  static let parallelRuns = 2

  @Test("every writing command, killed at every data-folder system call, loses and repeats nothing")
  func sweep() async throws {
    if let reason = Strace.unavailableReason {
      print("crash-point sweep SKIPPED: \(reason)")
      try Test.cancel("crash-point sweep skipped: \(reason)")
    }
    let started = ContinuousClock.now
    var covered = 0
    var lines: [String] = []
    let only = ProcessInfo.processInfo.environment["MONKEYSHOP_SWEEP_ONLY"].flatMap { $0.isEmpty ? nil : $0 }
    let cases = Self.cases.filter { testCase in
      only.map { testCase.testDescription.contains($0) || testCase.template.name.contains($0) } ?? true
    }
    for testCase in cases {
      let (points, summary) = try await sweep(testCase)
      covered += points
      lines.append("  \(testCase.testDescription): \(points) crash points (\(summary))")
    }
    let elapsed = ContinuousClock.now - started
    print(
      "crash-point sweep: \(covered) crash points covered in \(cases.count) commands, "
        + "\(elapsed.components.seconds) s\n"
        + lines.joined(separator: "\n"))
    #expect(covered >= 10 * cases.count, "too few crash points to be a sweep: \(covered)")
  }

  /// Runs the command once under strace to find its calls into the data folder, checks that run,
  /// then kills it at each of them in turn. Returns how many runs were killed where intended.
  func sweep(_ testCase: Case) async throws -> (Int, String) {
    let (template, templateView) = try await prepare(testCase.template)

    // The run that is not killed: which calls it makes, and the paths they touch.
    let discovery = try await run(testCase, from: template, templateView: templateView, at: nil, paths: [])
    let data = discovery.dataPath
    let calls = discovery.calls.filter { $0.touches(data) }
    // The paths, relative to the data folder ("" for the folder itself).
    var paths: Set<String> = [""]
    for call in calls { paths.formUnion(call.paths(under: data).map { String($0.dropFirst(data.count)) }) }
    // Per system call, the most any one thread made (strace counts per thread).
    var counts: [String: Int] = [:]
    for (name, ofName) in Dictionary(grouping: calls, by: \.name) {
      counts[name] = Dictionary(grouping: ofName, by: \.thread).values.map(\.count).max() ?? 0
    }
    #expect(
      counts["write", default: 0] + counts["pwrite64", default: 0] > 0
        && counts["fsync", default: 0] + counts["fdatasync", default: 0] > 0,
      "\(testCase.testDescription) wrote nothing in \(data)? calls: \(calls)")
    let points = counts.sorted { $0.key < $1.key }.flatMap { name, count in
      (1...count).map { CrashPoint(syscall: name, occurrence: $0) }
    }

    let relativePaths = paths
    var killed = 0
    try await withThrowingTaskGroup(of: Bool.self) { group in
      var next = points.makeIterator()
      for _ in 0..<Self.parallelRuns {
        guard let point = next.next() else { break }
        group.addTask {
          try await run(testCase, from: template, templateView: templateView, at: point, paths: relativePaths).killed
        }
      }
      for try await wasKilled in group {
        if wasKilled { killed += 1 }
        if let point = next.next() {
          group.addTask {
            try await run(testCase, from: template, templateView: templateView, at: point, paths: relativePaths).killed
          }
        }
      }
    }
    let summary = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    return (killed, summary)
  }

  /// Prepares a template's state in a folder of its own, and checks it shows what it should.
  func prepare(_ template: Template) async throws -> (ShopFolder, LedgerView) {
    let folder = try ShopFolder("sweep-template-\(template.name)")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    for command in template.setup {
      _ = try await Child(command, in: folder).wait(timeout: .seconds(30))
    }
    let view = try await LedgerView.read(folder)
    let shown = view.transactions.map { $0.state + ($0.finished ? "" : " unfinished") }
    guard view.balance == template.balance, shown == template.transactions else {
      throw E2EFailure(
        "template \(template.name) is not the state the sweep needs: \(view); "
          + "wanted balance \(template.balance), \(template.transactions)")
    }
    if template.legacyHistory { try Self.asHistoryFile(folder) }
    if template.earlierRecord { try Self.asEarlierRecord(folder) }
    return (folder, view)
  }

  /// The folder as earlier versions left it: the record's transactions in `history.jsonl`, one
  /// line each as they wrote them, and no database.
  static func asHistoryFile(_ folder: ShopFolder) throws {
    let data = DataFolder(path: folder.data.path)
    let history = try data.readHistory()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: data.recordPath + suffix) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .secondsSince1970
    var lines = Data()
    for transaction in history { lines += try encoder.encode(transaction) + Data("\n".utf8) }
    guard
      FileManager.default.createFile(atPath: data.historyPath, contents: lines, attributes: [.posixPermissions: 0o600])
    else { throw E2EFailure("cannot write \(data.historyPath)") }
  }

  /// The folder as a monkeyshop older than order IDs left it: the record of the first schema, and
  /// a store that does not count the record's revisions.
  static func asEarlierRecord(_ folder: ShopFolder) throws {
    let data = DataFolder(path: folder.data.path)
    let record = try DatabaseQueue(path: data.recordPath)
    try record.writeWithoutTransaction { db in
      for index in ["orderID", "product_purchaseDate", "refund", "version1", "missingOrderID"] {
        try db.execute(sql: "DROP INDEX storeTransaction_on_\(index)")
      }
      try db.execute(sql: "ALTER TABLE storeTransaction DROP COLUMN orderID")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('serving', 'orderIDs')")
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try record.close()
    let store = URL(fileURLWithPath: data.storePath)
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any])
    object["recordRevision"] = nil
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: store)
  }

  /// After a kill in the migration of an earlier record and the commands after it: the record is
  /// of this version's schema, every row with its order ID.
  func checkMigrated(_ folder: ShopFolder, context: String) throws {
    let record = try DatabaseQueue(path: DataFolder(path: folder.data.path).recordPath)
    defer { try? record.close() }
    let (migrations, missing) = try record.read { db in
      (
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
        try Int.fetchOne(db, sql: "SELECT count(*) FROM storeTransaction WHERE orderID IS NULL") ?? -1
      )
    }
    #expect(migrations == ["orderIDs", "serving", "transactions"], "\(context): migrations \(migrations)")
    #expect(missing == 0, "\(context): \(missing) rows without their order IDs")
  }

  struct Run {
    let dataPath: String
    let calls: [TracedCall]
    let killed: Bool
  }

  /// One run of the command on a copy of the template, killed at `point` (nil: not killed), then a
  /// launch and a purchase, with the invariants checked after each.
  func run(
    _ testCase: Case, from template: ShopFolder, templateView: LedgerView, at point: CrashPoint?,
    paths: Set<String>
  ) async throws -> Run {
    let folder = try ShopFolder("sweep")
    try folder.restoreData(from: template)
    let data = folder.resolvedDataPath
    let trace = folder.file("strace")
    let strace = try #require(Strace.executable)
    var arguments = ["-f", "-qq", "-y", "-o", trace.path, "-e", Strace.traceExpression]
    if let point {
      for path in paths.sorted() { arguments += ["-P", data + path] }
      arguments += ["-e", "inject=\(point.syscall):signal=KILL:when=\(point.occurrence)"]
    }
    arguments += [try Locations.requireBinary()] + testCase.command
    let result = try await Child(executable: strace, arguments, in: folder, environment: folder.environment())
      .wait(timeout: .seconds(60))
    let (calls, _) = TracedCall.parse((try? String(contentsOf: trace, encoding: .utf8)) ?? "")
    let context = "\(testCase.testDescription) on \(testCase.template.name), \(point?.description ?? "not killed")"

    var killedHere = false
    if let point {
      // The kill must have happened at that call, or the run proves nothing.
      let ofThread = Dictionary(grouping: calls.filter { $0.name == point.syscall && $0.touches(data) }, by: \.thread)
      let hit = ofThread.values.contains { $0.count == point.occurrence && $0.last?.unfinished == true }
      killedHere = result.killedBy == SIGKILL && hit
      #expect(
        killedHere,
        "\(context): not killed there:\n\(result)\ndata-folder calls:\n\(calls.filter { $0.touches(data) }.map(\.line).joined(separator: "\n"))"
      )
    } else {
      let crashes = testCase.command.contains("--crash")
      #expect(
        crashes ? result.killedBy == SIGKILL : result.exitStatus == 0, "\(context): the command itself:\n\(result)")
    }
    try await checkLaunchAndPurchase(folder, testCase: testCase, templateView: templateView, context: context)
    if testCase.command.starts(with: ["store", "certificate"]) { try await checkChain(folder, context: context) }
    if testCase.template.earlierRecord { try checkMigrated(folder, context: context) }
    return Run(dataPath: data, calls: calls, killed: killedHere)
  }

  /// Hosted content in the data folder is never half there: no unpacking left behind, each
  /// product's content the repository's package exactly, and there for every purchase finished.
  func checkContent(_ folder: ShopFolder, _ view: LedgerView, context: String) {
    let content = folder.data.appendingPathComponent("content").path
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: content)) ?? []
    #expect(!entries.contains { $0.hasPrefix(".") }, "\(context): left in content/: \(entries)")
    let bought = view.transactions.contains {
      $0.productIdentifier == HostedPackage.jungleMap && $0.state == "purchased" && $0.finished
    }
    if bought || entries.contains(HostedPackage.jungleMap) {
      let unpacked = HostedPackage.files(under: content + "/" + HostedPackage.jungleMap)
      #expect(unpacked == HostedPackage.repositoryFiles(HostedPackage.jungleMap), "\(context): content/ is not whole")
    }
  }

  /// The signing chain after a kill while it was made: there whole or not at all, so the next
  /// command that signs makes it or uses it, and the same root comes out again.
  func checkChain(_ folder: ShopFolder, context: String) async throws {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.data.path)) ?? []
    let chain = (try? FileManager.default.contentsOfDirectory(atPath: folder.data.path + "/signing")) ?? []
    #expect(
      !entries.contains("signing") || chain.count == 4, "\(context): signing/ holds \(chain), not the whole chain")
    let first = try await monkeyshop("store", "certificate", "--pem", in: folder, timeout: .seconds(30))
    #expect(first.exitStatus == 0, "\(context): store certificate after the kill:\n\(first)")
    let second = try await monkeyshop("store", "certificate", "--pem", in: folder, timeout: .seconds(30))
    #expect(second.stdout == first.stdout && !first.stdout.isEmpty, "\(context): the root changed:\n\(second)")
    let transactions = try await monkeyshop("store", "transactions", "--json", in: folder, timeout: .seconds(30))
    #expect(transactions.exitStatus == 0, "\(context): store transactions --json:\n\(transactions)")
  }

  /// After the kill: `launch` works and delivers; the balance adds up; every purchase is finished; no
  /// ID repeats. Then a purchase works, gets a new ID and adds exactly its credits.
  func checkLaunchAndPurchase(
    _ folder: ShopFolder, testCase: Case, templateView: LedgerView, context: String
  ) async throws {
    let before = Set(templateView.transactions.filter { $0.state == "purchased" }.map(\.id))
    let launch = try await monkeyshop("launch", in: folder, timeout: .seconds(30))
    // 0: delivered, or nothing waited; 1: a transaction it delivered had failed (a declined Ask to
    // Buy). Not a signal, not 65 (a file it cannot read): a kill must never cause that.
    #expect(launch.exitStatus == 0 || launch.exitStatus == 1, "\(context): launch after the kill:\n\(launch)")
    let launched = try await LedgerView.read(folder)
    let extra = launched.balance - launched.credits(ofPurchasesOtherThan: before)
    #expect(
      testCase.allowedBalances.contains(extra),
      "\(context): after launch the balance is \(launched.balance), new purchases are worth \(launched.credits(ofPurchasesOtherThan: before)), so the rest is \(extra), not one of \(testCase.allowedBalances.sorted()): \(launched)\nlaunch: \(launch)"
    )
    #expect(launched.unfinishedPurchases.isEmpty, "\(context): still unfinished after launch: \(launched)")
    #expect(launched.repeatedIDs.isEmpty, "\(context): IDs listed twice: \(launched)")
    checkContent(folder, launched, context: context)

    let buy = try await monkeyshop("buy", ShippedCatalog.ten, in: folder, timeout: .seconds(30))
    #expect(buy.exitStatus == 0, "\(context): the next purchase:\n\(buy)")
    let after = try await LedgerView.read(folder)
    let seen = Set(templateView.ids + launched.ids)
    if let id = purchasedTransactionID(buy.stdout) {
      #expect(!seen.contains(id), "\(context): the next purchase reuses transaction ID #\(id): \(after)\n\(buy)")
    } else {
      Issue.record("\(context): the next purchase reports no transaction:\n\(buy)")
    }
    let rest = after.balance - after.credits(ofPurchasesOtherThan: before)
    #expect(
      rest == extra,
      "\(context): after the next purchase the balance is \(after.balance) (was \(launched.balance) after launch; a purchase of 10): \(after)\n\(buy)"
    )
    #expect(after.unfinishedPurchases.isEmpty, "\(context): unfinished after the next purchase: \(after)")
    #expect(after.repeatedIDs.isEmpty, "\(context): IDs listed twice: \(after)")
  }
}
