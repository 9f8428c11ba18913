#ifndef MONKEYSHOP_CNCURSES_SHIM_H
#define MONKEYSHOP_CNCURSES_SHIM_H

// SwiftPM drops pkg-config's -D flags, so wide-character support is switched on here.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

// Function-like macros do not import into Swift; these wrap the ones the storefront uses.
static inline int ms_attr_bold(void) { return (int)A_BOLD; }
static inline int ms_attr_reverse(void) { return (int)A_REVERSE; }
static inline int ms_attr_dim(void) { return (int)A_DIM; }

// The C library's idea of a character's width, which is what ncurses goes by. Declared here because
// glibc hides it unless _XOPEN_SOURCE was set before <wchar.h> was first seen.
extern int wcwidth(wchar_t c);
static inline int ms_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

// Sets a window's attributes and colour pair in one call (wattr_set is a macro in ncurses).
static inline int ms_set_style(WINDOW *win, int attrs, int pair) {
  return wattr_set(win, (attr_t)attrs, (NCURSES_PAIRS_T)pair, NULL);
}

// Replaces the character in a cell with a space, keeping the cell's attributes and colour pair.
static inline void ms_blank_cell(WINDOW *win, int y, int x) {
  cchar_t cell;
  wchar_t text[CCHARW_MAX + 1];
  attr_t attrs;
  NCURSES_PAIRS_T pair;
  static const wchar_t blank[] = L" ";
  if (mvwin_wch(win, y, x, &cell) == ERR || getcchar(&cell, text, &attrs, &pair, NULL) == ERR) return;
  if (setcchar(&cell, blank, attrs, pair, NULL) == ERR) return;
  mvwadd_wch(win, y, x, &cell);
}

// stdin/stdout and stdscr are mutable C globals that Swift 6 rejects; they stay on this side.
static inline SCREEN *ms_newterm(const char *term) { return newterm(term, stdout, stdin); }
static inline WINDOW *ms_stdscr(void) { return stdscr; }
static inline void ms_flush_stdout(void) { fflush(stdout); }

// The tty's real size wins over an exported, possibly stale, LINES/COLUMNS (use_tioctl is ncurses 6).
static inline void ms_prefer_tty_size(void) {
#if defined(NCURSES_VERSION_MAJOR) && NCURSES_VERSION_MAJOR >= 6
  use_tioctl(TRUE);
#endif
}

// A terminfo string capability, or NULL when the terminal lacks it ((char *)-1 means "not a string").
static inline const char *ms_tigetstr(const char *name) {
  char *value = tigetstr(name);
  return (value == NULL || value == (char *)-1) ? NULL : value;
}

// The tty's size in cells; TIOCGWINSZ is a function-like macro on macOS. Returns 0 on success.
static inline int ms_window_size(int fd, int *rows, int *cols) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
  *rows = size.ws_row;
  *cols = size.ws_col;
  return 0;
}

// struct sigaction's handler field is a union named differently on Linux and macOS.
static inline int ms_set_signal_handler(int sig, void (*handler)(int), int flags, struct sigaction *old) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  return sigaction(sig, &action, old);
}

// The same with SA_SIGINFO, for crash handlers that must tell a real fault from a kill(2).
static inline int ms_set_signal_info_handler(int sig, void (*handler)(int, siginfo_t *, void *), int flags,
                                             struct sigaction *old) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = handler;
  action.sa_flags = flags | SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  return sigaction(sig, &action, old);
}

// Async-signal-safe: the default action for a signal (SIG_DFL is a cast macro that does not import).
static inline void ms_default_signal(int sig) { ms_set_signal_handler(sig, SIG_DFL, 0, NULL); }

// Whether a signal is ignored now (SIG_IGN, e.g. inherited from nohup): then it ends nothing.
static inline int ms_signal_is_ignored(int sig) {
  struct sigaction current;
  if (sigaction(sig, NULL, &current) != 0) return 0;
  return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN;
}

// The real-time signals, whose default action ends the process (function-like macros in glibc);
// 0 and -1 where there are none.
static inline int ms_sigrtmin(void) {
#ifdef SIGRTMIN
  return SIGRTMIN;
#else
  return 0;
#endif
}
static inline int ms_sigrtmax(void) {
#ifdef SIGRTMAX
  return SIGRTMAX;
#else
  return -1;
#endif
}

#endif
