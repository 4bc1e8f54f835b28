/* A bounded line of report text: the one builder every human-readable
 * writer formats its sentences, profiles and numbers with, so numbers look
 * the same in census.md, metrics.md, report.html and the CSV's profile
 * column (thousands separators, shares as percents, never an exponent).
 *
 * The line writes into the caller's buffer and never past it; `len` keeps
 * counting what the whole line needs, as snprintf does, so a caller can
 * tell that it was cut. */
#ifndef TC_LINE_H
#define TC_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *buf;  /* the caller's */
  size_t cap; /* bytes of buf, the NUL included */
  size_t len; /* bytes the whole line needs, without the NUL */
  int parts;  /* parts begun with tc_line_part */
} tc_line;

/* An empty line over BUF (CAP bytes; CAP may be 0). */
void tc_line_init(tc_line *l, char *buf, size_t cap);

/* NUL-terminates what fits and returns the length the whole line needs. */
size_t tc_line_end(tc_line *l);

void tc_line_put(tc_line *l, const char *s, size_t n);
void tc_line_puts(tc_line *l, const char *s);
/* At most 63 bytes of formatted text. */
void tc_line_printf(tc_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* SEP before every part but the first. */
void tc_line_part(tc_line *l, const char *sep);

void tc_line_u64(tc_line *l, uint64_t v);        /* 1234567 */
void tc_line_thousands(tc_line *l, uint64_t v);  /* 1,234,567 */
/* V with DECIMALS decimals (0 to 9) and thousands separators, never an
 * exponent: "-1,234.50". An integral V below 1e21 in magnitude with 0
 * decimals prints every digit. */
void tc_line_fixed(tc_line *l, double v, int decimals);
/* COUNT of N as a whole percent: "12 %", and "< 1 %" and "> 99 %" at the
 * ends, so a share is never shown as 0 % or 100 % when it is not. */
void tc_line_share(tc_line *l, uint64_t count, uint64_t n);

/* V grouped by three into BUF (CAP bytes, NUL included): "1,234,567". */
void tc_fmt_thousands(uint64_t v, char *buf, size_t cap);

#endif
