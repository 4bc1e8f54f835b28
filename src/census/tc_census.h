/* Per-worker census accumulation.
 *
 * Each worker owns a tc_census_worker and adds the chunks it parses to it:
 * per site and event name, records by phase; categories; argument paths
 * with their types; the duration sketch and one example event. Everything
 * here is a sum, a union or a minimum under a fixed order, so a site's
 * tables (tc_site_census_extract) do not depend on which worker saw which
 * chunk. Everything is kept per site, so a finished site's tables can be
 * taken out (tc_census_site_release) and memory follows the sites in
 * flight, not the corpus. Not thread-safe: one owner. */
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

/* Adds pair counts for NAME in SITE (called by the fold). */
tc_err tc_census_add_pairs(tc_census_worker *w, uint32_t site, tc_str name,
                           const uint64_t pairs[TC_PAIR_COUNT]);

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
/* NULL if the worker saw nothing of SITE. */
const tc_site_acc *tc_census_site(const tc_census_worker *w, uint32_t site);
/* Frees SITE's tables (once no chunk of it is in flight). */
void tc_census_site_release(tc_census_worker *w, uint32_t site);

/* Counts of NAME_ID in a site's tables, or NULL if the site has none. */
const tc_name_counts *tc_site_name(const tc_site_acc *s, uint32_t name_id);

/* Order of example candidates: smaller is preferred. */
int tc_example_cmp(const tc_example *a, const tc_example *b);

#endif
