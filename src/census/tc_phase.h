/* Trace event phases ("ph") and how the census names them.
 *
 * Every letter of the Trace Event Format gets a fixed small index so per-name
 * counters are plain arrays; anything else (missing, empty, several
 * characters, unknown letter) counts under TC_PH_OTHER, reported with the
 * key "". */
#ifndef TC_PHASE_H
#define TC_PHASE_H

#include "util/tc_str.h"

#define TC_PH_LETTERS "BEXIibneSTpFstfPNODMCRcVv()=<>"
#define TC_PH_COUNT 31 /* letters + OTHER */
#define TC_PH_OTHER (TC_PH_COUNT - 1)

/* Index of PH in TC_PH_LETTERS, or TC_PH_OTHER. */
int tc_phase_index(tc_str ph);

/* The letter for an index ("" for TC_PH_OTHER); static. */
const char *tc_phase_key(int idx);

/* Fills ORDER with every index, sorted by key bytewise, for reports. */
void tc_phase_sorted(int order[TC_PH_COUNT]);

#endif
