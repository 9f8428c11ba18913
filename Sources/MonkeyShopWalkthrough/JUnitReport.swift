import Foundation
import MonkeyShopDomain

/// JUnit XML for CI: one test case per walkthrough named, a failure with where and why (and the
/// transcript, screen included), an error for a file that was rejected before running, and a
/// skipped case, saying why, for each good one not run because another was rejected.
public enum JUnitReport {
  public static func xml(
    _ results: [WalkthroughResult], rejected: [WalkthroughError.Problem] = [], notRun: [Walkthrough] = [],
    suite: String = "walkthroughs"
  ) -> String {
    let rejectedFiles = Dictionary(grouping: rejected, by: \.path).sorted { $0.key < $1.key }
    let failures = results.filter { !$0.passed }.count
    let tests = results.count + rejectedFiles.count + notRun.count
    let time = seconds(results.reduce(Duration.zero) { $0 + $1.elapsed })
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"\(escape(suite))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(rejectedFiles.count)\" skipped=\"\(notRun.count)\" time=\"\(time)\">\n"
    xml +=
      "  <testsuite name=\"\(escape(suite))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(rejectedFiles.count)\" skipped=\"\(notRun.count)\" time=\"\(time)\">\n"
    // Every file is checked before any runs: one refused, none runs.
    let why =
      "not run: \(rejectedFiles.count == 1 ? "another walkthrough file was" : "\(rejectedFiles.count) other walkthrough files were") refused (\(rejectedFiles.map(\.key).joined(separator: ", "))), and nothing runs until every file is accepted"
    for walkthrough in notRun {
      xml +=
        "    <testcase classname=\"\(escape(className(walkthrough.path)))\" name=\"\(escape(walkthrough.name))\" file=\"\(escape(walkthrough.path))\" time=\"0\">\n"
      xml += "      <skipped message=\"\(escape(why))\"/>\n"
      xml += "    </testcase>\n"
    }
    for result in results {
      let walkthrough = result.walkthrough
      xml +=
        "    <testcase classname=\"\(escape(className(walkthrough.path)))\" name=\"\(escape(walkthrough.name))\" file=\"\(escape(walkthrough.path))\" time=\"\(seconds(result.elapsed))\">\n"
      if let summary = result.failureSummary {
        xml += "      <failure message=\"\(escape(summary))\" type=\"WalkthroughFailure\">"
        xml += escape(Transcript.text(result, steps: false))
        xml += "</failure>\n"
      }
      xml += "      <system-out>\(escape(Transcript.text(result)))</system-out>\n"
      xml += "    </testcase>\n"
    }
    for (path, problems) in rejectedFiles {
      let message = problems.map(\.description).joined(separator: "\n")
      xml +=
        "    <testcase classname=\"\(escape(className(path)))\" name=\"\(escape(path))\" file=\"\(escape(path))\" time=\"0\">\n"
      xml += "      <error message=\"\(escape(problems[0].description))\" type=\"WalkthroughRejected\">"
      xml += escape(message)
      xml += "</error>\n"
      xml += "    </testcase>\n"
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// `walkthroughs.buy-5`: the file's name, so CI groups them.
  static func className(_ path: String) -> String {
    let file = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return "walkthroughs.\(file)"
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.6f", Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// Text safe in an attribute or element: the five entities, and no characters XML 1.0 forbids.
  static func escape(_ text: String) -> String {
    XMLText.escaped(text) { _ in "\u{FFFD}" }
  }
}
