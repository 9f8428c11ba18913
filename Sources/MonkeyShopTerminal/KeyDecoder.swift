import CNCurses
import MonkeyShopApp

/// What one read from the keyboard means to the event loop.
enum TerminalInput: Hashable, Sendable {
  case key(Key)
  /// ncurses noticed a new size (it queues KEY_RESIZE after `resizeterm`).
  case resize
}

/// Turns what `wget_wch` returns into a `Key`. Escape sequences (arrows, Page Up, Shift-Tab) are
/// decoded by ncurses itself with keypad mode on; a lone Esc arrives after ESCDELAY (25 ms).
enum KeyDecoder {
  /// `status` is wget_wch's result (OK for a character, KEY_CODE_YES for a function key); nil for
  /// keys the shop has no use for.
  static func decode(status: Int32, code: UInt32) -> TerminalInput? {
    if status == KEY_CODE_YES { return decodeFunctionKey(Int32(bitPattern: code)) }
    guard status == OK else { return nil }
    return decodeCharacter(code).map { .key($0) }
  }

  /// Home and End as terminals send them whatever TERM says: tmux sends ESC [1~ and ESC [4~ (its
  /// own Home and End) even when TERM=xterm-256color, whose terminfo knows only ESC OH and ESC OF
  /// (Debian's lists no Find/Select either); rxvt and the Linux console send ESC [7~/[8~ or
  /// ESC [1~/[4~; xterm outside keypad mode sends ESC [H and ESC [F. ncurses is told each sequence
  /// the terminal's terminfo does not already bind, so it arrives as KEY_HOME or KEY_END instead
  /// of Esc, `[`, `1`, `~`.
  static let homeAndEndSequences: [(sequence: String, code: Int32)] = [
    ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME),
    ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END),
  ]

  /// Binds `homeAndEndSequences` in the current ncurses screen, leaving the terminfo's own keys alone.
  static func defineMissingKeys() {
    for (sequence, code) in homeAndEndSequences where key_defined(sequence) == 0 {
      _ = define_key(sequence, code)
    }
  }

  static func decodeFunctionKey(_ code: Int32) -> TerminalInput? {
    let key: Key
    switch code {
    case KEY_RESIZE: return .resize
    case KEY_UP: key = .up
    case KEY_DOWN: key = .down
    case KEY_LEFT: key = .left
    case KEY_RIGHT: key = .right
    case KEY_ENTER: key = .enter
    case KEY_BTAB: key = .backTab
    case KEY_BACKSPACE: key = .backspace
    case KEY_PPAGE: key = .pageUp
    case KEY_NPAGE: key = .pageDown
    // VT220-style keypads send Find/Select for Home/End.
    case KEY_HOME, KEY_FIND: key = .home
    case KEY_END, KEY_SELECT: key = .end
    default: return nil
    }
    return .key(key)
  }

  static func decodeCharacter(_ code: UInt32) -> Key? {
    switch code {
    // raw() turns off the signal keys: Ctrl-C, Ctrl-Z arrive as bytes, not as SIGINT and SIGTSTP.
    case 3: return .ctrlC
    case 12: return .ctrlL
    case 26: return .ctrlZ
    case 8, 127: return .backspace
    case 9: return .tab
    case 10, 13: return .enter  // nonl(): Enter arrives as CR
    case 27: return .escape
    case 0..<32: return nil
    default:
      guard let scalar = Unicode.Scalar(code) else { return nil }
      return .character(Character(scalar))
    }
  }
}
