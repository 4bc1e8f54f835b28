#include "reduce/tc_site_unit.h"

#include <stdlib.h>
#include <string.h>

void tc_site_unit_init(tc_site_unit *u) { memset(u, 0, sizeof *u); }

void tc_site_unit_free(tc_site_unit *u) {
  if (!u)
    return;
  free(u->name);
  free(u->status);
  free(u->reason);
  free(u->chrome_version);
  for (uint32_t i = 0; u->traces && i < u->ntraces; i++) {
    free(u->traces[i].path);
    free(u->traces[i].status.meta);
    tc_left_list_free(&u->traces[i].left);
    tc_trace_metrics_free(u->traces[i].metrics);
  }
  free(u->traces);
  tc_vtab_destroy(u->values);
  tc_site_census_free(&u->census);
  tc_site_unit_init(u);
}
