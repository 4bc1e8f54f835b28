/* What tc_diff_load keeps of one output folder, for the comparison
 * (private to src/diff). Strings point into the side's parsed trees. */
#ifndef TC_DIFF_SIDE_H
#define TC_DIFF_SIDE_H

#include "diff/tc_diff.h"
#include "json/tc_jtree.h"

enum { TC_DIFF_MAX_MAJORS = 8 };

typedef struct {
  tc_str name;
  double records, sites;
  tc_str *args, *undeclared; /* sorted, distinct; malloc'd */
  uint32_t nargs, nundeclared;
  /* Each of args' value profile (census.json's args[].values), or NULL
   * when the output has none; malloc'd, parallel to args. */
  const tc_jval **arg_values;
  /* Each of args' `site_records` (census.json's args[].site_records) when
   * the output has them: until read, the arrays (malloc'd, parallel to
   * args); then path k's sites, as indexes into the side's sorted `sites`,
   * at arg_site_at[arg_site_off[k]] .. [arg_site_off[k + 1] - 1]. */
  const tc_jval **arg_sites_v;
  uint32_t *arg_site_at, *arg_site_off;
  /* Its `site_records` (when the side has them): sites as indexes into
   * the side's sorted `sites`, ascending by run.json's order, and their
   * records; malloc'd. */
  const tc_jval *site_records_v; /* the array, until read_site_records */
  uint32_t *site_at;
  double *site_recs;
  uint32_t nsite_recs;
} tc_dside_event;

typedef struct {
  tc_str name;     /* the exact bytes: from `site_hex` when it is there */
  char *own;       /* those bytes when decoded from hex (malloc'd), else NULL */
  uint32_t traces;
  uint32_t run_index; /* its place in run.json's `sites` */
  /* Chrome major versions of its traces, sorted and distinct (at most
   * TC_DIFF_MAX_MAJORS, then `more`), and whether a trace had none. */
  uint32_t majors[TC_DIFF_MAX_MAJORS];
  uint8_t nmajors, more_majors, unknown_major;
  uint64_t config; /* hash of its traces' distinct trace configs, 0 if none has one */
  int has_values;  /* a row in metrics.json */
  double m[TC_DIFF_NMETRICS]; /* NAN when n/a */
  tc_str na[TC_DIFF_NMETRICS]; /* the reason of an n/a */
} tc_dside_site;

/* Distinct values of a metric option across traces, sorted. */
enum { TC_DIFF_MAX_OPTS = 8 };
typedef struct {
  double v[TC_DIFF_MAX_OPTS];
  uint32_t n, more;
} tc_dside_opt;

struct tc_diff_side {
  tc_jtree *census, *run, *metrics; /* metrics NULL when the run wrote none */
  double sites_total, traces, records;
  tc_str schema; /* census.json devtools_schema.generator, empty if none */
  tc_str scope;  /* census.json scope; "all" for outputs written before scopes */
  tc_dside_event *events; /* sorted by name */
  uint32_t nevents;
  tc_dside_site *sites; /* sorted by name */
  uint32_t nsites;
  int has_site_records; /* census.json has each event's `site_records` */
  /* ... and each arg path's (arg_sites_seen: a path has been read) */
  int has_arg_site_records, arg_sites_seen;
  tc_dside_opt bucket_ms, budget_ms;
};

/* The shift of one argument path's value profile from A to B, 0 to 1
 * (tc_diff_values.c says how it is read), and in *BASIS what moved most
 * (NULL when nothing did); 0 when either profile is missing or unreadable. */
double tc_diff_value_shift(const tc_jval *a, const tc_jval *b, const char **basis);
/* A profile's `profile` sentence, empty when it has none. */
tc_str tc_diff_profile_text(const tc_jval *v);

#endif
