/* The corpus-wide census tables, as the census fold (reduce/tc_census_fold.h)
 * leaves them for the writers: per event name its counts, categories, arg
 * paths with their value profiles, duration sketch and example, and the
 * heat map's records per site. Plain data; the result owns all of it. */
#ifndef TC_CENSUS_RESULT_H
#define TC_CENSUS_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "census/tc_vtab.h"
#include "util/tc_sketch.h"
#include "util/tc_map.h"
#include "util/tc_valprof.h"

/* An event's or an arg path's records on one site (its corpus index). */
typedef struct {
  uint32_t site;
  uint64_t records;
} tc_res_site;

typedef struct {
  tc_str path;
  uint64_t records, sites;
  uint8_t types; /* TC_JT_* bits */
  const tc_valprof *values; /* in the result's `values` table; NULL when not profiled */
  /* Its records on each site that has any, by site (in all_arg_sites):
   * which paths a comparison over a subset of the sites (diff) sees. */
  const tc_res_site *site_recs;
  size_t nsite_recs;
} tc_res_arg;

typedef struct {
  tc_str cat; /* the "cat" string as written, e.g. "blink,devtools.timeline" */
  uint64_t records;
} tc_res_cat;

typedef struct {
  tc_str name;
  uint64_t records, sites;
  /* Its records on each site that has any, by site: what a comparison
   * over a subset of the sites (diff) recounts from. */
  const tc_res_site *site_recs;
  size_t nsite_recs;
  uint64_t ph[TC_PH_COUNT];
  uint64_t ph_args[TC_PH_COUNT]; /* of ph: records that carry arguments */
  uint64_t pairs[TC_PAIR_COUNT];
  tc_res_cat *cats; /* most records first, then by text */
  size_t ncats;
  tc_res_arg *args; /* by path */
  size_t nargs;
  tc_sketch dur;    /* of the "dur" field, microseconds */
  uint64_t dur_below[TC_DUR_NLIMITS]; /* exact counts below TC_DUR_LIMITS */
  tc_str example;   /* raw JSON of the chosen example event */
  /* Records the scope left out (TC_LEFT_*: Chrome's own UI, other
   * renderers), and the sites with any. */
  uint64_t left[TC_LEFT_COUNT], left_sites[TC_LEFT_COUNT];
} tc_res_event;

typedef struct {
  tc_res_event *events; /* by name: every event the scope counts */
  size_t nevents;
  uint64_t records;     /* the records the scope counts */
  /* Events whose every record the scope left out, by name: only their
   * names and `left` counts are set. */
  tc_res_event *outside;
  size_t noutside;
  uint64_t left[TC_LEFT_COUNT]; /* all records left out, by why */
  tc_res_cat *all_cats; /* owns every event's cats slice */
  tc_res_arg *all_args; /* owns every event's args slice */
  tc_res_site *all_sites; /* owns every event's site_recs slice */
  tc_res_site *all_arg_sites; /* owns every arg's site_recs slice */
  tc_map strings;       /* owns every string above */
  tc_vtab *values;      /* owns every arg's profile (tc_census_take_values); or NULL */
  tc_census_scope scope; /* the processes the tables count (census/tc_census.h) */
  uint32_t value_sites; /* the profiles' privacy rule: a string value is shown
                           when seen on this many sites (tc_valprof_render;
                           TC_VALUE_SITES_DEFAULT unless asked) */
  /* Records per site of the events with most records, for a report's
   * sites x events heat map: top[k] indexes events (most records first,
   * then by name), site_records[site * ntop + k] its records in the site
   * of that corpus index, for sites 0 .. nsites-1 (a site past nsites was
   * never folded: it has none). ntop = min(TC_TOP_EVENTS, nevents). */
  uint32_t *top;
  size_t ntop;
  uint32_t nsites;
  uint64_t *site_records;
} tc_census_result;

#define TC_TOP_EVENTS 20

/* The value profiles' privacy rule by default: a string argument value
 * (other than '' and a URL cut to scheme + host) is printed only when seen
 * on this many sites. */
#define TC_VALUE_SITES_DEFAULT 3

void tc_census_result_free(tc_census_result *r); /* accepts NULL */

#endif
