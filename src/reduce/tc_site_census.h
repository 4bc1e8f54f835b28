/* One site's census tables, on their own: the unit that partial files hold
 * (pipeline/tc_partial.h) and that the corpus tables are folded from.
 *
 * A site is the unit because "sites" counts each site once: with a site's
 * traces always in one unit, a fold needs no memory of which sites it has
 * seen, and units from any number of runs or shards add up to the one-run
 * result. The one-machine run goes through the same units (extracted from
 * its workers as each site finishes), so a run, a resumed run and a merge
 * of shards fold the same values in the same order.
 *
 * Everything here is independent of the workers that counted it: names,
 * categories and paths are text, every list is sorted by a total order on
 * its content (events by name, categories by text, paths by text), and the
 * example's trace is its place among the site's traces, so equal counts
 * give equal units whatever the thread count or schedule. The unit owns
 * all of it (tc_site_census_free). */
#ifndef TC_SITE_CENSUS_H
#define TC_SITE_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "census/tc_vtab.h"
#include "util/tc_map.h"
#include "util/tc_sketch.h"

typedef struct {
  tc_str text;      /* the "cat" string as written */
  uint64_t records;
} tc_sc_cat;

typedef struct {
  tc_str path;
  uint64_t records;
  uint8_t types;    /* TC_JT_* bits */
} tc_sc_arg;

typedef struct {
  int have;
  uint32_t oversize, neg_paths; /* as tc_example */
  uint32_t trace;   /* the trace's place among the site's traces (by path) */
  uint64_t index;   /* the event's index in its trace */
  tc_str raw;       /* the event's JSON */
} tc_sc_example;

typedef struct {
  tc_str name;
  tc_name_counts counts;
  tc_sc_cat *cats;  /* a slice of all_cats, by text */
  uint32_t ncats;
  tc_sc_arg *args;  /* a slice of all_args, by path */
  uint32_t nargs;
  tc_sketch dur;
  uint64_t dur_below[TC_DUR_NLIMITS];
  tc_sc_example ex;
  uint64_t left[TC_LEFT_COUNT]; /* records of processes the scope left out, by
                                   why; an event may have these alone */
} tc_sc_event;

typedef struct {
  tc_sc_event *events; /* by name */
  size_t nevents;
  tc_sc_cat *all_cats;
  size_t ncats;
  tc_sc_arg *all_args;
  size_t nargs;
  tc_map strings;      /* owns every string above */
} tc_site_census;

/* A zeroed tc_site_census is an empty one; init zeroes one that is not. */
void tc_site_census_init(tc_site_census *s);
void tc_site_census_free(tc_site_census *s);

/* What the extraction does with one process of one of the site's traces
 * (TRACE its place among them): TC_SCOPE_KEEP to count it, else the
 * TC_LEFT_* reason it is left out. Asked once per worker that holds
 * records of the process, with RECORDS the worker's records of it, and
 * once more, RECORDS 0, before; the answer must be the same each time. */
typedef int (*tc_scope_fn)(void *ctx, uint32_t trace, int64_t pid, uint64_t records);
#define TC_SCOPE_KEEP (-1)

/* Gathers SITE's tables from NW workers into *OUT (initialised, empty):
 * the processes SCOPE keeps (NULL keeps every one) added up, and the
 * records of the others, per event and reason, in `left`. FIRST_TRACE is
 * the corpus index of the site's first trace, to make the example's trace
 * local. The workers are only read. */
tc_err tc_site_census_extract(tc_census_worker *const *workers, size_t nw, uint32_t site,
                              uint32_t first_trace, tc_scope_fn scope, void *ctx,
                              tc_site_census *out);

/* A decoder fills the struct directly: events, all_cats and all_args from
 * malloc, strings interned into `strings`, and each event's slices pointing
 * into the two arrays in event order. */

#endif
