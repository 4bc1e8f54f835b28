#include "site_tables.h"

#include <stdlib.h>

const tc_site_acc *site_tables(const tc_census_worker *w, uint32_t site) {
  static tc_site_acc *sum;
  tc_site_acc_free(sum);
  sum = NULL;
  const tc_census_unit *u;
  size_t n = tc_census_site_units(w, site, &u);
  if (!n)
    return NULL;
  sum = calloc(1, sizeof *sum);
  for (size_t i = 0; sum && i < n; i++)
    if (tc_site_acc_absorb(sum, u[i].acc)) {
      tc_site_acc_free(sum);
      sum = NULL;
    }
  return sum;
}
