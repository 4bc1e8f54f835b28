/* metrics.md: the summary for people. Corpus percentiles first, then why
 * metrics were missing (with the traces that could not be read and the
 * sites the crawl left without trace, when there are any), then one line
 * per site, then the rules. Rounded for reading; the CSV and JSON keep the
 * raw numbers. */
#include <math.h>
#include <string.h>

#include "report/tc_metrics_report.h"
#include "report/tc_text.h"
#include "report/tc_wbuf.h"

static const double md_q[] = {0.5, 0.75, 0.9, 0.95, 0.99};

/* A text cell; nothing for NULL. */
static void md_text(tc_wbuf *b, const char *s) {
  if (s)
    tc_text_md(b, tc_str_c(s));
}

/* A value, or n/a with its reason's code (the Not measured table says each
 * code in words). */
static void md_val(tc_wbuf *b, const tc_metric_field *f, double v, tc_na na) {
  if (isnan(v)) {
    tc_wbuf_puts(b, " n/a (");
    tc_wbuf_puts(b, tc_na_code(na ? na : TC_NA_TOO_FEW_SAMPLES));
    tc_wbuf_puts(b, ") |");
    return;
  }
  tc_wbuf_putc(b, ' ');
  tc_wbuf_fixed(b, v, tc_metrics_decimals(f, v));
  tc_wbuf_puts(b, " |");
}

static void corpus(const tc_metrics_reduction *r, tc_wbuf *b) {
  tc_wbuf_puts(b, "## Corpus\n\n"
                  "One page view per site (the site's median trace); percentiles from "
                  "mergeable "
                  "histograms, within 0.5% of the exact nearest-rank value. A percentile q "
                  "needs "
                  "at least 1/(1-q) sites (20 for p95, 100 for p99): n/a (too_few_samples) "
                  "below that.\n\n"
                  "| metric | sites | p50 | p75 | p90 | p95 | p99 | max |\n"
                  "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t f = 0; f < r->nfields; f++) {
    const tc_sketch *s = &r->corpus[f];
    if (r->fields[f].can_be_negative)
      continue;
    tc_wbuf_puts(b, "| ");
    tc_wbuf_puts(b, r->fields[f].column);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_u64(b, s->n);
    tc_wbuf_puts(b, " |");
    for (size_t q = 0; q < sizeof md_q / sizeof *md_q; q++)
      md_val(b, &r->fields[f], tc_metrics_corpus_quantile(s, md_q[q]), TC_NA_TOO_FEW_SAMPLES);
    md_val(b, &r->fields[f], s->n ? s->max : NAN, TC_NA_TOO_FEW_SAMPLES);
    tc_wbuf_putc(b, '\n');
  }
}

static void missing(const tc_metrics_reduction *r, tc_wbuf *b) {
  tc_wbuf_puts(b, "\n## Not measured\n\nTraces per metric group and reason "
                  "(n/a is never 0).\n\n"
                  "| group | reason | code | traces |\n|---|---|---|---:|\n");
  int any = 0;
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    for (int na = 1; na < TC_NA_COUNT_; na++)
      if (r->na_traces[g][na]) {
        any = 1;
        tc_wbuf_puts(b, "| ");
        tc_wbuf_puts(b, tc_metric_group_code((tc_metric_group)g));
        tc_wbuf_puts(b, " | ");
        tc_wbuf_puts(b, tc_na_text((tc_na)na));
        tc_wbuf_puts(b, " | ");
        tc_wbuf_puts(b, tc_na_code((tc_na)na));
        tc_wbuf_puts(b, " | ");
        tc_wbuf_u64(b, r->na_traces[g][na]);
        tc_wbuf_puts(b, " |\n");
      }
  if (!any)
    tc_wbuf_puts(b, "| (none) | every metric measured | | 0 |\n");
  tc_wbuf_puts(b, "\nA value the tables below leave n/a names its reason's "
                  "code; besides the "
                  "codes above:\n\n");
  static const tc_na more[] = {TC_NA_NO_LONG_TASKS, TC_NA_TOO_FEW_SAMPLES, TC_NA_NO_TRACE};
  for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
    tc_wbuf_puts(b, "- `");
    tc_wbuf_puts(b, tc_na_code(more[i]));
    tc_wbuf_puts(b, "`: ");
    tc_wbuf_puts(b, tc_na_text(more[i]));
    tc_wbuf_puts(b, ".\n");
  }
}

/* One row of text cells: "| a | b | c |\n". */
static void text_row(tc_wbuf *b, const char *const *cells, size_t n) {
  for (size_t i = 0; i < n; i++) {
    tc_wbuf_puts(b, i ? " | " : "| ");
    md_text(b, cells[i]);
  }
  tc_wbuf_puts(b, " |\n");
}

static void unreadable(const tc_metrics_reduction *r, tc_metrics_cursor *c, tc_wbuf *b) {
  if (!r->ntraces_unreadable)
    return;
  tc_wbuf_puts(b, "\n## Unreadable traces\n\nEvery metric of these traces is n/a.\n\n"
                  "| site | trace | error |\n|---|---|---|\n");
  for (size_t i = 0; i < r->ntraces; i++) {
    const tc_trace_metrics *m = tc_metrics_cursor_trace(c, i);
    if (m->main_na != TC_NA_TRACE_UNREADABLE)
      continue;
    const char *cells[] = {m->site, m->trace, m->error ? m->error : "unknown"};
    text_row(b, cells, 3);
  }
}

