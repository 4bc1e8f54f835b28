/* The SVG plots, read back out of their markup: ticks and their labels,
 * histogram bins (count, tooltips, heights) under each bin rule, the
 * ECDF's steps and its last step at exactly 1, quantile marks, timeline
 * marks and gaps, heat map cells and colours, the n line of every plot,
 * n/a plots, escaping, and no NaN or inf in any number whatever the input.
 * Expected figures are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_svg.h"
#include "report/tc_svg_draw.h"
#include "svg_probe.h"

typedef enum { HIST, ECDF } dist_kind;

/* The text a writer that returned E put into K, checked for NaN and inf. */
static char *taken(probe_sink *k, tc_err e) {
  assert_int_equal(e, TC_OK);
  char *svg = probe_take(k);
  assert_null(probe_bad_number(svg));
  return svg;
}

static char *dist(dist_kind kind, const tc_svg_plot *p, const double *v, size_t n) {
  probe_sink k;
  probe_open(&k);
  return taken(&k, kind == HIST ? tc_svg_histogram(k.fp, p, v, n)
                                : tc_svg_ecdf(k.fp, p, v, n, NULL, 0));
}

/* Every bar's tooltip and height, in order; returns the number of bars. */
static size_t bars(const char *svg, char tips[][160], double *heights, size_t max) {
  size_t n = 0;
  for (const char *b = strstr(svg, "<rect class=\"bar\""); b;
       b = strstr(b + 1, "<rect class=\"bar\"")) {
    assert_true(n < max);
    assert_true(probe_title(b, tips[n], sizeof tips[n]));
    heights[n] = probe_attr_num(b, "height");
    n++;
  }
  return n;
}

static void labels(double lo, double hi, int log, size_t max, const char *const *want) {
  tc_svg_tick t[32];
  size_t n = tc_svg_ticks(lo, hi, log, t, max);
  size_t i = 0;
  for (; want[i]; i++) {
    assert_true(i < n);
    assert_string_equal(t[i].label, want[i]);
  }
  assert_int_equal(n, i);
}

static void test_nice(void **state) {
  (void)state;
  /* Thresholds sqrt(2) = 1.414, sqrt(10) = 3.162, sqrt(50) = 7.071. */
  assert_true(tc_svg_nice(1.41) == 1);
  assert_true(tc_svg_nice(1.42) == 2);
  assert_true(tc_svg_nice(3.1) == 2);
  assert_true(tc_svg_nice(3.2) == 5);
  assert_true(tc_svg_nice(7.0) == 5);
  assert_true(tc_svg_nice(7.1) == 10);
  assert_true(tc_svg_nice(21.54) == 20);
  assert_true(tc_svg_nice(0.23) == 0.2);
  assert_true(tc_svg_nice(0.0004) == 0.0005);
}

static void test_ticks_linear(void **state) {
  (void)state;
  labels(0, 100, 0, 16, (const char *const[]){"0", "20", "40", "60", "80", "100", NULL});
  /* 97 / 5 = 19.4 -> step 20; 100 is past the range. */
  labels(0, 97, 0, 16, (const char *const[]){"0", "20", "40", "60", "80", NULL});
  labels(0, 1, 0, 16, (const char *const[]){"0", "0.2", "0.4", "0.6", "0.8", "1.0", NULL});
  /* 0.2 / 5 = 0.04 -> 0.05: two decimals for every label. */
  labels(0.1, 0.3, 0, 16, (const char *const[]){"0.10", "0.15", "0.20", "0.25", "0.30", NULL});
  labels(-5, 15, 0, 16, (const char *const[]){"-5", "0", "5", "10", "15", NULL});
  /* 35000 / 5 = 7000 -> 5000 (7 < 7.07); k from 10,000 up. */
  labels(0, 35000, 0, 16,
         (const char *const[]){"0", "5k", "10k", "15k", "20k", "25k", "30k", "35k", NULL});
  /* 2,000,000 / 5 -> 500k steps, shown in M with one decimal. */
  labels(0, 2e6, 0, 16, (const char *const[]){"0", "0.5M", "1.0M", "1.5M", "2.0M", NULL});
  /* 8000 / 5 = 1600 -> 2000; below 10,000 no suffix but separators. */
  labels(1000, 9000, 0, 16, (const char *const[]){"2,000", "4,000", "6,000", "8,000", NULL});
  /* At most 3 ticks: the step widens from 20 to 50. */
  labels(0, 100, 0, 3, (const char *const[]){"0", "50", "100", NULL});
}

