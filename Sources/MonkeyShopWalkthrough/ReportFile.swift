import Foundation
import MonkeyShopStorage

/// Where a report (`--junit PATH`) goes, made ready before any walkthrough runs, by the rule every
/// file monkeyshop is told to write follows (`OutputFile.prepare`): its missing folders are
/// created, and a place it cannot be written to is refused then, not after the run.
public enum ReportFile {
  public typealias PlaceError = OutputFile.PlaceError

  /// Creates the folders `path` needs and checks that a file can be written there. A file already
  /// there is replaced only when it is empty or a JUnit report (its root element `testsuites` or
  /// `testsuite`, as a CI job's earlier run left it), so a mistyped path never costs a person a
  /// file of theirs: the walkthrough being run, another data folder's wallet. `example` is a file
  /// name the messages suggest.
  public static func prepare(
    _ path: String, example: String = "build/walkthroughs.xml", dataFolder: DataFolder
  ) throws(PlaceError) {
    try OutputFile.prepare(path, example: example, dataFolder: dataFolder)
    guard let start = try OutputFile.existingStart(path, upTo: 4096),
      !isJUnitReport(start) || !endsAsAReport(OutputFile.existingEnd(path, upTo: 64))
    else { return }
    throw PlaceError(
      path: path,
      problem: "is not a JUnit report; it is left as it is (expected a new file name, or an earlier report to replace)")
  }

  /// Whether a file's last bytes close a JUnit report: nothing but white space after its root's
  /// end tag, so a file that only begins like one (notes after a pasted header) is not taken.
  static func endsAsAReport(_ end: Data) -> Bool {
    let text = String(decoding: end, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.hasSuffix("</testsuites>") || text.hasSuffix("</testsuite>") || text.hasSuffix("/>")
  }

  /// Whether a file's first bytes open a JUnit report: an optional XML declaration, comments and
  /// white space, then the root element `<testsuites` or `<testsuite`.
  static func isJUnitReport(_ start: Data) -> Bool {
    var text = Substring(String(decoding: start, as: UTF8.self))
    if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
    while true {
      text = text.drop { $0.isWhitespace }
      if text.hasPrefix("<?xml") || text.hasPrefix("<!--") {
        let end = text.hasPrefix("<?xml") ? "?>" : "-->"
        guard let close = text.range(of: end) else { return false }
        text = text[close.upperBound...]
        continue
      }
      for root in ["<testsuites", "<testsuite"] where text.hasPrefix(root) {
        let next = text.dropFirst(root.count).first
        if next == nil || next == ">" || next == "/" || next!.isWhitespace { return true }
      }
      return false
    }
  }
}
