import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one rule for files a person names for monkeyshop to write (`--out`, `--junit`, `--cast`,
/// `MONKEYSHOP_SCREEN_DUMP`): only a regular file is replaced, whole; nothing else is touched.
@Suite("Output files", .tags(.pure))
struct OutputFileTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "monkeyshop-output-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  @Test("what is in the way is named: a folder, a symbolic link, a FIFO, a device, no file name")
  func obstacles() throws {
    let target = root + "/mine.txt"
    try "mine\n".write(toFile: target, atomically: false, encoding: .utf8)
    #expect(symlink(target, root + "/link") == 0)
    #expect(mkfifo(root + "/fifo", 0o600) == 0)
    let cases: [(String, String?)] = [
      (target, nil), (root + "/new.txt", nil), (root, "is a folder (expected a file name, such as x.txt)"),
      (root + "/link", "is a symbolic link; monkeyshop does not write through it"),
      (root + "/fifo", "is a FIFO, not a regular file"), ("/dev/null", "is a device, not a regular file"),
      ("", "names no file (expected a file name, such as x.txt)"),
      (root + "/new/", "names no file (expected a file name, such as x.txt)"),
    ]
    let data = DataFolder(path: root + "/data")
    for (path, expected) in cases {
      #expect(OutputFile.obstacle(at: path, example: "x.txt", dataFolder: data) == expected, "\(path)")
    }
    for inside in [root + "/data/wallet.json", root + "/data/content/x", root + "/elsewhere/../data/store.json"] {
      #expect(
        OutputFile.obstacle(at: inside, example: "x.txt", dataFolder: data)
          == "is in the data folder, whose files only monkeyshop writes", "\(inside)")
    }
    #expect(OutputFile.folderObstacle(of: root + "/missing/x.txt") == "the folder \(root)/missing does not exist")
    #expect(OutputFile.folderObstacle(of: root + "/x.txt") == nil)
  }

  @Test("a write replaces a regular file whole and a link put there, never what the link points at")
  func writesWhole() throws {
    let path = root + "/out.txt"
    try OutputFile.write(Data("one".utf8), to: path)
    try OutputFile.write(Data("two".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    let target = root + "/theirs.txt"
    try "theirs".write(toFile: target, atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(atPath: path)
    #expect(symlink(target, path) == 0)
    try OutputFile.write(Data("three".utf8), to: path)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "three")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["out.txt", "theirs.txt"])
  }

  @Test("a file replaced keeps its permissions")
  func keepsMode() throws {
    let path = root + "/private.txt"
    try "mine".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, 0o600) == 0)
    try OutputFile.write(Data("new".utf8), to: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test("without replacing, a file that is there is kept and the write says it exists")
  func keepsWhatIsThere() throws {
    let path = root + "/kept.txt"
    try "mine".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(throws: OutputFile.WriteError.self) { try OutputFile.write(Data("new".utf8), to: path, replacing: false) }
    do {
      try OutputFile.write(Data("new".utf8), to: path, replacing: false)
    } catch {
      #expect(error.description == "exists")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
    try OutputFile.write(Data("new".utf8), to: root + "/fresh.txt", replacing: false)
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["fresh.txt", "kept.txt"])
  }

  @Test("a write to a folder that cannot hold it says why and leaves nothing behind")
  func failsCleanly() throws {
    do {
      try OutputFile.write(Data("x".utf8), to: root + "/missing/x.txt")
      Issue.record("wrote into a missing folder")
    } catch {
      #expect(error.description == "cannot be written: No such file or directory")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
  }
}

@Suite("A JUnit report to replace", .tags(.pure))
struct JUnitReportRecognitionTests {
  @Test(
    "an earlier report is one whatever wrote it; a walkthrough, JSON or other XML is not",
    arguments: [
      (JUnitReport.xml([]), true),
      ("<testsuite name=\"x\" tests=\"1\">", true),
      ("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- made by another tool -->\n  <testsuites>", true),
      ("<testsuites/>", true),
      ("name: Buy 5\nsteps:\n  - launch\n", false),
      (#"{"schemaVersion": 4, "balance": 5}"#, false),
      ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">", false),
      ("<testsuitesAndMore>", false),
      ("<?xml version=\"1.0\"", false),
    ])
  func recognized(_ text: String, _ isReport: Bool) {
    #expect(ReportFile.isJUnitReport(Data(text.utf8)) == isReport)
  }
}

@Suite("A report or recording to replace ends as one", .tags(.pure))
struct OwnOutputEndTests {
  @Test("a report ends with its root's end tag; notes after a pasted header do not")
  func reportEnds() {
    #expect(ReportFile.endsAsAReport(Data(JUnitReport.xml([]).utf8)))
    #expect(ReportFile.endsAsAReport(Data("<testsuite name=\"a\"/>\n".utf8)))
    #expect(!ReportFile.endsAsAReport(Data("<testsuites>\nTHESIS CHAPTER 1\n1000\n".utf8)))
  }

  @Test("a recording ends with an event; notes after a recording's header do not")
  func recordingEnds() {
    #expect(Cast.endsAsARecording(Data("{\"version\": 2}\n[0.5, \"o\", \"text\"]\n".utf8)))
    #expect(!Cast.endsAsARecording(Data("{\"version\": 2}\nMY OWN NOTES\n".utf8)))
    #expect(!Cast.endsAsARecording(Data("{\"version\": 2}\n".utf8)))
  }
}