static void test_ticks_log(void **state) {
  (void)state;
  /* Three decades or more: powers of ten only. */
  labels(1, 1000, 1, 16, (const char *const[]){"1", "10", "100", "1k", NULL});
  labels(1, 100, 1, 16, (const char *const[]){"1", "2", "5", "10", "20", "50", "100", NULL});
  labels(0.001, 0.01, 1, 16, (const char *const[]){"0.001", "0.002", "0.005", "0.01", NULL});
  labels(1, 1e8, 1, 16,
         (const char *const[]){"1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", NULL});
  /* At most 5: every second decade. */
  labels(1, 1e8, 1, 5, (const char *const[]){"1", "100", "10k", "1M", "100M", NULL});
}

static void test_ticks_refused(void **state) {
  (void)state;
  tc_svg_tick t[4];
  assert_int_equal(tc_svg_ticks(2, 1, 0, t, 4), 0);
  assert_int_equal(tc_svg_ticks(NAN, 1, 0, t, 4), 0);
  assert_int_equal(tc_svg_ticks(0, INFINITY, 0, t, 4), 0);
  assert_int_equal(tc_svg_ticks(0, 10, 1, t, 4), 0);
  assert_int_equal(tc_svg_ticks(0, 10, 0, t, 0), 0);
}

/* 1..100: quartiles (nearest rank 25 and 75) 25 and 75, IQR 50, width
 * 2 * 50 / 100^(1/3) = 21.54 -> 20; bins [0,20) .. [100,120): 19, 20, 20,
 * 20, 20, 1. */
static void test_hist_freedman_diaconis(void **state) {
  (void)state;
  double v[100];
  for (int i = 0; i < 100; i++)
    v[i] = i + 1;
  tc_svg_plot p = {.title = "TBT", .x_label = "TBT", .x_unit = "ms", .n_unit = "sites"};
  char *svg = dist(HIST, &p, v, 100);
  char tips[16][160];
  double h[16];
  assert_int_equal(bars(svg, tips, h, 16), 6);
  static const char *const want[] = {
      "[0, 20) ms: 19 of 100 sites",   "[20, 40) ms: 20 of 100 sites",
      "[40, 60) ms: 20 of 100 sites",  "[60, 80) ms: 20 of 100 sites",
      "[80, 100) ms: 20 of 100 sites", "[100, 120) ms: 1 of 100 sites"};
  for (int i = 0; i < 6; i++)
    assert_string_equal(tips[i], want[i]);
  /* Heights are proportional to counts (coordinates have 0.1 px). */
  assert_true(fabs(h[0] / h[1] - 19.0 / 20) < 0.002);
  assert_true(fabs(h[5] / h[1] - 1.0 / 20) < 0.002);
  assert_non_null(strstr(svg, "n = 100 sites"));
  assert_non_null(strstr(svg, "w = 20 ms: Freedman"));
  assert_true(probe_yticks_are(svg, (const char *const[]){"0", "5", "10", "15", "20", NULL}));
  assert_true(probe_xticks_are(
      svg, (const char *const[]){"0", "20", "40", "60", "80", "100", "120", NULL}));
  assert_non_null(strstr(svg, "TBT (ms)"));
  free(svg);
}

/* Ten 5s between 1 and 9: quartiles both 5, so Sturges: range 8 /
 * (ceil(log2 12) + 1 = 5) = 1.6 -> 2; bins [0,2) .. [8,10): 1, 0, 10, 0, 1.
 * Empty bins are bars of height 0. */
