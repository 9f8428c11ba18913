import CNCurses
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// While the storefront is blocked in a call that waits, such as another monkeyshop holding the
/// data folder's lock: it says so on its bottom line, and Ctrl-C or a termination signal still ends
/// it at once. Leaving then is safe: the lock was never taken, so nothing was half-written.
public enum BlockedWait {
  // Set when the bottom line was written outside a frame; touched on the main thread only.
  nonisolated(unsafe) private static var wroteOverFrame = false

  /// Whether `show` wrote over the frame since the last call: then the next frame draws every row.
  static func takeWroteOverFrame() -> Bool {
    defer { wroteOverFrame = false }
    return wroteOverFrame
  }

  /// Writes `text` over the bottom line of the screen, which the next frame redraws.
  public static func show(_ text: String) {
    guard let window = ms_stdscr() else { return }
    wroteOverFrame = true
    let printable = TerminalText.escaped(text)
    let row = getmaxy(window) - 1
    wmove(window, row, 0)
    wclrtoeol(window)
    waddnstr(window, printable, getmaxx(window) - 1)
    wrefresh(window)
  }

  /// Ends the storefront, restoring the terminal, if Ctrl-C was typed or a termination signal came
  /// while it was blocked; Ctrl-Z or SIGTSTP suspends it here and now. Other keys typed meanwhile
  /// are dropped; a resize is passed on.
  public static func leaveIfAsked() {
    var resized = false
    for signo in SignalPipe.drain() {
      switch signo {
      case SIGWINCH: resized = true
      case SIGTSTP: suspend(stopping: .process)
      case SIGCONT: repaint(JobControl.takeTerminalBack)
      default: leave(status: 128 + signo)
      }
    }
    if resized { raise(SIGWINCH) }
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    var bytes = [UInt8](repeating: 0, count: 64)
    while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
      let count = read(STDIN_FILENO, &bytes, bytes.count)
      guard count > 0 else { break }
      if bytes[0..<count].contains(3) { leave(status: 130) }
      if bytes[0..<count].contains(26) { suspend(stopping: .job) }
    }
  }

  private static func suspend(stopping: JobControl.Stopping) {
    repaint { JobControl.suspend($0, stopping: stopping) }
  }

  /// Repaints the screen as it was (the last frame and this line) after `change`.
  private static func repaint(_ change: (UnsafeMutablePointer<WINDOW>) -> Void) {
    guard let window = ms_stdscr() else { return }
    change(window)
    wrefresh(window)
  }

  private static func leave(status: Int32) -> Never {
    CrashGuard.restore()
    exit(status)
  }
}
