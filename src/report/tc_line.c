#include "report/tc_line.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/tc_numfmt.h"

void tc_line_init(tc_line *l, char *buf, size_t cap) { *l = (tc_line){buf, cap, 0, 0}; }

size_t tc_line_end(tc_line *l) {
  if (l->cap)
    l->buf[l->len < l->cap ? l->len : l->cap - 1] = '\0';
  return l->len;
}

void tc_line_put(tc_line *l, const char *s, size_t n) {
  if (l->len + 1 < l->cap) {
    size_t room = l->cap - 1 - l->len;
    memcpy(l->buf + l->len, s, n < room ? n : room);
  }
  l->len += n;
}

void tc_line_puts(tc_line *l, const char *s) { tc_line_put(l, s, strlen(s)); }

void tc_line_printf(tc_line *l, const char *fmt, ...) {
  char tmp[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0)
    tc_line_put(l, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void tc_line_part(tc_line *l, const char *sep) {
  if (l->parts++)
    tc_line_puts(l, sep);
}

void tc_line_u64(tc_line *l, uint64_t v) {
  char d[TC_NUMFMT_MAX];
  tc_line_put(l, d, tc_numfmt_u64(v, d));
}

/* The N digits at D grouped by three: the one place separators are put. */
static void grouped(tc_line *l, const char *d, size_t n) {
  size_t head = n % 3 ? n % 3 : 3;
  tc_line_put(l, d, head < n ? head : n);
  for (size_t i = head; i < n; i += 3) {
    tc_line_put(l, ",", 1);
    tc_line_put(l, d + i, 3);
  }
}

void tc_line_thousands(tc_line *l, uint64_t v) {
  char d[TC_NUMFMT_MAX];
  grouped(l, d, tc_numfmt_u64(v, d));
}

void tc_line_fixed(tc_line *l, double v, int decimals) {
  int d = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
  if (!isfinite(v)) { /* outside the contract; what printf's %f of a clamp wrote */
    tc_line_puts(l, v < 0 ? "-0" : "0");
    return;
  }
  char raw[TC_NUMFMT_FIXED_MAX]; /* room for DBL_MAX's 309 digits and 9 decimals */
  size_t len = tc_numfmt_fixed(fabs(v), d, raw); /* printf's %.*f */
  size_t ilen = 0;
  while (ilen < len && raw[ilen] != '.')
    ilen++;
  int zero = 1;
  for (size_t i = 0; i < len; i++)
    zero &= raw[i] == '0' || raw[i] == '.';
  if (v < 0 && !zero)
    tc_line_put(l, "-", 1);
  grouped(l, raw, ilen);
  tc_line_put(l, raw + ilen, len - ilen);
}

void tc_line_share(tc_line *l, uint64_t count, uint64_t n) {
  unsigned __int128 c = count, t = n;
  if (c * 100 < t) {
    tc_line_puts(l, "< 1 %");
  } else if (c < t && c * 100 > t * 99) {
    tc_line_puts(l, "> 99 %");
  } else {
    tc_line_u64(l, (uint64_t)((c * 200 + t) / (t * 2)));
    tc_line_puts(l, " %");
  }
}

void tc_fmt_thousands(uint64_t v, char *buf, size_t cap) {
  tc_line l;
  tc_line_init(&l, buf, cap);
  tc_line_thousands(&l, v);
  tc_line_end(&l);
}