static void test_hist_sturges(void **state) {
  (void)state;
  double v[12] = {1, 9};
  for (int i = 2; i < 12; i++)
    v[i] = 5;
  tc_svg_plot p = {.title = "t", .n_unit = "sites"};
  char *svg = dist(HIST, &p, v, 12);
  char tips[16][160];
  double h[16];
  assert_int_equal(bars(svg, tips, h, 16), 5);
  assert_string_equal(tips[0], "[0, 2): 1 of 12 sites");
  assert_string_equal(tips[2], "[4, 6): 10 of 12 sites");
  assert_true(h[1] == 0 && h[3] == 0);
  assert_non_null(strstr(svg, "Sturges"));
  free(svg);
}

/* One value three times: one bin of width |7| / 10 = 0.7 -> 0.5. */
static void test_hist_one_value(void **state) {
  (void)state;
  double v[3] = {7, 7, 7};
  tc_svg_plot p = {.title = "t", .n_unit = "sites"};
  char *svg = dist(HIST, &p, v, 3);
  char tips[4][160];
  double h[4];
  assert_int_equal(bars(svg, tips, h, 4), 1);
  assert_string_equal(tips[0], "[7, 7.5): 3 of 3 sites");
  assert_non_null(strstr(svg, "every value is equal"));
  free(svg);
}

/* Log axis: the three zeros get their own bar; log10 of the rest is
 * 0, 1, 2, 3, IQR (ranks 1 and 3) 2, width 4 / 4^(1/3) = 2.52 -> 2
 * decades: [1, 100) holds 1 and 10, [100, 10000) holds 100 and 1000. */
static void test_hist_log_with_zeros(void **state) {
  (void)state;
  double v[7] = {1000, 0, 10, 0, 100, 1, 0};
  tc_svg_plot p = {.title = "TBT", .x_unit = "ms", .n_unit = "sites", .x_log = 1};
  char *svg = dist(HIST, &p, v, 7);
  char tips[8][160];
  double h[8];
  assert_int_equal(bars(svg, tips, h, 8), 3);
  assert_string_equal(tips[0], "0 ms: 3 of 7 sites");
  assert_string_equal(tips[1], "[1, 100) ms: 2 of 7 sites");
  assert_string_equal(tips[2], "[100, 10,000) ms: 2 of 7 sites");
  assert_non_null(strstr(svg, "n = 7 sites \u00b7 3 \u2264 0, bar at left"));
  assert_non_null(strstr(svg, "w = 2 decades"));
  /* The summary is of the values, not of their logarithms. */
  assert_non_null(strstr(svg, "min 0 ms, max 1,000 ms"));
  free(svg);
}

/* A long tail flattens linear bins into one bar: with no value below 0 the
 * bins go log; with some, the axis is clipped at the far-out fence and the
 * outlier counted in an open last bar. */
static void test_hist_skewed(void **state) {
  (void)state;
  double v[31];
  for (int i = 0; i < 30; i++)
    v[i] = 1 + i % 10;
  v[30] = 10000;
  tc_svg_plot p = {.title = "heap", .x_unit = "MB", .n_unit = "sites"};
  char *svg = dist(HIST, &p, v, 31);
  assert_non_null(strstr(svg, "skewed, so on a log axis"));
  free(svg);
  for (int i = 0; i < 30; i++)
    v[i] = i % 10 - 5;
  svg = dist(HIST, &p, v, 31);
  assert_non_null(strstr(svg, "axis clipped at Q3 + 3\u00b7IQR: 1 outlier \u2265 "));
  assert_non_null(strstr(svg, "(max 10,000 MB) in the last bar"));
  char tips[64][160];
  double h[64];
  size_t n = bars(svg, tips, h, 64);
  assert_true(n > 3 && n <= 61);
  assert_non_null(strstr(tips[n - 1], ": 1 of 31 sites"));
  assert_true(strncmp(tips[n - 1], "\u2265 ", 4) == 0);
  free(svg);
}

