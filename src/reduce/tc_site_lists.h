/* Internal to src/reduce (hence tc__): the census fold's per-site lists
 * (an event's or an arg path's records on each site that has any), gathered
 * when the fold ends from records it spilled one site at a time
 * (util/tc_spill.h), so memory during the fold does not grow with the
 * sites. Not for use outside this folder. */
#ifndef TC_SITE_LISTS_H
#define TC_SITE_LISTS_H

#include <stddef.h>

#include "reduce/tc_census_result.h"
#include "util/tc_spill.h"

/* Calls VISIT on every record of SIZE bytes (a multiple of 8) in SP, one
 * spilled site at a time; a record is only valid during the call. */
tc_err tc__each_spilled(const tc_spill *sp, size_t size, void (*visit)(void *ctx, const void *rec),
                        void *ctx);

/* NSLOTS lists of sites from the records in SP: SLOT gives a record's list
 * (NSLOTS or more: none) and fills its (site, records). *ALL (malloc'd,
 * the caller's) holds the lists one after another, list k at
 * (*ALL)[off[k]] .. (*ALL)[off[k + 1] - 1], each ascending by site so the
 * bytes written do not depend on the order the sites were folded in; OFF
 * has NSLOTS + 1 entries. Two reads of SP: count, then fill. */
tc_err tc__site_lists(const tc_spill *sp, size_t size, size_t nslots,
                      size_t (*slot)(void *ctx, const void *rec, tc_res_site *out), void *ctx,
                      tc_res_site **all, size_t *off);

#endif
