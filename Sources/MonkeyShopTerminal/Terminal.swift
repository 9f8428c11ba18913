import CNCurses
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real terminal's lifecycle: raw keyboard, alternate screen, colours, and putting the shell's
/// terminal back on every way out (stop, exit, SIGTERM/SIGHUP/SIGINT through the event loop, a crash).
/// ncurses is process-global, so only one `Terminal` can be started at a time.
public final class Terminal {
  public enum Failure: Error, CustomStringConvertible {
    case notInteractive
    case alreadyStarted
    case cannotOpen(term: String)
    /// The terminal type cannot move the cursor (`TERM=dumb`, a printing terminal): every frame
    /// would come out as a blank screen that still takes keys.
    case cannotAddressCursor(term: String)
    /// `MONKEYSHOP_SCREEN_DUMP` names something the dump must not replace, or a file in no folder.
    case unusableScreenDump(variable: String, path: String, reason: String)

    /// Which error this is: a refused setting, or no terminal to draw in. How the command exits
    /// follows from it (`ErrorID.exitStatus`).
    public var errorID: ErrorID {
      switch self {
      case .unusableScreenDump: .invalidArgument
      default: .terminalUnavailable
      }
    }

    public var description: String {
      switch self {
      case .notInteractive: "standard input and output must be a terminal"
      case .alreadyStarted: "the terminal is already in use"
      case .cannotOpen(let term): "cannot open the terminal (TERM=\(term.isEmpty ? "unset" : term))"
      case .cannotAddressCursor(let term):
        """
        the terminal cannot move its cursor (TERM=\(term)): the storefront needs a screen terminal \
        such as TERM=xterm-256color; without one, use the headless commands (monkeyshop --help)
        """
      case .unusableScreenDump(let variable, let path, let reason):
        """
        \(variable)=\(path) cannot be used: \(reason). Name a regular file, or a new file in a \
        folder that exists; the screen dump replaces it after every frame
        """
      }
    }
  }

  /// True when both standard input and standard output are terminals; without one the storefront
  /// cannot run and the CLI should point to the headless commands.
  public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  /// Restores the shell's terminal with async-signal-safe calls only, for the moment right before
  /// the app deliberately kills itself (a simulated crash). ncurses must not be used afterwards.
  public static func restoreForCrash() { CrashGuard.restore() }

  // Whether some Terminal holds ncurses; touched on the main thread only, and by the atexit hook.
  nonisolated(unsafe) private static var isAnyStarted = false
  nonisolated(unsafe) private static var exitHookRegistered = false

  private let forceMonochrome: Bool
  /// The data folder in use, where `MONKEYSHOP_SCREEN_DUMP` may not write.
  private let dataFolder: DataFolder
  private var screen: OpaquePointer?
  private var window: UnsafeMutablePointer<WINDOW>?
  private var palette = Palette(isMonochrome: true)

  /// - Parameters:
  ///   - forceMonochrome: no colours even when the terminal has them (`NO_COLOR` is also honoured).
  ///   - dataFolder: the data folder in use, which `MONKEYSHOP_SCREEN_DUMP` may not name a file in.
  public init(forceMonochrome: Bool = false, dataFolder: DataFolder) {
    self.forceMonochrome = forceMonochrome
    self.dataFolder = dataFolder
  }

  deinit { stop() }

  public var isStarted: Bool { window != nil }

  /// `MONKEYSHOP_SCREEN_DUMP`, the variable naming the file each frame is written to.
  public static let screenDumpVariable = ScreenDump.variable

  /// The screen's size in cells (zero before `start()`).
  public var size: ScreenSize {
    guard let window else { return ScreenSize(width: 0, height: 0) }
    return ScreenSize(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
  }

  public func start() throws(Failure) {
    guard !isStarted else { return }
    guard !Self.isAnyStarted else { throw Failure.alreadyStarted }
    guard Self.isInteractive else { throw Failure.notInteractive }
    // Before the screen opens, so the refusal is read on the shell's screen.
    screenDump = try ScreenDump.fromEnvironment(dataFolder: dataFolder)
    // Without the user's locale ncurses draws multibyte text as bytes: Japanese comes out garbled.
    setlocale(LC_ALL, "")
    // With no UTF-8 locale set (LANG unset, as in many CI shells) box lines, "—" and Japanese would
    // be dropped; the terminals monkeyshop runs in speak UTF-8, so ask for it.
    if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
      setlocale(LC_CTYPE, "C.UTF-8")
    }
    _ = CrashGuard.saveTerminalModes()
    // Our handlers go in before newterm so ncurses does not install its own for these signals.
    guard SignalPipe.open() else { throw Failure.cannotOpen(term: Self.termName) }
    ms_prefer_tty_size()
    guard let screen = ms_newterm(nil), let window = ms_stdscr() else {
      SignalPipe.close()
      throw Failure.cannotOpen(term: Self.termName)
    }
    // terminfo's cup: without it nothing can be drawn where it belongs.
    guard ms_tigetstr("cup") != nil else {
      endwin()
      delscreen(screen)
      ms_flush_stdout()
      SignalPipe.close()
      throw Failure.cannotAddressCursor(term: Self.termName)
    }
    self.screen = screen
    self.window = window
    Self.isAnyStarted = true
    Self.setUpModes(window)
    palette = Palette.setUp(forceMonochrome: forceMonochrome || Self.noColorRequested)
    CrashGuard.arm()
    Self.registerExitHook()
  }