static void test_hist_binned(void **state) {
  (void)state;
  const double edges[] = {0, 16.7, 33.3, 50, INFINITY};
  const uint64_t counts[] = {5, 3, 1, 2};
  tc_svg_plot p = {
      .title = "Frames", .x_unit = "ms", .n_unit = "intervals", .note = "binned by the kernels"};
  probe_sink s;
  probe_open(&s);
  char *svg = taken(&s, tc_svg_histogram_binned(s.fp, &p, edges, counts, 4));
  char tips[8][160];
  double h[8];
  assert_int_equal(bars(svg, tips, h, 8), 4);
  assert_string_equal(tips[0], "[0, 16.7) ms: 5 of 11 intervals");
  assert_string_equal(tips[3], "\u2265 50 ms: 2 of 11 intervals");
  assert_non_null(strstr(svg, "n = 11 intervals"));
  assert_non_null(strstr(svg, "binned by the kernels"));
  free(svg);

  const double bad[] = {0, 10, 5};
  probe_open(&s);
  svg = taken(&s, tc_svg_histogram_binned(s.fp, &p, bad, counts, 2));
  assert_int_equal(probe_count(svg, "class=\"bar\""), 0);
  assert_non_null(strstr(svg, "n/a: bin edges are not increasing numbers"));
  free(svg);

  tc_svg_plot lp = p;
  lp.x_log = 1;
  probe_open(&s);
  svg = taken(&s, tc_svg_histogram_binned(s.fp, &lp, edges, counts, 4));
  assert_non_null(strstr(svg, "n/a: a log axis needs bin edges above 0"));
  free(svg);
}

/* Parses an ECDF path "M x y H x V y ... H x" into its vertical steps. */
static size_t steps(const char *svg, double *ys, size_t max, double *first_y) {
  const char *p = strstr(svg, "class=\"ecdf\"");
  assert_non_null(p);
  char d[4096];
  assert_true(probe_attr(p - 6, "d", d, sizeof d));
  char *c = d;
  assert_true(*c == 'M');
  strtod(c + 1, &c);
  *first_y = strtod(c, &c);
  size_t n = 0;
  while (*c) {
    char cmd = *c++;
    double v = strtod(c, &c);
    if (cmd == 'V') {
      assert_true(n < max);
      ys[n++] = v;
    } else {
      assert_true(cmd == 'H');
    }
  }
  return n;
}

/* {3, 1, 2, 2, 5}: F steps to 0.2 at 1, 0.6 at 2 (two values), 0.8 at 3,
 * 1 at 5. The marks are the caller's: p50 at 2, p90 n/a. */
static void test_ecdf_steps(void **state) {
  (void)state;
  double v[5] = {3, 1, 2, 2, 5};
  tc_svg_plot p = {.title = "Busy", .x_unit = "%", .n_unit = "sites"};
  tc_svg_mark m[2] = {{"p50", 2, "2.0 %", "p50 tip"},
                      {"p90", NAN, "n/a (too_few_samples)", "p90 why"}};
  probe_sink k;
  probe_open(&k);
  char *svg = taken(&k, tc_svg_ecdf(k.fp, &p, v, 5, m, 2));
  double ys[8], y_first;
  assert_int_equal(steps(svg, ys, 8, &y_first), 4);
  double y0 = probe_ytick(svg, "0"), y1 = probe_ytick(svg, "1.0");
  assert_false(isnan(y0) || isnan(y1));
  assert_true(y_first == y0);
  assert_true(ys[3] == y1); /* ends at exactly 1 */
  static const double F[] = {0.2, 0.6, 0.8, 1.0};
  for (int i = 0; i < 4; i++)
    assert_true(fabs(ys[i] - (y0 + F[i] * (y1 - y0))) <= 0.05);
  assert_non_null(strstr(svg, "<title>p50 tip</title>"));
  assert_non_null(strstr(svg, "<title>p90 why</title>"));
  assert_non_null(strstr(svg, "n = 5 sites"));
  assert_non_null(strstr(svg, "p50 2.0 %, p90 n/a (too_few_samples)"));
  /* Labels sit above the plot area (the curve's top is y1 of F = 1), the
   * n/a one without a line. */
  const char *l50 = strstr(svg, ">p50 2.0 %</text>"),
             *l90 = strstr(svg, ">p90 n/a (too_few_samples)</text>");
  assert_non_null(l50);
  assert_non_null(l90);
  double ly;
  const char *t = l50;
  while (t > svg && strncmp(t, "<text", 5))
    t--;
  char buf[32];
  assert_true(probe_attr(t, "y", buf, sizeof buf));
  ly = strtod(buf, NULL);
  assert_true(ly < y1);
  assert_int_equal(probe_count(svg, "stroke-dasharray"), 1);
  free(svg);
}

