/* The smallest C program that draws a screen with ncurses and repaints on each key. */
#include <curses.h>
#include <locale.h>

int main(void) {
  setlocale(LC_ALL, "");
  WINDOW *window = initscr();
  raw();
  noecho();
  keypad(window, TRUE);
  int presses = 0;
  for (;;) {
    werase(window);
    mvwaddstr(window, 0, 0, "minimal ready");
    mvwprintw(window, 1, 0, "keys %d", presses);
    wrefresh(window);
    int key = wgetch(window);
    if (key == 'q') break;
    presses++;
  }
  endwin();
  return 0;
}
