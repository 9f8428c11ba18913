import Foundation
import MonkeyShopDomain
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything the headless commands write goes through here, so that:
/// - nothing read from a catalog, a walkthrough or a data file reaches the terminal raw: each line
///   is shown with its control characters escaped (`TerminalText.escaped`, docs/commands.md);
/// - each line is written as it happens: standard output redirected to a file is fully buffered,
///   and a `buy` ended by SIGTERM would otherwise leave the file empty.
enum Output {
  /// Lines for standard output. Text with newlines is several lines, each escaped.
  static func say(_ text: String = "") {
    emit(lines(text), to: .standardOutput)
  }

  /// Lines for standard error: failures and warnings.
  static func warn(_ text: String) {
    emit(lines(text), to: .standardError)
  }

  /// A JSON document from `JSONOutput`, which writes every control in JSON's own notation.
  static func sayJSON(_ json: String, ending: Bool = true) {
    emit(ending ? json + "\n" : json, to: .standardOutput)
  }

  /// The program's own text, unescaped: help and shell completion scripts, which hold no text
  /// from any file and must reach a shell exactly as written.
  static func sayVerbatim(_ text: String) {
    emit(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
  }

  /// Bytes exactly as given: binary output a command was asked for (`store certificate`'s DER to a
  /// pipe or a file), never to a terminal.
  static func sayBytes(_ bytes: Data) {
    emit(Array(bytes)[...], to: .standardOutput)
  }

  private static func lines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)) + "\n" }.joined()
  }

  private enum Stream { case standardOutput, standardError }

  /// One write(2) per call, retried when interrupted or short: nothing waits in a buffer.
  private static func emit(_ text: String, to stream: Stream) {
    emit(Array(text.utf8)[...], to: stream)
  }

  private static func emit(_ bytes: ArraySlice<UInt8>, to stream: Stream) {
    let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
    var bytes = bytes
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else {
        if stream == .standardOutput {
          _ = lostOutput.compareExchange(expected: 0, desired: written < 0 ? errno : EIO, ordering: .relaxed)
        }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// The error of the first write to standard output that failed (a full disk, `/dev/full`), or 0.
  private static let lostOutput = Atomic<Int32>(0)

  /// What a command printed was cut short: a script reading it would take part of a listing for
  /// all of it, so the command fails (`cannotWriteOutput`) once it has run.
  static var outputFailure: Failure? {
    let code = lostOutput.load(ordering: .relaxed)
    guard code != 0 else { return nil }
    return Failure(
      "standard output could not be written (\(String(cString: strerror(code)))): what it shows is incomplete — \(ErrorID.cannotWriteOutput.rawValue)",
      .cannotWriteOutput)
  }
}

/// `Output.say`: the one way headless commands print.
func say(_ text: String = "") { Output.say(text) }

/// A path or word as one shell word, for the commands messages suggest (`asciinema play PATH`):
/// as it is when it holds only characters no shell treats specially, else in single quotes; with
/// control characters, in bash's `$'…'` with each control as `\xHH` or `\uHHHH`, so the word
/// holds none raw and still names the file.
func shellWord(_ text: String) -> String {
  let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")
  if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
  guard text.unicodeScalars.contains(where: TerminalText.isControl) else {
    return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
  var word = "$'"
  for scalar in text.unicodeScalars {
    switch scalar {
    case "'", "\\": word += "\\" + String(scalar)
    case _ where scalar.value < 0x80 && TerminalText.isControl(scalar):
      word += "\\x" + String(format: "%02x", scalar.value)
    case _ where TerminalText.isControl(scalar): word += "\\u" + String(format: "%04x", scalar.value)
    default: word.unicodeScalars.append(scalar)
    }
  }
  return word + "'"
}
