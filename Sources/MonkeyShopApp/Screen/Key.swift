/// A key as the storefront understands it, decoded by the terminal or named in a walkthrough.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  case character(Character)
  case enter
  case escape
  case tab
  case backTab
  case up
  case down
  case left
  case right
  case pageUp
  case pageDown
  case home
  case end
  case backspace
  case ctrlC
  /// Repaints the whole screen, whatever else wrote on it.
  case ctrlL
  /// Suspends the storefront as a job of the shell; `fg` brings it back.
  case ctrlZ

  /// The names walkthroughs use for keys that are not characters.
  public static let named: [String: Key] = [
    "Enter": .enter, "Esc": .escape, "Tab": .tab, "BackTab": .backTab, "Up": .up, "Down": .down,
    "Left": .left, "Right": .right, "PageUp": .pageUp, "PageDown": .pageDown, "Home": .home,
    "End": .end, "Backspace": .backspace, "Ctrl-C": .ctrlC, "Ctrl-L": .ctrlL,
    "Ctrl-Z": .ctrlZ, "Space": .character(" "),
  ]

  /// `Enter`, `Ctrl-C`, or a single character such as `5` or `+`.
  public init?(name: String) {
    if let key = Key.named[name] {
      self = key
    } else if name.count == 1, let character = name.first {
      self = .character(character)
    } else {
      return nil
    }
  }

  /// How the hint bar and help write the key.
  public var description: String {
    switch self {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .enter: "Enter"
    case .escape: "Esc"
    case .tab: "Tab"
    case .backTab: "S-Tab"
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .home: "Home"
    case .end: "End"
    case .backspace: "Backspace"
    case .ctrlC: "Ctrl-C"
    case .ctrlL: "Ctrl-L"
    case .ctrlZ: "Ctrl-Z"
    }
  }
}
