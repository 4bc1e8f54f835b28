/* Writers of the census tables: census.json (the machine contract),
 * census.csv (one row per event) and census.md (the manual's layout), and
 * run.json (what was read, what went wrong, how long it took). Each is
 * written atomically into OUTDIR. */
#ifndef TC_CENSUS_REPORT_H
#define TC_CENSUS_REPORT_H

#include <stddef.h>

#include "io/tc_corpus.h"
#include "reduce/tc_census_result.h"
#include "report/tc_line.h"
#include "reduce/tc_devtools.h"
#include "reduce/tc_metrics_reduction.h"
#include "report/tc_jsonw.h"
#include "reduce/tc_run_facts.h"
#include "reduce/tc_trace_rows.h"
#include "report/tc_wbuf.h"

/* What the census writers read: the reduced results of a run, never the
 * run itself. Every pointer is borrowed and outlives the writers' calls. */
typedef struct {
  const tc_corpus *corpus;
  const tc_census_result *census;
  const tc_trace_rows *traces;   /* parallel to corpus->traces */
  const tc_run_totals *totals;
  const char *job;      /* job file, or NULL for an ad-hoc run */
  const char *manifest; /* or NULL */
  /* DevTools' view, or NULL when the schema could not be loaded; then
   * schema_error says why and the DevTools fields are null. */
  const tc_devtools *devtools;
  const char *schema_path;
  const char *schema_generator;
  const char *schema_error;
  /* The host facts (threads, simdjson_kernel, seconds, peak_rss_kib,
   * json_mb_per_s) go to host.json and are null in run.json. */
  int timings_apart;
} tc_report_ctx;

tc_err tc_write_census_json(const tc_report_ctx *c, const char *outdir, tc_why *why);
tc_err tc_write_census_csv(const tc_report_ctx *c, const char *outdir, tc_why *why);
tc_err tc_write_census_md(const tc_report_ctx *c, const char *outdir, tc_why *why);
tc_err tc_write_run_json(const tc_report_ctx *c, const char *outdir, tc_why *why);
/* host.json: the host facts alone, for a run whose timings are apart. */
tc_err tc_write_host_json(const tc_report_ctx *c, const char *outdir, tc_why *why);

/* report.html: the census and the metrics reduction M (NULL when the run
 * computed no metrics, which the page says) as one self-contained page
 * with its plots. */
tc_err tc_write_report_html(const tc_report_ctx *c, const tc_metrics_reduction *m,
                            const char *outdir, tc_why *why);

/* Names compared as people look them up: ASCII letters without regard to
 * case, then bytewise, so the order is total. */
int tc_name_cmp(tc_str a, tc_str b);

/* The events of R in tc_name_cmp order, as a malloc'd array of pointers
 * into R that the caller frees; NULL when memory fails. */
const tc_res_event **tc_events_by_name(const tc_census_result *r);

/* One (category, event) pair of the index by category: every event under
 * each of its categories (tc_split_categories), an event without one under
 * the empty category; by category, then event, both in tc_name_cmp order. */
typedef struct {
  tc_str cat; /* points into the event's strings */
  const tc_res_event *event;
} tc_cat_member;

/* *OUT receives the malloc'd pairs the caller frees; returns their count,
 * or 0 with *OUT NULL when memory fails. */
size_t tc_category_index(const tc_census_result *r, tc_cat_member **out);

/* The folder that holds every trace of C (the longest common folder of
 * their paths, "corpus/crawl" for the bundled crawl), empty when there is
 * none: the pages name the corpus by it, the same however the run was
 * given its inputs (folders, files, a merge of shards). Points into C. */
tc_str tc_corpus_root(const tc_corpus *c);

/* The "product-version" of a trace's metadata ("Chrome/156.0..."), or an
 * empty string; points into META. */
tc_str tc_chrome_version(tc_str meta);

typedef struct {
  tc_str version;    /* points into a trace's metadata or the corpus */
  uint32_t traces;
  int from_manifest; /* the traces name none: their sites' manifest rows do */
} tc_version_count;

/* Each metadata block's Chrome version (tc_chrome_version), by block: a
 * block is often tens of KB shared by many traces, so each is read once.
 * Malloc'd; NULL when memory fails. */
tc_str *tc_block_versions(const tc_report_ctx *c);

/* Trace TRACE's Chrome version: its metadata's "product-version" (BLOCK:
 * its metadata block, or TC_NO_BLOCK; VERSIONS from tc_block_versions),
 * else, as a --trace-startup trace names none, its site's chrome_version in
 * the manifest (*FROM_MANIFEST set); empty when neither says. Points into
 * the rows or the corpus. */
tc_str tc_trace_chrome_version(const tc_report_ctx *c, const tc_str *versions, uint32_t trace,
                               uint32_t block, int *from_manifest);

/* Each Chrome version of the traces (tc_trace_chrome_version), bytewise,
 * with how many traces have it; one named by the manifest apart from the
 * same text named by metadata. *OUT receives a malloc'd array the caller
 * frees; returns the count (0 with *OUT NULL when memory fails). */
size_t tc_chrome_versions(const tc_report_ctx *c, tc_version_count **out);

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

/* Argument value profiles (issue 14). The quantiles census.json and
 * census_args.csv give, and their keys. */
#define TC_VALUE_NQ 6
extern const double tc_value_quantiles[TC_VALUE_NQ];
extern const char *const tc_value_quantile_keys[TC_VALUE_NQ];
/* Room for any profile line of tc_valprof_render. */
#define TC_VALUE_LINE_MAX 1024

/* Why an arg path of R has no value profile; static. */
const char *tc_values_na(const tc_census_result *r);

/* census.json's `values` of one arg path: raw counts, numbers, strings
 * (top values under the privacy rule: a value on fewer than MIN_SITES
 * sites is null with `value_na`), the constant and the one-line profile. */
void tc_write_values_json(tc_jsonw *w, const tc_valprof *p, uint32_t min_sites);

/* The manual-style sentence for A of E when its values are constant ("delay
 * is always 0 on 1,466 of 1,466 records on 33 sites.") or one sentinel (0,
 * -1, '', null, false) is at least half of them; else "" and 0. Writes at
 * most CAP bytes (NUL included); returns the length it needed. */
size_t tc_value_sentence(const tc_res_event *e, const tc_res_arg *a, uint32_t min_sites, char *buf,
                         size_t cap);

tc_err tc_write_census_args_csv(const tc_report_ctx *c, const char *outdir, tc_why *why);

/* "string", "number", ... for one TC_JT_* bit; static. */
const char *tc_json_type_name(unsigned bit);

/* ---- internal to the census writers ---- */

/* Writes the file NAME into OUTDIR with FILL, atomically (tc_outfile); an
 * error of FILL's leaves no file and is returned. */
tc_err tc__census_file(const tc_report_ctx *c, const char *outdir, const char *name,
                       tc_err (*fill)(const tc_report_ctx *c, FILE *fp), tc_why *why);

#endif
