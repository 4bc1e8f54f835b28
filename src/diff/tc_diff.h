/* tracecensus diff: two output folders of tracecensus (A the baseline, B
 * the current crawl) read back and compared.
 *
 * Events and metric distributions are compared over the sites both
 * folders list (the shared sites); a site only one lists is a lone site.
 * An output without census.json's site_records has its events compared
 * over the whole crawls instead.
 *
 * Changes follow the harness's rule (change = (B - A) / |A| x 100 %), and
 * a change is "not comparable" rather than a number when the baseline is
 * zero, the sample counts differ or the conditions differ:
 *   - event figures (records per site, share of sites): a shared site's
 *     Chrome major version or trace config differs, the census scope
 *     differs; over whole crawls also S or the set of sites;
 *   - metric distributions (median and p90 across the shared sites): a
 *     shared site's Chrome major or trace config differs, the metric
 *     options differ, or the number of sites measured (n) differs;
 *   - a site's own metrics: its Chrome major or trace config differs, its
 *     number of traces differs, or the value is n/a on a side.
 * Every "not comparable" says what differs.
 *
 * An argument path on both sides also compares its value profiles
 * (tc_diff_values.c): a shift of TC_DIFF_SHIFT_MIN or more is listed with
 * its evidence and counts in the event's size of change.
 *
 * The core reads and compares; it never prints. A tc_diff borrows from the
 * two sides, which must outlive it. */
#ifndef TC_DIFF_H
#define TC_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "util/tc_error.h"
#include "util/tc_str.h"

/* One output folder, read (census.json and run.json, metrics.json when the
 * run wrote it). Owns everything its strings point into. */
typedef struct tc_diff_side tc_diff_side;


/* Reads DIR. Errors: TC_E_OPEN (a file missing or unreadable, errnum
 * set), TC_E_BAD_JSON (the byte offset when the parser knows one),
 * TC_E_BAD_OUTPUT (valid JSON that is not the output this version writes:
 * a key missing or of another type), TC_E_NOMEM; WHY's path names the
 * file and its reason what was wrong. */
tc_err tc_diff_load(const char *dir, tc_diff_side **out, tc_why *why);
void tc_diff_side_free(tc_diff_side *s); /* accepts NULL */

/* The metrics compared, in this order: key in metrics.json's site
 * values, label, unit. */
enum { TC_DIFF_NMETRICS = 6 };
typedef struct {
  const char *key, *label, *unit;
} tc_diff_metric;
extern const tc_diff_metric tc_diff_metrics[TC_DIFF_NMETRICS];

/* A figure on both sides and its change in percent. A side without the
 * figure is NAN; change is NAN whenever WHY says why it is not a number
 * (not comparable, baseline zero, n/a on a side). */
typedef struct {
  double a, b, change_pct;
  const char *why; /* NULL when change_pct is a number */
} tc_diff_fig;

/* An argument path on both sides whose value profile moved (README.md,
 * "Comparing two crawls", value-profile shift): SHIFT from 0 to 1, what
 * moved most (BASIS: "types", "sentinel zero", "constant", ...), and the
 * profile census.json gives it on each side. */
enum { TC_DIFF_SHIFTS_SHOWN = 3 };
#define TC_DIFF_SHIFT_MIN 0.1
typedef struct {
  tc_str path;
  double shift;
  const char *basis;
  tc_str profile_a, profile_b;
} tc_diff_shift;

/* An event on both sides, or on one side only (the other side's records
 * and sites are NAN). */
typedef struct {
  tc_str name;
  double records_a, records_b, sites_a, sites_b;
  tc_diff_fig per_site; /* records per surveyed site, N/S */
  tc_diff_fig share;    /* share of sites with the event, in percent */
  tc_str *args_new, *args_gone, *undeclared_new, *undeclared_gone;
  uint32_t nargs_new, nargs_gone, nundeclared_new, nundeclared_gone;
  /* Its paths whose profile shifted by TC_DIFF_SHIFT_MIN or more, biggest
   * first (then by path); value_shift is the biggest, 0 when none. */
  tc_diff_shift *shifts;
  uint32_t nshifts;
  double value_shift;
} tc_diff_event;