static void without_trace(const tc_metrics_reduction *r, tc_metrics_cursor *c, tc_wbuf *b) {
  if (!r->nsites_without_trace)
    return;
  tc_wbuf_puts(b, "\n## Sites without a trace\n\nThe crawl left no trace for "
                  "these sites: every "
                  "metric is n/a and they are in no corpus distribution.\n\n"
                  "| site | reason |\n|---|---|\n");
  for (size_t i = 0; i < r->nsites; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(c, i);
    if (s->ntraces)
      continue;
    const char *cells[] = {s->site, s->no_trace_reason ? s->no_trace_reason : "unknown"};
    text_row(b, cells, 2);
  }
}

/* The per-site columns worth reading at a glance. */
static const char *const site_cols[] = {"busy_mean_pct",     "long_tasks",     "tbt_ms",
                                        "lag_p90_ms",        "frame_p50_ms",   "frames_over_budget",
                                        "heap_growth_bytes", "forced_layouts", "iframe_long_tasks"};

static void sites(const tc_metrics_reduction *r, tc_metrics_cursor *cur, tc_wbuf *b) {
  tc_wbuf_puts(b, "\n## Sites\n\nMedian of each site's traces (its trace when "
                  "it has one); n/a, "
                  "with the reason's code, where none measured it. A startup "
                  "trace's window "
                  "starts at the page's own commit, so the browser's start-up "
                  "is not in its "
                  "figures.\n\n"
                  "| site | traces");
  size_t ncols = sizeof site_cols / sizeof *site_cols, idx[sizeof site_cols / sizeof *site_cols];
  for (size_t c = 0; c < ncols; c++) {
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, site_cols[c]);
    for (idx[c] = 0; idx[c] < r->nfields && strcmp(r->fields[idx[c]].column, site_cols[c]);)
      idx[c]++;
  }
  tc_wbuf_puts(b, " |\n|---|---:");
  for (size_t c = 0; c < ncols; c++)
    tc_wbuf_puts(b, "|---:");
  tc_wbuf_puts(b, "|\n");
  for (size_t i = 0; i < r->nsites; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(cur, i);
    tc_wbuf_puts(b, "| ");
    md_text(b, s->site);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_u64(b, s->ntraces);
    tc_wbuf_puts(b, " |");
    for (size_t c = 0; c < ncols; c++)
      md_val(b, idx[c] < r->nfields ? &r->fields[idx[c]] : NULL,
             idx[c] < r->nfields ? s->values[idx[c]] : NAN,
             idx[c] < r->nfields ? s->values_na[idx[c]] : TC_NA_NONE);
    tc_wbuf_putc(b, '\n');
  }
}

/* " N thing" or " N things". */
static void count_of(tc_wbuf *b, size_t n, const char *thing) {
  tc_wbuf_putc(b, ' ');
  tc_wbuf_u64(b, n);
  tc_wbuf_putc(b, ' ');
  tc_wbuf_puts(b, thing);
  if (n != 1)
    tc_wbuf_putc(b, 's');
}

static void fill_md(const tc_metrics_reduction *r, tc_metrics_cursor *c, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  tc_wbuf_puts(&b, "# Runtime metrics\n\n");
  tc_wbuf_u64(&b, r->ntraces);
  tc_wbuf_puts(&b, " traces from ");
  tc_wbuf_u64(&b, r->nsites - r->nsites_without_trace);
  tc_wbuf_puts(&b, " sites.");
  if (r->ntraces_unreadable) {
    count_of(&b, r->ntraces_unreadable, "trace");
    tc_wbuf_puts(&b, " could not be read: every metric n/a (see Unreadable traces).");
  }
  if (r->nsites_without_trace) {
    count_of(&b, r->nsites_without_trace, "more site");
    tc_wbuf_puts(&b, " of the crawl left no trace: every metric n/a (see Sites "
                     "without a trace).");
  }
  tc_wbuf_puts(&b, "\n\n");
  corpus(r, &b);
  missing(r, &b);
  unreadable(r, c, &b);
  without_trace(r, c, &b);
  sites(r, c, &b);
  tc_wbuf_puts(&b, "\n## Rules\n\n");
  for (const tc_metrics_rule *rule = tc__metrics_rules(); rule->key; rule++) {
    tc_wbuf_puts(&b, "- **");
    tc_wbuf_puts(&b, rule->key);
    tc_wbuf_puts(&b, "**: ");
    tc_wbuf_puts(&b, rule->text);
    tc_wbuf_puts(&b, ".\n");
  }
  tc_wbuf_flush(&b);
}

tc_err tc_write_metrics_md(const tc_metrics_reduction *r, const char *outdir, tc_why *why) {
  return tc__metrics_file(r, outdir, "metrics.md", fill_md, why);
}
