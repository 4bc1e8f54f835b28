/* report.html's metric plots: the distributions across sites and every
 * trace's busy-rate timeline, from the metrics reduction (the same figures
 * metrics.json and metrics.csv hold). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_metrics_report.h"
#include "report/tc_report_html.h"
#include "report/tc_svg.h"

/* The part's opening paragraph TEXT; without metrics, says so instead and
 * returns 0. */
static int intro(FILE *fp, const tc_metrics_reduction *m, const char *text) {
  fprintf(fp, "<p>%s</p>\n", m ? text : "n/a: this run computed no metrics (--no-metrics).");
  return m != NULL;
}

/* The index of COLUMN in the metric fields, or R->nfields. */
static size_t field(const tc_metrics_reduction *r, const char *column) {
  size_t f = 0;
  while (f < r->nfields && strcmp(r->fields[f].column, column) != 0)
    f++;
  return f;
}

typedef struct {
  const char *column, *title, *label, *unit;
  double scale; /* shown value = value / scale */
  int log;      /* the ECDF on a log axis */
} dist;

static const dist dists[] = {
    {"busy_mean_pct", "Main-thread busy rate", "busy time / window", "%", 1, 0},
    {"tbt_ms", "Total blocking time", "TBT", "ms", 1, 1},
    {"long_tasks", "Long tasks per page view", "long tasks", NULL, 1, 0},
    {"frame_p50_ms", "Frame intervals: median per page view",
     "interval between DrawFrames, median", "ms", 1, 0},
    {"frame_p95_ms", "Frame intervals: p95 per page view", "interval between DrawFrames, p95",
     "ms", 1, 0},
    {"heap_growth_bytes", "JS heap growth", "heap growth (end - start of window)", "MB", 1e6, 1},
};

static const double mark_q[] = {0.5, 0.9};
static const char *const mark_name[] = {"p50", "p90"};
enum { NMARKS = sizeof mark_q / sizeof *mark_q };

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The p50 and p90 marks of distribution D (field F, site values V[0..N) in
 * the plot's unit) as metrics.md prints them: from the corpus histogram by
 * tc_metrics_corpus_quantile, n/a (too_few_samples) by the same rule, with
 * metrics.md's decimals. A metric that can be negative has no histogram (and
 * no row in metrics.md): nearest rank over V, under the same n/a rule. */
static tc_err marks_for(const tc_metrics_reduction *m, size_t f, const dist *d, const double *v,
                        size_t n, tc_svg_mark out[NMARKS], char text[NMARKS][64],
                        char tip[NMARKS][240]) {
  int sketch = f < m->nfields && !m->fields[f].can_be_negative;
  double *sorted = sketch ? NULL : malloc((n ? n : 1) * sizeof *sorted);
  if (!sketch && !sorted)
    return TC_E_NOMEM;
  size_t k = 0;
  for (size_t i = 0; sorted && i < n; i++)
    if (isfinite(v[i]))
      sorted[k++] = v[i];
  if (sorted)
    qsort(sorted, k, sizeof *sorted, by_value);
  for (size_t i = 0; i < NMARKS; i++) {
    double q = mark_q[i], x;
    if (sketch)
      x = tc_metrics_corpus_quantile(&m->corpus[f], q) / d->scale;
    else
      x = k && k >= tc_min_samples(q) ? sorted[(size_t)ceil(q * (double)k) - 1] : NAN;
    out[i] = (tc_svg_mark){mark_name[i], x, text[i], tip[i]};
    if (isnan(x)) {
      snprintf(text[i], sizeof text[i], "n/a (%s)", tc_na_code(TC_NA_TOO_FEW_SAMPLES));
      snprintf(tip[i], sizeof tip[i], "%s n/a (%s): %s", mark_name[i],
               tc_na_code(TC_NA_TOO_FEW_SAMPLES), tc_na_text(TC_NA_TOO_FEW_SAMPLES));
      continue;
    }
    char num[64];
    /* In the field's own unit its decimals; scaled (bytes as MB), the
     * generic rule. */
    tc_html_fmt_num(x, tc_metrics_decimals(d->scale == 1 && f < m->nfields ? &m->fields[f] : NULL, x),
                    num, sizeof num);
    snprintf(text[i], sizeof text[i], "%s%s%s", num, d->unit ? " " : "", d->unit ? d->unit : "");
    snprintf(tip[i], sizeof tip[i], "%s %s: %s", mark_name[i], text[i],
             sketch ? "as in metrics.md, from the corpus histogram (within 0.5%)"
                    : "nearest rank over the sites' values");
  }
  free(sorted);
  return TC_OK;
}

