import CNCurses

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-Z and SIGTSTP: the storefront gives the shell its terminal back as it was (modes, cursor,
/// main screen) and stops as a job, so the shell says it stopped. When `fg` continues it, it takes
/// the terminal again at whatever size it now has, drops what was typed for the shell meanwhile, and
/// repaints every cell.
enum JobControl {
  /// Who stops.
  enum Stopping {
    /// The whole job, as the tty's own Ctrl-Z stops it: Ctrl-Z is a key in raw mode, so the
    /// storefront sends the signal the tty would have sent.
    case job
    /// This process alone: a SIGTSTP sent to it with kill(1) has already reached the others it
    /// was meant for.
    case process
  }

  /// Leaves curses mode, stops, and on SIGCONT takes the terminal back; the next refresh repaints
  /// the whole screen. Does nothing when SIGTSTP was ignored from the start, since nothing would
  /// continue the storefront.
  static func suspend(_ window: UnsafeMutablePointer<WINDOW>, stopping: Stopping) {
    guard SignalPipe.canStop else { return }
    endwin()
    ms_flush_stdout()
    // The terminal is the shell's now: a crash while stopped has nothing to restore.
    CrashGuard.disarm()
    SignalPipe.withDefaultStopActions {
      _ = kill(stopping == .job ? 0 : getpid(), SIGTSTP)
    }
    // Modes the user set in the shell meanwhile (stty) are the ones to give back at the end.
    _ = def_shell_mode()
    _ = CrashGuard.saveTerminalModes()
    CrashGuard.arm()
    takeTerminalBack(window)
    // Keys typed while it was stopped were meant for the shell, which had the terminal.
    _ = flushinp()
  }

  /// After SIGCONT, whoever stopped the storefront: the tty may be in the shell's modes and of
  /// another size, and what is on the screen is not what curses last drew. Keys typed while
  /// another process held it stopped (SIGSTOP) stay: the storefront kept the terminal, so they
  /// were typed for it, and are read now.
  static func takeTerminalBack(_ window: UnsafeMutablePointer<WINDOW>) {
    _ = reset_prog_mode()
    Terminal.followSize(of: window)
    _ = clearok(window, true)
  }
}
