/* report.html's sites table: one row per site from the metrics reduction,
 * the figures metrics.md's Sites table holds for them with its rounding and
 * its n/a codes, so a reader can rank sites (sort by TBT, largest first)
 * and jump to a site's timelines. */
#include <math.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_metrics_report.h"
#include "report/tc_report_html.h"

#define TC_ERRORS_SHOWN 3 /* unreadable traces named per site */

static const tc_html_col cols[] = {
    {"site", NULL, "links to the site's busy-rate timelines when they are drawn", TC_HTML_TEXT, 0},
    {"traces", "count", NULL, TC_HTML_NUM, 0},
    {"busy", "% of window", "main-thread busy time / window (busy_mean_pct)", TC_HTML_NUM, 0},
    {"long tasks", "count", "top-level tasks of 50 ms or more (long_tasks)", TC_HTML_NUM, 0},
    {"TBT", "ms", "total blocking time (tbt_ms)", TC_HTML_NUM, 0},
    {"frames over budget", "count", "frame intervals over 1.5 vsyncs (frames_over_budget)",
     TC_HTML_NUM, 0},
    {"heap growth", "bytes", "JS heap at the window's end - at its start (heap_growth_bytes)",
     TC_HTML_NUM, 0},
    {"user timing", "measures", "blink.user_timing measures (user_timing_measures)", TC_HTML_NUM,
     0},
    {"failures", NULL, "traces that could not be read, or why the crawl left none", TC_HTML_TEXT,
     0},
};

/* The metric columns' fields, in column order after site and traces. */
static const char *const fields[] = {"busy_mean_pct",      "long_tasks",        "tbt_ms",
                                     "frames_over_budget", "heap_growth_bytes", "user_timing_measures"};
enum { NFIELDS = sizeof fields / sizeof *fields };

/* A site's value as metrics.md writes it: its decimals, or n/a with the
 * reason's code (the words in the tooltip). */
static void value(FILE *fp, const tc_metric_field *f, double v, tc_na na) {
  if (!isnan(v)) {
    tc_html_cell_num(fp, v, tc_metrics_decimals(f, v));
    return;
  }
  tc_na why = na ? na : TC_NA_TOO_FEW_SAMPLES;
  char text[64];
  snprintf(text, sizeof text, "n/a (%s)", tc_na_code(why));
  tc_html_cell_na_text(fp, text, tc_na_text(why));
}

/* What failed for site S: the crawl's reason when it left no trace, else
 * its unreadable traces with their errors. */
static void failures(FILE *fp, const tc_site_metrics *s, tc_metrics_cursor *c) {
  fputs("<td>", fp);
  if (!s->ntraces) {
    fputs("no trace: ", fp);
    tc_html_escape_c(fp, s->no_trace_reason ? s->no_trace_reason : tc_na_text(TC_NA_NO_TRACE));
  } else if (s->unreadable) {
    fprintf(fp, "%u of %zu trace%s unreadable", s->unreadable, s->ntraces,
            s->ntraces == 1 ? "" : "s");
    size_t named = 0;
    for (size_t k = 0; k < s->ntraces && named < TC_ERRORS_SHOWN; k++) {
      const tc_trace_metrics *t = tc_metrics_cursor_trace(c, s->first + k);
      if (t->main_na != TC_NA_TRACE_UNREADABLE)
        continue;
      fputs(named++ ? "; " : ": ", fp);
      tc_html_escape_c(fp, t->error ? t->error : "unknown error");
    }
    if (s->unreadable > named)
      fputs("; \u2026", fp);
  } else {
    fputs("none", fp);
  }
  fputs("</td>", fp);
}

tc_err tc_report_html_sites(FILE *fp, const tc_metrics_reduction *m) {
  if (!m) {
    fputs("<p>n/a: this run computed no metrics (--no-metrics).</p>\n", fp);
    return TC_OK;
  }
  fputs("<p>One row per site of the crawl: the median of its traces, as in metrics.md's Sites "
        "table, with the same rounding and the same n/a codes (hover an n/a for its reason). "
        "Click a header to sort (numbers largest first); a site's name links to its "
        "timelines.</p>\n",
        fp);
  size_t idx[NFIELDS];
  for (size_t k = 0; k < NFIELDS; k++)
    for (idx[k] = 0; idx[k] < m->nfields && strcmp(m->fields[idx[k]].column, fields[k]);)
      idx[k]++;
  tc_metrics_cursor c;
  tc_err e = tc_metrics_cursor_init(&c, m);
  tc_html_table_begin(fp, "sites", "Every site; click a header to sort, type to filter.", cols,
                      sizeof cols / sizeof *cols);
  size_t plots = 0;
  for (size_t i = 0; !e && i < m->nsites; i++) {
    const tc_site_metrics *s = tc_metrics_cursor_site(&c, i);
    tc_str name = tc_str_c(s->site ? s->site : "");
    tc_html_row_begin(fp);
    if (tc_report_html_timeline_fits(&plots, s->ntraces))
      tc_html_cell_link(fp, name, "tl", name);
    else
      tc_html_cell_text(fp, name);
    tc_html_cell_int(fp, (int64_t)s->ntraces);
    for (size_t k = 0; k < NFIELDS; k++)
      value(fp, idx[k] < m->nfields ? &m->fields[idx[k]] : NULL,
            idx[k] < m->nfields ? s->values[idx[k]] : NAN,
            idx[k] < m->nfields ? s->values_na[idx[k]] : TC_NA_NONE);
    failures(fp, s, &c);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
  tc_err ce = tc_metrics_cursor_free(&c);
  return e ? e : ce;
}
