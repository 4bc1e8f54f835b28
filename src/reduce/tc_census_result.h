/* The corpus-wide census tables, merged from every worker's accumulators.
 *
 * Merging walks sites in corpus order and, per site, every worker: counts
 * add, "sites" counts each site once, sketches merge bucket-wise and the
 * example is the minimum under tc_example_cmp. Every list is sorted by a
 * total order on its own content, so the result is the same whatever the
 * thread count, the schedule or the order of the input files. */
#ifndef TC_CENSUS_RESULT_H
#define TC_CENSUS_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "util/tc_sketch.h"
#include "util/tc_map.h"

typedef struct {
  tc_str path;
  uint64_t records, sites;
  uint8_t types; /* TC_JT_* bits */
} tc_res_arg;

typedef struct {
  tc_str cat; /* the "cat" string as written, e.g. "blink,devtools.timeline" */
  uint64_t records;
} tc_res_cat;

typedef struct {
  tc_str name;
  uint64_t records, sites;
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
} tc_res_event;

typedef struct {
  tc_res_event *events; /* by name */
  size_t nevents;
  uint64_t records;     /* all parsed event records */
  tc_res_cat *all_cats; /* owns every event's cats slice */
  tc_res_arg *all_args; /* owns every event's args slice */
  tc_map strings;       /* owns every string above */
} tc_census_result;

/* Merges NW workers' accumulators over NSITES sites into *OUT, site by site
 * through tc_site_census_extract and tc_census_fold (reduce/tc_site_census.h),
 * which the caller releases with tc_census_result_free. */
tc_err tc_census_merge(tc_census_worker *const *workers, size_t nw, uint32_t nsites,
                       tc_census_result *out);

void tc_census_result_free(tc_census_result *r);

#endif
