import CNCurses

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts the shell's terminal back where ncurses cannot run: in a crash signal handler, or just before
/// the app kills itself at a simulated crash point. Only async-signal-safe calls (tcsetattr, write).
enum CrashGuard {
  static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGSYS]
  /// Every other signal whose default action ends the process and that the event loop does not
  /// relay (SIGTERM, SIGHUP, SIGINT are in `SignalPipe`): the terminal is restored, then the signal
  /// is raised again with its default action, so the process still dies of it. A stray SIGUSR1,
  /// SIGALRM, SIGPIPE or SIGXCPU must not leave the shell raw and on the alternate screen.
  static let terminatingSignals: [Int32] = {
    var signals: [Int32] = [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF]
    #if os(Linux)
      // SIGPOLL is SIGIO on Linux; on macOS SIGIO and the rest are ignored by default or absent.
      signals += [SIGSTKFLT, SIGIO, SIGPWR]
    #endif
    let realTime = ms_sigrtmin()...max(ms_sigrtmin() - 1, ms_sigrtmax())
    signals += realTime.map { Int32($0) }.filter { $0 > 0 && $0 < SignalHandlers.slots }
    return signals
  }()
  private static let sequenceCapacity = 512
  private static let alternateStackSize = 64 * 1024

  // Signal handlers read these without locks; they are written only while `armed` is false.
  nonisolated(unsafe) private static var savedTermios = termios()
  nonisolated(unsafe) private static var sequence: UnsafeMutablePointer<UInt8> = .allocate(capacity: sequenceCapacity)
  nonisolated(unsafe) private static var sequenceLength = 0
  nonisolated(unsafe) private(set) static var armed = false

  /// Before ncurses touches the tty: the modes the shell had.
  static func saveTerminalModes() -> Bool {
    tcgetattr(STDIN_FILENO, &savedTermios) == 0
  }

  /// After ncurses set the terminal up: the strings that undo what it sent (attributes, cursor,
  /// keypad mode, alternate screen). CAN first aborts any escape sequence cut off by the crash.
  static func arm() {
    var bytes: [UInt8] = [0x18]
    for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
      if let value = ms_tigetstr(capability) { bytes += Array(String(cString: value).utf8) }
    }
    sequenceLength = min(bytes.count, sequenceCapacity)
    sequence.update(from: bytes, count: sequenceLength)
    ensureAlternateStack()
    armed = true
    SignalHandlers.install(crashSignals, flags: SA_ONSTACK, infoHandler: handleCrash)
    // A signal ignored at start (nohup, a parent's SIG_IGN) stays ignored: it would end nothing.
    let terminating = terminatingSignals.filter { ms_signal_is_ignored($0) == 0 }
    SignalHandlers.install(terminating, flags: SA_ONSTACK, infoHandler: handleCrash)
  }

  static func disarm() {
    armed = false
    for signo in crashSignals + terminatingSignals { SignalHandlers.restorePrevious(signo) }
  }

  /// Async-signal-safe. Restores the shell's terminal without ncurses; does nothing when not armed.
  static func restore() {
    guard armed else { return }
    armed = false
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios)
    var written = 0
    while written < sequenceLength {
      let result = write(STDOUT_FILENO, sequence + written, sequenceLength - written)
      if result <= 0 { break }
      written += result
    }
  }

  /// Signals a faulting instruction raises again when it runs again. A switch, not an array: this
  /// runs inside the signal handler.
  static func isFault(_ signo: Int32) -> Bool {
    switch signo {
    case SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS: true
    default: false
    }
  }

  /// A stack overflow can only be handled on a separate signal stack.
  private static func ensureAlternateStack() {
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
    var stack = stack_t()
    stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
    stack.ss_size = alternateStackSize
    stack.ss_flags = 0
    sigaltstack(&stack, nil)
  }
}

/// Restores the terminal, then lets the crash (or a terminating signal) take its course. A real fault happens again when the
/// handler returns, now into whatever handled it before us (Swift's backtracer or the default action);
/// a signal sent with kill(2) or abort(3) would not repeat, so it is re-raised with the default action.
private func handleCrash(
  _ signo: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  let savedErrno = errno
  CrashGuard.restore()
  if let info, info.pointee.si_code > 0, CrashGuard.isFault(signo) {
    SignalHandlers.restorePrevious(signo)
  } else {
    ms_default_signal(signo)
    raise(signo)
  }
  errno = savedErrno
}