tc_err tc_report_html_distributions(FILE *fp, const tc_metrics_reduction *m) {
  if (!intro(fp, m, "One value per site: the site's median page view (its median trace); a "
                    "site without a value (no trace, or the metric n/a) is left out and "
                    "counted in the n line. Histograms state their bin rule; ECDFs mark the "
                    "median and p90 as metrics.md prints them, n/a where it does."))
    return TC_OK;
  /* What the page holds of each site: one value per plot (8 bytes each),
   * read in one pass over the site records. */
  enum { NDISTS = sizeof dists / sizeof *dists };
  size_t ns = m->nsites ? m->nsites : 1;
  double *all = malloc(NDISTS * ns * sizeof *all);
  tc_metrics_cursor c;
  tc_err e = tc_metrics_cursor_init(&c, m);
  if (!all && !e)
    e = TC_E_NOMEM;
  for (size_t s = 0; !e && s < m->nsites; s++) {
    const tc_site_metrics *site = tc_metrics_cursor_site(&c, s);
    for (size_t d = 0; d < NDISTS; d++) {
      size_t f = field(m, dists[d].column);
      all[d * ns + s] = f < m->nfields ? site->values[f] / dists[d].scale : NAN;
    }
  }
  tc_err ce = tc_metrics_cursor_free(&c);
  if (!e)
    e = ce;
  for (size_t d = 0; d < NDISTS && !e; d++) {
    double *v = all + d * ns;
    tc_str t = tc_str_c(dists[d].title);
    tc_html_section_begin(fp, 3, "dist", tc_str_c(dists[d].column), t);
    fputs("<div class=\"plots\">\n", fp);
    char title[160], note[160];
    snprintf(note, sizeof note, "metrics.csv column %s, the site's median trace",
             dists[d].column);
    tc_svg_plot p = {.x_label = dists[d].label,
                     .x_unit = dists[d].unit,
                     .n_unit = "sites",
                     .note = note,
                     .na_reason = "no site measured it"};
    snprintf(title, sizeof title, "%s: histogram", dists[d].title);
    p.title = title;
    tc_html_figure_begin(fp, NULL, tc_str_c(""));
    e = tc_svg_histogram(fp, &p, v, m->nsites);
    tc_html_figure_end(fp, NULL);
    snprintf(title, sizeof title, "%s: ECDF", dists[d].title);
    p.x_log = dists[d].log;
    tc_svg_mark marks[NMARKS];
    char text[NMARKS][64], tip[NMARKS][240];
    if (!e)
      e = marks_for(m, field(m, dists[d].column), &dists[d], v, m->nsites, marks, text, tip);
    tc_html_figure_begin(fp, NULL, tc_str_c(""));
    if (!e)
      e = tc_svg_ecdf(fp, &p, v, m->nsites, marks, NMARKS);
    tc_html_figure_end(fp, NULL);
    fputs("</div>\n", fp);
    tc_html_section_end(fp);
  }
  free(all);
  return e;
}

/* The plot of trace T of SITE; the trace's path is its figure's caption. */
static tc_err timeline(FILE *fp, const char *site, const tc_trace_metrics *t) {
  char title[400];
  const tc_busy_metrics *b = &t->busy;
  snprintf(title, sizeof title, "%s: busy rate per %g ms", site, b->bucket_ms);
  tc_svg_plot p = {.title = title,
                   .x_label = "time since the window's start",
                   .y_label = "busy",
                   .y_unit = "%",
                   .n_unit = "buckets",
                   .width = 760};
  tc_svg_series s = {.bucket_ms = b->bucket_ms,
                     .y_max = 100,
                     .mark_name = "long task",
                     .gap_reason = "bucket discarded: the page was hidden, the system "
                                   "suspended, or the clock jumped"};
  if (b->na) {
    tc_html_figure_begin(fp, NULL, tc_str_c(""));
    p.na_reason = tc_na_text(b->na);
    tc_err e = tc_svg_timeline(fp, &p, &s);
    tc_html_figure_end(fp, t->trace);
    return e;
  }
  const tc_long_metrics *l = &t->long_tasks;
  tc_svg_span *marks = malloc((l->count ? l->count : 1) * sizeof *marks);
  if (!marks)
    return TC_E_NOMEM;
  tc_html_figure_begin(fp, NULL, tc_str_c(""));
  size_t n = 0;
  for (uint32_t i = 0; !l->na && i < l->count; i++)
    marks[n++] = (tc_svg_span){(l->tasks[i].start_us - t->window_start_us) / 1000,
                               l->tasks[i].dur_us / 1000};
  s.values = b->series_pct;
  s.nbuckets = b->nseries;
  s.marks = marks;
  s.nmarks = n;
  tc_err e = tc_svg_timeline(fp, &p, &s);
  tc_html_figure_end(fp, t->trace);
  free(marks);
  return e;
}

int tc_report_html_timeline_fits(size_t *plots, size_t ntraces) {
  size_t more = ntraces ? ntraces : 1;
  if (*plots + more > TC_HTML_MAX_TIMELINES) {
    *plots = TC_HTML_MAX_TIMELINES + 1; /* every later site is past the cap too */
    return 0;
  }
  *plots += more;
  return 1;
}

