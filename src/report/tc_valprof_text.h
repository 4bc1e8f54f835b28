/* The one-line human profile of a value profile (util/tc_valprof.h), as
 * census.md, census_args.csv's `profile` column and report.html show it. */
#ifndef TC_VALPROF_TEXT_H
#define TC_VALPROF_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_valprof.h"

/* A one-line human profile, e.g. "always 0", "'' on 81 %; 3 distinct, top
 * 'lazy' on 12 %" or "-1 on 12 %; 0–4,096, median 512"; the same for the
 * same state. A string that could identify someone (any but '' and URLs
 * cut to scheme + host) is printed only when seen on at least MIN_SITES
 * sites, else as "(a value on N sites)" (tc_valprof_may_show; 0 shows
 * everything). Writes at most CAP bytes including a NUL (CAP > 0) and
 * returns the length the whole line needs, as snprintf does. */
size_t tc_valprof_render(const tc_valprof *p, uint64_t min_sites, char *out, size_t cap);

#endif
