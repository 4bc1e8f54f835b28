/* Every trace's metrics, collected from the workers, and their reduction to
 * per-site values and corpus distributions.
 *
 * Collection: tc_metrics_set_add may be called from any number of threads
 * at once (one mutex guards the list). Reduction and writing read the set
 * without locking: call them after every add has returned.
 *
 * Reduction never depends on the order traces were added: traces are sorted
 * by site, then trace path (bytewise, tc_str_cmp). A site's value for a
 * metric is the nearest-rank median (rank ceil(n/2)) of its traces that
 * measured it; all its traces are kept. Corpus distributions take the page
 * view as the unit, one per site (its median trace), in tc_sketch histograms
 * (relative error TC_SKETCH_ALPHA): sites reduced on different shards merge
 * into the same table, as long as a site is not split across shards.
 *
 * Nothing is dropped for lack of data. A trace that could not be read is
 * added like any other (tc_metrics_unreadable): it is listed and counted,
 * and being n/a throughout it adds no value to its site's medians; a site
 * whose traces were all unreadable is n/a with trace_unreadable. A site the
 * crawl left no trace for is registered with
 * tc_metrics_set_add_site_without_trace: it is listed among the sites, n/a
 * with no_trace and the crawl's reason, and, having no page view, is in no
 * corpus distribution (their `n` counts the sites that measured a metric). */
#ifndef TC_METRICS_SET_H
#define TC_METRICS_SET_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/tc_metrics.h"
#include "util/tc_sketch.h"
#include "util/tc_error.h"

typedef struct tc_metrics_set tc_metrics_set;

/* NULL when out of memory. */
tc_metrics_set *tc_metrics_set_create(void);

/* Frees the set and every metrics object in it. Accepts NULL. */
void tc_metrics_set_free(tc_metrics_set *s);

/* Thread-safe. Takes ownership of M in every case (freed on failure). */
tc_err tc_metrics_set_add(tc_metrics_set *s, tc_trace_metrics *m);

/* Thread-safe. Registers SITE as a site of the crawl that left no trace;
 * REASON says why (the manifest's words, may be NULL). Both are copied.
 * A site that also has traces in the set is reported from its traces and
 * this registration is ignored; a site registered twice keeps the reason
 * first in bytewise order, so the outcome never depends on the order of
 * calls. TC_E_NOMEM leaves the set unchanged. */
tc_err tc_metrics_set_add_site_without_trace(tc_metrics_set *s, const char *site,
                                             const char *reason);

/* Traces added, unreadable ones included. */
size_t tc_metrics_set_count(const tc_metrics_set *s);

typedef struct {
  const char *site;       /* borrowed from the set */
  size_t first, ntraces;  /* its traces: traces[first .. first+ntraces); 0 for
                             a site without trace */
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
  const char *no_trace_reason; /* a site without trace: the crawl's reason,
                                  borrowed from the set (may be NULL); else NULL */
} tc_site_metrics;

typedef struct {
  size_t ntraces;                  /* unreadable ones included */
  const tc_trace_metrics **traces; /* sorted; borrowed from the set */
  size_t ntraces_unreadable;       /* main_na TC_NA_TRACE_UNREADABLE */
  size_t nsites;                   /* with or without traces */
  tc_site_metrics *sites;          /* by site, bytewise */
  size_t nsites_without_trace;
  size_t nfields;
  const tc_metric_field *fields;   /* tc_metric_fields() */
  tc_sketch *corpus;  /* per field: site values; empty for can_be_negative fields */
  uint32_t na_traces[TC_GROUP_COUNT_][TC_NA_COUNT_]; /* traces per group and reason */
} tc_metrics_reduction;

/* The Q-quantile of a corpus distribution, NaN when it has fewer values
 * than tc_min_samples(Q) asks (every percentile the reports print). */
double tc_metrics_corpus_quantile(const tc_sketch *s, double q);

/* On TC_OK the caller owns *out (tc_metrics_reduction_free); it borrows from
 * S, which must outlive it and not change meanwhile. */
tc_err tc_metrics_reduce(const tc_metrics_set *s, tc_metrics_reduction **out);

/* Accepts NULL. */
void tc_metrics_reduction_free(tc_metrics_reduction *r);

#endif
