/* The values behind a distribution plot, and how one is printed for a
 * reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_svg_draw.h"

void tc_svg_value(double v, const char *unit, char *buf, size_t cap) {
  char num[64];
  if (!tc_svg_ok(v)) {
    snprintf(num, sizeof num, "n/a");
  } else if (v == floor(v) && fabs(v) < 1e15) {
    tc_html_fmt_num(v, 0, num, sizeof num);
  } else {
    int d = 2 - (int)floor(log10(fabs(v)));
    tc_html_fmt_num(v, d < 0 ? 0 : d > 9 ? 9 : d, num, sizeof num);
    /* Three significant digits, not three decimals: "4.5", not "4.50". */
    if (strchr(num, '.')) {
      size_t n = strlen(num);
      while (num[n - 1] == '0')
        num[--n] = '\0';
      if (num[n - 1] == '.')
        num[--n] = '\0';
    }
  }
  /* "NUM UNIT", cut to CAP like snprintf: a heat map writes one per cell. */
  size_t n = strlen(num), u = unit && *unit ? strlen(unit) : 0;
  if (!cap)
    return;
  size_t at = n < cap - 1 ? n : cap - 1;
  memcpy(buf, num, at);
  if (u && at + 1 < cap) {
    buf[at++] = ' ';
    size_t k = u < cap - 1 - at ? u : cap - 1 - at;
    memcpy(buf + at, unit, k);
    at += k;
  }
  buf[at] = '\0';
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double *tc_svg_sorted(const double *values, size_t n, size_t *kept) {
  double *v = malloc((n ? n : 1) * sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (tc_svg_ok(values[i]))
      v[k++] = values[i] == 0 ? 0.0 : values[i]; /* -0 sorts and prints as 0 */
  qsort(v, k, sizeof *v, cmp_double);
  *kept = k;
  return v;
}

size_t tc_svg_rank(double q, size_t k) {
  size_t r = (size_t)ceil(q * (double)k);
  return r ? r - 1 : 0;
}

void tc_svg_n_line(char *buf, size_t cap, uint64_t n, const char *unit, size_t dropped,
                   size_t below, const char *where) {
  int o =
      snprintf(buf, cap, "n = %llu%s%s", (unsigned long long)n, unit ? " " : "", unit ? unit : "");
  if (dropped && o > 0 && (size_t)o < cap)
    o += snprintf(buf + o, cap - (size_t)o, " \u00b7 %zu n/a, left out", dropped);
  if (below && o > 0 && (size_t)o < cap)
    snprintf(buf + o, cap - (size_t)o, " \u00b7 %zu \u2264 0, %s", below, where);
}

int tc_svg_log_split(const double *v, size_t k, int want_log, size_t *below) {
  size_t n = 0;
  while (want_log && n < k && v[n] <= 0)
    n++;
  int log = want_log && n < k;
  *below = log ? n : 0;
  return log;
}