/* Says what the plots left out: the traces and sites past the first
 * TC_HTML_MAX_TIMELINES plots. */
static void left_out(FILE *fp, size_t traces, size_t sites) {
  fprintf(fp,
          "<p>Only the first %d plots are drawn here, so that the page stays readable and its "
          "size bounded: %zu more trace%s",
          TC_HTML_MAX_TIMELINES, traces, traces == 1 ? "" : "s");
  if (sites)
    fprintf(fp, " and %zu more site%s without a trace", sites, sites == 1 ? "" : "s");
  fputs(" are left out. metrics.json holds every trace's series (busy.series_pct) and long "
        "tasks.</p>\n",
        fp);
}

/* A site's place among the timelines: by its TBT, largest first. */
typedef struct {
  size_t site;
  double tbt_ms; /* NaN: n/a */
} by_tbt;

static int cmp_by_tbt(const void *a, const void *b) {
  const by_tbt *x = a, *y = b;
  int xn = isnan(x->tbt_ms), yn = isnan(y->tbt_ms);
  if (xn != yn)
    return xn - yn; /* n/a last */
  if (!xn && x->tbt_ms != y->tbt_ms)
    return x->tbt_ms > y->tbt_ms ? -1 : 1;
  return (x->site > y->site) - (x->site < y->site); /* then in name order */
}

/* M's sites in the timelines' order, NULL when out of memory. The worst
 * sites come first, so the plots the page's cap keeps are the ones a reader
 * looks for. */
static by_tbt *timeline_order(const tc_metrics_reduction *m, tc_metrics_cursor *c) {
  size_t tbt = field(m, "tbt_ms");
  by_tbt *order = malloc((m->nsites ? m->nsites : 1) * sizeof *order);
  for (size_t i = 0; order && i < m->nsites; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(c, i);
    order[i] = (by_tbt){i, tbt < m->nfields ? s->values[tbt] : NAN};
  }
  if (order)
    qsort(order, m->nsites, sizeof *order, cmp_by_tbt);
  return order;
}

tc_err tc_report_html_timelines(FILE *fp, const tc_metrics_reduction *m) {
  if (!intro(fp, m, "Share of each bucket the page's main thread was busy, over the window "
                    "(from the page's commit); long tasks (over 50 ms) marked in red, "
                    "discarded buckets shaded grey. One plot per trace, sites by total "
                    "blocking time, largest first (n/a last, ties in name order)."))
    return TC_OK;
  tc_metrics_cursor c;
  tc_err e = tc_metrics_cursor_init(&c, m);
  by_tbt *order = e ? NULL : timeline_order(m, &c);
  if (!e && !order)
    e = TC_E_NOMEM;
  /* A site without a trace is drawn with the run's bucket, for its n line. */
  double bucket_ms = 1;
  for (size_t i = 0; !e && i < m->ntraces; i++) {
    const tc_trace_metrics *t = tc_metrics_cursor_trace(&c, i);
    if (t->busy.bucket_ms > 0) {
      bucket_ms = t->busy.bucket_ms;
      break;
    }
  }
  /* One trace at a time: the page holds none of them. */
  size_t plots = 0, traces = 0, sites = 0;
  for (size_t i = 0; i < m->nsites && !e; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(&c, order[i].site);
    if (!tc_report_html_timeline_fits(&plots, s->ntraces)) {
      left_out(fp, m->ntraces - traces, m->nsites_without_trace - sites);
      break;
    }
    traces += s->ntraces;
    sites += !s->ntraces;
    /* The site's plots under one anchor, the sites table's link. */
    fputs("<div class=\"site-tl\" id=\"", fp);
    tc_html_id(fp, "tl", tc_str_c(s->site));
    fputs("\">\n", fp);
    if (!s->ntraces) {
      char title[400];
      snprintf(title, sizeof title, "%s: busy rate", s->site);
      tc_svg_plot p = {.title = title,
                       .n_unit = "buckets",
                       .na_reason = s->no_trace_reason ? s->no_trace_reason
                                                       : tc_na_text(TC_NA_NO_TRACE)};
      tc_svg_series none = {.bucket_ms = bucket_ms, .mark_name = "long task"};
      tc_html_figure_begin(fp, NULL, tc_str_c(""));
      e = tc_svg_timeline(fp, &p, &none);
      tc_html_figure_end(fp, "no trace");
    }
    for (size_t k = 0; k < s->ntraces && !e; k++)
      e = timeline(fp, s->site, tc_metrics_cursor_trace(&c, s->first + k));
    fputs("</div>\n", fp);
  }
  free(order);
  tc_err ce = tc_metrics_cursor_free(&c);
  return e ? e : ce;
}
