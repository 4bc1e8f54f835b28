/* metrics.md: the summary for people. Corpus percentiles first, then why
 * metrics were missing (with the traces that could not be read and the
 * sites the crawl left without trace, when there are any), then one line
 * per site, then the rules. Rounded for reading; the CSV and JSON keep the
 * raw numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics_report.h"

static const double md_q[] = {0.5, 0.75, 0.9, 0.95, 0.99};

/* Markdown table cells must not break the table. */
static void md_text(FILE *fp, const char *s) {
  while (s && *s) {
    size_t n = strcspn(s, "|\n\r");
    tc_metrics_put_text(fp, (tc_str){s, n}, 0);
    s += n;
    if (*s)
      fputs(*s++ == '|' ? "\\|" : " ", fp);
  }
}

/* A value, or n/a with its reason's code (the Not measured table says each
 * code in words). */
static void md_val(FILE *fp, double v, tc_na na) {
  if (isnan(v))
    fprintf(fp, " n/a (%s) |", tc_na_code(na ? na : TC_NA_TOO_FEW_SAMPLES));
  else if (fabs(v) >= 1e6)
    fprintf(fp, " %.4g |", v);
  else
    fprintf(fp, " %.1f |", v);
}

static void corpus(const tc_metrics_reduction *r, FILE *fp) {
  fputs("## Corpus\n\n"
        "One page view per site (the site's median trace); percentiles from mergeable "
        "histograms, within 0.5% of the exact nearest-rank value. A percentile q needs "
        "at least 1/(1-q) sites (20 for p95, 100 for p99): n/a (too_few_samples) "
        "below that.\n\n"
        "| metric | sites | p50 | p75 | p90 | p95 | p99 | max |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n",
        fp);
  for (size_t f = 0; f < r->nfields; f++) {
    const tc_sketch *s = &r->corpus[f];
    if (r->fields[f].can_be_negative)
      continue;
    fprintf(fp, "| %s | %llu |", r->fields[f].column, (unsigned long long)s->n);
    for (size_t q = 0; q < sizeof md_q / sizeof *md_q; q++)
      md_val(fp, tc_metrics_corpus_quantile(s, md_q[q]), TC_NA_TOO_FEW_SAMPLES);
    md_val(fp, s->n ? s->max : NAN, TC_NA_TOO_FEW_SAMPLES);
    fputc('\n', fp);
  }
}

static void missing(const tc_metrics_reduction *r, FILE *fp) {
  fputs("\n## Not measured\n\nTraces per metric group and reason (n/a is never 0).\n\n"
        "| group | reason | code | traces |\n|---|---|---|---:|\n",
        fp);
  int any = 0;
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    for (int na = 1; na < TC_NA_COUNT_; na++)
      if (r->na_traces[g][na]) {
        any = 1;
        fprintf(fp, "| %s | %s | %s | %u |\n", tc_metric_group_code((tc_metric_group)g),
                tc_na_text((tc_na)na), tc_na_code((tc_na)na), r->na_traces[g][na]);
      }
  if (!any)
    fputs("| (none) | every metric measured | | 0 |\n", fp);
  fputs("\nA value the tables below leave n/a names its reason's code; besides the codes "
        "above:\n\n",
        fp);
  static const tc_na more[] = {TC_NA_NO_LONG_TASKS, TC_NA_TOO_FEW_SAMPLES, TC_NA_NO_TRACE};
  for (size_t i = 0; i < sizeof more / sizeof *more; i++)
    fprintf(fp, "- `%s`: %s.\n", tc_na_code(more[i]), tc_na_text(more[i]));
}

static void unreadable(const tc_metrics_reduction *r, FILE *fp) {
  if (!r->ntraces_unreadable)
    return;
  fputs("\n## Unreadable traces\n\nEvery metric of these traces is n/a.\n\n"
        "| site | trace | error |\n|---|---|---|\n",
        fp);
  for (size_t i = 0; i < r->ntraces; i++) {
    const tc_trace_metrics *m = r->traces[i];
    if (m->main_na != TC_NA_TRACE_UNREADABLE)
      continue;
    fputs("| ", fp);
    md_text(fp, m->site);
    fputs(" | ", fp);
    md_text(fp, m->trace);
    fputs(" | ", fp);
    md_text(fp, m->error ? m->error : "unknown");
    fputs(" |\n", fp);
  }
}

