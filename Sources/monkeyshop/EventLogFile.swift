import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--log-file FILE`: every event of the StoreKit event log as JSON Lines, one object per line,
/// appended as it happens with one write(2) each, so `tail -f` follows it and a kill loses nothing
/// written before it.
final class EventLogFile {
  let path: String
  private let descriptor: Int32
  /// Events that could not be written (a full disk), and why the first could not.
  private(set) var lost = 0
  private var firstLoss: String?

  /// Opens (creating it, mode 0644, and its missing folders, as `--junit` and `--cast` do: one
  /// rule, `OutputFile.prepare`) the file for appending. Refused before the screen opens (exit 64),
  /// named for what it is: a path that cannot be written, anything but a regular file (a FIFO
  /// without a reader would hang the storefront, a device swallows the evidence), a symbolic
  /// link, and a file in the data folder (appending to `wallet.json` would ruin it).
  /// Whether a file is a log this option wrote: its first line a JSON object with an `event`, and
  /// its last byte a newline, so what is appended starts a line of its own.
  static func isEventLog(_ start: Data, path: String) -> Bool {
    let first = start.prefix { $0 != UInt8(ascii: "\n") }
    guard let object = try? JSONSerialization.jsonObject(with: first) as? [String: Any], object["event"] != nil,
      let handle = FileHandle(forReadingAtPath: path)
    else { return false }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd(), end > 0 else { return false }
    try? handle.seek(toOffset: end - 1)
    return (try? handle.read(upToCount: 1)) == Data("\n".utf8)
  }

  init(path: String, dataFolder: DataFolder) throws(Failure) {
    self.path = path
    func refuse(_ reason: String) -> Failure {
      Failure(
        "--log-file \(TerminalText.escaped(path)): \(reason); expected a regular file to append to", .invalidArgument)
    }
    let start: Data?
    do {
      try OutputFile.prepare(path, example: "events.jsonl", dataFolder: dataFolder)
      start = try OutputFile.existingStart(path, upTo: 64 * 1024)
    } catch {
      throw refuse(error.problem)
    }
    // Added to only when it is empty or an earlier log whole: its first line one of this log's
    // events, its last line ended. Anything else is a person's file, left as it is.
    if let start, !Self.isEventLog(start, path: path) {
      throw refuse(
        "is not a monkeyshop event log; it is left as it is (expected a new file name, or an earlier --log-file to add to)"
      )
    }
    // O_NONBLOCK: a FIFO without a reader is refused at once instead of hanging here.
    // O_NOFOLLOW: a symbolic link could lead anywhere, the data folder's wallet.json included.
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else {
      if errno == ELOOP { throw refuse("is a symbolic link") }
      throw refuse("cannot be written (\(String(cString: strerror(errno))))")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      // Something else was put there since it was looked at.
      close(descriptor)
      throw refuse(info.st_mode & S_IFMT == S_IFIFO ? "is a FIFO, not a regular file" : "is not a regular file")
    }
    _ = fcntl(descriptor, F_SETFL, O_WRONLY | O_APPEND)
  }

  deinit { close(descriptor) }

  /// Appends one entry as a line of JSON; one that cannot be written is counted (`lost`).
  func append(_ entry: LogEntry, of model: ShopModel) {
    let record = LogRecord(entry, launchDate: model.launchDate, language: model.words.language)
    let line: String
    do {
      line = try JSONOutput.text(record, layout: .line)
    } catch {
      lost += 1
      if firstLoss == nil { firstLoss = "\(error)" }
      return
    }
    let bytes = Array(line.utf8) + [UInt8(ascii: "\n")]
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        lost += 1
        if firstLoss == nil { firstLoss = count < 0 ? String(cString: strerror(errno)) : "nothing written" }
        return
      }
      written += count
    }
  }

  /// The failure to end with when events were lost: the evidence is incomplete (exit 1).
  var lossFailure: Failure? {
    guard lost > 0 else { return nil }
    let events = counted(lost, "event")
    return Failure(
      "--log-file \(TerminalText.escaped(path)): \(events) could not be written (\(firstLoss ?? "")); the file is incomplete",
      .cannotWriteOutput)
  }
}