static void test_ecdf_not_finite_left_out(void **state) {
  (void)state;
  double v[6] = {1, NAN, INFINITY, -INFINITY, 2, 1e305};
  tc_svg_plot p = {.title = "t", .n_unit = "sites"};
  char *svg = dist(ECDF, &p, v, 6);
  assert_non_null(strstr(svg, "n = 2 sites \u00b7 4 n/a, left out"));
  double ys[8], y_first;
  assert_int_equal(steps(svg, ys, 8, &y_first), 2);
  free(svg);
}

/* On a log axis the two zeros are the step's height at the left edge. */
static void test_ecdf_log_zeros(void **state) {
  (void)state;
  double v[4] = {0, 100, 0, 10};
  tc_svg_plot p = {.title = "t", .n_unit = "sites", .x_log = 1};
  char *svg = dist(ECDF, &p, v, 4);
  double ys[8], y_first;
  assert_int_equal(steps(svg, ys, 8, &y_first), 2);
  double y0 = probe_ytick(svg, "0"), y1 = probe_ytick(svg, "1.0");
  assert_true(fabs(y_first - (y0 + 0.5 * (y1 - y0))) <= 0.05);
  assert_true(ys[1] == y1);
  assert_non_null(strstr(svg, "2 \u2264 0, step at left"));
  assert_true(probe_xticks_are(svg, (const char *const[]){"10", "20", "50", "100", NULL}));
  free(svg);
}

/* Nothing to plot: an n/a plot with its reason and n = 0, never an axis. */
static void test_nothing_to_plot(void **state) {
  (void)state;
  double v[2] = {NAN, NAN};
  tc_svg_plot p = {.title = "Lag", .n_unit = "sites", .na_reason = "no input events"};
  for (int k = 0; k < 2; k++) {
    char *svg = dist(k ? ECDF : HIST, &p, v, 2);
    assert_non_null(strstr(svg, "n/a: no input events"));
    assert_non_null(strstr(svg, "n = 0 sites \u00b7 2 n/a, left out"));
    assert_null(strstr(svg, "class=\"axis\""));
    free(svg);
  }
  char *svg = dist(HIST, &p, NULL, 0);
  assert_non_null(strstr(svg, "n/a: no input events"));
  free(svg);
}

static char *timeline(const tc_svg_plot *p, const tc_svg_series *s) {
  probe_sink k;
  probe_open(&k);
  return taken(&k, tc_svg_timeline(k.fp, p, s));
}

static void test_timeline(void **state) {
  (void)state;
  const double v[10] = {0, 50, 100, NAN, NAN, 20, 30, 40, 50, 60};
  const tc_svg_span marks[3] = {{200, 60}, {700, 120}, {5000, 10}};
  tc_svg_plot p = {.title = "a.example", .y_label = "busy", .y_unit = "%"};
  tc_svg_series s = {v, 10, 100, 0, 100, marks, 3, "long task", "page hidden"};
  char *svg = timeline(&p, &s);
  assert_non_null(strstr(svg, "n = 8 buckets of 100 ms \u00b7 2 discarded \u00b7 2 long tasks "
                              "(1 outside the series, not drawn)"));
  assert_int_equal(probe_count(svg, "class=\"mark\""), 2);
  assert_non_null(strstr(svg, "<title>long task at 200 ms: 60 ms</title>"));
  assert_non_null(strstr(svg, "<title>long task at 700 ms: 120 ms</title>"));
  assert_int_equal(probe_count(svg, "class=\"gap\""), 1);
  assert_non_null(strstr(svg, "<title>2 buckets discarded (200 ms): page hidden</title>"));
  /* Two runs of kept buckets, two closed areas. */
  const char *path = strstr(svg, "class=\"series\"");
  char d[4096];
  assert_true(probe_attr(path - 6, "d", d, sizeof d));
  assert_int_equal(probe_count(d, "Z"), 2);
  /* A step per bucket (no two neighbours are equal), one more per run. */
  assert_int_equal(probe_count(d, "V"), 8 + 2);
  assert_non_null(strstr(svg, "time (ms)"));
  assert_true(
      probe_yticks_are(svg, (const char *const[]){"0", "20", "40", "60", "80", "100", NULL}));
  /* The first band's left edge is the 200 ms tick. */
  const char *m = strstr(svg, "class=\"mark\"");
  const char *band = strstr(m, "<rect");
  assert_true(fabs(probe_attr_num(band, "x") - probe_xtick(svg, "200")) <= 0.05);
  free(svg);
}

