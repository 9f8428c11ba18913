import CNCurses
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

@testable import MonkeyShopTerminal

@Suite("Keys", .tags(.pure))
struct KeyDecoderTests {
  @Test(
    "control keys: Ctrl-C quits, Ctrl-L repaints, Ctrl-Z suspends, whatever the tty would have made of them",
    arguments: [
      (3, Key.ctrlC), (12, .ctrlL), (26, .ctrlZ), (27, .escape), (9, .tab), (13, .enter), (10, .enter),
      (127, .backspace), (8, .backspace),
    ] as [(UInt32, Key)])
  func controlKeys(_ code: UInt32, _ key: Key) {
    #expect(KeyDecoder.decode(status: OK, code: code) == .key(key))
  }

  @Test(
    "characters, ASCII or not, arrive as themselves",
    arguments: [
      (0x61, "a"), (0x20, " "), (0x2B, "+"), (0x30A2, "ア"), (0x1F412, "🐒"), (0xE9, "é"),
    ] as [(UInt32, Character)])
  func characters(_ code: UInt32, _ character: Character) {
    #expect(KeyDecoder.decode(status: OK, code: code) == .key(.character(character)))
  }

  @Test("other control characters, and codes that are no character, are ignored", arguments: [0, 1, 2, 31, 0xD800])
  func ignored(_ code: UInt32) {
    #expect(KeyDecoder.decode(status: OK, code: code) == nil)
  }

  @Test(
    "function keys ncurses decodes become the shop's keys",
    arguments: [
      (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_PPAGE, .pageUp),
      (KEY_NPAGE, .pageDown), (KEY_HOME, .home), (KEY_FIND, .home), (KEY_END, .end), (KEY_SELECT, .end),
      (KEY_BTAB, .backTab), (KEY_BACKSPACE, .backspace), (KEY_ENTER, .enter),
    ] as [(Int32, Key)])
  func functionKeys(_ code: Int32, _ key: Key) {
    #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(code)) == .key(key))
  }

  @Test("a resize is not a key; function keys the shop has no use for, and no key at all, are ignored")
  func resizeAndNothing() {
    #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_RESIZE)) == .resize)
    #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_F0 + 1)) == nil)
    #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE)) == nil)
    #expect(KeyDecoder.decode(status: ERR, code: 0x61) == nil)
  }
}

/// The bytes a terminal sends, through ncurses set up as the storefront sets it up.
@Suite("Typing", .tags(.screen))
struct TypingTests {
  @Test("Ctrl-C, Ctrl-L and Ctrl-Z arrive as keys, in the order typed")
  func controlKeys() throws {
    try CursesScreen.use { screen in
      #expect(screen.keys(afterTyping: "\u{3}") == [.ctrlC])
      #expect(screen.keys(afterTyping: "\u{C}\u{1A}j") == [.ctrlL, .ctrlZ, .character("j")])
    }
  }

  @Test("UTF-8 characters of two, three and four bytes arrive whole")
  func multiByteCharacters() throws {
    try CursesScreen.use { screen in
      #expect(screen.keys(afterTyping: "アé🐒") == [.character("ア"), .character("é"), .character("🐒")])
    }
  }

  @Test("arrows, Page Up/Down, Home, End and Shift-Tab, as an xterm sends them, are keys")
  func escapeSequences() throws {
    try CursesScreen.use { screen in
      #expect(screen.keys(afterTyping: "\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
      #expect(
        screen.keys(afterTyping: "\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}OF\u{1B}[Z") == [
          .pageUp, .pageDown, .home, .end, .backTab,
        ])
    }
  }

  @Test(
    "Home and End as tmux sends them (ESC [1~ and ESC [4~, Find and Select in xterm-256color's terminfo), and as a VT220 or rxvt sends them (ESC [7~ and ESC [8~), and as xterm outside keypad mode sends them (ESC [H and ESC [F), are Home and End"
  )
  func homeAndEndFromTmux() throws {
    try CursesScreen.use { screen in
      #expect(screen.keys(afterTyping: "\u{1B}[1~\u{1B}[4~") == [.home, .end])
      #expect(screen.keys(afterTyping: "\u{1B}[7~\u{1B}[8~") == [.home, .end])
      #expect(screen.keys(afterTyping: "\u{1B}[H\u{1B}[F") == [.home, .end])
    }
  }

  @Test("a lone Esc is Esc, and Enter and Backspace are themselves")
  func escapeEnterBackspace() throws {
    try CursesScreen.use { screen in
      #expect(screen.keys(afterTyping: "\u{1B}") == [.escape])
      #expect(screen.keys(afterTyping: "\r\u{7F}") == [.enter, .backspace])
    }
  }
}
