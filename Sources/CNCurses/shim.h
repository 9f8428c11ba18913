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

// Function-like macros do not import into Swift; these wrap the ones the storefront uses.
static inline int ms_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int ms_attr_bold(void) { return (int)A_BOLD; }
static inline int ms_attr_reverse(void) { return (int)A_REVERSE; }
static inline int ms_attr_dim(void) { return (int)A_DIM; }
static inline int ms_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int ms_key_resize(void) { return KEY_RESIZE; }
static inline int ms_err(void) { return ERR; }

#endif
