/* Scales and ticks. A step is kept as mantissa (1, 2 or 5) and power of
 * ten so a tick's value is an integer times a power of ten computed in one
 * rounding, and its label has exactly the step's decimals: 0.3 prints as
 * "0.3" however 3 * 0.1 rounds. The 1e-9 slack in floor/ceil keeps a value
 * that sits on a tick (up to rounding) on it. */
#include <math.h>
#include <stdio.h>

#include "report/tc_html.h"
#include "report/tc_svg_draw.h"

#define TC_EPS 1e-9

typedef struct {
  int m; /* 1, 2 or 5 */
  int e; /* power of ten */
} step125;

static step125 step_of(double x) {
  int e = (int)floor(log10(x));
  double r = x / pow(10, e);
  step125 s = {1, e};
  if (r >= sqrt(50.0)) {
    s.m = 1;
    s.e = e + 1;
  } else if (r >= sqrt(10.0)) {
    s.m = 5;
  } else if (r >= sqrt(2.0)) {
    s.m = 2;
  }
  return s;
}

static step125 step_next(step125 s) {
  if (s.m == 1)
    s.m = 2;
  else if (s.m == 2)
    s.m = 5;
  else {
    s.m = 1;
    s.e++;
  }
  return s;
}

/* I times the step, in one rounding. */
static double step_times(step125 s, double i) {
  return s.e >= 0 ? i * s.m * pow(10, s.e) : i * s.m / pow(10, -s.e);
}

static double step_value(step125 s) { return step_times(s, 1); }

double tc_svg_nice(double x) { return step_value(step_of(x)); }

double tc_svg_at(const tc_svg_scale *s, double v) {
  double a = s->d0, b = s->d1;
  if (s->log) {
    v = log10(v);
    a = log10(a);
    b = log10(b);
  }
  return s->r0 + (v - a) / (b - a) * (s->r1 - s->r0);
}

void tc_svg_nice_domain(double *lo, double *hi, int log) {
  if (log) {
    double a = pow(10, floor(log10(*lo) + TC_EPS)), b = pow(10, ceil(log10(*hi) - TC_EPS));
    *lo = a;
    *hi = b > a ? b : a * 10;
    return;
  }
  if (*hi <= *lo) {
    double pad = *lo == 0 ? 1 : fabs(*lo) / 2;
    *lo -= pad;
    *hi += pad;
  }
  step125 s = step_of((*hi - *lo) / 5);
  double st = step_value(s);
  *lo = step_times(s, floor(*lo / st + TC_EPS));
  *hi = step_times(s, ceil(*hi / st - TC_EPS));
}

/* "20k": the k/M/G suffix for values up to AMAX, and its divisor. */
static const char *suffix_for(double amax, double *div) {
  static const struct {
    double at;
    const char *sfx;
  } sfx[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++)
    if (amax >= sfx[i].at) {
      *div = sfx[i].at;
      return sfx[i].sfx;
    }
  *div = 1;
  return "";
}

static void tick_label(tc_svg_tick *t, double v, int decimals, double div, const char *sfx) {
  char num[24];
  if (v == 0) { /* "0", not "0k" or "0.0" */
    snprintf(t->label, sizeof t->label, "0");
    return;
  }
  tc_html_fmt_num(v / div, decimals, num, sizeof num);
  snprintf(t->label, sizeof t->label, "%s%s", num, sfx);
}

static size_t lin_ticks(double lo, double hi, double min_step, tc_svg_tick *out, size_t max) {
  step125 s = step_of(hi > lo ? (hi - lo) / 5 : (lo ? fabs(lo) : 1));
  while (step_value(s) < min_step)
    s = step_next(s);
  double i0, i1;
  for (;;) {
    double st = step_value(s);
    i0 = ceil(lo / st - TC_EPS);
    i1 = floor(hi / st + TC_EPS);
    if (i1 - i0 + 1 <= (double)max)
      break;
    s = step_next(s);
  }
  double amax = fmax(fabs(lo), fabs(hi)), div = 1;
  const char *sfx = amax >= 1e4 ? suffix_for(amax, &div) : "";
  /* The step's decimals once divided by the suffix's power of ten. */
  int decimals = -s.e + (int)lround(log10(div));
  if (decimals < 0)
    decimals = 0;
  size_t n = 0;
  for (double i = i0; i <= i1 && n < max; i++, n++) {
    out[n].value = step_times(s, i);
    tick_label(&out[n], out[n].value, decimals, div, sfx);
  }
  return n;
}

static size_t log_ticks(double lo, double hi, tc_svg_tick *out, size_t max) {
  static const int all[] = {1, 2, 5}, ones[] = {1};
  int k0 = (int)floor(log10(lo) + TC_EPS), k1 = (int)floor(log10(hi) + TC_EPS);
  int few = log10(hi / lo) < 3;
  const int *mult = few ? all : ones;
  int nm = few ? 3 : 1;
  int stride = 1;
  while ((size_t)((k1 - k0) / stride + 1) * (size_t)nm > max)
    stride++;
  size_t n = 0;
  for (int k = k0; k <= k1; k += stride)
    for (int j = 0; j < nm && n < max; j++) {
      double v = k >= 0 ? mult[j] * pow(10, k) : mult[j] / pow(10, -k);
      if (v < lo * (1 - TC_EPS) || v > hi * (1 + TC_EPS))
        continue;
      double div;
      const char *sfx = suffix_for(v, &div);
      out[n].value = v;
      tick_label(&out[n], v, k < 0 ? -k : 0, div, sfx);
      n++;
    }
  return n;
}

size_t tc_svg_ticks_min(double lo, double hi, int log, double min_step, tc_svg_tick *out,
                        size_t max) {
  if (!max || !tc_svg_ok(lo) || !tc_svg_ok(hi) || hi < lo || (log && lo <= 0))
    return 0;
  return log ? log_ticks(lo, hi, out, max) : lin_ticks(lo, hi, min_step, out, max);
}

size_t tc_svg_ticks(double lo, double hi, int log, tc_svg_tick *out, size_t max) {
  return tc_svg_ticks_min(lo, hi, log, 0, out, max);
}
