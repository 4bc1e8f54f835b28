/* Internal to src/reduce (hence tc__): the per-event lists of categories and
 * argument paths that the site extraction and the census fold both build,
 * and the slicing of such lists into one array per unit. Not for use
 * outside this folder. */
#ifndef TC_SUBLIST_H
#define TC_SUBLIST_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"
#include "util/tc_map.h"

/* A category or argument path of one event, while counts are gathered. */
typedef struct {
  uint64_t records, sites;
  uint8_t types;
  uint32_t owner; /* event index */
  tc_str text;    /* the cat or path part of the key */
} tc__sub_entry;

typedef struct {
  tc__sub_entry *v;
  size_t n, cap;
} tc__sub_list;

/* Appends (EV, TEXT, RECORDS, TYPES) to L; TEXT is borrowed. */
tc_err tc__sub_add(tc__sub_list *l, uint32_t ev, tc_str text, uint64_t records, uint8_t types);

/* Every event's list (LISTS[e], of NEVENTS) as its slice of one array of
 * ELEM-byte entries that PUT writes, sorted by CMP unless NULL; SET stores
 * each slice in EV_ARR. *ALL is malloc'd and owns the entries. */
tc_err tc__sub_slices(const tc__sub_list *lists, size_t nevents, size_t elem, void **all,
                      void (*put)(void *dst, const tc__sub_entry *src),
                      void (*set)(void *ev_arr, size_t ev, void *slice, uint32_t n),
                      void *ev_arr, int (*cmp)(const void *, const void *));

/* Points *S at a copy owned by M's arena (freed with the map), for a
 * string that needs no id: no hashing, no lookup. */
tc_err tc__sub_own(tc_map *m, tc_str *s);

#endif
