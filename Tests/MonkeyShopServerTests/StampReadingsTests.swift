import Foundation
import Synchronization
import Testing

@testable import MonkeyShopServer

/// The folder's stamp read once for the requests that arrive together, and never older than a
/// request: what another command wrote before a request came is what that request sees.
@Suite("App Store Server API: one stamp reading for requests arriving together", .tags(.pure))
struct StampReadingsTests {
  /// The files' state as a reading finds it, and how many readings were made.
  final class Files: Sendable {
    let state = Mutex<(version: Int64, readings: Int)>((1, 0))
    /// Opened to let the reading under way finish; closed again after each reading. A reading no
    /// one lets finish ends after 5 s, so a test that went wrong fails rather than hangs.
    let gate = DispatchSemaphore(value: 0)
    /// Signalled as each reading begins.
    let begun = DispatchSemaphore(value: 0)

    /// Finds the files as they are when it begins, and ends when let.
    func read() -> [Int64] {
      let version = state.withLock { state in
        state.readings += 1
        return state.version
      }
      begun.signal()
      _ = gate.wait(timeout: .now() + 5)
      return [version]
    }

    func change() { state.withLock { $0.version += 1 } }
    var readings: Int { state.withLock { $0.readings } }
  }

  /// Runs `count` callers of `stamps` at once on threads of their own; their stamps, when all end.
  static func callers(_ count: Int, of stamps: StampReadings, files: Files) -> @Sendable () -> [[Int64]] {
    let results = Mutex<[[Int64]]>([])
    let group = DispatchGroup()
    for _ in 0..<count {
      group.enter()
      Thread.detachNewThread {
        let stamp = stamps.stamp(reading: files.read)
        results.withLock { $0.append(stamp) }
        group.leave()
      }
    }
    return {
      group.wait()
      return results.withLock { $0 }
    }
  }

  @Test("Requests that arrive while the stamp is read share the next reading, which sees what changed meanwhile")
  func sharesTheNextReading() {
    let stamps = StampReadings()
    let files = Files()
    // The first request's reading is under way when another command changes a file.
    let first = Self.callers(1, of: stamps, files: files)
    files.begun.wait()
    files.change()
    // Eight requests arrive meanwhile: the reading under way began before they came.
    let others = Self.callers(8, of: stamps, files: files)
    Thread.sleep(forTimeInterval: 0.5)
    files.gate.signal()
    #expect(first() == [[1]])
    // One reading for the eight, begun after they arrived: it sees the change.
    files.begun.wait()
    files.gate.signal()
    #expect(others() == Array(repeating: [2], count: 8))
    #expect(files.readings == 2, "eight requests arriving together read the stamp once")
  }

  @Test("A request that arrives after a reading ended reads again, and sees a change made since")
  func readsAgainAfterward() {
    let stamps = StampReadings()
    let files = Files()
    files.gate.signal()
    #expect(stamps.stamp(reading: files.read) == [1])
    files.change()
    files.gate.signal()
    #expect(stamps.stamp(reading: files.read) == [2])
    #expect(files.readings == 2)
  }
}
