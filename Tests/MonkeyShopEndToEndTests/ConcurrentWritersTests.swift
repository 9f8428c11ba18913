import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Concurrency: 8 processes mixing every writing command on one data folder,
/// while lock files are deleted again and again (monkeyshop keeps none: it locks the folder) and a
/// process holding the folder's lock is stopped (SIGSTOP), then continued. Every command's outcome is kept; then the app is
/// launched and what a user would notice is checked: each paid purchase credited exactly once, the
/// balance equal to what was credited minus what was spent, no transaction ID handed out twice,
/// no command crashed, and none hung.
@Suite("Concurrent writers", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ConcurrentWritersTests {
  static let workers = 8
  /// How long the workers start new commands.
  static let running = Duration.seconds(20)
  /// The commands a run needs to prove anything: on a busy machine the writers go on past
  /// `running` until they have made this many (or a minute more has passed).
  static let enoughCommands = 100
  /// Wallet resets happen only this early, so that most of the run is after the last one and a
  /// lost update cannot hide behind it.
  static let resetsUntil = Duration.seconds(4)
  /// When the lock holder is stopped, and for how long: long enough that a writer, on a busy
  /// machine, starts a command after the stop and sees it give up (its lock wait is 2 s) before
  /// the holder goes on.
  static let stopAt = Duration.seconds(6)
  static let stoppedFor = Duration.seconds(12)
  /// A command still running after this long is declared hung (a command waiting for a lock gives
  /// up after 30 s, docs/data-folder.md).
  static let hangBound = Duration.seconds(40)

  @Test("8 writers, a lock deleter and a stopped lock holder: every credit once, every spend counted, nobody hangs")
  func concurrentWriters() async throws {
    let folder = try ShopFolder("concurrent-writers")
    let seed =
      ProcessInfo.processInfo.environment["MONKEYSHOP_E2E_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 1...UInt64.max)
    print("concurrent writers: seed \(seed) (rerun with MONKEYSHOP_E2E_SEED=\(seed))")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: folder))
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + Self.running

    // The lock deleter: removes every lock file it sees in the data folder, every few milliseconds.
    let deleter = Task.detached {
      var deletions = 0
      while !Task.isCancelled {
        for name in folder.dataFolderNames() where name.lowercased().contains("lock") {
          if unlink(folder.data.appendingPathComponent(name).path) == 0 { deletions += 1 }
        }
        try? await Task.sleep(for: .milliseconds(5))
      }
      return deletions
    }

    let holder = Task { [folder] in
      try await Task.sleep(until: start + Self.stopAt)
      return try await Self.stoppedLockHolder(in: folder)
    }
    let finished = CommandCount()
    let outcomes = try await withThrowingTaskGroup(of: [Outcome].self) { group in
      for worker in 0..<Self.workers {
        group.addTask {
          var random = SplitMix64(seed: seed &+ UInt64(worker) &* 0x9E37_79B9)
          var outcomes: [Outcome] = []
          while true {
            let enough = await finished.value >= Self.enoughCommands
            guard clock.now < deadline || (!enough && clock.now < deadline + .seconds(60)) else { break }
            let command = Self.pickCommand(&random, mayResetWallet: clock.now - start < Self.resetsUntil)
            outcomes.append(try await Outcome.run(command, in: folder, bound: Self.hangBound))
            if command == ["store", "reset"] {
              // A reset store answers at normal latency again; this worker puts it back.
              outcomes.append(
                try await Outcome.run(["store", "set", "latency", "instant"], in: folder, bound: Self.hangBound))
            }
            await finished.add()
          }
          return outcomes
        }
      }
      var all: [Outcome] = []
      for try await outcomes in group { all += outcomes }
      return all
    }
    let stopped = try await holder.value
    deleter.cancel()
    let deletions = await deleter.value

    // The launch that takes delivery of whatever the run left.
    let launch = try await Outcome.run(["launch"], in: folder, bound: Self.hangBound)
    // A data folder left unreadable is a failure, reported with everything else.
    let final: LedgerView?
    do {
      final = try await LedgerView.read(folder)
    } catch {
      Issue.record("after the run and a launch: \(error)")
      final = nil
    }
    let report = Report(outcomes + [launch])
    let elapsed = clock.now - start
    print(
      "concurrent writers: \(outcomes.count) commands by \(Self.workers) processes in "
        + "\(elapsed.components.seconds) s, \(deletions) lock files deleted; \(report.summary)")

    // Every command and what it printed, in the order they started, kept for a failure's reader.
    let transcript = FileManager.default.temporaryDirectory.appendingPathComponent(
      "monkeyshop-concurrent-writers-\(seed).log")
    let lines = (outcomes + [launch]).sorted { $0.started < $1.started }.map {
      "[\(($0.started - start).components.seconds).\(($0.started - start).components.attoseconds / 10_000_000_000_000_000)"
        + "–\(($0.ended - start).components.seconds).\(($0.ended - start).components.attoseconds / 10_000_000_000_000_000) s] \($0)"
    }
    try? lines.joined(separator: "\n").write(to: transcript, atomically: true, encoding: .utf8)
    let hung = report.problems.filter { $0.result.stderr.hasPrefix("HUNG") }.count
    let caveat =
      (hung > 0 || report.problems.contains { $0.result.killedBy != nil }
        ? " (commands that hung or crashed lost what they printed, so their deliveries may be missing here)" : "")
      + "; every command's output: \(transcript.path)"

    #expect(outcomes.count >= Self.enoughCommands, "too few commands to test anything: \(outcomes.count)")
    // Nobody hung; no command crashed or found the data unreadable.
    for outcome in report.problems.prefix(12) { Issue.record("\(outcome)") }
    #expect(report.problems.isEmpty, "\(report.problems.count) commands ended badly (the first 12 are above)\(caveat)")
    #expect(launch.result.exitStatus == 0 || launch.result.exitStatus == 1, "the final launch: \(launch)")
    // The stopped holder outlasted the commands' wait: they said whom they waited for, then gave up.
    // Only a command that waited and gave up entirely while the holder was stopped certainly
    // waited for it: on a busy machine a command may also give up behind the other writers.
    if let stopped {
      let gaveUp = outcomes.filter {
        $0.result.exitStatus == 75 && stopped.from < $0.started && $0.ended < stopped.until
      }
      #expect(!gaveUp.isEmpty, "no command gave up waiting for the stopped lock holder")
      for outcome in gaveUp.prefix(3) {
        #expect(outcome.result.stderr.contains("waiting for the lock on"), "\(outcome)")
        #expect(outcome.result.stderr.contains("MS-E0018"), "\(outcome)")
        #expect(outcome.result.stderr.contains("which is stopped"), "\(outcome)")
      }
    }

    // Each transaction ID is handed out once.
    #expect(report.repeatedIDs.isEmpty, "transaction IDs handed out twice: \(report.repeatedIDs)\(caveat)")
    if let final { #expect(final.repeatedIDs.isEmpty, "the store lists IDs twice: \(final)") }
    // Every purchase that reached `purchased` is credited exactly once, and finished after launch.
    #expect(report.neverCredited.isEmpty, "paid for, never credited: \(report.neverCredited)\(caveat)")
    #expect(report.creditedTwice.isEmpty, "credited more than once: \(report.creditedTwice)\(caveat)")
    guard let final else { return }
    #expect(final.unfinishedPurchases.isEmpty, "purchased, still unfinished after launch: \(final)")
    // The balance is what was credited minus what was spent (since the last wallet reset).
    let allowed = report.allowedBalances()
    #expect(
      allowed.contains(final.balance),
      "balance \(final.balance), but credits minus successful spends give \(allowed.count == 1 ? "\(allowed.first!)" : "one of \(allowed.sorted().prefix(20))…") (\(report.summary))\(caveat)"
    )
  }

  static let products = [ShippedCatalog.five, ShippedCatalog.ten]
  static let conditions: [[String]] = [
    ["askToBuy", "on"], ["askToBuy", "off"], ["askToBuy", "off"], ["interruptedPurchases", "on"],
    ["interruptedPurchases", "off"], ["interruptedPurchases", "off"], ["network", "down"], ["network", "up"],
    ["network", "up"], ["storefront", "JPN"], ["storefront", "USA"], ["failNext", "2"],
  ]

  /// One command, with every writing command in the mix.
  static func pickCommand(_ random: inout SplitMix64, mayResetWallet: Bool) -> [String] {
    let product = products[random.below(2)]
    let roll = random.below(100)
    switch roll {
    case 0..<30: return ["buy", product, "--quantity", "\(random.below(3) + 1)"]
    case 30..<55: return ["spend", "\(random.below(5) + 1)"]
    case 55..<58: return ["buy", product, "--crash", "beforeDelivery"]
    case 58..<61: return ["buy", product, "--crash", "afterDeliveryBeforeFinish"]
    case 61..<66: return ["launch"]
    case 66..<78: return ["store", "set"] + conditions[random.below(conditions.count)]
    case 78..<83: return ["store", "approve", "last"]
    case 83..<86: return ["store", "decline", "last"]
    case 86..<90: return ["store", "resolve", "last"]
    case 90..<92: return ["store", "reset"]
    case 92..<96 where mayResetWallet: return ["wallet", "reset"]
    default: return ["spend", "1"]
    }
  }

  /// When the lock holder was stopped: from the moment it was stopped holding the lock until it
  /// was continued.
  struct StopWindow {
    let from: ContinuousClock.Instant
    let until: ContinuousClock.Instant
  }

  /// A process that holds the data folder's lock and is stopped (SIGSTOP) for `stoppedFor`, then
  /// continued and ended: `flock(1)` takes the same `flock` on the folder that monkeyshop takes.
  /// (Stopping a real monkeyshop at the instant it holds the lock is a race; its holding the lock
  /// while killed at every system call is the crash-point sweep's part.) Nil without flock(1).
  static func stoppedLockHolder(in folder: ShopFolder) async throws -> StopWindow? {
    guard let flock = Locations.executable(named: "flock") else {
      print("concurrent writers: no flock(1): no stopped lock holder")
      return nil
    }
    let started = ContinuousClock.now
    let child = try Child(
      executable: flock, [folder.data.path, "sleep", "60"], in: folder, environment: folder.environment())
    // Wait until it holds the lock (its sleep has started), then stop both.
    var sleeper: pid_t?
    while sleeper == nil, ContinuousClock.now - started < .seconds(20) {
      sleeper = childPID(of: child.pid)
      try await Task.sleep(for: .milliseconds(5))
    }
    guard let sleeper else {
      Issue.record("flock(1) did not take the data folder's lock within 20 s")
      kill(child.pid, SIGTERM)
      _ = try? await child.wait(timeout: hangBound)
      return nil
    }
    kill(child.pid, SIGSTOP)
    kill(sleeper, SIGSTOP)
    let from = ContinuousClock.now
    try await Task.sleep(for: stoppedFor)
    let until = ContinuousClock.now
    kill(sleeper, SIGCONT)
    kill(child.pid, SIGCONT)
    kill(sleeper, SIGTERM)
    _ = try? await child.wait(timeout: hangBound)
    return StopWindow(from: from, until: until)
  }
}

