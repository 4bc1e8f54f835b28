/* metrics.csv: one row per trace, raw numbers in the units their column
 * names say, an empty cell where a metric is n/a and its reason in the
 * group's *_na column (RFC 4180 quoting where a cell needs it). A trace
 * that could not be read has its row too: every number empty, every *_na
 * trace_unreadable, and why in the last column, `error`. */
#include <math.h>
#include <string.h>

#include "report/metrics_report.h"
#include "report/tc_wbuf.h"

static void cell_str(tc_wbuf *b, const char *s) {
  if (!s)
    s = "";
  if (!strpbrk(s, ",\"\r\n")) {
    tc_wbuf_puts(b, s);
    return;
  }
  tc_wbuf_putc(b, '"');
  for (const char *q; (q = strchr(s, '"')); s = q + 1) {
    tc_wbuf_put(b, s, (size_t)(q - s) + 1);
    tc_wbuf_putc(b, '"');
  }
  tc_wbuf_puts(b, s);
  tc_wbuf_putc(b, '"');
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

static void sep(tc_wbuf *b) {
  tc_wbuf_putc(b, ',');
}

static void header(const tc_metrics_reduction *r, tc_wbuf *b) {
  tc_wbuf_puts(b, "site,trace,flags,main_thread_na,main_rule,main_pid,main_tid,main_threads,"
                  "window_na,window_rule,window_start_us,window_end_us,window_ms,hidden_ms,"
                  "suspended_ms,clock_jump_ms,discarded_samples,bucket_ms,frame_budget_ms");
  for (size_t f = 0; f < r->nfields; f++) {
    sep(b);
    tc_wbuf_puts(b, r->fields[f].column);
    if (f + 1 == r->nfields || r->fields[f + 1].group != r->fields[f].group) {
      sep(b);
      tc_wbuf_puts(b, tc_metric_group_code(r->fields[f].group));
      tc_wbuf_puts(b, "_na");
    }
  }
  tc_wbuf_puts(b, ",error\n");
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
  sep(b);
  tc_wbuf_puts(b, tc_na_code(m->main_na));
  sep(b);
  tc_wbuf_puts(b, tc_main_rule_code(m->main_rule));
  sep(b);
  cell_num(b, m->nmain ? (double)m->main_threads[0].pid : NAN);
  sep(b);
  cell_num(b, m->nmain ? (double)m->main_threads[0].tid : NAN);
  sep(b);
  cell_num(b, m->main_na == TC_NA_TRACE_UNREADABLE ? NAN : m->nmain);
  sep(b);
  tc_wbuf_puts(b, tc_na_code(m->window_na));
  sep(b);
  tc_wbuf_puts(b, tc_window_rule_code(m->window_rule));
  sep(b);
  cell_num(b, m->window_start_us);
  sep(b);
  cell_num(b, m->window_end_us);
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
  cell_num(b, m->busy.bucket_ms);
  sep(b);
  cell_num(b, m->frames.budget_ms);
  for (size_t f = 0; f < r->nfields; f++) {
    sep(b);
    cell_num(b, tc_metric_value(m, &r->fields[f]));
    if (f + 1 == r->nfields || r->fields[f + 1].group != r->fields[f].group) {
      sep(b);
      tc_wbuf_puts(b, tc_na_code(tc_metric_group_na(m, r->fields[f].group)));
    }
  }
  sep(b);
  cell_str(b, m->error);
  tc_wbuf_putc(b, '\n');
}

void tc_metrics_write_csv(const tc_metrics_reduction *r, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  header(r, &b);
  for (size_t i = 0; i < r->ntraces; i++)
    row(r, r->traces[i], &b);
  tc_wbuf_flush(&b);
}
