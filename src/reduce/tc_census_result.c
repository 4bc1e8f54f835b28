#include "reduce/tc_census_result.h"

#include <stdlib.h>
#include <string.h>


void tc_census_result_free(tc_census_result *r) {
  if (!r)
    return;
  free(r->all_cats);
  free(r->all_args);
  free(r->all_sites);
  free(r->all_arg_sites);
  tc_vtab_destroy(r->values);
  for (size_t i = 0; i < r->nevents; i++)
    tc_sketch_free(&r->events[i].dur);
  free(r->events);
  free(r->outside);
  free(r->top);
  free(r->site_records);
  tc_map_free(&r->strings);
  memset(r, 0, sizeof *r);
}
