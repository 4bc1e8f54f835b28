/* The metric reports: metrics.csv (one row per trace), metrics.json (every
 * trace with its series and tasks, the sites, the corpus, the rules used)
 * and metrics.md (a summary for people), written next to the census.
 *
 * Each file is written atomically (tc_outfile): a reader never sees half a
 * report. Output depends only on the reduction, never on the order traces
 * were added to its set. */
#ifndef TC_METRICS_REPORT_H
#define TC_METRICS_REPORT_H

#include <stdio.h>

#include "reduce/tc_metrics_reduction.h"
#include "report/tc_wbuf.h"
#include "util/tc_error.h"
#include "util/tc_str.h"

/* The three files, each written atomically into OUTDIR from a reduction
 * (tc_metrics_reduce) and named as here; TC_E_WRITE when the file cannot
 * be written (tc_outfile_failure says why). */
tc_err tc_write_metrics_csv(const tc_metrics_reduction *r, const char *outdir, tc_why *why);
tc_err tc_write_metrics_json(const tc_metrics_reduction *r, const char *outdir, tc_why *why);
tc_err tc_write_metrics_md(const tc_metrics_reduction *r, const char *outdir, tc_why *why);

/* The decimals metrics.md and report.html print a value V of field F with,
 * so both show the same digits: none for a field of whole numbers (a count,
 * bytes; a percentile of one from the corpus histogram is rounded to a whole
 * number too) or from 1e6 up (never in exponent form), else one. F may be
 * NULL: a value in another unit than the field's. */
int tc_metrics_decimals(const tc_metric_field *f, double v);

/* ---- internal to the metrics writers ---- */

/* Writes the file NAME into OUTDIR with FILL, which reads the records
 * through C; a record that could not be read back fails the file. */
tc_err tc__metrics_file(const tc_metrics_reduction *r, const char *outdir, const char *name,
                        void (*fill)(const tc_metrics_reduction *r, tc_metrics_cursor *c,
                                     FILE *fp), tc_why *why);

/* The extraction rules, stated once for metrics.json and metrics.md:
 * NULL-terminated {key, text} pairs, static. */
typedef struct {
  const char *key;
  const char *text;
} tc_metrics_rule;

const tc_metrics_rule *tc__metrics_rules(void);

#endif
