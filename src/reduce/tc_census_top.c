/* The heat map's data: records per site of the events with most records,
 * read back from the workers' per-site tables once the totals are known
 * (the merge keeps no per-site counts, whose size would be sites times
 * names). */
#include <stdlib.h>

#include "reduce/tc_census_result.h"

typedef struct {
  uint64_t records;
  tc_str name;
  uint32_t index;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return tc_str_cmp(x->name, y->name);
}

tc_err tc_census_top_sites(tc_census_worker *const *workers, size_t nw, uint32_t nsites,
                           tc_census_result *r) {
  ranked *all = malloc((r->nevents ? r->nevents : 1) * sizeof *all);
  if (!all)
    return TC_E_NOMEM;
  for (size_t i = 0; i < r->nevents; i++)
    all[i] = (ranked){r->events[i].records, r->events[i].name, (uint32_t)i};
  qsort(all, r->nevents, sizeof *all, cmp_ranked);
  size_t k = r->nevents < TC_TOP_EVENTS ? r->nevents : TC_TOP_EVENTS;
  uint64_t *cells = calloc(nsites * k ? nsites * k : 1, sizeof *cells);
  uint32_t *top = malloc((k ? k : 1) * sizeof *top);
  for (size_t t = 0; top && t < k; t++)
    top[t] = all[t].index;
  free(all);
  if (!cells || !top) {
    free(cells);
    free(top);
    return TC_E_NOMEM;
  }
  for (size_t t = 0; t < k; t++) {
    for (size_t w = 0; w < nw; w++) {
      uint32_t id = tc_map_find(tc_census_names(workers[w]), r->events[top[t]].name);
      if (id == UINT32_MAX)
        continue;
      for (uint32_t s = 0; s < nsites; s++) {
        const tc_site_acc *acc = tc_census_site(workers[w], s);
        const tc_name_counts *nc = acc ? tc_site_name(acc, id) : NULL;
        for (int p = 0; nc && p < TC_PH_COUNT; p++)
          cells[s * k + t] += nc->ph[p];
      }
    }
  }
  r->top = top;
  r->ntop = k;
  r->nsites = nsites;
  r->site_records = cells;
  return TC_OK;
}
