import Foundation
import MonkeyShopCore

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

  /// Opens (creating it, mode 0644) the file for appending; a path that cannot be written is a
  /// refused argument (exit 64), reported before the screen opens.
  init(path: String) throws(Failure) {
    self.path = path
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw Failure(
        "--log-file \(path): cannot be written (\(reason)); expected a file path to append to", exitStatus: .usage)
    }
  }

  deinit { close(descriptor) }

  /// Appends one entry as a line of JSON.
  func append(_ entry: LogEntry, of model: ShopModel) {
    let object = entry.jsonObject(
      launchDate: model.launchDate, vocabulary: model.vocabulary, language: model.words.language)
    guard
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return }
    let bytes = Array(data) + [UInt8(ascii: "\n")]
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return }
      written += count
    }
  }
}