/// What one command did, and when: started before it was spawned, ended after it was reaped, so
/// its effect on the files happened in between.
struct Outcome: Sendable, CustomStringConvertible {
  let command: [String]
  let started: ContinuousClock.Instant
  let ended: ContinuousClock.Instant
  let result: ChildResult

  var description: String { "\(result)" }

  static func run(_ command: [String], in folder: ShopFolder, bound: Duration) async throws -> Outcome {
    let started = ContinuousClock.now
    let result: ChildResult
    do {
      // Shorter than the lock holder's stop, so waiting commands are seen giving up (exit 75).
      result = try await Child(command, in: folder, environment: ["MONKEYSHOP_LOCK_TIMEOUT": "2"]).wait(timeout: bound)
    } catch let failure as E2EFailure {
      // Hung: killed at the bound. Kept as an outcome so the test reports it with the rest.
      result = ChildResult(
        command: ["monkeyshop"] + command, exitStatus: nil, killedBy: nil, stdout: "",
        stderr: "HUNG: \(failure.description)")
    }
    return Outcome(command: command, started: started, ended: ContinuousClock.now, result: result)
  }

  /// Whether it happened entirely before `other` began.
  func precedes(_ other: Outcome) -> Bool { ended < other.started }
}

/// What the outcomes say about the ledger, from what each command printed.
struct Report {
  /// A change of the balance, made by one command.
  struct Change {
    let amount: Int
    let by: Outcome
  }

