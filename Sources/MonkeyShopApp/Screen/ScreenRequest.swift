/// What an app asks of the terminal itself rather than of its own screen: the terminal performs
/// it, since only the terminal holds the tty.
public enum ScreenRequest: Equatable, Sendable {
  /// Repaint every cell of the physical screen, whatever else wrote on it (Ctrl-L).
  case redraw
  /// Give the terminal back to the shell and stop as a job, until `fg` continues it (Ctrl-Z).
  case suspend
}
