import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-Z, `fg` and Ctrl-L in a real terminal: tmux runs bash with job control, bash runs the built
/// `monkeyshop`, and the test looks at the screen as a person would.
@Suite("Suspend and redraw in tmux", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct SuspendRedrawTests {
  enum Stop: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The key, which raw mode delivers to the storefront.
    case ctrlZ
    /// kill -TSTP from another terminal.
    case sigtstp

    var testDescription: String { rawValue }
  }

  @Test(
    "Ctrl-Z and kill -TSTP stop the storefront as a job with the shell's terminal restored; fg follows the new size, repaints everything, and the next key acts",
    arguments: Stop.allCases)
  func suspendAndResume(_ stop: Stop) async throws {
    let folder = try ShopFolder("suspend-\(stop)")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")

    switch stop {
    case .ctrlZ: try await tmux.press("C-z")
    case .sigtstp: kill(try await tmux.storefrontPID(), SIGTSTP)
    }
    // The shell has the terminal back as it was, and says the job stopped.
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.isRestored, "\(shell)")
    #expect(shell.exitStatus == 128 + SIGTSTP, "the shell reports a stopped job: \(shell)")
    try await tmux.waitFor("Stopped")

    // The terminal changes size while the storefront is stopped.
    try await tmux.command("resize-window", "-t", TmuxSession.session, "-x", "90", "-y", "28")
    try await tmux.run("fg")
    try await tmux.waitForForeground("monkeyshop")
    let prompt = TmuxSession.prompt.trimmingCharacters(in: .whitespaces)
    let screen = try await tmux.waitForScreen("the storefront repainted whole at 90×28") { screen in
      screen.showsBalance(0) && screen.contains("Buy $0.99") && !screen.contains("Stopped")
        && !screen.contains(prompt) && screen.line(containing: "── Products ")?.count == 90
    }
    #expect(screen.lines.first?.contains("monkeyshop") == true, "\(screen)")
    #expect(try await tmux.pane("#{alternate_on}") == "1", "back on the storefront's own screen")

    // The storefront takes keys again.
    try await tmux.press("n")
    try await tmux.waitFor("network DOWN")
    try await tmux.press("q")
    let after = try await tmux.shellStateAfterExit()
    #expect(after.isRestored, "\(after)")
    #expect(after.exitStatus == 0, "\(after)")
  }

  @Test("a key typed while another process holds the storefront stopped (SIGSTOP) acts once it continues")
  func aKeyTypedWhileStoppedActsAfterSIGCONT() async throws {
    let folder = try ShopFolder("sigstop-key")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    // The pane runs the storefront from a shell without job control, as `tmux new-session
    // 'monkeyshop'` does: no shell takes the terminal while it is stopped, so what is typed
    // meanwhile is typed for it.
    _ = try await tmux.command(
      "respawn-pane", "-k", "-t", TmuxSession.session, try tmux.storefrontCommandLine() + "; sleep 60")
    try await tmux.waitFor("Buy $0.99")
    let pid = try await tmux.storefrontPID()
    let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
    #expect(name.hasPrefix("monkeyshop"), "\(name)")
    kill(pid, SIGSTOP)
    try await Task.sleep(for: .milliseconds(300))
    let state = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    #expect(state.contains(") T "), "\(state)")
    try await tmux.press("n")
    try await Task.sleep(for: .milliseconds(300))
    kill(pid, SIGCONT)
    try await tmux.waitFor("network DOWN")
    try await tmux.press("q")
  }

  @Test("Ctrl-L repaints every cell: what another program wrote over the storefront is gone")
  func ctrlLRepaints() async throws {
    let folder = try ShopFolder("redraw")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")

    // Another program writes to the terminal: it clears the screen and leaves a line of its own.
    let tty = try await tmux.pane("#{pane_tty}")
    let other = try #require(FileHandle(forWritingAtPath: tty), "cannot open the pane's terminal \(tty)")
    other.write(Data("\u{1B}[2J\u{1B}[5;5Hwall: the system goes down at midnight".utf8))
    try other.close()
    try await tmux.waitFor("the system goes down")

    try await tmux.press("C-l")
    try await tmux.waitForScreen("the storefront repainted whole") { screen in
      screen.showsBalance(0) && screen.contains("Buy $0.99") && screen.contains("── Products ")
        && !screen.contains("the system goes down")
    }
    // Ctrl-L changed nothing else: the next key acts as usual.
    try await tmux.press("n")
    try await tmux.waitFor("network DOWN")
    try await tmux.press("q")
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.isRestored, "\(shell)")
    #expect(shell.exitStatus == 0, "\(shell)")
  }
}
