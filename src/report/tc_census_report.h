/* Writers of the census tables: census.json (the machine contract),
 * census.csv (one row per event) and census.md (the manual's layout), and
 * run.json (what was read, what went wrong, how long it took). Each is
 * written atomically into OUTDIR. */
#ifndef TC_CENSUS_REPORT_H
#define TC_CENSUS_REPORT_H

#include <stddef.h>

#include "io/tc_corpus.h"
#include "reduce/tc_census_result.h"
#include "reduce/tc_devtools.h"
#include "reduce/tc_run_facts.h"
#include "report/tc_wbuf.h"

/* What the census writers read: the reduced results of a run, never the
 * run itself. Every pointer is borrowed and outlives the writers' calls. */
typedef struct {
  const tc_corpus *corpus;
  const tc_census_result *census;
  const tc_trace_status *traces; /* parallel to corpus->traces */
  const tc_run_totals *totals;
  const char *job;      /* job file, or NULL for an ad-hoc run */
  const char *manifest; /* or NULL */
  /* DevTools' view, or NULL when the schema could not be loaded; then
   * schema_error says why and the DevTools fields are null. */
  const tc_devtools *devtools;
  const char *schema_path;
  const char *schema_generator;
  const char *schema_error;
} tc_report_ctx;

tc_err tc_write_census_json(const tc_report_ctx *c, const char *outdir);
tc_err tc_write_census_csv(const tc_report_ctx *c, const char *outdir);
tc_err tc_write_census_md(const tc_report_ctx *c, const char *outdir);
tc_err tc_write_run_json(const tc_report_ctx *c, const char *outdir);

/* The manual's sentence for one event: "Observed 145,565 times on 182 of
 * 300 sites: 59,689 complete slices and 42,935 flow pairs." Writes at most
 * CAP bytes (NUL included) into BUF. */
void tc_phase_sentence(const tc_res_event *e, uint32_t sites_total, char *buf, size_t cap);

/* Categories of an event: its cat strings split on commas, each distinct
 * non-empty category counted once per record; most records first, then by
 * text.
 * *OUT receives a malloc'd array the caller frees (cat points into E's
 * strings); returns the count, or 0 with *OUT NULL when memory fails. */
size_t tc_split_categories(const tc_res_event *e, tc_res_cat **out);

/* The categories of E in that order, SEP between them, each written by
 * PUT (the table's quoting or none). */
void tc_write_categories(tc_wbuf *b, const tc_res_event *e, const char *sep,
                         void (*put)(tc_wbuf *b, tc_str cat));

/* "string", "number", ... for one TC_JT_* bit; static. */
const char *tc_json_type_name(unsigned bit);

/* "145,565". */
void tc_fmt_thousands(uint64_t v, char *buf, size_t cap);

#endif
