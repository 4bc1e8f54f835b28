/* What the plot writers share: scales, the frame of a plot (title, n line,
 * axes, caption) and the one way numbers are printed. Internal to
 * src/report/tc_svg_*.c. */
#ifndef TC_SVG_DRAW_H
#define TC_SVG_DRAW_H

#include "report/tc_svg.h"

/* Data colours: mid-tone, distinct, readable on white and on near-black. */
#define TC_SVG_BLUE "#4e79a7"
#define TC_SVG_RED "#e15759"
#define TC_SVG_ORANGE "#f28e2b"

#define TC_SVG_MAX_TICKS 16

/* The frame's margins around the plot area, in pixels (tc_svg_frame.c). */
#define TC_SVG_TOP 44.0
#define TC_SVG_LEFT 64.0
#define TC_SVG_RIGHT 18.0
#define TC_SVG_BOTTOM 40.0
#define TC_SVG_CAPTION 14.0    /* per caption line */
#define TC_SVG_CAPTION_GAP 8.0 /* between the x label and the captions */

/* Whether V can be plotted: 0, or a magnitude between 1e-300 and 1e300,
 * so that no difference, ratio or logarithm of plotted values overflows.
 * Everything else (NaN and inf included) is n/a to a plot. */
static inline int tc_svg_ok(double v) {
  double a = v < 0 ? -v : v;
  return v == 0 || (a >= 1e-300 && a <= 1e300);
}

/* Maps a domain [d0, d1] (log10 of it when log) onto pixels [r0, r1]. */
typedef struct {
  double d0, d1, r0, r1;
  int log;
} tc_svg_scale;

double tc_svg_at(const tc_svg_scale *s, double v);

/* Widens [*lo, *hi] to tick boundaries: multiples of the linear 1-2-5 step,
 * or whole decades on a log axis (*lo > 0). An empty range (lo == hi) is
 * first widened around its value. */
void tc_svg_nice_domain(double *lo, double *hi, int log);

/* tc_svg_ticks with a smallest step (1 for counts). */
size_t tc_svg_ticks_min(double lo, double hi, int log, double min_step, tc_svg_tick *out,
                        size_t max);

/* A value for reading, e.g. in a tooltip: integers exactly with thousands
 * separators, other values to three significant digits (no exponent), then
 * " UNIT" when UNIT is set; "n/a" for what tc_svg_ok refuses. */
void tc_svg_value(double v, const char *unit, char *buf, size_t cap);

/* The plottable (tc_svg_ok) ones of N values, sorted ascending, in a malloc'd array the
 * caller frees; *KEPT gets their count. NULL when memory fails. */
double *tc_svg_sorted(const double *values, size_t n, size_t *kept);

/* For sorted values V[0..K) to go on a log axis (WANT_LOG): *BELOW gets
 * how many are <= 0 (they are drawn beside the axis). Returns whether the
 * axis is log: not when no value is above 0; then *BELOW is 0. */
int tc_svg_log_split(const double *v, size_t k, int want_log, size_t *below);

/* Index in a sorted array of K values of the nearest-rank quantile Q: the
 * value of rank ceil(q k), counted from 1. K > 0. */
size_t tc_svg_rank(double q, size_t k);

/* The n line of a distribution: "n = 34 sites", then " · 1 n/a, left
 * out" for DROPPED values that were not finite, then " · 9 ≤ 0, WHERE"
 * for values at or below 0 drawn beside a log axis. */
void tc_svg_n_line(char *buf, size_t cap, uint64_t n, const char *unit, size_t dropped,
                   size_t below, const char *where);

/* One plot being written. x0 < x1 and y0 < y1 bound the plot area in
 * pixels (y grows downwards). */
typedef struct {
  FILE *fp;
  const tc_svg_plot *p;
  double w, h;
  double x0, x1, y0, y1;
  char caption[2][200]; /* lines under the plot */
} tc_svg_frame;

/* Opens <svg> of class tc-plot and KIND with the title, its <title> and
 * <desc> (N_LINE then DESC), the visible n line, and lays out the plot
 * area of a W x H plot for the caption lines
 * RULE and p->note (either may be NULL). Extra LEFT and TOP pixels are
 * reserved before the plot area (heat map labels). */
void tc_svg_open(tc_svg_frame *f, FILE *fp, const tc_svg_plot *p, const char *kind, double w,
                 double h, const char *n_line, const char *desc, const char *rule, double left,
                 double top);
void tc_svg_close(tc_svg_frame *f);

/* GIVEN (p->width or p->height) when set, else DFLT. */
double tc_svg_size(int given, double dflt);

/* A whole plot that has nothing to draw: title, n line, and "n/a: REASON"
 * (p->na_reason when REASON is NULL). */
void tc_svg_na(FILE *fp, const tc_svg_plot *p, const char *kind, const char *n_line,
               const char *reason);

/* Axes over the plot area: ticks, labels "LABEL (UNIT)", y grid lines. The
 * x axis runs from s->r0 to s->r1, so a plot may keep room left of it. */
void tc_svg_x_axis(tc_svg_frame *f, const tc_svg_scale *s, const char *label, const char *unit);
void tc_svg_y_axis(tc_svg_frame *f, const tc_svg_scale *s, double min_step, const char *label,
                   const char *unit);

/* A pixel coordinate: one decimal, no "-0", no trailing ".0". Only finite
 * numbers reach it by construction; anything else prints 0 so the markup
 * stays valid. */
void tc_svg_num(FILE *fp, double v);

/* Writes ATTR="v" with a leading space, v by tc_svg_num. */
void tc_svg_attr(FILE *fp, const char *attr, double v);

/* "X Y", as path data and transforms take a point. */
void tc_svg_xy(FILE *fp, double x, double y);

/* The x, y, width and height attributes of a rectangle. */
void tc_svg_box(FILE *fp, double x, double y, double w, double h);

/* <text x y [anchor]>TEXT</text>, TEXT escaped; EXTRA (trusted markup
 * attributes) may be NULL. */
void tc_svg_text(FILE *fp, double x, double y, const char *extra, const char *text);

/* <title>TEXT</title>, escaped. */
void tc_svg_title(FILE *fp, const char *text);

/* "LABEL (UNIT)", or LABEL alone when UNIT is empty. */
void tc_svg_label(char *buf, size_t cap, const char *label, const char *unit);

#endif
