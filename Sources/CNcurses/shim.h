/// The wide-character ncurses API for Swift, plus accessors for what does not import.
#ifndef ABCONSOLE_CNCURSES_SHIM_H
#define ABCONSOLE_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

/// Attribute macros do not import into Swift.
static inline attr_t cn_attr_bold(void) { return A_BOLD; }
static inline attr_t cn_attr_reverse(void) { return A_REVERSE; }
static inline attr_t cn_attr_dim(void) { return A_DIM; }
static inline attr_t cn_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_attr_normal(void) { return A_NORMAL; }

/// C globals are "not concurrency-safe" in Swift 6 language mode.
static inline FILE *cn_stdin(void) { return stdin; }
static inline FILE *cn_stdout(void) { return stdout; }
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

/// `KEY_F(n)` is a function-like macro.
static inline int cn_key_f(int n) { return KEY_F(n); }

/// `wcwidth` is hidden by Swift's Glibc module; needs the locale set first.
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

/// The codeset of the current `LC_CTYPE` locale, such as "UTF-8" or "ANSI_X3.4-1968".
static inline const char *cn_codeset(void) { return nl_langinfo(CODESET); }

/// Puts one cell (a base character plus up to four combining marks) at (y, x).
/// Returns ERR only when ncurses rejects the characters; writing the bottom-right
/// cell reports ERR from `mvwadd_wch` although the cell is placed, so that is ignored.
static inline int cn_put_cell(WINDOW *win, int y, int x, const wchar_t *chars, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, chars, attrs, pair, NULL) == ERR) {
        return ERR;
    }
    (void)mvwadd_wch(win, y, x, &cell);
    return OK;
}

#endif
