#include "reduce/tc_census_result.h"

#include <stdlib.h>
#include <string.h>

#include "reduce/tc_site_census.h"

tc_err tc_census_merge(tc_census_worker *const *workers, size_t nw, uint32_t nsites,
                       tc_census_result *out) {
  memset(out, 0, sizeof *out);
  tc_census_fold *f = tc_census_fold_create();
  if (!f)
    return TC_E_NOMEM;
  tc_err e = TC_OK;
  for (uint32_t s = 0; s < nsites && !e; s++) {
    tc_site_census sc;
    tc_site_census_init(&sc);
    if (!(e = tc_site_census_extract(workers, nw, s, 0, &sc)))
      e = tc_census_fold_add(f, s, &sc);
    tc_site_census_free(&sc);
  }
  if (e) {
    tc_census_fold_free(f);
    return e;
  }
  return tc_census_fold_finish(f, out);
}

void tc_census_result_free(tc_census_result *r) {
  if (!r)
    return;
  free(r->all_cats);
  free(r->all_args);
  for (size_t i = 0; i < r->nevents; i++)
    tc_sketch_free(&r->events[i].dur);
  free(r->events);
  tc_map_free(&r->strings);
  memset(r, 0, sizeof *r);
}
