/* Building blocks of a self-contained HTML page (report.html and the diff
 * page): one file with its CSS and its script inline and no reference to
 * anything outside it, so it opens from a disk or an archive years later,
 * offline, in any browser, and prints.
 *
 * Everything is written straight to a caller-owned FILE (normally
 * tc_outfile_fp); nothing is buffered and nothing allocates. Every text that
 * comes from data goes through tc_html_escape. The page works without its
 * script (tables are plain tables, plots are inline SVG); the script only
 * adds sorting and filtering of tables.
 *
 * A page is: tc_html_begin, then any headings, paragraphs (the caller's own
 * markup), tables, plots (tc_svg.h) and sections, then tc_html_end. */
#ifndef TC_HTML_H
#define TC_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/tc_wbuf.h"
#include "util/tc_str.h"

/* Writes S as HTML text, safe inside elements and inside double- or
 * single-quoted attribute values: & < > " ' become entities; a byte that is
 * not part of valid UTF-8 and a control character other than tab, newline
 * and carriage return become U+FFFD, so any input makes well-formed markup
 * (inline SVG included). */
void tc_html_escape(FILE *fp, tc_str s);
void tc_html_escape_c(FILE *fp, const char *s); /* NUL-terminated; NULL writes nothing */
/* The same for element content only (never an attribute value): quotes
 * stay as they are. */
void tc_html_escape_text(FILE *fp, tc_str s);
/* The same into a writer's buffer, for parts of a page written in bulk. */
void tc_html_escape_wbuf(tc_wbuf *b, tc_str s);

/* Finite V with DECIMALS (0..9) decimals and thousands separators,
 * "12,345.6", rounded as printf rounds; a value that rounds to zero is
 * "0" or "0.0", never "-0". Writes at most CAP bytes (NUL included). */
void tc_html_fmt_num(double v, int decimals, char *buf, size_t cap);

/* Writes an element id (or the part after '#' of a link) for NAME under
 * PREFIX: "PREFIX-" then NAME with every byte outside [A-Za-z0-9-] written
 * as _XX (lower-case hex), '_' included, so distinct names always get
 * distinct ids and an id never needs escaping. */
void tc_html_id(FILE *fp, const char *prefix, tc_str name);
/* The same into a writer's buffer (census.md's links to report.html). */
void tc_html_id_wbuf(tc_wbuf *b, const char *prefix, tc_str name);

/* <!DOCTYPE html> through <main>: charset, viewport, TITLE (escaped) and the
 * inline style sheet (light and dark from the reader's setting, print
 * rules). */
void tc_html_begin(FILE *fp, const char *title);

/* </main>, the inline script that makes every tc_html table sortable and
 * filterable, </body></html>. */
void tc_html_end(FILE *fp);

/* <section id="PREFIX-NAME"><hN>HEADING</hN> with N = LEVEL (2..4); HEADING
 * is linked to its own anchor. tc_html_section_end closes it. */
void tc_html_section_begin(FILE *fp, int level, const char *prefix, tc_str name, tc_str heading);
void tc_html_section_end(FILE *fp);

/* One plot and its caption in a box of their own, so a caption is never
 * read as the next plot's: <figure class="plot">, with id
 * tc_html_id(PREFIX, NAME) unless PREFIX is NULL; tc_html_figure_end writes
 * CAPTION (plain text; NULL for none) as its <figcaption> and closes it. */
void tc_html_figure_begin(FILE *fp, const char *prefix, tc_str name);
void tc_html_figure_end(FILE *fp, const char *caption);

/* A table of contents: begin, one item per target (LEVEL 1 top, 2 nested
 * under it), end. Items link to tc_html_id(PREFIX, NAME). */
void tc_html_toc_begin(FILE *fp, const char *heading);
void tc_html_toc_item(FILE *fp, int level, const char *prefix, tc_str name, tc_str label);
void tc_html_toc_end(FILE *fp);

/* A sortable, filterable table.
 *
 * Above it: a text box that keeps the rows whose text contains what is
 * typed (case-insensitive), one drop-down per column marked `select` that
 * keeps the rows holding the chosen value (a tag cell matches any of its
 * tags), and a live "k of N rows" count. Clicking a header sorts by that
 * column: text case-insensitively, numbers by their raw value (data-v);
 * numbers start largest first, text A to Z, a second click reverses; ties
 * keep the written order and n/a cells stay last either way. A "columns"
 * menu hides and shows columns. Without the script the table is plain,
 * every column shown. */
typedef enum { TC_HTML_TEXT, TC_HTML_NUM } tc_html_kind;

typedef struct {
  const char *label; /* header text */
  const char *unit;  /* shown under the label ("ms", "count"); NULL for none */
  const char *help;  /* header tooltip; NULL for none */
  tc_html_kind kind;
  int select; /* offer a drop-down filter of this column's values */
} tc_html_col;

/* ID names the table (unique in the page, [A-Za-z0-9-] only); CAPTION is
 * its visible caption; COLS is read now, not kept. */
void tc_html_table_begin(FILE *fp, const char *id, const char *caption, const tc_html_col *cols,
                         size_t ncols);
void tc_html_table_end(FILE *fp);

void tc_html_row_begin(FILE *fp);
void tc_html_row_end(FILE *fp);

/* One cell each; a row takes exactly one per column, in column order. */
void tc_html_cell_text(FILE *fp, tc_str s);
/* TEXT linking to the section tc_html_id(PREFIX, NAME). */
void tc_html_cell_link(FILE *fp, tc_str text, const char *prefix, tc_str name);
/* Integers shown with thousands separators ("58,996"), sorted by value. */
void tc_html_cell_int(FILE *fp, int64_t v);
/* A real shown with DECIMALS decimals, sorted by its exact value. A value
 * that is not finite writes an n/a cell: a number that is not there is
 * never shown as one. */
void tc_html_cell_num(FILE *fp, double v, int decimals);
/* "n/a" with REASON as its tooltip; sorts after every number. */
void tc_html_cell_na(FILE *fp, const char *reason);
/* The same showing TEXT instead of "n/a" ("not comparable"). */
void tc_html_cell_na_text(FILE *fp, const char *text, const char *reason);
/* A list of tags (e.g. an event's categories); the column's drop-down
 * offers each tag. */
void tc_html_cell_tags(FILE *fp, const tc_str *tags, size_t n);

#endif
