/* Text copied from traces, file names and manifests (event and site names,
 * categories, argument paths and values, URLs, errors): one writer per
 * output format, and every writer of that format goes through it. Web pages
 * choose event names (performance.mark), so all such text is hostile.
 *
 *   - Every writer: bytes go out as UTF-8, each byte that is not part of a
 *     valid sequence as U+FFFD (the terminal shows it as \xHH instead), the
 *     way tc_jsonw writes the JSON outputs, so a name has one spelling in
 *     every report.
 *   - Markdown text (headings, table cells, link text, list items): each
 *     control character visible: U+0000-U+001F and U+007F as \xHH, C1
 *     (U+0080-U+009F) as \u00HH, so no line break reaches the file raw; each
 *     of \ ` * _ [ ] < > | # & ~ ! with a backslash before it (CommonMark
 *     lets any ASCII punctuation be escaped; GFM tables read \| as |),
 *     except a _ between two ASCII letters or digits, which CommonMark never
 *     reads as emphasis (so uint32_t stays as it is).
 *   - Markdown code span (argument paths): a fence of backticks one longer
 *     than the longest backtick run inside, a space inside each fence when
 *     the text begins or ends with a backtick or a space, | as \| in a
 *     table (GFM splits cells before it reads code spans), control
 *     characters as in Markdown text.
 *   - CSV cell: RFC 4180 (quoted always, or only when it holds a comma, a
 *     quote or LF; each inner quote doubled). A text cell whose first
 *     character is = + - @ TAB or CR starts with ' (OWASP's advice against
 *     CSV injection; numeric columns never come here). Control characters
 *     other than TAB and LF (CR too: a lone CR ends a line for some readers)
 *     are written \xHH, so no NUL byte ever.
 *   - Terminal (stderr, -v lines): control characters and bytes that are
 *     not valid UTF-8 as \xHH, C1 as \u00HH; one string longer than
 *     TC_TEXT_TERM_MAX bytes is cut there (at a character boundary) and
 *     followed by "…(N bytes)" with its full length N.
 *
 * A backslash the name holds itself is written as it is in CSV and on the
 * terminal (so "\x00" there may be those four characters), doubled in
 * Markdown. */
#ifndef TC_TEXT_H
#define TC_TEXT_H

#include <stdio.h>

#include "report/tc_wbuf.h"
#include "util/tc_str.h"

/* Markdown text. */
void tc_text_md(tc_wbuf *b, tc_str s);

typedef enum {
  TC_MD_OUTSIDE_TABLE, /* a list item or a paragraph */
  TC_MD_IN_TABLE,      /* a table cell: | written \| */
} tc_md_where;

/* S as a Markdown code span, fences included. */
void tc_text_md_code(tc_wbuf *b, tc_str s, tc_md_where where);

typedef enum {
  TC_CSV_QUOTE_ALWAYS,    /* census.csv's text columns */
  TC_CSV_QUOTE_IF_NEEDED, /* metrics.csv: only a cell with , " or LF */
} tc_csv_quote;

/* One CSV text cell. */
void tc_text_csv_cell(tc_wbuf *b, tc_str s, tc_csv_quote q);

/* Part of the inside of a quoted CSV text cell (its quotes are the
 * caller's): quotes doubled; CELL_START when S begins the cell, so a
 * formula character there gets its '. */
void tc_text_csv_body(tc_wbuf *b, tc_str s, int cell_start);

/* The most bytes of one string the terminal writer shows. */
#define TC_TEXT_TERM_MAX 1024

/* S for the terminal. */
void tc_text_term(tc_wbuf *b, tc_str s);

/* fprintf for the terminal: FMT's own text as it is (its newlines, \r),
 * numbers as printf writes them, and each %s (%.*s) argument through
 * tc_text_term, all in one write. Returns 0, or < 0 after a write error. */
__attribute__((format(printf, 2, 3))) int tc_text_term_printf(FILE *fp, const char *fmt, ...);

#endif
