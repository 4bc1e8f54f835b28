/* The corpus census tables, folded one site's tables (tc_site_census) at a
 * time, in corpus order.
 *
 * Each site is folded once, with its index in the whole corpus (sorted by
 * name), which orders the examples; sites may come in any order but the
 * result's bytes are only promised for corpus order, which the run and the
 * merge keep (reduce/tc_corpus_fold.h folds whole site units through here).
 * Counts add, "sites" counts each site once (a site's traces are always in
 * one unit), sketches merge bucket-wise and the example is the minimum under
 * tc_example_cmp. Every list is sorted by a total order on its own content,
 * so the result is the same whatever the thread count, the schedule or the
 * order of the input files. */
#ifndef TC_CENSUS_FOLD_H
#define TC_CENSUS_FOLD_H

#include <stdint.h>

#include "census/tc_vtab.h"
#include "reduce/tc_census_result.h"
#include "reduce/tc_site_census.h"
#include "util/tc_error.h"

typedef struct tc_census_fold tc_census_fold;

tc_census_fold *tc_census_fold_create(void); /* NULL when out of memory */

/* Adds site SITE's tables S (only read). */
tc_err tc_census_fold_add(tc_census_fold *f, uint32_t site, const tc_site_census *s);

/* Adds a site's value profiles (its traces' tables merged in trace order),
 * after every site added before: folded in site order, as the tables are,
 * so a run, a resumed run and a merge of shards give the same profiles,
 * the order util/tc_topk.h asks for. The profiles move into the fold
 * (tc_vtab_absorb): SITE_VALUES is left empty. */
tc_err tc_census_fold_add_values(tc_census_fold *f, tc_vtab *site_values);

/* Ends the fold into *OUT (the caller frees it with tc_census_result_free),
 * each arg path joined to its value profile, and frees F, also on
 * failure. */
tc_err tc_census_fold_finish(tc_census_fold *f, tc_census_result *out);

void tc_census_fold_free(tc_census_fold *f); /* without finishing; accepts NULL */

#endif