/* Equal neighbours are one step: 100 x 3, 0 x 2, 50 is three steps, and
 * the first ends at 300 ms. */
static void test_timeline_equal_buckets(void **state) {
  (void)state;
  const double v[6] = {100, 100, 100, 0, 0, 50};
  tc_svg_plot p = {.title = "t", .y_unit = "%"};
  tc_svg_series s = {.values = v, .nbuckets = 6, .bucket_ms = 100, .y_max = 100};
  char *svg = timeline(&p, &s);
  char d[1024];
  assert_true(probe_attr(strstr(svg, "class=\"series\"") - 6, "d", d, sizeof d));
  assert_int_equal(probe_count(d, "V"), 3 + 1);
  assert_int_equal(probe_count(d, "H"), 3);
  char want[64];
  snprintf(want, sizeof want, "H%g", probe_xtick(svg, "300"));
  assert_non_null(strstr(d, want));
  free(svg);
}

static void test_timeline_seconds_and_na(void **state) {
  (void)state;
  double v[30];
  for (int i = 0; i < 30; i++)
    v[i] = i;
  tc_svg_plot p = {
      .title = "t", .x_label = "time since start", .y_unit = "%", .na_reason = "no trace"};
  tc_svg_series s = {.values = v, .nbuckets = 30, .bucket_ms = 100, .y_max = 100};
  char *svg = timeline(&p, &s);
  assert_non_null(strstr(svg, "time since start (s)"));
  assert_true(probe_xticks_are(
      svg, (const char *const[]){"0", "0.5", "1.0", "1.5", "2.0", "2.5", "3.0", NULL}));
  free(svg);

  tc_svg_series none = {.bucket_ms = 100};
  svg = timeline(&p, &none);
  assert_non_null(strstr(svg, "n/a: no trace"));
  free(svg);
  for (int i = 0; i < 30; i++)
    v[i] = NAN;
  svg = timeline(&p, &s);
  assert_non_null(strstr(svg, "n/a: every bucket was discarded"));
  free(svg);
  s.bucket_ms = -1;
  svg = timeline(&p, &s);
  assert_non_null(strstr(svg, "n/a: the bucket width is not a positive number"));
  free(svg);
}

static char *heat(const tc_svg_plot *p, const tc_svg_grid *g) {
  probe_sink k;
  probe_open(&k);
  return taken(&k, tc_svg_heatmap(k.fp, p, g));
}

