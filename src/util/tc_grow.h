/* Growing a zero-initialised array in place, the one resizing rule every
 * table in the project uses. */
#ifndef TC_GROW_H
#define TC_GROW_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"

/* Makes *P (of *CAP elements of ELEM bytes) hold at least NEED elements,
 * doubling, with the new elements zeroed. On failure *P is unchanged. */
tc_err tc_grow(void **p, size_t *cap, size_t need, size_t elem);

/* The same for a big array whose final size is usually asked for at once
 * (a site's events): grows to NEED exactly, or by half when that is more,
 * so one reservation leaves no doubling slack and repeated ones stay
 * amortised. */
tc_err tc_grow_to(void **p, size_t *cap, size_t need, size_t elem);

/* The common case, room enough, costs a compare and no call. */
#define TC_GROW(arr, cap, need)                                                \
  ((size_t)(need) <= (cap) ? TC_OK : tc_grow((void **)&(arr), &(cap), (need), sizeof *(arr)))

#endif
