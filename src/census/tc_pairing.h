/* Pairing the records of one trace that only mean something together:
 * B with E on the same thread (a stack, so the order of the trace matters),
 * flow starts s with flow ends f, async begins b/S with ends e/F (both
 * matched by id, category and name, like Perfetto's importer). Fed in trace
 * order by the fold; the counts go to the census at the end of the trace. */
#ifndef TC_PAIRING_H
#define TC_PAIRING_H

#include "census/tc_census.h"
#include "json/tc_event.h"

typedef struct tc_pairing tc_pairing;

tc_pairing *tc_pairing_create(void);
void tc_pairing_free(tc_pairing *p);

/* Ignores events of other phases. */
tc_err tc_pairing_feed(tc_pairing *p, const tc_kevent *ev);

/* Adds the trace's pair counts to W's tables of TRACE (a corpus index) of
 * SITE, each for its process. Call once. */
tc_err tc_pairing_finish(tc_pairing *p, tc_census_worker *w, uint32_t site, uint32_t trace);

#endif
