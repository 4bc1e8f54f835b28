/* Plots as inline SVG, written in C by the report stage.
 *
 * Why SVG from C and not a vendored JS charting library (issue 11 asks
 * which and why):
 * - Offline years later. The plots are markup in the page: they draw with
 *   scripting off, in a browser that no longer runs today's JS, in a print,
 *   in a text-mode dump of the DOM. A JS library draws nothing unless its
 *   code still runs where the report is opened.
 * - Same input, same bytes. The project's rule for every output. Each
 *   coordinate is computed here and printed in one fixed format, so the
 *   page can be compared byte for byte and the unit tests can read the
 *   plotted facts (bars per bin, the ECDF's last step, tick labels, n) out
 *   of the markup. With a library the picture exists only after a browser
 *   has run it, and only a browser can test it.
 * - Size. A charting library is some 50 KB (uPlot) to 200 KB (Chart.js)
 *   or near 1 MB (Vega) before any data, and the data must be inlined as
 *   JSON anyway. The SVG here, measured: 6.3 KB for a 30 s busy timeline
 *   of 300 buckets with its long tasks (the demo page,
 *   tests/report/demo_page.c), 1.9 KB on average for the bundled corpus'
 *   5 s ones, 2.2 to 2.8 KB per distribution, 145 bytes per heat map cell.
 *   For 300 sites that is about 1.9 MB of timelines and 0.9 MB for a
 *   300 x 20 heat map: a few MB, which a browser opens at once. Only a far
 *   larger corpus would make a library's denser data encoding pay.
 * - No build tooling, no minified blob to vendor, review, license and
 *   update: about 1,400 lines of C (tc_svg*), built and tested with the rest.
 * What a library would add is interaction (zoom, hover read-outs); the
 * <title> tooltips on bars, cells, marks and gaps cover what a reader of a
 * census needs.
 *
 * The SVG is for embedding in HTML (tc_html.h): no xmlns, no ids, no
 * external references; text and axes use currentColor so the page's light
 * or dark colours apply, data use mid-tone colours that read on both. Each
 * plot has a visible title, "n = ..." with what n counts, axes with units,
 * and a <title> (its accessible name) plus a <desc> summary. A number is
 * never NaN or inf in the output: values that are not finite (or of a
 * magnitude beyond 1e300 or, other than 0, below 1e-300, where the
 * arithmetic would overflow) are left out and counted in the n line, and a plot with nothing to
 * draw says "n/a" with its reason instead.
 *
 * Every writer prints to a caller-owned FILE and returns TC_OK, or
 * TC_E_NOMEM when a working copy of the values could not be allocated
 * (then nothing was written). Write errors are the FILE's to report
 * (tc_outfile_commit does). Inputs are borrowed for the call only. */
#ifndef TC_SVG_H
#define TC_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/tc_error.h"

/* What every plot states about itself. Strings are plain text (escaped on
 * output); NULL means none. */
typedef struct {
  const char *title;   /* shown at the top; also the SVG's accessible name */
  const char *x_label; /* the quantity, e.g. "total blocking time" */
  const char *x_unit;  /* appended as " (ms)"; also used in tooltips */
  const char *y_label; /* default per plot type */
  const char *y_unit;
  const char *n_unit;    /* what a value is: "sites", "page views", "buckets" */
  const char *na_reason; /* shown when there is nothing to draw */
  const char *note;      /* one caption line under the plot, e.g. the source */
  int x_log;             /* log10 x axis (histogram, ECDF) */
  int width, height;     /* px; 0 picks the plot type's default; a heat map
                            sizes itself to its cells (width bounds them) */
} tc_svg_plot;

/* Ticks of an axis over [LO, HI]. Linear: multiples of a 1-2-5 step
 * (1, 2 or 5 times a power of ten) giving about five ticks, labelled with
 * the step's decimals, and k/M/G from 10,000 up ("20k"). Log (LO > 0):
 * the powers of ten in range, with 2 and 5 between them when the range
 * spans under three decades. Writes at most MAX ticks and returns how many
 * were written. */
typedef struct {
  double value;
  char label[24];
} tc_svg_tick;

size_t tc_svg_ticks(double lo, double hi, int log, tc_svg_tick *out, size_t max);

/* The 1-2-5 number nearest to X > 0 on a log scale (the thresholds are the
 * geometric means sqrt(2), sqrt(10), sqrt(50)): the one rounding rule of
 * tick steps and bin widths. */
