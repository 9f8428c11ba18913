// The minimal Swift + ncurses program again, loading Foundation as every real Swift tool on Linux
// does: the difference to the one without is what loading Foundation costs a first frame.
import CNCurses
import Foundation

setlocale(LC_ALL, "")
guard let window = initscr() else { exit(1) }
raw()
noecho()
keypad(window, true)
var presses = 0
let started = Date()
while true {
  werase(window)
  mvwaddstr(window, 0, 0, "minimal ready")
  mvwaddstr(window, 1, 0, "keys \(presses) since \(started.timeIntervalSince1970)")
  wrefresh(window)
  let key = wgetch(window)
  if key == Int32(UInt8(ascii: "q")) { break }
  presses += 1
}
endwin()
