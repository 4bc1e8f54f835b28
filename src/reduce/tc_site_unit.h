/* One site of the corpus as a unit: everything the outputs need of it, on
 * its own. A run makes one per site as soon as the site's traces are done
 * (pipeline/tc_site_window.h), a resumed run and `tracecensus merge` read
 * them back from partial state files (pipeline/tc_partial.h), and all
 * three hand them to the corpus fold (reduce/tc_corpus_fold.h), in corpus
 * order. So a run, a resume and a merge cannot drift apart: they differ
 * only in where their units come from.
 *
 * The site is the unit because "sites" counts each site once: with a site's
 * traces always in one unit, the fold needs no memory of which sites it
 * has seen, and a site's metrics median is computed from one unit.
 *
 * The unit owns every string and table in it (tc_site_unit_free). */
#ifndef TC_SITE_UNIT_H
#define TC_SITE_UNIT_H

#include <stdint.h>

#include "census/tc_vtab.h"
#include "io/tc_file_id.h"
#include "kernels/tc_metrics.h"
#include "reduce/tc_run_facts.h"
#include "reduce/tc_site_census.h"

/* One trace of the site. */
typedef struct {
  char *path;                /* as the corpus scan found it */
  tc_file_id id;             /* taken before the trace was read; zero when
                                the run keeps no state */
  tc_trace_status status;    /* status.meta owned */
  tc_trace_metrics *metrics; /* NULL with metrics off */
  tc_left_list left;         /* its processes the census scope left out */
} tc_unit_trace;

typedef struct {
  char *name, *status, *reason; /* as tc_site; status and reason may be NULL */
  char *chrome_version;      /* the manifest's, as tc_site; may be NULL */
  int in_manifest, from_dir;
  uint32_t ntraces;
  tc_unit_trace *traces;     /* by path, as the corpus orders them */
  tc_site_census census;     /* the site's census tables */
  tc_vtab *values;           /* its traces' value profiles, merged in trace
                                order; NULL when none were kept */
} tc_site_unit;

/* An empty unit, ready to fill or to free. */
void tc_site_unit_init(tc_site_unit *u);

/* Frees everything U holds and leaves it empty (as tc_site_unit_init).
 * Accepts NULL. */
void tc_site_unit_free(tc_site_unit *u);

#endif
