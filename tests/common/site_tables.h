/* Tests only: the tables a census worker holds of one site, every
 * process's and trace's added up (what the census of scope `all` counts). */
#ifndef SITE_TABLES_H
#define SITE_TABLES_H

#include "census/tc_census.h"

/* NULL when W has nothing of SITE. Valid until the next call. */
const tc_site_acc *site_tables(const tc_census_worker *w, uint32_t site);

#endif