  var problems: [Outcome] = []
  /// Transaction IDs of new payments and resolved interruptions, in the order seen.
  var createdIDs: [String] = []
  /// Every transaction reported as purchased (bought, redelivered, approved, resolved).
  var purchasedIDs: Set<String> = []
  /// Credits of each new payment, by transaction ID.
  var paymentCredits: [String: Int] = [:]
  var credits: [String: [Change]] = [:]
  /// Purchases whose process was killed at the crash point after delivering them.
  var spends: [Change] = []
  var walletResets: [Outcome] = []

  init(_ outcomes: [Outcome]) {
    for outcome in outcomes {
      let result = outcome.result
      let crashed = result.killedBy == SIGKILL && outcome.command.contains("--crash")
      // Allowed endings: done (0), refused (1: not enough credits, nothing to approve, a failed
      // purchase), gave up waiting for a lock (75), and the kill a crash point asks for.
      let fine =
        [0, 1, 75].contains(result.exitStatus ?? -1)
        || (crashed && result.stdout.contains("CRASH at"))
      if !fine { problems.append(outcome) }
      parse(outcome)
    }
  }

  private mutating func parse(_ outcome: Outcome) {
    let lines = outcome.result.stdout.split(separator: "\n")
    var lastPayment: Int?
    for line in lines {
      let redelivered = line.contains("(redelivered)")
      if let range = line.range(of: "SKPaymentQueue.add(payment ") {
        // "SKPaymentQueue.add(payment com.monkeyshop.credits.10 ×3)"
        let rest = line[range.upperBound...].dropLast()
        let parts = rest.split(separator: " ")
        if parts.count == 2, let quantity = Int(parts[1].dropFirst()) {
          lastPayment = (ShippedCatalog.credits[String(parts[0])] ?? 0) * quantity
        }
      }
      if let id = Self.number(after: ".purchasing payment ", in: line), !redelivered {
        createdIDs.append(id)
        if let lastPayment { paymentCredits[id] = lastPayment }
      }
      if let id = Self.number(after: ".purchased #", in: line) {
        purchasedIDs.insert(id)
      }
      if let id = Self.number(after: "approved: payment ", in: line) { purchasedIDs.insert(id) }
      if let id = Self.number(after: "the store sends a new payment, payment ", in: line) {
        createdIDs.append(id)
        if line.contains("receive as purchased") { purchasedIDs.insert(id) }
      }
      // "deliver #7: +10 credits → balance 25"
      if let id = Self.number(after: "deliver #", in: line), let range = line.range(of: ": +"),
        let amount = Int(line[range.upperBound...].prefix { $0.isNumber })
      {
        credits[id, default: []].append(Change(amount: amount, by: outcome))
      }
    }
    if outcome.command.first == "spend", outcome.result.exitStatus == 0,
      let amount = Self.number(after: "spent ", in: outcome.result.stdout).flatMap({ Int($0) })
    {
      spends.append(Change(amount: -amount, by: outcome))
    }
    if outcome.command == ["wallet", "reset"], outcome.result.exitStatus == 0 { walletResets.append(outcome) }
  }

