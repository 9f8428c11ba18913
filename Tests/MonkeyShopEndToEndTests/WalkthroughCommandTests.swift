import Foundation
import Testing

/// `monkeyshop walkthrough` through the built binary, as a CI job or a QA engineer runs it: where
/// the JUnit report goes, what is refused before anything runs, what `-q` and `--list` print.
@Suite("The walkthrough command", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct WalkthroughCommandTests {
  private var buyFive: String { Locations.repository.appendingPathComponent("Walkthroughs/buy-5.yaml").path }

  // MARK: --junit

  @Test("--json says which transaction a store step's last stood for, as the transcript does")
  func jsonSaysWhatLastStoodFor() async throws {
    let folder = try ShopFolder("json-last")
    let transcript = try expectSuccess(await monkeyshop("walkthrough", "refund-storekit1", in: folder))
    let line = try #require(transcript.stdout.split(separator: "\n").first { $0.contains("store refund last → ") })
    let shown = try #require(line.components(separatedBy: "last → #").last)
    let result = try expectSuccess(await monkeyshop("walkthrough", "refund-storekit1", "--json", in: folder))
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let steps = try #require((report["walkthroughs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
    let store = try #require(steps.first { ($0["step"] as? String)?.hasPrefix("store refund last") == true })
    #expect(store["lastTransactionID"] as? String == shown, "\(store)")
    #expect(!steps.contains { $0["kind"] as? String != "store" && $0["lastTransactionID"] != nil }, "\(steps)")
  }

  @Test("--json gives each event's time as the walkthrough's start plus its ms, to the millisecond")
  func jsonTimesAgreeWithMilliseconds() async throws {
    let folder = try ShopFolder("json-times")
    let result = try expectSuccess(await monkeyshop("walkthrough", buyFive, "--json", in: folder))
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let steps = try #require((report["walkthroughs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
    let events = steps.flatMap { $0["events"] as? [[String: Any]] ?? [] }
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    // 2026-01-01T00:00:00Z, the virtual clock's start.
    let start = try #require(format.date(from: "2026-01-01T00:00:00.000Z"))
    #expect(events.count > 5 && events.contains { ($0["ms"] as? Int ?? 0) % 1000 != 0 }, "\(events)")
    for event in events {
      let ms = try #require(event["ms"] as? Int, "\(event)")
      let expected = format.string(from: start.addingTimeInterval(TimeInterval(ms / 1000)))
        .replacingOccurrences(of: ".000Z", with: String(format: ".%03dZ", ms % 1000))
      #expect(event["time"] as? String == expected, "\(event)")
    }
  }

  @Test("--play with two walkthroughs says how many were given, and names --junit only when it was given")
  func playRefusesTwoSayingWhy() async throws {
    let folder = try ShopFolder("play-two")
    let two = try await monkeyshop("walkthrough", "--play", "buy-5", "ask-to-buy-approved", in: folder)
    #expect(two.exitStatus == 64, "\(two)")
    #expect(two.stderr.contains("--play plays one walkthrough") && two.stderr.contains("2 were given"), "\(two)")
    let said = two.stderr.split(separator: "\n").first { $0.contains("--play plays") } ?? ""
    #expect(!said.contains("--junit"), "\(two)")
    let junit = try await monkeyshop("walkthrough", "--play", "buy-5", "--junit", "report.xml", in: folder)
    #expect(junit.exitStatus == 64, "\(junit)")
    #expect(junit.stderr.contains("so no --junit"), "\(junit)")
  }

  @Test("--junit build/walkthroughs.xml creates the missing build folder and writes the report")
  func junitCreatesItsFolder() async throws {
    let folder = try ShopFolder("junit-folder")
    // The test's folder, not the current one: a child starts where the test runner is.
    let path = folder.root.appendingPathComponent("build/walkthroughs.xml").path
    let result = try await monkeyshop("walkthrough", buyFive, "--junit", path, in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    let report = try String(contentsOfFile: path, encoding: .utf8)
    #expect(report.contains("<testcase"), "\(report)")
    #expect(report.contains("failures=\"0\""), "\(report)")
  }

  /// One file refused, none runs: the report still names every walkthrough given, the refused ones
  /// as errors and the good ones as skipped with why, and its counts are those cases.
  @Test("--junit with a refused file lists the good files as skipped, saying why")
  func junitListsGoodFilesNotRun() async throws {
    let folder = try ShopFolder("junit-not-run")
    let bad = folder.root.appendingPathComponent("bad.yaml").path
    #expect(FileManager.default.createFile(atPath: bad, contents: Data("name: bad\nsteps:\n  - jump\n".utf8)))
    let path = folder.root.appendingPathComponent("j.xml").path
    let result = try await monkeyshop("walkthrough", "-q", buyFive, bad, "--junit", path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stderr.contains("nothing was run"), "\(result)")
    let report = try String(contentsOfFile: path, encoding: .utf8)
    #expect(report.contains("tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"1\""), "\(report)")
    #expect(report.contains("file=\"\(buyFive)\""), "\(report)")
    #expect(
      report.contains(
        "<skipped message=\"not run: another walkthrough file was refused (\(bad)), and nothing runs until every file is accepted\"/>"
      ), "\(report)")
    #expect(report.contains("file=\"\(bad)\""), "\(report)")
  }

  /// A place the report cannot go is refused before any walkthrough runs (nothing printed on
  /// standard output), with exit 64 and a message naming the path; what is there is left alone.
  @Test("--junit refuses a file in the way, a folder, and an unwritable folder before running")
  func junitRefusesAnUnwritablePlace() async throws {
    let folder = try ShopFolder("junit-refused")
    let inTheWay = folder.root.appendingPathComponent("build")
    #expect(FileManager.default.createFile(atPath: inTheWay.path, contents: Data("mine".utf8)))
    try FileManager.default.createDirectory(
      at: folder.root.appendingPathComponent("reports"), withIntermediateDirectories: true)
    let root = folder.root.path
    var cases: [(path: String, fragment: String)] = [
      ("\(root)/build/walkthroughs.xml", "\(root)/build is a file, not a folder"),
      ("\(root)/build/more/walkthroughs.xml", "\(root)/build is a file, not a folder"),
      ("\(root)/reports", "is a folder"),
      // The data folder's files only monkeyshop writes: a report there would cost the wallet.
      (folder.data.appendingPathComponent("wallet.json").path, "is in the data folder"),
      (folder.data.appendingPathComponent("content/report.xml").path, "is in the data folder"),
      ("\(root)/new-folder/", "names no file"),
      ("", "names no file"),
    ]
    #if os(Linux)
      // Not even root can make files in /proc: the folder is there, and the system's "No such file
      // or directory" would say it is not.
      cases.append(("/proc/1/walkthroughs.xml", "cannot write in the folder /proc/1: it takes no new files"))
    #endif
    for (path, fragment) in cases {
      let result = try await monkeyshop("walkthrough", buyFive, "--junit", path, in: folder)
      #expect(result.exitStatus == 64, "\(result)")
      #expect(result.stderr.contains("--junit \(path): "), "\(result)")
      #expect(result.stderr.contains(fragment), "\(result)")
      #expect(result.stderr.contains("nothing was run"), "\(result)")
      #expect(result.stdout.isEmpty, "nothing ran: \(result)")
      #expect(!result.stderr.contains("No such file or directory"), "\(result)")
    }
    #expect(try String(contentsOf: inTheWay, encoding: .utf8) == "mine")
  }

  /// A mistyped `--junit` costs nothing: only an earlier report (or an empty file) is replaced.
  @Test(
    "--junit over a file that is not a JUnit report (the walkthrough itself, another folder's wallet) is refused, the file untouched; an earlier report is replaced"
  )
  func junitReplacesOnlyAReport() async throws {
    let folder = try ShopFolder("junit-over-a-file")
    let walkthrough = folder.file("mine.yaml").path
    try FileManager.default.copyItem(atPath: buyFive, toPath: walkthrough)
    let wallet = folder.file("wallet.json").path
    try Data(#"{"schemaVersion": 4, "balance": 5}"#.utf8).write(to: URL(fileURLWithPath: wallet))
    // Notes that only begin as a report does.
    let notes = folder.file("thesis.xml").path
    try Data("<?xml version=\"1.0\"?>\n<testsuites>\nTHESIS CHAPTER 1\n".utf8).write(to: URL(fileURLWithPath: notes))
    for path in [walkthrough, wallet, notes] {
      let before = FileManager.default.contents(atPath: path)
      let result = try await monkeyshop("walkthrough", walkthrough, "-q", "--junit", path, in: folder)
      #expect(result.exitStatus == 64, "\(result)")
      #expect(result.stderr.contains("--junit \(path): is not a JUnit report; it is left as it is"), "\(result)")
      #expect(result.stdout.isEmpty, "nothing ran: \(result)")
      #expect(FileManager.default.contents(atPath: path) == before)
    }
    // Another data folder's files, whatever they are called.
    let other = try ShopFolder("junit-other-folder")
    try await expectSuccess(monkeyshop("store", "set", "latency", "instant", in: other))
    try await expectSuccess(monkeyshop("buy", ShippedCatalog.five, in: other))
    let intoOther = other.data.appendingPathComponent("report.xml").path
    let refused = try await monkeyshop("walkthrough", walkthrough, "-q", "--junit", intoOther, in: folder)
    #expect(refused.exitStatus == 64, "\(refused)")
    #expect(refused.stderr.contains("a monkeyshop data folder, whose files only monkeyshop writes"), "\(refused)")
    #expect(!FileManager.default.fileExists(atPath: intoOther))

    let report = folder.file("report.xml").path
    #expect(FileManager.default.createFile(atPath: report, contents: Data()))
    try await expectSuccess(monkeyshop("walkthrough", walkthrough, "-q", "--junit", report, in: folder))
    try await expectSuccess(monkeyshop("walkthrough", walkthrough, "-q", "--junit", report, in: folder))
    #expect(try String(contentsOfFile: report, encoding: .utf8).contains("<testcase"))
  }

  /// Two outputs naming one file would leave only the last one written.
  @Test("--junit and --cast naming the same file are refused before running")
  func junitAndCastClash() async throws {
    let folder = try ShopFolder("junit-cast-clash")
    let path = folder.file("out.xml").path
    let result = try await monkeyshop("walkthrough", buyFive, "--junit", path, "--cast", path, in: folder)
    #expect(result.exitStatus == 64, "\(result)")
    #expect(result.stderr.contains("--junit and --cast name the same file, \(path): one would be lost"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  // MARK: Refused before running

  /// A storefront the catalog has no prices in is refused up front (65) with the file, the line and
  /// the storefronts the catalog prices; before, it ran and failed as a walkthrough failure (1).
  @Test("a storefront the catalog does not price is refused before running, exit 65")
  func storefrontWithoutPricesRefused() async throws {
    let folder = try ShopFolder("walkthrough-ita")
    let path = folder.file("italy.yaml").path
    let yaml = "name: Italy\nstorefront: ITA\nsteps:\n  - launch\n  - set: { storefront: ITA }\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8)))
    let result = try await monkeyshop("walkthrough", buyFive, path, in: folder)
    #expect(result.exitStatus == 65, "\(result)")
    #expect(result.stdout.isEmpty, "nothing ran: \(result)")
    for line in [2, 5] {
      #expect(
        result.stderr.contains(
          "\(path):\(line): the catalog has no prices for storefront ITA (expected a storefront it prices: USA, JPN,"),
        "\(result)")
    }
  }

  // MARK: What -q and --list print

  /// `-q` prints one line per walkthrough (as the README says), with the details only of a failure.
  @Test("-q: one line per walkthrough that passed; a failure's line is followed by its details")
  func quietIsOneLinePerWalkthrough() async throws {
    let folder = try ShopFolder("walkthrough-quiet")
    let fails = folder.file("fails.yaml").path
    let yaml = "name: Fails\nsteps:\n  - launch\n  - expect: { balance: 50 }\n"
    #expect(FileManager.default.createFile(atPath: fails, contents: Data(yaml.utf8)))
    let restrictions = Locations.repository.appendingPathComponent("Walkthroughs/restrictions.yaml").path
    let result = try await monkeyshop("walkthrough", "-q", buyFive, restrictions, fails, in: folder)
    #expect(result.exitStatus == 1, "\(result)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count > 3, "\(result)")
    guard lines.count > 3 else { return }
    #expect(lines[0].hasPrefix("✓ Buy 5 credits: the happy path (\(buyFive)): passed (13 steps, "), "\(result)")
    #expect(lines[1].hasPrefix("✓ Restrictions (AppStore disabled) (\(restrictions)): passed ("), "\(result)")
    #expect(lines[2].hasPrefix("✗ Fails (\(fails)): failed at step 2 (line 4)"), "\(result)")
    #expect(lines[3].contains("2. expect balance 50"), "the failure's details follow: \(result)")
    #expect(lines.filter { $0.contains(buyFive) }.count == 1, "\(result)")
    #expect(lines.suffix(2) == ["2 passed, 1 failed", ""], "\(result)")
  }

  /// A bundled walkthrough's name misspelt: `--play` and a headless run both say which was meant.
  @Test("a misspelt walkthrough name is told with the one it is a slip of", arguments: [true, false])
  func aMisspeltNameSaysWhichWasMeant(play: Bool) async throws {
    let folder = try ShopFolder("walkthrough-misspelt")
    let arguments = ["walkthrough"] + (play ? ["--play"] : []) + ["ask-to-by-approved", "--catalog", Locations.catalog]
    let result = try await Child(arguments, in: folder).wait(timeout: .seconds(60))
    #expect(result.exitStatus == 65, "\(result)")
    #expect(
      result.stderr.contains(
        "ask-to-by-approved: no such file (did you mean 'ask-to-buy-approved'?) (expected a walkthrough YAML file)"),
      "\(result)")
  }

  /// A bundled walkthrough named where the library is not found (the catalog's folder and the
  /// current one have no Walkthroughs/, and none is installed beside the binary): the message says
  /// so, where it looked, and how to name a file instead, with --play and headless alike.
  @Test("a bundled name without the library says where the library was looked for", arguments: [true, false])
  func aNameWithoutTheLibrary(play: Bool) async throws {
    let folder = try ShopFolder("walkthrough-no-library")
    let arguments = ["walkthrough"] + (play ? ["--play"] : ["-q"]) + ["buy-5"]
    let result = try await Child(
      arguments, in: folder, unsetting: ["MONKEYSHOP_CATALOG"], directory: folder.root.path
    ).wait(timeout: .seconds(60))
    #expect(result.exitStatus == 65, "\(result)")
    #expect(
      result.stderr.contains("buy-5: no such file, and the library of bundled walkthroughs was not found:"),
      "\(result)")
    let installed = URL(fileURLWithPath: try Locations.requireBinary()).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("../share/monkeyshop/Walkthroughs").standardizedFileURL.path
    for place in [
      "\(folder.root.path)/Walkthroughs (beside the catalog and in the current folder)",
      "\(installed) (installed with monkeyshop)",
      "name its path, such as monkeyshop walkthrough path/to/buy-5.yaml",
    ] {
      #expect(result.stderr.contains(place), "\(place): \(result)")
    }
    #expect(result.stdout.isEmpty, "\(result)")
  }

  /// `--list` shows each bundled walkthrough's file, name and one-line description.
  @Test("--list shows each walkthrough's name and its description")
  func listShowsDescriptions() async throws {
    let folder = try ShopFolder("walkthrough-list")
    let result = try await monkeyshop("walkthrough", "--list", "--catalog", Locations.catalog, in: folder)
    #expect(result.exitStatus == 0, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let name = try #require(
      lines.firstIndex { $0.contains("ask-to-buy-approved.yaml") && $0.contains("Ask to Buy, approved") }, "\(result)")
    #expect(
      lines[name + 1].trimmingCharacters(in: .whitespaces)
        == "A child's purchase is deferred until a parent approves it, then delivered like any purchase.",
      "\(result)")
    #expect(
      lines.contains { $0.contains("The sample's consumable purchase, from the buy button to finishTransaction.") })
  }
}
