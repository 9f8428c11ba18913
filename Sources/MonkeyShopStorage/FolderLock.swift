import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a command waits for another monkeyshop's lock on the data folder: it says so within a
/// second, and gives up after a while (docs/data-folder.md: no command waits silently or forever).
public struct LockWaiting: Sendable {
  /// After this long the wait is announced.
  public var noticeAfter: Duration = .seconds(1)
  /// After this long the command gives up with `DataFolderBusy` (exit 75).
  public var giveUpAfter: Duration = .seconds(30)
  /// Told once, with a sentence naming the holder when it can be found.
  public var onWaiting: (@Sendable (String) -> Void)?
  /// Called between tries, so a waiting storefront can still act on Ctrl-C and SIGTERM.
  public var betweenTries: (@Sendable () -> Void)?

  public init() {}

  /// The longest wait `MONKEYSHOP_LOCK_TIMEOUT` may ask for: a day.
  public static let longestWait = 86_400.0

  /// `MONKEYSHOP_LOCK_TIMEOUT` (seconds, 0 to a day) shortens or lengthens the wait, for scripts and
  /// tests. Throws the value's problem when it is not such a number.
  public init(environment: [String: String]) throws(LockTimeoutError) {
    guard let text = environment["MONKEYSHOP_LOCK_TIMEOUT"] else { return }
    guard let seconds = Double(text), seconds.isFinite, (0...Self.longestWait).contains(seconds) else {
      throw LockTimeoutError(value: text)
    }
    giveUpAfter = .milliseconds(Int64((seconds * 1000).rounded()))
  }
}

public struct LockTimeoutError: Error, CustomStringConvertible {
  public let value: String
  public var description: String {
    "MONKEYSHOP_LOCK_TIMEOUT is '\(value)', expected seconds from 0 to \(Int(LockWaiting.longestWait))"
  }
}

/// The data folder was locked by another monkeyshop for longer than a command waits.
public struct DataFolderBusy: ShopError, Equatable {
  public let path: String
  public let holder: String
  public var errorID: ErrorID { .dataFolderBusy }
  public var message: String { phrase.en }
  public var japaneseMessage: String? { phrase.ja }

  private var phrase: Phrase {
    Phrase(
      "gave up waiting for the lock on \(path), held by \(holder); nothing was changed, try again",
      "\(path) のロックを待ちきれませんでした (\(holder) が保持)。何も変更していません。もう一度試してください")
  }
}

/// An exclusive `flock` on the data folder itself, held for one read-modify-write. The folder is
/// locked rather than a file in it: a lock file can be deleted while held, and the next process
/// would then lock a new file and work beside the first one (lost updates); the folder cannot be
/// swapped underneath the descriptor that holds it.
struct FolderLock {
  let folder: Int32

  static func acquire(_ folder: Int32, path: String, waiting: LockWaiting) throws -> FolderLock {
    let clock = ContinuousClock()
    let start = clock.now
    var announced = false
    while true {
      if flock(folder, LOCK_EX | LOCK_NB) == 0 { return FolderLock(folder: folder) }
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        throw DataFileError(path: path, problem: "cannot be locked: \(String(cString: strerror(code)))")
      }
      let waited = clock.now - start
      waiting.betweenTries?()
      if waited >= waiting.giveUpAfter {
        throw DataFolderBusy(path: path, holder: holder(of: folder))
      }
      if !announced, waited >= waiting.noticeAfter {
        announced = true
        waiting.onWaiting?("waiting for the lock on \(path), held by \(holder(of: folder))")
      }
      usleep(20_000)
    }
  }

  func release() {
    flock(folder, LOCK_UN)
  }

  /// Who holds the lock, from `/proc/locks` (Linux): the process, and whether it is stopped.
  static func holder(of folder: Int32) -> String {
    var info = stat()
    guard fstat(folder, &info) == 0,
      let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
    else { return "another monkeyshop" }
    let inode = "\(info.st_ino)"
    for line in locks.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1] == "FLOCK", fields[5].split(separator: ":").last.map(String.init) == inode,
        let pid = Int32(fields[4]), pid != getpid()
      else { continue }
      return describe(pid)
    }
    return "another monkeyshop"
  }

  private static func describe(_ pid: Int32) -> String {
    let name =
      (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "a process"
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // The state is the field after the command name, which is in parentheses.
    let state = stat.split(separator: ")").last?.split(separator: " ").first
    // A process names itself: show what it chose, escaped.
    let shown = TerminalText.escaped(name)
    if state == "T" || state == "t" {
      return "\(shown) (pid \(pid)), which is stopped: `kill -CONT \(pid)` lets it go on"
    }
    return "\(shown) (pid \(pid))"
  }
}
