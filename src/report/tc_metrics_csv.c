/* metrics.csv: one row per trace, and one per site of the crawl that left no
 * trace, so every site of the manifest has its row. Raw numbers in the units
 * their column names say (RFC 4180 quoting where a cell needs it; text as
 * UTF-8, bytes that are not written as U+FFFD, as in the JSON outputs).
 *
 * No cell is empty without a reason beside it: a metric column's reason is
 * in its own `<column>_na` when it has one (a statistic can lack samples
 * while its group is measured), else in its group's `<group>_na` after the
 * group's last column; the thread and URL columns' in main_thread_na and
 * main_url_na, the window's and the clamp counts' in window_na, trace,
 * bucket_ms and frame_budget_ms's in main_thread_na. An empty `*_na`,
 * `flags` or `error` means none. A trace that could not be read has every
 * number empty, every *_na trace_unreadable and why in `error`; a site
 * without a trace has them no_trace and the crawl's reason in `error`. */
#include <math.h>
#include <string.h>

#include "report/tc_metrics_report.h"
#include "report/tc_text.h"
#include "report/tc_wbuf.h"

static void cell_str(tc_wbuf *b, const char *s) {
  tc_text_csv_cell(b, tc_str_c(s ? s : ""), TC_CSV_QUOTE_IF_NEEDED);
}

/* Numbers print exactly as in metrics.json (null for an infinity). NaN is
 * an empty cell. */
static void cell_num(tc_wbuf *b, double v) {
  if (isnan(v))
    return;
  if (isinf(v))
    tc_wbuf_puts(b, "null");
  else
    tc_wbuf_num(b, v);
}

static void sep(tc_wbuf *b) { tc_wbuf_putc(b, ','); }

static void cell_na(tc_wbuf *b, tc_na na) {
  sep(b);
  tc_wbuf_puts(b, tc_na_code(na));
}

static int last_of_group(const tc_metrics_reduction *r, size_t f) {
  return f + 1 == r->nfields || r->fields[f + 1].group != r->fields[f].group;
}

static void header(const tc_metrics_reduction *r, tc_wbuf *b) {
  tc_wbuf_puts(b, "site,trace,flags,main_thread_na,main_rule,main_pid,main_tid,"
                  "main_threads,main_url,"
                  "main_url_na,window_na,window_rule,window_start_us,window_"
                  "end_us,window_ms,hidden_ms,"
                  "suspended_ms,clock_jump_ms,discarded_samples,trace_span_ms,"
                  "clamped_tasks,bucket_ms,"
                  "frame_budget_ms");
  for (size_t f = 0; f < r->nfields; f++) {
    sep(b);
    tc_wbuf_puts(b, r->fields[f].column);
    if (r->fields[f].stat_n) {
      sep(b);
      tc_wbuf_puts(b, r->fields[f].column);
      tc_wbuf_puts(b, "_na");
    }
    if (last_of_group(r, f)) {
      sep(b);
      tc_wbuf_puts(b, tc_metric_group_code(r->fields[f].group));
      tc_wbuf_puts(b, "_na");
    }
  }
  tc_wbuf_puts(b, ",error\n");
}

/* The metric columns: values (NaN for none) with their reasons. */
typedef double (*value_fn)(const void *src, const tc_metric_field *f);
typedef tc_na (*na_fn)(const void *src, const tc_metric_field *f, tc_metric_group g);

static void metric_cells(const tc_metrics_reduction *r, tc_wbuf *b, const void *src, value_fn value,
                         na_fn na) {
  for (size_t f = 0; f < r->nfields; f++) {
    sep(b);
    cell_num(b, value(src, &r->fields[f]));
    if (r->fields[f].stat_n)
      cell_na(b, na(src, &r->fields[f], r->fields[f].group));
    if (last_of_group(r, f))
      cell_na(b, na(src, NULL, r->fields[f].group));
  }
}

static double trace_value(const void *src, const tc_metric_field *f) {
  return tc_metric_value(src, f);
}

static tc_na trace_na(const void *src, const tc_metric_field *f, tc_metric_group g) {
  return f ? tc_metric_field_na(src, f) : tc_metric_group_na(src, g);
}

static double no_value(const void *src, const tc_metric_field *f) {
  (void)src;
  (void)f;
  return NAN;
}

