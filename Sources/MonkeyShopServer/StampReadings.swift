import Foundation

/// The folder's stamp (`DataFolder.recordStamp`, five `stat`s) read once for all the requests that
/// arrive while one reading is under way: they wait for the next reading and share it, rather than
/// each reading the stamp. A request never takes a reading that began before it arrived (the one
/// under way when it came may have passed a file before another command changed it), so whatever
/// was written before a request arrived is seen by it, as when every request read the stamp itself.
/// Readings follow one another; one is under way at a time.
final class StampReadings: @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = NSCondition()
  /// How many readings have begun and ended; `latest` is the stamp the last one ended with.
  private var begun = 0
  private var ended = 0
  private var latest: [Int64] = []

  /// A stamp read after this call began, by `read` here or by another caller's reading that began
  /// after this one arrived. Blocks while it waits: call it from a thread that may block.
  func stamp(reading read: () -> [Int64]) -> [Int64] {
    condition.lock()
    defer { condition.unlock() }
    // The first reading to begin from now on: the one under way, if any, began too early.
    let needed = begun + 1
    while ended < needed {
      if begun == ended {
        // None under way: this caller reads, for itself and whoever arrives meanwhile.
        begun += 1
        condition.unlock()
        let stamp = read()
        condition.lock()
        ended = begun
        latest = stamp
        condition.broadcast()
      } else {
        condition.wait()
      }
    }
    return latest
  }
}
