/* Text copied from traces and manifests (event and site names, categories,
 * paths, URLs, errors) as every table writes it, one rule for all:
 *   - bytes go out as UTF-8, each byte that is not part of a valid sequence
 *     as U+FFFD, the way tc_jsonw writes the JSON outputs, so a name has one
 *     spelling in every report;
 *   - a CSV cell follows RFC 4180: quoted (always, or only when it holds a
 *     comma, a quote, CR or LF), each inner quote doubled. */
#ifndef TC_TEXT_H
#define TC_TEXT_H

#include "report/tc_wbuf.h"
#include "util/tc_str.h"

/* S as UTF-8 (Markdown, an unquoted cell). */
void tc_text_put(tc_wbuf *b, tc_str s);

/* The inside of a quoted CSV cell: S as UTF-8, quotes doubled. */
void tc_text_csv_body(tc_wbuf *b, tc_str s);

typedef enum {
  TC_CSV_QUOTE_ALWAYS,    /* census.csv's text columns */
  TC_CSV_QUOTE_IF_NEEDED, /* metrics.csv: only a cell with , " CR or LF */
} tc_csv_quote;

/* One CSV text cell. */
void tc_text_csv_cell(tc_wbuf *b, tc_str s, tc_csv_quote q);

#endif
