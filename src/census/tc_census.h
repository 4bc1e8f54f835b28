/* Per-worker census accumulation.
 *
 * Each worker owns a tc_census_worker and adds the chunks it parses to it:
 * per event name, records by phase; categories; argument paths with their
 * types; the duration sketch and one example event. Everything here is a
 * sum, a union or a minimum under a fixed order, so a site's tables
 * (tc_site_census_extract) do not depend on which worker saw which chunk.
 *
 * Tables are kept per site, and within a site per trace and process (one
 * tc_site_acc each): which processes a site's census counts is known only
 * once each trace has ended and its process map has decided
 * (procs/tc_procmap.h), so the extraction adds up the processes the scope
 * keeps and counts the rest as left out. Memory grows with the processes
 * of the traces in flight times their names, never with the events. A
 * finished site's tables are taken out (tc_census_site_release), so memory
 * follows the sites in flight, not the corpus. Not thread-safe: one
 * owner. */
#ifndef TC_CENSUS_H
#define TC_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_labels.h"
#include "census/tc_phase.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"
#include "util/tc_sketch.h"
#include "util/tc_error.h"
#include "util/tc_map.h"

/* Pair counts found by the in-order fold (tc_pairing). */
enum {
  TC_PAIR_BEGIN_END,       /* B matched with a later E on the same thread */
  TC_PAIR_BE_UNMATCHED,    /* B or E records left without a partner */
  TC_PAIR_FLOW,            /* s matched with f of the same id, cat and name */
  TC_PAIR_FLOW_UNPAIRED,   /* s or f records left without a partner */
  TC_PAIR_ASYNC,           /* b/e or S/F spans of the same id, cat and name */
  TC_PAIR_ASYNC_UNPAIRED,  /* their begin or end records left alone */
  TC_PAIR_COUNT
};

/* Which processes of a trace the census counts, by what the trace's
 * process map (procs/tc_procmap.h) says each is:
 *   no-chrome-ui  every process but the renderers of Chrome's own UI
 *                 (role browser_ui: pages such as chrome://omnibox-popup);
 *                 the default
 *   page          the page under test's renderer and its iframes'
 *                 renderers, with the browser, GPU and utility processes:
 *                 other tabs and spare renderers left out too
 *   all           every record of the trace
 * A trace whose page is itself a browser page (a user tracing
 * chrome://version on purpose) keeps it: the page is never left out. */
typedef enum { TC_SCOPE_NO_CHROME_UI, TC_SCOPE_PAGE, TC_SCOPE_ALL, TC_SCOPE_COUNT_ } tc_census_scope;

/* "no-chrome-ui", "page", "all"; static. */
const char *tc_scope_name(tc_census_scope s);
/* What it counts, in words for a report's header; static. */
const char *tc_scope_text(tc_census_scope s);
/* The scope named NAME into *OUT: 0, or -1 when NAME names none. */
int tc_scope_parse(const char *name, tc_census_scope *out);

/* Why a scoped census left a process's records out: a renderer of
 * Chrome's own UI, or a renderer of something other than the page under
 * test (another tab, a spare renderer). */
enum { TC_LEFT_BROWSER_UI, TC_LEFT_OTHER_RENDERER, TC_LEFT_COUNT };

/* "browser_ui", "other_renderer"; static. */
const char *tc_left_name(int why);

/* Where a chunk came from, for the order that picks example events. */
typedef struct {
  uint32_t site;  /* index of the site in the sorted corpus */
  uint32_t trace; /* index of the trace in the sorted corpus */
} tc_origin;

typedef struct tc_census_worker tc_census_worker;

/* Names, categories and path ids are PARSER's (borrowed; pair counts
 * intern their names in it, so the worker must be its parser's only other
 * user). */
tc_census_worker *tc_census_worker_create(uint32_t nsites, tc_parser *parser);
void tc_census_worker_free(tc_census_worker *w);

/* Adds a parsed chunk's order-free statistics (events with err set are
 * skipped: the caller reports them). What needs trace order goes to the
 * fold through pipeline/tc_route.h, not through here. */
tc_err tc_census_add_chunk(tc_census_worker *w, tc_origin o, const tc_chunk *c,
                           const tc_parsed *p);

