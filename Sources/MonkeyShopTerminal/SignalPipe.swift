import CNCurses

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The self-pipe trick: signal handlers write the signal's number into a pipe, and the event loop's
/// poll(2) wakes on its read end. Resize, termination and job control are then handled on the
/// loop's one thread.
enum SignalPipe {
  /// Signals the event loop acts on. SIGINT and SIGTSTP only arrive from `kill`, since raw mode
  /// turns Ctrl-C and Ctrl-Z into keys; SIGCONT says the storefront was stopped and continued.
  static let relayedSignals: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGCONT]

  // The handler reads these; they change only while no handler is installed.
  nonisolated(unsafe) private static var writeEnd: Int32 = -1
  nonisolated(unsafe) private static var terminationPending = false
  nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
  /// False when SIGTSTP was ignored at start (a shell without job control): nothing would continue
  /// a stopped storefront, so Ctrl-Z and SIGTSTP leave it running, as the tty's own Ctrl-Z would.
  nonisolated(unsafe) private(set) static var canStop = false

  static func open() -> Bool {
    guard readEnd < 0 else { return true }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return false }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
    terminationPending = false
    canStop = ms_signal_is_ignored(SIGTSTP) == 0
    // SA_RESTART keeps the app's own blocking calls from failing with EINTR; poll(2) still wakes.
    SignalHandlers.install(relayedSignals + (canStop ? [SIGTSTP] : []), flags: SA_RESTART, handler: relaySignal)
    return true
  }

  /// Whether the signal asks the storefront to end.
  static func isTermination(_ signo: Int32) -> Bool {
    // A switch, not an array: the signal handler asks too.
    switch signo {
    case SIGTERM, SIGHUP, SIGINT: true
    default: false
    }
  }

  /// Runs `stop` with SIGTSTP and SIGCONT at their default actions, so that SIGTSTP stops the
  /// process and continuing it relays nothing: the storefront already knows it was continued.
  static func withDefaultStopActions(_ stop: () -> Void) {
    let signals = [SIGTSTP, SIGCONT]
    for signo in signals {
      SignalHandlers.restorePrevious(signo)
      ms_default_signal(signo)
    }
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signo in signals { sigaddset(&unblock, signo) }
    sigprocmask(SIG_UNBLOCK, &unblock, nil)
    stop()
    SignalHandlers.install(signals, flags: SA_RESTART, handler: relaySignal)
  }

  static func close() {
    for signo in relayedSignals + [SIGTSTP] { SignalHandlers.restorePrevious(signo) }
    guard readEnd >= 0 else { return }
    _ = closeDescriptor(readEnd)
    _ = closeDescriptor(writeEnd)
    readEnd = -1
    writeEnd = -1
  }

  /// The signals received since the last call, oldest first.
  static func drain() -> [Int32] {
    guard readEnd >= 0 else { return [] }
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(readEnd, &buffer, buffer.count)
      if count <= 0 { break }
      signals += buffer[0..<count].map { Int32($0) }
    }
    return signals
  }

  fileprivate static func relay(_ signo: Int32) {
    let ends = isTermination(signo)
    if ends && terminationPending {
      // A second termination request means the loop is not getting round to the first: leave now.
      CrashGuard.restore()
      ms_default_signal(signo)
      raise(signo)
      return
    }
    if ends { terminationPending = true }
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = write(writeEnd, &byte, 1)
  }
}

private func relaySignal(_ signo: Int32) {
  let savedErrno = errno
  SignalPipe.relay(signo)
  errno = savedErrno
}

/// `close` inside `SignalPipe` would name `SignalPipe.close()`.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
