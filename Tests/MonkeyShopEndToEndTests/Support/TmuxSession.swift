import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a tmux pane shows: its lines of text, and helpers to ask what a person would look for.
struct Screen: Sendable, CustomStringConvertible {
  let text: String

  var lines: [String] { text.components(separatedBy: "\n") }
  var description: String { text }

  func contains(_ fragment: String) -> Bool { text.contains(fragment) }

  /// The balance line reads `N monkey credits` (or `N モンキークレジット`) at its start. The payment
  /// sheet's `+5 monkey credits` and a product title do not count.
  func showsBalance(_ credits: Int) -> Bool {
    guard let line = balanceLine else { return false }
    return line.hasPrefix("\(credits) monkey credits") || line.hasPrefix("\(credits) モンキークレジット")
  }

  /// The first line that starts (after indentation) with a number of monkey credits.
  var balanceLine: String? {
    lines.map { String($0.drop { $0 == " " }) }.first { line in
      guard let first = line.first, first.isNumber else { return false }
      return line.contains(" monkey credits") || line.contains(" モンキークレジット")
    }
  }

  /// The line that holds `fragment`, or nil.
  func line(containing fragment: String) -> String? { lines.first { $0.contains(fragment) } }
}

/// A tmux server of the test's own (a socket name no other test or person uses) with one session,
/// `shop`, running a plain bash. monkeyshop is started from that shell as a person would, so after
/// it quits the shell is there to show whether the terminal was restored.
final class TmuxSession: @unchecked Sendable {
  static let prompt = "e2e$ "
  static let session = "shop"

  let socket: String
  let folder: ShopFolder
  private let tmux: String
  private let environment: [String: String]
  private var markers = 0
  private var closed = false
  /// The server's socket file, which tmux leaves behind when the server ends.
  private var socketPath: String?

  /// Starts the server and the session at `width`×`height`. Fails when tmux is not installed.
  init(folder: ShopFolder, width: Int = 100, height: Int = 30) async throws {
    self.tmux = try Tools.requireTmux()
    self.folder = folder
    socket = "monkeyshop-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
    // The server copies this environment into the pane; no history file.
    environment = folder.environment(["HISTFILE": "/dev/null"])
    try await command(
      "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", Self.session, "bash --norc --noprofile")
    socketPath = try await command("display-message", "-p", "#{socket_path}")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    // bash sets its own PS1 whatever the environment says: set a prompt a test can recognise.
    try await run("PS1='\(Self.prompt)'")
    let prompt = Self.prompt.trimmingCharacters(in: .whitespaces)
    try await waitForScreen("the shell's prompt") { $0.lines.contains(prompt) }
  }

  deinit { close() }

  /// Ends the server, and with it every process in the session. Safe to call more than once.
  func close() {
    guard !closed else { return }
    closed = true
    let child = try? Child(executable: tmux, ["-L", socket, "kill-server"], in: folder, environment: environment)
    _ = child?.waitBlocking()
    if let socketPath, socketPath.hasSuffix("/" + socket) { unlink(socketPath) }
  }

  /// Runs one tmux command against this server; its standard output.
  @discardableResult
  func command(_ arguments: String...) async throws -> String {
    try await command(arguments)
  }

  @discardableResult
  func command(_ arguments: [String]) async throws -> String {
    // -u: the panes are UTF-8 whatever the locale of the test run; -f /dev/null: no user config.
    let child = try Child(
      executable: tmux, ["-u", "-L", socket, "-f", "/dev/null"] + arguments, in: folder, environment: environment)
    let result = try await child.wait(timeout: .seconds(10))
    guard result.exitStatus == 0 else { throw E2EFailure("tmux failed: \(result)") }
    return result.stdout
  }

  // MARK: Typing

  /// Keys by tmux's names: `Enter`, `Escape`, `C-c`, or single characters.
  func press(_ keys: String...) async throws {
    try await command(["send-keys", "-t", Self.session] + keys)
  }

  /// Text typed literally.
  func type(_ text: String) async throws {
    try await command("send-keys", "-t", Self.session, "-l", text)
  }

  /// Types a command line into the shell and presses Enter.
  func run(_ line: String) async throws {
    try await type(line)
    try await press("Enter")
  }

  /// The command line that opens the storefront on the test's data folder and the shipped catalog.
  func storefrontCommandLine(
    _ arguments: [String] = [], environment: [String: String] = [:], catalog: String = Locations.catalog
  ) throws -> String {
    let variables = ["MONKEYSHOP_DATA_DIR": folder.data.path].merging(environment) { _, new in new }
    let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
    let command = [try Locations.requireBinary(), "--catalog", catalog] + arguments
    return (assignments + command.map(quoted)).joined(separator: " ")
  }

  /// Opens the storefront from the shell and waits until it has the terminal.
  func launchStorefront(
    _ arguments: [String] = [], environment: [String: String] = [:], catalog: String = Locations.catalog
  ) async throws {
    try await run(try storefrontCommandLine(arguments, environment: environment, catalog: catalog))
    try await waitForForeground("monkeyshop")
  }

  // MARK: Looking

  /// The pane as text; with `escapes`, with the SGR sequences of its attributes (`capture-pane -e`).
  func screen(escapes: Bool = false, joined: Bool = false) async throws -> Screen {
    var arguments = ["capture-pane", "-p", "-t", Self.session]
    if escapes { arguments.append("-e") }
    if joined { arguments.append("-J") }
    return Screen(text: try await command(arguments))
  }

