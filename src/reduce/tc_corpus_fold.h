/* The corpus tables, folded one site unit (reduce/tc_site_unit.h) at a
 * time: the one path a run, a resumed run and `tracecensus merge` share.
 *
 * Each unit adds its census tables and value profiles (reduce/
 * tc_census_fold.h), its traces' statuses (counted into the totals and
 * written to the trace rows, metadata kept once per distinct block) and
 * its traces' metrics (reduced to the site's values at once). Units come
 * in corpus order, sites sorted by name; the fold's bytes are promised for
 * that order only. tc_corpus_fold_finish seals every table once, so the
 * writers may then read them from any number of threads. */
#ifndef TC_CORPUS_FOLD_H
#define TC_CORPUS_FOLD_H

#include <stdint.h>

#include "reduce/tc_census_result.h"
#include "reduce/tc_metrics_reduction.h"
#include "reduce/tc_run_facts.h"
#include "reduce/tc_site_unit.h"
#include "reduce/tc_trace_rows.h"
#include "util/tc_error.h"

/* What the writers read of a whole corpus. */
typedef struct {
  tc_census_result census;
  tc_metrics_reduction *metrics; /* every site's and trace's metrics, reduced
                                    and on disk; NULL with metrics off */
  tc_trace_rows traces;          /* every trace's status in corpus order */
  tc_run_totals totals;          /* sums over the traces; how the run went
                                    (threads, seconds, kernel) is its caller's */
} tc_corpus_tables;

/* Frees what T holds and zeroes it; accepts NULL and a zeroed T. */
void tc_corpus_tables_free(tc_corpus_tables *t);

/* Adds ST to T's sums (bytes, events, skipped events, traces with errors). */
void tc_corpus_count_trace(tc_run_totals *t, const tc_trace_status *st);

typedef struct tc_corpus_fold tc_corpus_fold;

/* METRICS: reduce the units' metrics (they must hold them). NULL when out
 * of memory. */
tc_corpus_fold *tc_corpus_fold_create(int metrics);

/* Folds unit U of corpus site SITE, whose traces are the corpus's traces
 * FIRST on. The fold takes U's value profiles and its traces' metadata (U
 * is left without them); the rest stays U's. */
tc_err tc_corpus_fold_add(tc_corpus_fold *f, uint32_t site, uint32_t first, tc_site_unit *u);

/* Ends the fold into *OUT, every table sealed; SCOPE says which processes
 * the units counted, VALUE_SITES is the value profiles' privacy rule (a
 * string value is shown when seen on this many sites), both for the
 * writers. Frees F whatever happens; on failure *OUT is zeroed. */
tc_err tc_corpus_fold_finish(tc_corpus_fold *f, tc_census_scope scope, uint32_t value_sites,
                             tc_corpus_tables *out);

/* Without finishing; accepts NULL. */
void tc_corpus_fold_free(tc_corpus_fold *f);

#endif