static void test_heatmap(void **state) {
  (void)state;
  const char *rows[3] = {"a.example", "b.example", "c.example"};
  const char *cols[4] = {"ParseHTML", "Paint", "Layout", "a-very-long-event-name-that-is-cut-here"};
  const double cells[12] = {0, 1, 10, 100, NAN, NAN, NAN, NAN, 1000, 5, 0, 50};
  const char *na[3] = {NULL, "no trace", NULL};
  tc_svg_grid g = {3, 4, rows, cols, cells, na, "records", "events", 1};
  tc_svg_plot p = {.title = "Sites x events", .n_unit = "sites"};
  char *svg = heat(&p, &g);
  const char *grid = strstr(svg, "<g class=\"cells\">");
  assert_non_null(grid);
  /* The two 0 cells are one path of two subpaths, drawn where their rects
   * would be (the grid starts at x0, y0; cells are 16 px tall). */
  assert_int_equal(probe_count(grid, "<rect"), 10);
  assert_int_equal(probe_count(grid, "class=\"zero\""), 1);
  const char *zero = strstr(grid, "<path class=\"zero\"");
  assert_non_null(zero);
  const char *d = strstr(zero, " d=\"") + 4, *end = strchr(d, '"');
  size_t subpaths = 0;
  for (const char *q = d; q < end; q++)
    subpaths += *q == 'M';
  assert_int_equal(subpaths, 2);
  assert_non_null(strstr(zero, "<title>0 records (every cell in this shade)</title>"));
  assert_int_equal(probe_count(grid, "class=\"na\""), 4);
  assert_non_null(strstr(grid, "<title>a.example \u00b7 Layout: 10 records</title>"));
  assert_non_null(strstr(grid, "<title>b.example \u00b7 Paint: n/a (no trace)</title>"));
  assert_non_null(strstr(svg, "n = 3 sites \u00d7 4 events \u00b7 n/a cells in 1 of 3 sites"));
  /* Log colour from 1 to 1000: the ends of viridis at the ends. */
  const char *one = strstr(grid, "Paint: 1 records");
  const char *top = strstr(grid, "ParseHTML: 1,000 records");
  assert_non_null(one);
  assert_non_null(top);
  while (strncmp(one, "<rect", 5))
    one--;
  while (strncmp(top, "<rect", 5))
    top--;
  char fill[16];
  assert_true(probe_attr(one, "fill", fill, sizeof fill));
  assert_string_equal(fill, "#440154");
  assert_true(probe_attr(top, "fill", fill, sizeof fill));
  assert_string_equal(fill, "#fde725");
  /* The long column label is cut, and whole in its tooltip. */
  assert_non_null(strstr(svg, "<title>a-very-long-event-name-that-is-cut-here</title>"
                              "a-very-long-event-name-tha\u2026</text>"));
  /* Legend ticks over 1..1000, ending at the largest cell. */
  assert_non_null(strstr(svg, ">10</text>"));
  assert_non_null(strstr(svg, "class=\"lt lmax\" text-anchor=\"end\">1,000</text>"));
  assert_non_null(strstr(svg, "records per cell (log colour)"));
  free(svg);

  const double all_na[2] = {NAN, NAN};
  tc_svg_grid e = {1, 2, rows, cols, all_na, NULL, "records", "events", 0};
  svg = heat(&p, &e);
  assert_non_null(strstr(svg, "n/a: every cell is n/a"));
  free(svg);
}

/* Text from data is escaped everywhere it lands, and repaired. */
static void test_escaping(void **state) {
  (void)state;
  const char *evil = "<b>&\"'\xff\x01";
  const char *escaped = "&lt;b&gt;&amp;&quot;&#39;\xEF\xBF\xBD\xEF\xBF\xBD";
  double v[3] = {1, 2, 3};
  tc_svg_plot p = {.title = evil, .x_label = evil, .x_unit = evil, .n_unit = evil, .note = evil};
  for (int k = 0; k < 2; k++) {
    char *svg = dist(k ? ECDF : HIST, &p, v, 3);
    assert_null(strstr(svg, "<b>"));
    assert_null(strstr(svg, "\xff"));
    assert_true(probe_count(svg, escaped) >= 4);
    free(svg);
  }
  const char *rows[1] = {evil}, *cols[1] = {evil};
  tc_svg_grid g = {1, 1, rows, cols, v, NULL, evil, evil, 0};
  char *svg = heat(&p, &g);
  assert_null(strstr(svg, "<b>"));
  assert_true(probe_count(svg, escaped) >= 4);
  free(svg);
}