static void without_trace(const tc_metrics_reduction *r, FILE *fp) {
  if (!r->nsites_without_trace)
    return;
  fputs("\n## Sites without a trace\n\nThe crawl left no trace for these sites: every "
        "metric is n/a and they are in no corpus distribution.\n\n"
        "| site | reason |\n|---|---|\n",
        fp);
  for (size_t i = 0; i < r->nsites; i++) {
    const tc_site_metrics *s = &r->sites[i];
    if (s->ntraces)
      continue;
    fputs("| ", fp);
    md_text(fp, s->site);
    fputs(" | ", fp);
    md_text(fp, s->no_trace_reason ? s->no_trace_reason : "unknown");
    fputs(" |\n", fp);
  }
}

/* The per-site columns worth reading at a glance. */
static const char *const site_cols[] = {"busy_mean_pct", "long_tasks",     "tbt_ms",
                                        "lag_p90_ms",    "frame_p50_ms",   "frames_over_budget",
                                        "heap_growth_bytes", "forced_layouts", "iframe_long_tasks"};

static void sites(const tc_metrics_reduction *r, FILE *fp) {
  fputs("\n## Sites\n\nMedian of each site's traces (its trace when it has one); n/a, with "
        "the reason's code, where none measured it. A startup trace's window starts at the "
        "page's own commit, so the browser's start-up is not in its figures.\n\n"
        "| site | traces",
        fp);
  size_t ncols = sizeof site_cols / sizeof *site_cols, idx[sizeof site_cols / sizeof *site_cols];
  for (size_t c = 0; c < ncols; c++) {
    fprintf(fp, " | %s", site_cols[c]);
    for (idx[c] = 0; idx[c] < r->nfields && strcmp(r->fields[idx[c]].column, site_cols[c]);)
      idx[c]++;
  }
  fputs(" |\n|---|---:", fp);
  for (size_t c = 0; c < ncols; c++)
    fputs("|---:", fp);
  fputs("|\n", fp);
  for (size_t i = 0; i < r->nsites; i++) {
    const tc_site_metrics *s = &r->sites[i];
    fputs("| ", fp);
    md_text(fp, s->site);
    fprintf(fp, " | %zu |", s->ntraces);
    for (size_t c = 0; c < ncols; c++)
      md_val(fp, idx[c] < r->nfields ? s->values[idx[c]] : NAN,
             idx[c] < r->nfields ? s->values_na[idx[c]] : TC_NA_NONE);
    fputc('\n', fp);
  }
}

static const char *plural(size_t n) {
  return n == 1 ? "" : "s";
}

void tc_metrics_write_md(const tc_metrics_reduction *r, FILE *fp) {
  fprintf(fp, "# Runtime metrics\n\n%zu traces from %zu sites.", r->ntraces,
          r->nsites - r->nsites_without_trace);
  if (r->ntraces_unreadable)
    fprintf(fp, " %zu trace%s could not be read: every metric n/a (see Unreadable traces).",
            r->ntraces_unreadable, plural(r->ntraces_unreadable));
  if (r->nsites_without_trace)
    fprintf(fp, " %zu more site%s of the crawl left no trace: every metric n/a (see Sites "
            "without a trace).",
            r->nsites_without_trace, plural(r->nsites_without_trace));
  fputs("\n\n", fp);
  corpus(r, fp);
  missing(r, fp);
  unreadable(r, fp);
  without_trace(r, fp);
  sites(r, fp);
  fputs("\n## Rules\n\n", fp);
  for (const tc_metrics_rule *rule = tc_metrics_rules(); rule->key; rule++)
    fprintf(fp, "- **%s**: %s.\n", rule->key, rule->text);
}
