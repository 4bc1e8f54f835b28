/* metrics.csv: one row per trace, raw numbers in the units their column
 * names say, an empty cell where a metric is n/a and its reason in the
 * group's *_na column (RFC 4180 quoting where a cell needs it). A trace
 * that could not be read has its row too: every number empty, every *_na
 * trace_unreadable, and why in the last column, `error`. */
#include <math.h>
#include <string.h>

#include "report/metrics_report.h"
#include "report/tc_jsonw.h"

static void cell_str(FILE *fp, const char *s) {
  if (!s)
    s = "";
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', fp);
    fputc(*s, fp);
  }
  fputc('"', fp);
}

/* Numbers print exactly as in metrics.json: a JSON writer at depth 0 writes
 * a bare number and nothing else. NaN is an empty cell. */
static void cell_num(FILE *fp, double v) {
  if (isnan(v))
    return;
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 0);
  tc_jsonw_num(&w, v);
}

static void sep(FILE *fp) {
  fputc(',', fp);
}

static void header(const tc_metrics_reduction *r, FILE *fp) {
  fputs("site,trace,flags,main_thread_na,main_rule,main_pid,main_tid,main_threads,"
        "window_na,window_rule,window_start_us,window_end_us,window_ms,hidden_ms,"
        "suspended_ms,clock_jump_ms,discarded_samples,bucket_ms,frame_budget_ms",
        fp);
  for (size_t f = 0; f < r->nfields; f++) {
    fprintf(fp, ",%s", r->fields[f].column);
    if (f + 1 == r->nfields || r->fields[f + 1].group != r->fields[f].group)
      fprintf(fp, ",%s_na", tc_metric_group_code(r->fields[f].group));
  }
  fputs(",error\n", fp);
}

static void row(const tc_metrics_reduction *r, const tc_trace_metrics *m, FILE *fp) {
  cell_str(fp, m->site);
  sep(fp);
  cell_str(fp, m->trace);
  sep(fp);
  fputs((m->flags & TC_TRACE_TRUNCATED) && (m->flags & TC_TRACE_PARSE_ERRORS)
            ? "truncated|parse_errors"
        : (m->flags & TC_TRACE_TRUNCATED)    ? "truncated"
        : (m->flags & TC_TRACE_PARSE_ERRORS) ? "parse_errors"
                                             : "",
        fp);
  sep(fp);
  fputs(tc_na_code(m->main_na), fp);
  sep(fp);
  fputs(tc_main_rule_code(m->main_rule), fp);
  sep(fp);
  cell_num(fp, m->nmain ? (double)m->main_threads[0].pid : NAN);
  sep(fp);
  cell_num(fp, m->nmain ? (double)m->main_threads[0].tid : NAN);
  sep(fp);
  cell_num(fp, m->main_na == TC_NA_TRACE_UNREADABLE ? NAN : m->nmain);
  sep(fp);
  fputs(tc_na_code(m->window_na), fp);
  sep(fp);
  fputs(tc_window_rule_code(m->window_rule), fp);
  sep(fp);
  cell_num(fp, m->window_start_us);
  sep(fp);
  cell_num(fp, m->window_end_us);
  sep(fp);
  cell_num(fp, m->window_na ? NAN : (m->window_end_us - m->window_start_us) / 1e3);
  sep(fp);
  cell_num(fp, m->window_na ? NAN : m->hidden_ms);
  sep(fp);
  cell_num(fp, m->window_na ? NAN : m->suspended_ms);
  sep(fp);
  cell_num(fp, m->window_na ? NAN : m->clock_jump_ms);
  sep(fp);
  double discarded = 0;
  for (int k = 0; k < TC_SAMPLE_COUNT_; k++)
    for (int why = 0; why < TC_INVALID_COUNT_; why++)
      discarded += m->discarded[k][why];
  cell_num(fp, m->window_na ? NAN : discarded);
  sep(fp);
  cell_num(fp, m->busy.bucket_ms);
  sep(fp);
  cell_num(fp, m->frames.budget_ms);
  for (size_t f = 0; f < r->nfields; f++) {
    sep(fp);
    cell_num(fp, tc_metric_value(m, &r->fields[f]));
    if (f + 1 == r->nfields || r->fields[f + 1].group != r->fields[f].group) {
      sep(fp);
      fputs(tc_na_code(tc_metric_group_na(m, r->fields[f].group)), fp);
    }
  }
  sep(fp);
  cell_str(fp, m->error);
  fputc('\n', fp);
}

void tc_metrics_write_csv(const tc_metrics_reduction *r, FILE *fp) {
  header(r, fp);
  for (size_t i = 0; i < r->ntraces; i++)
    row(r, r->traces[i], fp);
}
