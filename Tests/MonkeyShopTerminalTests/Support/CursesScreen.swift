import CNCurses
import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

@testable import MonkeyShopTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real ncurses screen, set up as the storefront sets up its terminal, whose keyboard is a pipe
/// the test types bytes into and whose output goes nowhere: what ncurses makes of the bytes a
/// terminal sends, and what it keeps in its cells, can be read without a terminal. ncurses is
/// process-global, so tests take turns.
final class CursesScreen: @unchecked Sendable {
  static let size = (rows: Int32(24), columns: Int32(80))

  let window: UnsafeMutablePointer<WINDOW>
  private let keyboard: Int32

  private static let shared = CursesScreen()
  private static let turn = NSLock()

  private init?() {
    // ncurses decodes typed UTF-8 by the locale, as the storefront's own terminal does.
    guard setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "en_US.UTF-8") != nil else { return nil }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0, let input = fdopen(ends[0], "r"), let output = fopen("/dev/null", "w"),
      let screen = newterm("xterm-256color", output, input)
    else { return nil }
    _ = set_term(screen)
    guard let window = ms_stdscr() else { return nil }
    Terminal.setUpModes(window)
    _ = resizeterm(Self.size.rows, Self.size.columns)
    self.window = window
    keyboard = ends[1]
  }

  /// Runs `body` with the screen to itself.
  static func use<Result>(_ body: (CursesScreen) throws -> Result) throws -> Result {
    let screen = try #require(shared, "ncurses cannot open an xterm-256color screen with a UTF-8 locale")
    turn.lock()
    defer { turn.unlock() }
    return try body(screen)
  }

  /// What the storefront reads after a terminal sent `bytes`: keys in order, as many as there are.
  func read(afterTyping bytes: [UInt8]) -> [TerminalInput] {
    _ = bytes.withUnsafeBytes { write(keyboard, $0.baseAddress, $0.count) }
    var inputs: [TerminalInput] = []
    while let input = Terminal.readInput(from: window) { inputs.append(input) }
    return inputs
  }

  /// The keys read after a terminal sent `text` as UTF-8.
  func keys(afterTyping text: String) -> [Key] {
    read(afterTyping: Array(text.utf8)).compactMap { input in
      if case .key(let key) = input { key } else { nil }
    }
  }

  /// One row of cells as text, trailing spaces removed, as `TextGrid.line` gives it.
  func line(_ row: Int32) -> String {
    var buffer = [wchar_t](repeating: 0, count: Int(Self.size.columns) + 1)
    let count = mvwinnwstr(window, row, 0, &buffer, Self.size.columns)
    guard count != ERR else { return "" }
    var text = ""
    for unit in buffer.prefix(while: { $0 != 0 }) {
      if let scalar = Unicode.Scalar(UInt32(bitPattern: unit)) { text.unicodeScalars.append(scalar) }
    }
    while text.last == " " { text.removeLast() }
    return text
  }
}