/* Adds pair counts for NAME in process PID of TRACE (a corpus index) of
 * SITE (called by the fold at the end of the trace). */
tc_err tc_census_add_pairs(tc_census_worker *w, uint32_t site, uint32_t trace, int64_t pid,
                           tc_str name, const uint64_t pairs[TC_PAIR_COUNT]);

/* Read access for the merge. Name and category ids are the parser's
 * (tc_parser_names, tc_parser_cats). */
typedef struct {
  uint64_t ph[TC_PH_COUNT];
  uint64_t ph_args[TC_PH_COUNT]; /* of ph: records with at least one arg path */
  uint64_t pairs[TC_PAIR_COUNT];
} tc_name_counts;

typedef struct {
  uint64_t records;
  uint8_t types;
} tc_path_counts;

typedef struct {
  int have;
  uint32_t oversize;  /* 1 if the raw event is longer than the preferred size */
  uint32_t neg_paths; /* UINT32_MAX - number of argument paths */
  uint32_t site, trace;
  uint64_t index;
  char *raw; /* owned */
  size_t len;
} tc_example;

/* Per site and name: what the duration class and the example need. */
typedef struct {
  tc_sketch dur; /* of "dur", microseconds */
  uint64_t dur_below[TC_DUR_NLIMITS]; /* exact counts below TC_DUR_LIMITS */
  tc_example ex;
} tc_name_detail;

/* One site's tables. Names are sparse (a site sees a few hundred of the
 * corpus's names), so memory follows what each site holds, not sites times
 * all names. */
typedef struct {
  tc_imap name_idx;      /* worker name id -> slot */
  tc_name_counts *names; /* by slot */
  tc_name_detail *detail; /* by slot */
  size_t detail_cap;
  uint32_t *name_ids;    /* by slot: the worker name id */
  size_t names_cap, ids_cap;
  tc_imap cat_idx;       /* (name id << 32 | cat id) -> index */
  uint64_t *cat_counts;
  size_t cat_cap;
  tc_imap path_idx;      /* (name id << 32 | path id) -> index */
  tc_path_counts *paths;
  size_t paths_cap;
  /* What the indexes above would answer, kept where an event finds it
   * without hashing: by name id, slot + 1 (0: not yet seen); by slot, the
   * category met last (cat id + 1) and its index; by path id, the name met
   * last with it (name id + 1, as a path nearly always belongs to one name)
   * and its index. */
  uint32_t *slot_of;
  size_t slot_of_cap;
  struct tc_cat_last {
    uint32_t cat1, idx;
  } *cat_last;
  size_t cat_last_cap;
  struct tc_path_last {
    uint32_t name1, idx;
  } *path_last;
  size_t path_last_cap;
} tc_site_acc;

const tc_map *tc_census_names(const tc_census_worker *w);
const tc_map *tc_census_cats(const tc_census_worker *w);
const tc_parser *tc_census_parser(const tc_census_worker *w);

/* One process's tables in one trace of a site. */
typedef struct {
  uint32_t trace; /* corpus index */
  int64_t pid;    /* TC_NO_ID for the events that name no process */
  tc_site_acc *acc;
} tc_census_unit;

/* SITE's tables, one per (trace, process) the worker saw, in first-seen
 * order, into *OUT (the worker's; valid until the site is released or a
 * chunk of it is added); their number. */
size_t tc_census_site_units(const tc_census_worker *w, uint32_t site, const tc_census_unit **out);
/* Frees SITE's tables (once no chunk of it is in flight). */
void tc_census_site_release(tc_census_worker *w, uint32_t site);

/* Adds SRC's tables into DST (both filled with one parser's ids), as if
 * DST had seen SRC's events too. */
tc_err tc_site_acc_absorb(tc_site_acc *dst, const tc_site_acc *src);
/* The records S holds (all phases). */
uint64_t tc_site_acc_records(const tc_site_acc *s);
/* A tc_site_acc from calloc is empty and ready; this frees it. Accepts NULL. */
void tc_site_acc_free(tc_site_acc *s);

/* Counts of NAME_ID in a table, or NULL if it has none. */
const tc_name_counts *tc_site_name(const tc_site_acc *s, uint32_t name_id);

/* Order of example candidates: smaller is preferred. */
int tc_example_cmp(const tc_example *a, const tc_example *b);

#endif