static tc_na no_trace_na(const void *src, const tc_metric_field *f, tc_metric_group g) {
  (void)src;
  (void)f;
  (void)g;
  return TC_NA_NO_TRACE;
}

static void row(const tc_metrics_reduction *r, const tc_trace_metrics *m, tc_wbuf *b) {
  cell_str(b, m->site);
  sep(b);
  cell_str(b, m->trace);
  sep(b);
  tc_wbuf_puts(b, (m->flags & TC_TRACE_TRUNCATED) && (m->flags & TC_TRACE_PARSE_ERRORS)
                      ? "truncated|parse_errors"
                  : (m->flags & TC_TRACE_TRUNCATED)    ? "truncated"
                  : (m->flags & TC_TRACE_PARSE_ERRORS) ? "parse_errors"
                                                       : "");
  cell_na(b, m->main_na);
  sep(b);
  tc_wbuf_puts(b, tc_main_rule_code(m->main_rule));
  sep(b);
  cell_num(b, m->nmain ? (double)m->main_threads[0].pid : NAN);
  sep(b);
  cell_num(b, m->nmain ? (double)m->main_threads[0].tid : NAN);
  sep(b);
  cell_num(b, m->main_na ? NAN : m->nmain);
  sep(b);
  cell_str(b, m->main_url);
  cell_na(b, m->main_url ? TC_NA_NONE : m->main_url_na);
  cell_na(b, m->window_na);
  sep(b);
  tc_wbuf_puts(b, tc_window_rule_code(m->window_rule));
  sep(b);
  cell_num(b, m->window_na ? NAN : m->window_start_us);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->window_end_us);
  sep(b);
  cell_num(b, m->window_na ? NAN : (m->window_end_us - m->window_start_us) / 1e3);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->hidden_ms);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->suspended_ms);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->clock_jump_ms);
  sep(b);
  double discarded = 0;
  for (int k = 0; k < TC_SAMPLE_COUNT_; k++)
    for (int why = 0; why < TC_INVALID_COUNT_; why++)
      discarded += m->discarded[k][why];
  cell_num(b, m->window_na ? NAN : discarded);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->trace_span_ms);
  sep(b);
  cell_num(b, m->window_na ? NAN : m->clamped_tasks);
  sep(b);
  cell_num(b, m->busy.bucket_ms);
  sep(b);
  cell_num(b, m->frames.budget_ms);
  metric_cells(r, b, m, trace_value, trace_na);
  sep(b);
  cell_str(b, m->error);
  tc_wbuf_putc(b, '\n');
}

/* A site the crawl left without trace: n/a throughout, the crawl's reason
 * as its error. */
static void empty_cells(tc_wbuf *b, int n) {
  while (n-- > 0)
    sep(b);
}

static void site_row(const tc_metrics_reduction *r, const tc_site_metrics *s, tc_wbuf *b) {
  cell_str(b, s->site);
  empty_cells(b, 2); /* trace, flags */
  cell_na(b, TC_NA_NO_TRACE);
  tc_wbuf_puts(b, ",none");
  empty_cells(b, 4); /* main_pid, main_tid, main_threads, main_url */
  cell_na(b, TC_NA_NO_TRACE);
  cell_na(b, TC_NA_NO_TRACE);
  tc_wbuf_puts(b, ",none");
  empty_cells(b, 11); /* window_start_us .. frame_budget_ms */
  metric_cells(r, b, NULL, no_value, no_trace_na);
  sep(b);
  cell_str(b, s->no_trace_reason ? s->no_trace_reason : tc_na_text(TC_NA_NO_TRACE));
  tc_wbuf_putc(b, '\n');
}

static void fill_csv(const tc_metrics_reduction *r, tc_metrics_cursor *c, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  header(r, &b);
  for (size_t i = 0; i < r->nsites; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(c, i);
    if (!s->ntraces)
      site_row(r, s, &b);
    for (size_t t = 0; t < s->ntraces; t++)
      row(r, tc_metrics_cursor_trace(c, s->first + t), &b);
  }
  tc_wbuf_flush(&b);
}

tc_err tc_write_metrics_csv(const tc_metrics_reduction *r, const char *outdir, tc_why *why) {
  return tc__metrics_file(r, outdir, "metrics.csv", fill_csv, why);
}
