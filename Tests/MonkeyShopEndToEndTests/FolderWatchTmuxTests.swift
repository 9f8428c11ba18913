import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The open storefront follows its data folder with either watch: inotify (Linux's default) and the
/// polling watch macOS uses, forced here with MONKEYSHOP_FOLDER_WATCH=poll. A parent approves an
/// Ask to Buy purchase from a second shell, and the storefront shows it without a key press.
@Suite("The storefront follows its folder on every platform", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct FolderWatchTmuxTests {
  enum Watch: String, CaseIterable, Sendable {
    case inotify
    case poll
  }

  @Test(
    "a second shell's store approve appears in the open storefront, whichever way it watches the folder",
    arguments: Watch.allCases)
  func approvalFromAnotherShell(_ watch: Watch) async throws {
    let folder = try ShopFolder("watch-\(watch)")
    try expectSuccess(await monkeyshop("store", "set", "latency", "instant", in: folder))
    try expectSuccess(await monkeyshop("store", "set", "askToBuy", "on", in: folder))
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront(environment: ["MONKEYSHOP_FOLDER_WATCH": watch.rawValue])
    try await tmux.waitFor("Buy $0.99")
    #if os(Linux)
      // The method asked for is the one in use: only the inotify watch holds an inotify descriptor.
      let descriptors = inotifyDescriptors(of: try await tmux.storefrontPID())
      #expect(descriptors == (watch == .inotify ? 1 : 0), "inotify descriptors of the storefront")
    #endif

    try await tmux.press("5")
    try await tmux.waitFor("Quantity")
    try await tmux.press("Enter")
    try await tmux.waitFor("Waiting for approval")

    // A second shell in a window of its own, as a parent's terminal would be.
    let second = "\(TmuxSession.session):second"
    try await tmux.command(
      "new-window", "-d", "-t", "\(TmuxSession.session):", "-n", "second", "bash --norc --noprofile")
    let approve = [try Locations.requireBinary(), "store", "approve", "last"].map(shellQuoted).joined(separator: " ")
    try await tmux.command(
      "send-keys", "-t", second, "-l", "MONKEYSHOP_DATA_DIR=\(shellQuoted(folder.data.path)) \(approve)")
    try await tmux.command("send-keys", "-t", second, "Enter")

    // Nothing is typed into the storefront: the approval arrives through its folder watch.
    try await tmux.waitFor("a parent approved payment 1")
    try await tmux.waitForBalance(5)
    try await tmux.press("q")
    #expect(try await tmux.shellStateAfterExit().isRestored)
  }
}

private func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

#if os(Linux)
  /// How many of a process's open descriptors are inotify instances, from /proc.
  private func inotifyDescriptors(of pid: pid_t) -> Int {
    let folder = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { name in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)) == "anon_inode:inotify"
    }.count
  }
#endif