/* Hostile numbers never reach the markup as NaN or inf. */
static void test_no_nan_ever(void **state) {
  (void)state;
  double v[6] = {1e300, -1e300, 1e308, NAN, -0.0, 5e-324};
  tc_svg_plot p = {.title = "t"};
  for (int log = 0; log < 2; log++) {
    p.x_log = log;
    free(dist(HIST, &p, v, 6));
    free(dist(ECDF, &p, v, 6));
  }
  tc_svg_span m[2] = {{NAN, 5}, {0, INFINITY}};
  tc_svg_series s = {v, 6, 1e299, -1e300, 0, m, 2, NULL, NULL};
  free(timeline(&p, &s));
  s.bucket_ms = 1e300; /* the end overflows: n/a */
  char *svg = timeline(&p, &s);
  assert_non_null(strstr(svg, "n/a"));
  free(svg);
  const char *rows[2] = {"a", "b"}, *cols[3] = {"x", "y", "z"};
  tc_svg_grid g = {2, 3, rows, cols, v, NULL, NULL, NULL, 1};
  free(heat(&p, &g));
  g.log_colour = 0;
  free(heat(&p, &g));
}

/* tc_svg_num writes what snprintf("%.1f") does (less ".0" and "-0"):
 * halves that are exact and those that only look exact (0.15 is below,
 * 0.25 a tie to even), every hundredth to +-2,000, numbers of every size
 * from an LCG's bits, and both sides of where the fast path ends. */
static void num_matches_printf(double v) {
  char want[400];
  snprintf(want, sizeof want, "%.1f", isfinite(v) ? v : 0);
  size_t n = strlen(want);
  if (n >= 2 && want[n - 1] == '0' && want[n - 2] == '.')
    want[n - 2] = '\0';
  if (!strcmp(want, "-0"))
    strcpy(want, "0");
  probe_sink k;
  probe_open(&k);
  tc_svg_num(k.fp, v);
  char *got = probe_take(&k);
  if (strcmp(got, want))
    fail_msg("%.17g: got %s, want %s", v, got, want);
  free(got);
}

static void test_num_as_printf(void **state) {
  (void)state;
  for (int i = -200000; i <= 200000; i++) {
    num_matches_printf(i / 100.0);
    num_matches_printf(i / 20.0);
  }
  uint64_t x = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 200000; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    double v = (double)(x >> 11) / (double)(1u << 31); /* 0 .. 2^22 */
    num_matches_printf(ldexp(v, (int)(x % 64) - 40) * (x & 1 ? -1 : 1));
  }
  const double edges[] = {0x1p52 / 10, -0x1p52 / 10, 0x1p52 / 10 * 0.999999,
                          0x1p52,      1e15 + 0.25,  -1e15 - 0.25,
                          -0.0,        0.05,         0.15,
                          0.25,        0.35,         -0.25,
                          -0.05,       2.675,        NAN,
                          INFINITY,    -INFINITY,    5e-324};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
    num_matches_printf(edges[i]);
}

/* Same input, same bytes. */
static void test_deterministic(void **state) {
  (void)state;
  double v[50];
  for (int i = 0; i < 50; i++)
    v[i] = (i * 37 % 101) * 1.7;
  tc_svg_plot p = {.title = "t", .x_unit = "ms", .n_unit = "sites", .x_log = 1};
  char *a = dist(ECDF, &p, v, 50), *b = dist(ECDF, &p, v, 50);
  assert_string_equal(a, b);
  free(a);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nice),
      cmocka_unit_test(test_num_as_printf),
      cmocka_unit_test(test_ticks_linear),
      cmocka_unit_test(test_ticks_log),
      cmocka_unit_test(test_ticks_refused),
      cmocka_unit_test(test_hist_freedman_diaconis),
      cmocka_unit_test(test_hist_sturges),
      cmocka_unit_test(test_hist_one_value),
      cmocka_unit_test(test_hist_log_with_zeros),
      cmocka_unit_test(test_hist_binned),
      cmocka_unit_test(test_hist_skewed),
      cmocka_unit_test(test_ecdf_steps),
      cmocka_unit_test(test_ecdf_not_finite_left_out),
      cmocka_unit_test(test_ecdf_log_zeros),
      cmocka_unit_test(test_nothing_to_plot),
      cmocka_unit_test(test_timeline),
      cmocka_unit_test(test_timeline_equal_buckets),
      cmocka_unit_test(test_timeline_seconds_and_na),
      cmocka_unit_test(test_heatmap),
      cmocka_unit_test(test_escaping),
      cmocka_unit_test(test_no_nan_ever),
      cmocka_unit_test(test_deterministic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
