/* The corpus's value profiles joined to the census tables: every trace's
 * tc_vtab is merged into one corpus table in corpus order (site, then trace
 * path; pipeline/tc_run does it as each site is folded), the order
 * tc_topk.h asks for, so the top values and their sites come out
 * byte-identical at any thread count, chunk size or input order. */
#ifndef TC_VALUES_H
#define TC_VALUES_H

#include "census/tc_vtab.h"
#include "reduce/tc_census_result.h"
#include "util/tc_error.h"

/* Gives R the corpus table T (malloc'd, initialised; R owns it from here):
 * each of R's arg paths gets its profile in `values`. */
void tc_census_take_values(tc_census_result *r, tc_vtab *t);

#endif
