/* A Chase-Lev work-stealing deque of pointers (internal to the pool).
 *
 * One thread, the owner, pushes and pops at the bottom; any thread may steal
 * from the top. Follows Chase & Lev, "Dynamic Circular Work-Stealing Deque"
 * (SPAA 2005) with the C11 memory orders of Le, Pop, Cohen & Zappa Nardelli,
 * "Correct and Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013);
 * tc_deque.c explains each order.
 *
 * The deque stores the pointers only; it never reads or frees what they
 * point to. An item is handed to exactly one taker (pop or steal), and a
 * store the owner made before pushing it happens-before whatever that taker
 * does after taking it. */
#ifndef TC_DEQUE_H
#define TC_DEQUE_H

#include <stddef.h>

#include "util/tc_error.h"

typedef struct tc_deque tc_deque;

typedef enum {
  TC_STEAL_OK,    /* *item is now the thief's */
  TC_STEAL_EMPTY, /* the deque looked empty */
  TC_STEAL_LOST   /* lost a race for the oldest item: the deque may not be empty */
} tc_steal;

/* An empty deque with room for CAPACITY items before it first grows
 * (rounded up to a power of two, at least 2). NULL when out of memory.
 * The calling thread need not be the owner. Free with tc_deque_free. */
tc_deque *tc_deque_create(size_t capacity);

/* Frees the deque and every array it grew out of. No thread may use it any
 * more. Accepts NULL. Items still inside are dropped, not freed. */
void tc_deque_free(tc_deque *d);

/* Owner only. ITEM must not be NULL. TC_E_NOMEM when the deque is full and
 * cannot grow; the item is then not in the deque. */
tc_err tc_deque_push(tc_deque *d, void *item);

/* Owner only. The newest item, or NULL when the deque is empty (or a thief
 * won the last item). */
void *tc_deque_pop(tc_deque *d);

/* Any thread. Takes the oldest item into *ITEM on TC_STEAL_OK; leaves *ITEM
 * alone otherwise. */
tc_steal tc_deque_steal(tc_deque *d, void **item);

#endif