  private static func number(after marker: String, in text: some StringProtocol) -> String? {
    guard let range = text.range(of: marker) else { return nil }
    let digits = text[range.upperBound...].prefix { $0.isNumber }
    return digits.isEmpty ? nil : String(digits)
  }

  var repeatedIDs: [String] {
    Dictionary(grouping: createdIDs, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted { Int($0)! < Int($1)! }
  }
  var neverCredited: [String] {
    purchasedIDs.filter { credits[$0, default: []].isEmpty }.sorted { Int($0)! < Int($1)! }
  }
  var creditedTwice: [String] {
    credits.filter { $0.value.count > 1 }.map { "#\($0.key) ×\($0.value.count)" }.sorted()
  }

  var summary: String {
    let credited = credits.values.flatMap { $0 }.map(\.amount).reduce(0, +)
    return "\(createdIDs.count) transactions, \(purchasedIDs.count) purchased, \(credited) credits delivered, "
      + "\(spends.count) spends of \(-spends.map(\.amount).reduce(0, +)) credits, \(walletResets.count) wallet resets"
  }

  /// The balances the wallet may show. With no wallet reset: every credit minus every spend. With
  /// resets, the one that came last is not known from outside, nor the order of the commands that
  /// ran at the same time as it: each reset that nothing certainly followed may be the last; changes
  /// certainly after it count, changes that overlapped it may or may not.
  func allowedBalances() -> Set<Int> {
    let changes = credits.values.flatMap { $0 } + spends
    guard !walletResets.isEmpty else { return [changes.map(\.amount).reduce(0, +)] }
    var allowed: Set<Int> = []
    for last in walletResets where !walletResets.contains(where: { last.precedes($0) }) {
      let after = changes.filter { last.precedes($0.by) }.map(\.amount).reduce(0, +)
      var sums: Set<Int> = [after]
      for change in changes where !last.precedes(change.by) && !change.by.precedes(last) {
        sums.formUnion(sums.map { $0 + change.amount })
      }
      allowed.formUnion(sums)
    }
    return allowed
  }
}

/// The first child of a process (strace's tracee), from /proc.
private func childPID(of parent: pid_t) -> pid_t? {
  guard let text = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8) else {
    return nil
  }
  return text.split(separator: " ").first.flatMap { pid_t($0) }
}

/// How many commands the writers have finished, across their tasks.
private actor CommandCount {
  private(set) var value = 0
  func add() { value += 1 }
}
