import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child process ended, and what it printed.
struct ChildResult: Sendable, CustomStringConvertible {
  let command: [String]
  /// The exit status; nil when a signal ended the process.
  let exitStatus: Int32?
  /// The signal that ended the process; nil when it exited.
  let killedBy: Int32?
  let stdout: String
  let stderr: String

  var description: String {
    let ending = killedBy.map { "killed by signal \($0)" } ?? "exit \(exitStatus ?? -1)"
    return "$ \(command.joined(separator: " ")) → \(ending)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
  }
}

/// A process started by a test with posix_spawn, not Foundation's `Process`:
/// - the child starts with no signal blocked and default dispositions. A thread of the test
///   runner (a Dispatch or Swift concurrency worker) blocks nearly every signal, and a child
///   inherits that mask: a tmux server started so never sees SIGTERM (`kill-server` does nothing),
///   and a storefront started in it would never see SIGTERM, SIGHUP or SIGWINCH;
/// - the test reaps it with waitpid, so a child that daemonizes (tmux) or hands a descriptor on
///   cannot keep it "running";
/// - output goes to files, not pipes: nothing blocks on a full pipe.
final class Child: @unchecked Sendable {
  let command: [String]
  let pid: pid_t
  /// Where standard output goes, unless `output` was given.
  let stdoutPath: String
  private let stderrPath: String
  private var ended: (exitStatus: Int32?, signal: Int32?)?

  /// Starts `monkeyshop ARGUMENTS` in the folder's environment, with no standard input; in
  /// `directory` when given, else in the test's own current folder (the repository).
  convenience init(
    _ arguments: [String], in folder: ShopFolder, environment: [String: String] = [:], unsetting: [String] = [],
    directory: String? = nil
  ) throws {
    try self.init(
      executable: try Locations.requireBinary(), arguments, in: folder,
      environment: folder.environment(environment, unsetting: unsetting), directory: directory)
  }

  /// Starts a program with exactly this environment and no standard input; its output goes to files
  /// in the folder, or to `output` (standard output and error) when given.
  init(
    executable: String, _ arguments: [String], in folder: ShopFolder, environment: [String: String],
    output: Int32? = nil, directory: String? = nil
  ) throws {
    command = [URL(fileURLWithPath: executable).lastPathComponent] + arguments
    stdoutPath = folder.file("stdout").path
    stderrPath = folder.file("stderr").path

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
      posix_spawn_file_actions_adddup2(&actions, output, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    posix_spawnattr_setsigdefault(&attributes, &everySignal)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if canImport(Darwin)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))

    // posix_spawn_file_actions_addchdir_np does not reach Swift on Linux: a shell changes folder,
    // then becomes the program.
    let program = directory == nil ? executable : "/bin/sh"
    let line =
      directory.map { ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, $0, executable] } ?? [executable]
    let argv = (line + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for string in argv + envp { free(string) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw E2EFailure("cannot start \(executable): \(String(cString: strerror(status)))")
    }
    self.pid = pid
  }

  deinit {
    // A test that failed half-way must not leave its processes behind.
    if ended == nil {
      kill(SIGKILL)
      _ = reap(blocking: true)
    }
  }

  /// Sends a signal if the process has not been reaped yet.
  func kill(_ signal: Int32 = SIGKILL) {
    if ended == nil { _ = sendSignal(pid, signal) }
  }

  /// Reaps the process if it has ended; true once it has.
  private func reap(blocking: Bool) -> Bool {
    if ended != nil { return true }
    var status: Int32 = 0
    var result: pid_t
    repeat {
      result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
    } while result < 0 && errno == EINTR
    guard result == pid else { return result < 0 }  // ECHILD: nothing left to wait for
    let signal = status & 0x7f
    ended = signal == 0 ? (exitStatus: (status >> 8) & 0xff, signal: nil) : (exitStatus: nil, signal: signal)
    return true
  }

  /// Waits for the process to end, polling, for at most `timeout` (a minute: a command that takes a
  /// second alone can take twenty on a loaded 2-core machine); a process still running then is
  /// killed and the test fails with what it printed so far.
  func wait(timeout: Duration = .seconds(60)) async throws -> ChildResult {
    let deadline = ContinuousClock.now + timeout
    while !reap(blocking: false) {
      if ContinuousClock.now >= deadline {
        kill(SIGKILL)
        _ = reap(blocking: true)
        throw E2EFailure("did not end within \(timeout), killed: \(result())")
      }
      try await Task.sleep(for: .milliseconds(2))
    }
    return result()
  }

  /// The same, for code that cannot wait asynchronously (clean-up in `deinit`).
  func waitBlocking(timeout: Duration = .seconds(10)) -> ChildResult {
    let deadline = ContinuousClock.now + timeout
    while !reap(blocking: false) {
      if ContinuousClock.now >= deadline {
        kill(SIGKILL)
        _ = reap(blocking: true)
        break
      }
      usleep(2000)
    }
    return result()
  }

  private func result() -> ChildResult {
    ChildResult(
      command: command, exitStatus: ended?.exitStatus, killedBy: ended?.signal,
      stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
  }
}

/// Runs `monkeyshop ARGUMENTS` to the end (in `directory` when given).
@discardableResult
func monkeyshop(
  _ arguments: String..., in folder: ShopFolder, environment: [String: String] = [:], unsetting: [String] = [],
  directory: String? = nil, timeout: Duration = .seconds(60)
) async throws -> ChildResult {
  try await Child(arguments, in: folder, environment: environment, unsetting: unsetting, directory: directory)
    .wait(timeout: timeout)
}

/// `kill(2)`, named apart from `Child.kill`.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.kill(pid, signal)
  #else
    Darwin.kill(pid, signal)
  #endif
}