  /// The keyboard and screen modes the storefront runs in.
  static func setUpModes(_ window: UnsafeMutablePointer<WINDOW>) {
    raw()  // Ctrl-C and Ctrl-Z arrive as keys, not SIGINT and SIGTSTP
    noecho()
    nonl()
    keypad(window, true)
    KeyDecoder.defineMissingKeys()
    nodelay(window, true)  // the event loop waits in poll(2); reads never block
    _ = set_escdelay(25)  // a lone Esc acts at once instead of after a second
    _ = curs_set(0)
    typeahead(-1)  // always finish a frame, even with keys pending
  }

  /// Leaves the alternate screen and gives the shell its terminal back. Safe to call more than once.
  public func stop() {
    guard let screen else { return }
    CrashGuard.disarm()
    endwin()
    delscreen(screen)
    ms_flush_stdout()
    self.screen = nil
    window = nil
    Self.isAnyStarted = false
    SignalPipe.close()
  }

  /// The frame on the screen, as drawn; nil until the first one.
  private var shown: FrameRecord?

  /// Draws one frame: whatever `body` puts on a blank screen, then one update of the terminal. Only
  /// the rows that differ from the frame before are written again (cleared, then drawn), so a key
  /// that changes a few rows costs those rows; a new size, or the bottom line written over while
  /// blocked, draws every row.
  public func draw(_ body: (inout FrameRecord) -> Void) {
    guard let window else { return }
    var frame = FrameRecord(size: size)
    body(&frame)
    let wroteOver = BlockedWait.takeWroteOverFrame()
    let previous = shown.flatMap { $0.size == frame.size && !wroteOver ? $0 : nil }
    if previous == nil { werase(window) }
    var canvas = NCursesCanvas(window: window, size: size, palette: palette)
    for y in frame.rows.indices {
      if let previous {
        guard previous.rows[y] != frame.rows[y] else { continue }
        wmove(window, Int32(y), 0)
        wclrtoeol(window)
      }
      for put in frame.rows[y] { canvas.put(put.text, x: put.x, y: y, style: put.style) }
    }
    shown = frame
    wnoutrefresh(window)
    doupdate()
  }

  /// Where each frame is also written as text (`MONKEYSHOP_SCREEN_DUMP`), checked by `start()`.
  private var screenDump: ScreenDump?

  /// Sees each frame as drawn on the in-memory grid (a recording, `--cast`); set after `start()`.
  public var onFrame: ((TextGrid) -> Void)?

  /// Whether the frames show the palette's colours (not with `NO_COLOR` or a terminal without).
  public var showsColours: Bool { !palette.isMonochrome }

  /// Draws the frame `body` draws on an in-memory grid of the screen's size, when a dump was asked
  /// for (written to the dump file, whole) or something follows the frames (`onFrame`).
  public func dumpFrame(_ body: (inout TextGrid) -> Void) {
    guard isStarted, screenDump != nil || onFrame != nil else { return }
    var grid = TextGrid(size: size)
    body(&grid)
    screenDump?.save(grid.text + "\n")
    onFrame?(grid)
  }

  /// Follows the tty's new size after SIGWINCH. ncurses then queues KEY_RESIZE.
  func followResize() {
    guard let window else { return }
    Self.followSize(of: window)
  }

  static func followSize(of window: UnsafeMutablePointer<WINDOW>) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    guard ms_window_size(STDOUT_FILENO, &rows, &columns) == 0 else { return }
    if rows != getmaxy(window) || columns != getmaxx(window) { resizeterm(rows, columns) }
  }

  /// The next frame repaints every cell, not only what changed: whatever else wrote on the
  /// terminal (a stray process, a garbled line) is drawn over.
  func repaintEverything() {
    guard let window else { return }
    _ = clearok(window, true)
  }

  /// Gives the shell its terminal and stops; returns once continued, with the next frame
  /// repainting everything.
  func suspend(stopping: JobControl.Stopping) {
    guard let window else { return }
    JobControl.suspend(window, stopping: stopping)
  }

  /// Continued after something else stopped the storefront (SIGSTOP): takes the terminal back.
  func takeBackAfterStop() {
    guard let window else { return }
    JobControl.takeTerminalBack(window)
  }

  /// The next key or resize already typed, without waiting; nil when there is none.
  func readInput() -> TerminalInput? {
    guard let window else { return nil }
    return Self.readInput(from: window)
  }

  static func readInput(from window: UnsafeMutablePointer<WINDOW>) -> TerminalInput? {
    while true {
      var code: wint_t = 0
      let status = wget_wch(window, &code)
      if status == ERR { return nil }
      if let input = KeyDecoder.decode(status: status, code: UInt32(code)) { return input }
    }
  }

  private static var termName: String { getenv("TERM").map { String(cString: $0) } ?? "" }

  /// https://no-color.org: set and not empty.
  private static var noColorRequested: Bool {
    guard let value = getenv("NO_COLOR") else { return false }
    return value.pointee != 0
  }

  /// `exit()` from anywhere (a fatal CLI error, a test harness) must not leave the shell raw.
  private static func registerExitHook() {
    guard !exitHookRegistered else { return }
    exitHookRegistered = true
    atexit {
      guard Terminal.isAnyStarted else { return }
      CrashGuard.disarm()
      endwin()
      ms_flush_stdout()
    }
  }
}
