/* Tests only: traces' metrics collected in any order, from any number of
 * threads at once (one mutex guards the list), then sorted and reduced
 * through the library's one way in (tc_metrics_reduction_add_site, in
 * corpus order), so a test can build a reduction from hand-made traces
 * without a run. */
#ifndef METRICS_SET_H
#define METRICS_SET_H

#include <stddef.h>

#include "kernels/tc_metrics.h"
#include "reduce/tc_metrics_reduction.h"
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

/* Sorts S (site, then trace path) and adds its sites to a new reduction,
 * the sites without trace in their places. On TC_OK the caller owns *out
 * (tc_metrics_reduction_free); S is not changed. */
tc_err tc_metrics_reduce(const tc_metrics_set *s, tc_metrics_reduction **out);

#endif
