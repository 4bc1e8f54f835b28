#include "reduce/tc_values.h"

void tc_census_take_values(tc_census_result *r, tc_vtab *t) {
  r->values = t;
  for (size_t i = 0; i < r->nevents; i++) {
    tc_res_event *re = &r->events[i];
    for (size_t a = 0; a < re->nargs; a++)
      re->args[a].values = tc_vtab_find(t, re->name, re->args[a].path);
  }
}