double tc_svg_nice(double x);

/* A histogram of N values (e.g. one per site). Bins are [a, a + w), edges
 * at multiples of w; w from the Freedman-Diaconis rule 2 IQR n^(-1/3)
 * (quartiles nearest-rank), or range / (ceil(log2 n) + 1) (Sturges) when
 * the IQR is 0, rounded with tc_svg_nice and widened to the next 1-2-5
 * step until there are at most 60 bins; on a log axis the same rule on log10 of the values, in
 * decades, and the values <= 0 in a bar of their own left of the axis. The
 * rule and w are stated under the plot. */
tc_err tc_svg_histogram(FILE *fp, const tc_svg_plot *p, const double *values, size_t n);

/* A histogram of NBINS counts already binned: bin i is [edges[i],
 * edges[i+1]). EDGES (NBINS + 1 of them) must increase, and be > 0 on a log
 * axis, else the plot is n/a saying so. The last edge may be INFINITY for
 * an open bin ("≥ a"), drawn as wide as the bin before it. State the
 * binning rule in p->note. */
tc_err tc_svg_histogram_binned(FILE *fp, const tc_svg_plot *p, const double *edges,
                               const uint64_t *counts, size_t nbins);

/* A statistic marked on a plot. The caller computes it, so a plot shows
 * the figure (and the n/a) the text reports print for the same data:
 * VALUE in the plot's unit, NaN when the statistic is n/a; TEXT as shown
 * ("4.3 %" or "n/a (too_few_samples)"); TIP, its tooltip, says where it
 * comes from or why it is n/a. */
typedef struct {
  const char *name; /* "p50" */
  double value;
  const char *text;
  const char *tip;
} tc_svg_mark;

/* The empirical CDF of N values: a step that rises 1/n at each value and
 * reaches 1 at the largest, with the NMARKS MARKS (at most 4) as dashed
 * lines. Their labels sit in rows of their own above the plot area, one
 * row per mark, so they never cross the curve or each other; an n/a mark
 * is its label alone. On a log axis the values <= 0 are the step's height
 * at the left edge, and the n line says how many. */
#define TC_SVG_MAX_MARKS 4
tc_err tc_svg_ecdf(FILE *fp, const tc_svg_plot *p, const double *values, size_t n,
                   const tc_svg_mark *marks, size_t nmarks);

/* A series of buckets over time (e.g. busy % per 100 ms) with intervals
 * marked (e.g. long tasks). Times are milliseconds from the plot's origin;
 * the axis shows seconds when the series spans 2 s or more. A bucket that
 * is not finite was discarded: it is a gap, shaded, with gap_reason as its
 * tooltip. The y axis runs from 0 to y_max, or higher if a value is. */
typedef struct {
  double start_ms, dur_ms;
} tc_svg_span;

typedef struct {
  const double *values; /* one per bucket, in p->y_unit */
  size_t nbuckets;
  double bucket_ms;
  double start_ms; /* where bucket 0 starts */
  double y_max;    /* 0: from the data */
  const tc_svg_span *marks;
  size_t nmarks;
  const char *mark_name;  /* "long task" */
  const char *gap_reason; /* why buckets were discarded */
} tc_svg_series;

tc_err tc_svg_timeline(FILE *fp, const tc_svg_plot *p, const tc_svg_series *s);

/* Rows x columns of counts (e.g. sites x top events) as coloured cells,
 * with a colour legend. Colour is viridis (perceptually even, readable in
 * grey and by colour-blind readers) over 0..max, or over log10 between the
 * smallest non-zero count and max with log_colour; 0 has a neutral swatch
 * of its own, a non-finite cell is n/a (crossed, tooltip with its row's
 * reason). A coloured cell's tooltip names its row, column and value; the
 * 0 cells share one element and one tooltip. Long labels are cut with "…"
 * and shown whole in the tooltips. */
typedef struct {
  size_t nrows, ncols;
  const char *const *rows;   /* row labels */
  const char *const *cols;   /* column labels */
  const double *cells;       /* nrows * ncols, row by row */
  const char *const *row_na; /* NULL, or per row why its n/a cells are n/a */
  const char *value_unit;    /* what a cell counts: "records" */
  const char *col_unit;      /* what a column is: "events" (rows: p->n_unit) */
  int log_colour;
} tc_svg_grid;

tc_err tc_svg_heatmap(FILE *fp, const tc_svg_plot *p, const tc_svg_grid *g);

#endif
