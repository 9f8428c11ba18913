/// What the app asks of the terminal itself: repaint everything (Ctrl-L), or suspend the process
/// as a shell's job control does (Ctrl-Z).
public enum ScreenRequest: Equatable, Sendable {
  case redraw, suspend
}
