/* Traces' metrics reduced to per-site values and corpus distributions.
 *
 * A run (and a merge) folds sites in corpus order, so it adds each site to
 * a tc_metrics_reduction as soon as the site is folded
 * (tc_metrics_reduction_add_site, through reduce/tc_corpus_fold.h): the
 * site is reduced at once and it and its traces are written out as
 * records, so nothing per trace stays in memory.
 *
 * Reduction never depends on the order traces were added: a site's traces
 * come by path (bytewise, tc_str_cmp), which is corpus order. A site's
 * value for a metric is the nearest-rank median (rank ceil(n/2)) of its
 * traces that measured it; all its traces are kept. Corpus distributions
 * take the page view as the unit, one per site (its median trace), in
 * tc_sketch histograms (relative error TC_SKETCH_ALPHA): sites reduced on
 * different shards merge into the same table, as long as a site is not
 * split across shards.
 *
 * Nothing is dropped for lack of data. A trace that could not be read is
 * added like any other (tc_metrics_unreadable): it is listed and counted,
 * and being n/a throughout it adds no value to its site's medians; a site
 * whose traces were all unreadable is n/a with trace_unreadable. A site the
 * crawl left no trace for is added with no traces and the crawl's reason:
 * it is listed among the sites, n/a with no_trace, and, having no page
 * view, is in no corpus distribution (their `n` counts the sites that
 * measured a metric). */
#ifndef TC_METRICS_REDUCTION_H
#define TC_METRICS_REDUCTION_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/tc_metrics.h"
#include "util/tc_sketch.h"
#include "util/tc_spill.h"
#include "util/tc_error.h"


typedef struct {
  const char *site;       /* valid as long as the record it was read with */
  size_t first, ntraces;  /* its traces: trace records [first, first+ntraces);
                             0 for a site without trace */
  double *values;         /* per tc_metric_fields() entry; NaN: no trace measured it */
  tc_na *values_na;       /* per field: why its value is NaN (NONE when it is not):
                             the group's na below, else the reason of its first
                             trace that measured the group */
  tc_na na[TC_GROUP_COUNT_];          /* NONE if any trace measured the group, else the
                                         reason of its first readable trace;
                                         TRACE_UNREADABLE if none was readable,
                                         NO_TRACE if it has no trace */
  uint32_t measured[TC_GROUP_COUNT_]; /* traces that measured the group */
  uint32_t unreadable;    /* its traces that could not be read */
  const char *no_trace_reason; /* a site without trace: the crawl's reason
                                  (may be NULL); else NULL */
} tc_site_metrics;

/* The reduction: the corpus figures in memory, every trace's metrics and
 * every site's values as records on disk (util/tc_spill.h), read back in
 * order with a tc_metrics_cursor, so memory does not grow with the number
 * of traces or sites. Sites are in bytewise order of name, each site's
 * traces together in the order they were added. */
typedef struct {
  size_t ntraces;                  /* unreadable ones included */
  size_t ntraces_unreadable;       /* main_na TC_NA_TRACE_UNREADABLE */
  size_t nsites;                   /* with or without traces */
  size_t nsites_without_trace;
  size_t nfields;
  const tc_metric_field *fields;   /* tc_metric_fields() */
  uint32_t na_traces[TC_GROUP_COUNT_][TC_NA_COUNT_]; /* traces per group and reason */
  /* Internal: the records and the last site added. */
  tc_spill trace_rows, site_rows;
  char *last_site;
  tc_sketch corpus[]; /* per field: site values; empty for can_be_negative fields */
} tc_metrics_reduction;

/* The Q-quantile of a corpus distribution, NaN when it has fewer values
 * than tc_min_samples(Q) asks (every percentile the reports print). */
double tc_metrics_corpus_quantile(const tc_sketch *s, double q);

/* An empty reduction to add sites to; NULL when out of memory. */
tc_metrics_reduction *tc_metrics_reduction_create(void);

/* Reduces one site from its N traces' metrics (borrowed; N 0 for a site the
 * crawl left without trace, REASON saying why, may be NULL) and appends the
 * site and its traces to R's records. Sites come in bytewise order of
 * name, each once (TC_E_USAGE otherwise): a run and a merge fold sites in
 * corpus order, which is that order, so the reduction streams. TC_E_NOMEM,
 * or TC_E_WRITE when the records cannot be written; R is then only fit to
 * be freed. */
tc_err tc_metrics_reduction_add_site(tc_metrics_reduction *r, const char *site,
                                     const tc_trace_metrics *const *traces, size_t n,
                                     const char *reason);

/* Makes every record readable from any thread (tc_spill_flush). */
tc_err tc_metrics_reduction_seal(tc_metrics_reduction *r);

/* Accepts NULL. */
void tc_metrics_reduction_free(tc_metrics_reduction *r);

/* Reads a sealed reduction's records back, one trace and one site at a
 * time: what a call returns is valid until the cursor's next call of the
 * same kind, or its free. One cursor per thread. A record that cannot be
 * read back (the spill file failed) gives an empty object (site NULL, every
 * value NaN) and is remembered: tc_metrics_cursor_free returns the error,
 * so a writer drops its file rather than write wrong rows. */
typedef struct {
  const tc_metrics_reduction *r;
  unsigned char *buf;
  size_t cap;
  tc_trace_metrics *trace;
  tc_trace_metrics empty_trace;
  tc_site_metrics site;
  char *site_name, *site_reason;
  tc_err err;
} tc_metrics_cursor;

/* TC_E_NOMEM when its buffers cannot be had (then free it all the same). */
tc_err tc_metrics_cursor_init(tc_metrics_cursor *c, const tc_metrics_reduction *r);
const tc_trace_metrics *tc_metrics_cursor_trace(tc_metrics_cursor *c, size_t i);
const tc_site_metrics *tc_metrics_cursor_site(tc_metrics_cursor *c, size_t i);
/* Frees what the cursor holds; returns its first error. */
tc_err tc_metrics_cursor_free(tc_metrics_cursor *c);

#endif
