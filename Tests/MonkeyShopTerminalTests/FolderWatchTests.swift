import Foundation
import Testing

@testable import MonkeyShopTerminal

/// The folder watch that lets an open storefront see what another monkeyshop wrote: which method is
/// used where, how long it lets the event loop sleep, and what the polling one counts as a change.
@Suite("Folder watch", .tags(.pure))
struct FolderWatchTests {
  /// A fresh folder under the temporary folder, removed by the caller.
  private func makeFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("monkeyshop-watch-\(getpid())-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  /// Writes a file as monkeyshop does: a new file renamed over the old one.
  private func replace(_ name: String, in folder: String, with text: String) throws {
    let temporary = folder + "/.\(name).tmp"
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    #expect(rename(temporary, folder + "/" + name) == 0)
  }

  @Test("Linux watches with inotify unless MONKEYSHOP_FOLDER_WATCH=poll; other systems always poll")
  func methodByPlatform() {
    #if os(Linux)
      #expect(FolderWatch.method(environment: [:]) == .inotify)
      #expect(FolderWatch.method(environment: ["MONKEYSHOP_FOLDER_WATCH": "inotify"]) == .inotify)
    #else
      #expect(FolderWatch.method(environment: [:]) == .polling)
    #endif
    #expect(FolderWatch.method(environment: ["MONKEYSHOP_FOLDER_WATCH": "poll"]) == .polling)
  }

  #if os(Linux)
    @Test("with inotify the loop sleeps on a descriptor, and with nothing pending it sleeps until input")
    func inotifySleepsForever() throws {
      let folder = try makeFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let watch = try #require(FolderWatch(path: folder, environment: [:]))
      #expect(watch.method == .inotify)
      #expect(watch.pollDescriptor != nil)
      #expect(watch.timeout(limiting: -1) == -1)
      #expect(watch.timeout(limiting: 5_000) == 5_000)
    }
  #endif

  @Test("polling has no descriptor: the loop sleeps at most until the next look, and never longer than it would")
  func pollingLimitsTheSleep() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let watch = try #require(FolderWatch(path: folder, environment: ["MONKEYSHOP_FOLDER_WATCH": "poll"]))
    #expect(watch.method == .polling)
    #expect(watch.pollDescriptor == nil)
    let limit = watch.timeout(limiting: -1)
    #expect((0...250).contains(limit))
    #expect(watch.timeout(limiting: 0) == 0)
    #expect(watch.timeout(limiting: 100_000) <= 250)
  }

  @Test("no folder to watch, no watch")
  func noFolder() {
    #expect(FolderWatch(path: nil, environment: [:]) == nil)
    #expect(FolderWatch(path: "", environment: ["MONKEYSHOP_FOLDER_WATCH": "poll"]) == nil)
  }

  @Test("a look sees a file replaced, created or removed, and nothing when nothing happened")
  func pollingSeesWrites() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try replace("store.json", in: folder, with: "{}")
    let watch = PollingFolderWatch(path: folder)
    #expect(!watch.look())

    try replace("store.json", in: folder, with: #"{"a": 1}"#)
    #expect(watch.look())
    #expect(!watch.look())

    // Same size, new file: a rename over the old one gives a new inode.
    try replace("store.json", in: folder, with: #"{"a": 2}"#)
    #expect(watch.look())

    try replace("wallet.json", in: folder, with: "{}")
    #expect(watch.look())
    #expect(unlink(folder + "/wallet.json") == 0)
    #expect(watch.look())
    #expect(!watch.look())
  }

  @Test("a look sees the folder appear and vanish")
  func pollingSeesTheFolder() throws {
    let parent = try makeFolder()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let folder = parent + "/data"
    let watch = PollingFolderWatch(path: folder)
    #expect(!watch.look())
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    #expect(watch.look())
    #expect(!watch.look())
    try FileManager.default.removeItem(atPath: folder)
    #expect(watch.look())
  }

  @Test("a wake-up before the next look is due looks at nothing, so keys cost no file system calls")
  func pollingWaitsForItsTime() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let watch = PollingFolderWatch(path: folder, every: .seconds(3_600))
    try replace("store.json", in: folder, with: "{}")
    #expect(!watch.changed())
    #expect(watch.sleepLimit() > 3_000_000)
    // The change is still there for the look that is due.
    #expect(watch.look())
  }
}