/* A changed, new or gone event ranked by the size of its change (README.md,
 * "Comparing two crawls", defines change_size): its entry in events_new,
 * events_gone or events_changed, and the argument paths that appeared or
 * vanished (for a new or gone event, all of its paths). */
typedef struct {
  const tc_diff_event *event;
  const char *kind; /* "new", "gone" or "changed" */
  double change_size;
  const tc_str *paths_new, *paths_gone;
  uint32_t npaths_new, npaths_gone;
} tc_diff_rank;

/* The distribution across sites of one metric: nearest-rank median and
 * p90 of the sites that have a value, n on each side. */
typedef struct {
  uint32_t n_a, n_b;
  tc_diff_fig median, p90;
  int changed; /* n, the median or the p90 differs */
} tc_diff_dist;

/* A site on both sides whose metrics changed or are not comparable. */
typedef struct {
  tc_str name;
  uint32_t traces_a, traces_b;
  const char *why; /* its conditions that differ, NULL if none */
  tc_diff_fig m[TC_DIFF_NMETRICS];
} tc_diff_site;

typedef struct {
  const char *dir_a, *dir_b; /* as given */
  double sites_total_a, sites_total_b, traces_a, traces_b, records_a, records_b;
  const char *const *conditions; /* each difference of conditions, one text each */
  uint32_t nconditions;
  const char *events_why;  /* why event changes are not comparable, NULL if they are */
  const char *metrics_why; /* the same for metric distributions */
  const char *metrics_na;  /* no metrics.json on a side: why nothing of metrics is compared */
  const tc_str *sites_new, *sites_gone; /* the lone sites of B and of A */
  uint32_t nsites_new, nsites_gone;
  /* Events are compared over the sites both list ("shared_sites") when
   * both census.json have site_records, else over the whole crawls
   * ("whole_crawls"; BASIS_WHY says which side lacks them). */
  const char *events_basis, *basis_why;
  /* Argument paths too when both census.json also have each path's
   * site_records: a path counts on a side when a shared site has it
   * ("shared_sites"), else every path of the event ("whole_crawls"). Value
   * profiles are the whole crawls' either way. */
  const char *args_basis;
  uint32_t sites_shared;
  uint32_t events_only_on_lone_sites; /* shared_sites: events no shared site has */
  const tc_diff_rank *ranked; /* every new, gone and changed event, biggest change first */
  uint32_t nranked;
  const tc_diff_event *events_new, *events_gone, *events_changed;
  uint32_t nevents_new, nevents_gone, nevents_changed;
  tc_diff_dist dist[TC_DIFF_NMETRICS];
  const tc_diff_site *sites;
  uint32_t nsites;
  int changed; /* anything above differs */
} tc_diff;

/* Compares A (the baseline) with B; DIR_A and DIR_B are only named in the
 * outputs. *OUT is freed with tc_diff_free. Errors: TC_E_NOMEM. */
tc_err tc_diff_compute(const tc_diff_side *a, const tc_diff_side *b, const char *dir_a,
                       const char *dir_b, tc_diff **out);
void tc_diff_free(tc_diff *d); /* accepts NULL */

/* The writers, each one whole file to FP: diff.md for people, diff.json
 * (every figure raw), diff.csv (one row per figure), diff.html (the page,
 * self-contained). */
void tc_diff_write_md(const tc_diff *d, FILE *fp);
void tc_diff_write_json(const tc_diff *d, FILE *fp);
void tc_diff_write_csv(const tc_diff *d, FILE *fp);
void tc_diff_write_html(const tc_diff *d, FILE *fp);

#endif
