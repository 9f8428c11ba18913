// The smallest Swift program that draws a screen with ncurses and repaints on each key: the
// baseline the storefront's first frame and key latency are compared with.
import CNCurses

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

setlocale(LC_ALL, "")
guard let window = initscr() else { exit(1) }
raw()
noecho()
keypad(window, true)
var presses = 0
while true {
  werase(window)
  mvwaddstr(window, 0, 0, "minimal ready")
  mvwaddstr(window, 1, 0, "keys \(presses)")
  wrefresh(window)
  let key = wgetch(window)
  if key == Int32(UInt8(ascii: "q")) { break }
  presses += 1
}
endwin()
