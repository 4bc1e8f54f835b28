/* The corpus's value profiles: every trace's tc_vtab merged in one total
 * order of the traces that the caller fixes (tc_run: the schedule's, largest
 * sites first, a site's traces together in corpus order), whatever order
 * the traces finish in. As tc_topk.h asks, so the top values and their
 * sites come out byte-identical at any thread count, chunk size or input
 * order.
 *
 * Memory: the merged table, plus the tables of traces that finished before
 * an earlier one in that order, held until it finishes (each bounded as
 * tc_vtab.h says). Thread-safe: any worker offers its finished traces. */
#ifndef TC_VALUES_H
#define TC_VALUES_H

#include <stdint.h>

#include "census/tc_vtab.h"
#include "reduce/tc_census_result.h"
#include "util/tc_error.h"

typedef struct tc_vcorpus tc_vcorpus;

/* For NTRACES traces, numbered 0 .. NTRACES-1 in merge order, whose tables
 * all have FLAGS. NULL if memory fails. */
tc_vcorpus *tc_vcorpus_create(uint32_t ntraces, uint32_t flags);
void tc_vcorpus_free(tc_vcorpus *c);

/* Hands over the table of the trace numbered TRACE (malloc'd, initialised; owned by C from
 * here, also on failure; NULL for a trace that left none) and merges every
 * table whose earlier traces are all in. Each trace is offered once.
 * Returns the first error any merge met, then and on every later call. */
tc_err tc_vcorpus_offer(tc_vcorpus *c, uint32_t trace, tc_vtab *t);

/* Gives R the merged table (every trace must have been offered): each of
 * its arg paths gets its profile in `values`, and R owns the table. C is
 * freed, also on failure. */
tc_err tc_census_take_values(tc_census_result *r, tc_vcorpus *c);

#endif
