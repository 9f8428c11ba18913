import CNCurses

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Installs signal handlers and remembers what was there before, so `stop()` and a crash handler can
/// put the previous disposition back (the default action, or Swift's own crash backtracer).
enum SignalHandlers {
  /// Signal numbers go up to 64 on Linux (the real-time ones), below 32 on macOS.
  static let slots = 65

  // Indexed by signal number; read inside signal handlers, which may not lock or allocate, so it is
  // a raw buffer allocated once and never freed. Written only while the signal is not yet handled.
  nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction> = {
    let buffer = UnsafeMutablePointer<sigaction>.allocate(capacity: slots)
    buffer.initialize(repeating: sigaction(), count: slots)
    return buffer
  }()
  nonisolated(unsafe) private static var installed: UnsafeMutablePointer<Bool> = {
    let buffer = UnsafeMutablePointer<Bool>.allocate(capacity: slots)
    buffer.initialize(repeating: false, count: slots)
    return buffer
  }()

  static func install(_ signals: [Int32], flags: Int32, handler: @convention(c) (Int32) -> Void) {
    install(signals) { ms_set_signal_handler($0, handler, flags, $1) }
  }

  static func install(
    _ signals: [Int32], flags: Int32,
    infoHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void
  ) {
    install(signals) { ms_set_signal_info_handler($0, infoHandler, flags, $1) }
  }

  private static func install(_ signals: [Int32], with setHandler: (Int32, UnsafeMutablePointer<sigaction>) -> Int32) {
    // Touch the lazily initialised buffers here, never for the first time inside a handler.
    _ = (previous, installed)
    // A parent may have started us with these blocked (Foundation's Process does); a handler for a
    // blocked signal never runs, so SIGTERM or a resize would go unnoticed.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signo in signals { sigaddset(&unblock, signo) }
    sigprocmask(SIG_UNBLOCK, &unblock, nil)
    for signo in signals where signo > 0 && signo < slots && !installed[Int(signo)] {
      if setHandler(signo, previous + Int(signo)) == 0 { installed[Int(signo)] = true }
    }
  }

  /// Async-signal-safe: puts back the disposition found at install time.
  static func restorePrevious(_ signo: Int32) {
    guard signo > 0, signo < slots, installed[Int(signo)] else { return }
    installed[Int(signo)] = false
    sigaction(signo, previous + Int(signo), nil)
  }
}
