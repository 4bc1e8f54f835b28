/* The metric reports: metrics.csv (one row per trace), metrics.json (every
 * trace with its series and tasks, the sites, the corpus, the rules used)
 * and metrics.md (a summary for people), written next to the census.
 *
 * Each file is written atomically (tc_outfile): a reader never sees half a
 * report. Output depends only on the set's contents, never on the order
 * traces were added. */
#ifndef METRICS_REPORT_H
#define METRICS_REPORT_H

#include <stdio.h>

#include "reduce/tc_metrics_set.h"
#include "report/tc_wbuf.h"
#include "util/tc_error.h"
#include "util/tc_str.h"

/* Reduces S and writes the three files into OUTDIR (created if needed).
 * Call after every tc_metrics_set_add has returned. */
tc_err tc_metrics_write(const tc_metrics_set *s, const char *outdir);

/* The three writers, over a reduction; for tests and for callers that
 * already reduced. Each writes one whole file to FP. */
void tc_metrics_write_csv(const tc_metrics_reduction *r, FILE *fp);
void tc_metrics_write_json(const tc_metrics_reduction *r, FILE *fp);
void tc_metrics_write_md(const tc_metrics_reduction *r, FILE *fp);

/* The extraction rules, stated once for metrics.json and metrics.md:
 * NULL-terminated {key, text} pairs, static. */
typedef struct {
  const char *key;
  const char *text;
} tc_metrics_rule;

const tc_metrics_rule *tc_metrics_rules(void);

/* Writes S as UTF-8, invalid bytes as U+FFFD; with CSV_QUOTED, doubles
 * each '"' for a quoted CSV cell. For the writers. */
void tc_metrics_put_text(tc_wbuf *b, tc_str s, int csv_quoted);

#endif