  /// Polls the screen until `condition` holds; fails after `timeout` with the last screen seen.
  @discardableResult
  func waitForScreen(
    _ what: String, timeout: Duration = .seconds(10), escapes: Bool = false, joined: Bool = false,
    _ condition: (Screen) -> Bool
  ) async throws -> Screen {
    let deadline = ContinuousClock.now + timeout
    while true {
      let screen = try await screen(escapes: escapes, joined: joined)
      if condition(screen) { return screen }
      if ContinuousClock.now >= deadline {
        throw E2EFailure("waited \(timeout) for \(what); the screen shows:\n\(screen)")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  /// Waits for a text to be on the screen.
  @discardableResult
  func waitFor(_ text: String, timeout: Duration = .seconds(10)) async throws -> Screen {
    try await waitForScreen("\"\(text)\"", timeout: timeout) { $0.contains(text) }
  }

  /// Waits for the balance line to read `N monkey credits`.
  @discardableResult
  func waitForBalance(_ credits: Int, timeout: Duration = .seconds(10)) async throws -> Screen {
    try await waitForScreen("the balance \(credits) monkey credits", timeout: timeout) { $0.showsBalance(credits) }
  }

  /// The pane once it has stopped changing: the same twice `quiet` apart (a spinner, a countdown
  /// or a purchase still under way would change it).
  func settledScreen(quiet: Duration = .milliseconds(400), timeout: Duration = .seconds(10)) async throws -> Screen {
    let deadline = ContinuousClock.now + timeout
    var last = try await screen()
    while true {
      try await Task.sleep(for: quiet)
      let now = try await screen()
      if now.text == last.text { return now }
      if ContinuousClock.now >= deadline { throw E2EFailure("the screen never stopped changing:\n\(now)") }
      last = now
    }
  }

  /// A tmux format of the pane, e.g. `#{alternate_on}`.
  func pane(_ format: String) async throws -> String {
    try await command("display-message", "-p", "-t", Self.session, format)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits until the pane's foreground process is `name` (`monkeyshop`, or `bash` once it quit).
  func waitForForeground(_ name: String, timeout: Duration = .seconds(10)) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
      let current = try await pane("#{pane_current_command}")
      if current == name { return }
      if ContinuousClock.now >= deadline {
        throw E2EFailure(
          "waited \(timeout) for \(name) in the foreground, found \(current); the screen shows:\n\(try await screen())")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  /// The process id of the monkeyshop the shell started.
  func storefrontPID() async throws -> pid_t {
    let shell = try await pane("#{pane_pid}")
    guard let shellPID = pid_t(shell) else { throw E2EFailure("tmux gave no pane pid: '\(shell)'") }
    #if os(Linux)
      let found = childProcess(of: shellPID, named: "monkeyshop")
    #else
      let pgrep = try Child(
        executable: "/usr/bin/pgrep", ["-P", "\(shellPID)", "-x", "monkeyshop"], in: folder, environment: environment)
      let found = try await pgrep.wait().stdout.split(separator: "\n").first.flatMap { pid_t($0) }
    #endif
    guard let found else { throw E2EFailure("no monkeyshop process under the pane's shell (pid \(shellPID))") }
    return found
  }

  // MARK: The shell after monkeyshop

  /// What the shell reports once monkeyshop has ended: its exit status and the terminal's modes.
  struct ShellState: Sendable, CustomStringConvertible {
    let exitStatus: Int32
    /// `echo` or `-echo`, `icanon` or `-icanon`, `isig` or `-isig`, as `stty -a` prints them.
    let modes: Set<String>
    let alternateScreen: Bool
    let cursorVisible: Bool

    var description: String {
      "exit \(exitStatus), stty \(modes.sorted()), alternate screen \(alternateScreen ? "on" : "off"), "
        + "cursor \(cursorVisible ? "visible" : "hidden")"
    }

    /// What a person needs to go on typing: keys echo, lines are edited by the tty, Ctrl-C interrupts.
    var isRestored: Bool {
      modes.isSuperset(of: ["echo", "icanon", "isig"]) && !alternateScreen && cursorVisible
    }
  }

  /// Waits for the shell to have the terminal back, then asks it for `$?` and `stty -a`.
  func shellStateAfterExit() async throws -> ShellState {
    try await waitForForeground("bash")
    let alternate = try await pane("#{alternate_on}") == "1"
    let cursor = try await pane("#{cursor_flag}") == "1"
    markers += 1
    let marker = "SHELL-\(markers)"
    // $? is expanded before the command substitution runs, so it is monkeyshop's status.
    try await run(
      "echo \"\(marker):$?:$(stty -a | tr ' ;' '\\n\\n' | grep -x -E -- '-?(echo|icanon|isig)' | tr '\\n' ' ')\"")
    let screen = try await waitForScreen("the shell's answer \(marker)", joined: true) { screen in
      screen.lines.contains { $0.hasPrefix(marker + ":") }
    }
    let line = screen.lines.first { $0.hasPrefix(marker + ":") }!
    let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3, let status = Int32(fields[1]) else {
      throw E2EFailure("cannot read the shell's answer '\(line)'")
    }
    let modes = Set(fields[2].split(separator: " ").map(String.init))
    return ShellState(exitStatus: status, modes: modes, alternateScreen: alternate, cursorVisible: cursor)
  }
}

private func quoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

#if os(Linux)
  /// A child of `parent` whose command name is `name`, from /proc.
  private func childProcess(of parent: pid_t, named name: String) -> pid_t? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    for entry in entries {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
      else { continue }
      // pid (comm) state ppid …; comm may hold spaces and parentheses.
      let command = stat[stat.index(after: open)..<close]
      let rest = stat[stat.index(after: close)...].split(separator: " ")
      if command == name, rest.count > 1, pid_t(rest[1]) == parent { return pid }
    }
    return nil
  }
#endif
