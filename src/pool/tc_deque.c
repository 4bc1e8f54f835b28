/* The Chase-Lev deque with the memory orders of Le et al. (PPoPP 2013).
 *
 * Indices grow forever (a signed 64-bit count never wraps in practice);
 * index i lives in slot i & mask of the current circular array. top is the
 * oldest item, bottom one past the newest, and the deque holds [top, bottom).
 * Indices are signed so that the owner's tentative bottom - 1 of an empty
 * deque compares below top even at 0.
 *
 * When the owner finds the array full it copies the live items into one
 * twice as large and publishes it. The old array is not freed: a thief that
 * loaded it a moment ago may still read a slot from it. It is retired onto
 * the new array's chain and freed with the deque, which costs at most as
 * much memory again as the current array, since sizes double. (Julia's
 * work-stealing queue keeps retired arrays alive the same way.)
 *
 * Slots are atomics although the value in them is only used by whoever wins
 * index i: a thief may read a slot while the owner rewrites it, and then
 * discards the value when its CAS on top fails. */
#include "pool/tc_deque.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* top and bottom on separate lines, so thieves hammering top do not slow
 * the owner's pushes and pops. */
#define TC_DEQUE_LINE 64

typedef struct tc_deque_array {
  struct tc_deque_array *retired; /* the array this one replaced; owner only */
  int64_t mask;                   /* slots - 1; immutable */
  _Atomic(void *) slot[];
} tc_deque_array;

struct tc_deque {
  /* Oldest item. Only ever advanced, by a seq_cst CAS: thieves' and the
   * owner's when it pops the last item. */
  alignas(TC_DEQUE_LINE) _Atomic int64_t top;
  /* One past the newest item. Stored only by the owner, always with release;
   * thieves load it with acquire. */
  alignas(TC_DEQUE_LINE) _Atomic int64_t bottom;
  /* The current array. Replaced only by the owner, with release; thieves
   * load it with acquire. */
  alignas(TC_DEQUE_LINE) _Atomic(tc_deque_array *) array;
};

static tc_deque_array *array_new(int64_t slots) {
  if ((uint64_t)slots > (SIZE_MAX - sizeof(tc_deque_array)) / sizeof(_Atomic(void *)))
    return NULL;
  tc_deque_array *a = malloc(sizeof *a + (size_t)slots * sizeof a->slot[0]);
  if (!a)
    return NULL;
  a->retired = NULL;
  a->mask = slots - 1;
  /* A thief that loses a race may read any slot, even one never pushed. */
  for (int64_t i = 0; i < slots; i++)
    atomic_init(&a->slot[i], NULL);
  return a;
}

tc_deque *tc_deque_create(size_t capacity) {
  int64_t slots = 2;
  while ((size_t)slots < capacity && slots < INT64_MAX / 2)
    slots *= 2;
  tc_deque *d = aligned_alloc(TC_DEQUE_LINE, sizeof *d);
  if (!d)
    return NULL;
  tc_deque_array *a = array_new(slots);
  if (!a) {
    free(d);
    return NULL;
  }
  atomic_init(&d->top, 0);
  atomic_init(&d->bottom, 0);
  atomic_init(&d->array, a);
  return d;
}

void tc_deque_free(tc_deque *d) {
  if (!d)
    return;
  /* relaxed: the caller guarantees nobody uses the deque any more, and the
   * join or lock that told it so already ordered their accesses before ours. */
  tc_deque_array *a = atomic_load_explicit(&d->array, memory_order_relaxed);
  while (a) {
    tc_deque_array *older = a->retired;
    free(a);
    a = older;
  }
  free(d);
}

/* Owner only: replaces the full array OLD, which holds [T, B), by one twice
 * its size. */
static tc_deque_array *grow(tc_deque *d, tc_deque_array *old, int64_t t, int64_t b) {
  if (old->mask >= INT64_MAX / 2)
    return NULL;
  tc_deque_array *a = array_new(2 * (old->mask + 1));
  if (!a)
    return NULL;
  /* relaxed: the owner wrote these slots itself; the copies are published
   * by the release store of the array below. */
  for (int64_t i = t; i < b; i++)
    atomic_store_explicit(&a->slot[i & a->mask],
                          atomic_load_explicit(&old->slot[i & old->mask], memory_order_relaxed),
                          memory_order_relaxed);
  a->retired = old;
  /* release: a thief that loads this array with acquire sees the copies. */
  atomic_store_explicit(&d->array, a, memory_order_release);
  return a;
}

tc_err tc_deque_push(tc_deque *d, void *item) {
  /* relaxed: only the owner (this thread) stores bottom and array. */
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
  tc_deque_array *a = atomic_load_explicit(&d->array, memory_order_relaxed);
  /* acquire: pairs with the CAS of the thief that advanced top past a slot,
   * so its read of that slot happens before we reuse the slot below. */
  int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
  if (b - t > a->mask) {
    a = grow(d, a, t, b);
    if (!a)
      return TC_E_NOMEM;
  }
  /* relaxed: published by the release store of bottom just below. */
  atomic_store_explicit(&a->slot[b & a->mask], item, memory_order_relaxed);
  /* release: a thief that reads this bottom with acquire sees the slot and
   * everything the owner wrote before pushing (the task record). The paper
   * writes a release fence and a relaxed store; the release store orders the
   * same writes before the same store, and ThreadSanitizer, which ignores
   * standalone fences, can see it. */
  atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
  return TC_OK;
}

void *tc_deque_pop(tc_deque *d) {
  /* relaxed: only the owner (this thread) stores bottom and array. */
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
  tc_deque_array *a = atomic_load_explicit(&d->array, memory_order_relaxed);
  /* Reserve index b before looking at top. release rather than the paper's
   * relaxed: a thief that reads this value must still see the items below b,
   * pushed earlier by this thread. The paper gets that from C11's original
   * release-sequence rule (later stores by the same thread extend a release
   * sequence), which C++20 dropped (P0982); we do not lean on it. The same
   * holds for the two restoring stores below. */
  atomic_store_explicit(&d->bottom, b, memory_order_release);
  /* seq_cst: the store to bottom must be ordered before the load of top, a
   * store-load order no acquire or release gives. Paired with the fence in
   * tc_deque_steal, either the thief sees the lowered bottom and backs off,
   * or we see its advanced top: never do both of us take index b. */
  atomic_thread_fence(memory_order_seq_cst);
  /* relaxed: the fence above does the ordering. */
  int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
  if (t > b) {
    /* Empty: give the reservation back. */
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
    return NULL;
  }
  /* relaxed: this thread wrote the slot (or copied it) itself. */
  void *item = atomic_load_explicit(&a->slot[b & a->mask], memory_order_relaxed);
  if (t == b) {
    /* The last item, which thieves may be taking too: take it the way they
     * do, by advancing top. seq_cst: this CAS and the thieves' CAS on top
     * must fall in the single total order with the fences, so exactly one
     * wins. relaxed on failure: we then use nothing we read. */
    if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                 memory_order_relaxed))
      item = NULL;
    /* top is now b + 1 either way; an empty deque has bottom == top. */
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
  }
  return item;
}

tc_steal tc_deque_steal(tc_deque *d, void **item) {
  /* acquire: if this top was written by a CAS (another thief's, or the
   * owner's for the last item), we also see the bottom that thread had seen
   * or lowered before it. Otherwise a stale, higher bottom could make us take
   * an item the owner already popped. */
  int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
  /* seq_cst: pairs with the fence in tc_deque_pop (see there). */
  atomic_thread_fence(memory_order_seq_cst);
  /* acquire: pairs with the owner's release stores of bottom, so the slot
   * and whatever the item points to are visible to us. */
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
  if (t >= b)
    return TC_STEAL_EMPTY;
  /* acquire (the paper's consume, which compilers treat as acquire): pairs
   * with the release store in grow, so a new array's copied slots are
   * visible. An older array is still valid: retired arrays live on. */
  tc_deque_array *a = atomic_load_explicit(&d->array, memory_order_acquire);
  /* relaxed: the value only counts if the CAS below wins index t, and the
   * acquire on bottom already made the push that wrote it visible. */
  void *x = atomic_load_explicit(&a->slot[t & a->mask], memory_order_relaxed);
  /* seq_cst: thieves and the owner popping the last item race on this CAS,
   * which must be in the same total order as the fences so exactly one takes
   * index t. Its release half also orders our read of the slot before the
   * owner's reuse of it (see the acquire on top in push). relaxed on
   * failure: we return without using X. */
  if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                               memory_order_relaxed))
    return TC_STEAL_LOST;
  *item = x;
  return TC_STEAL_OK;
}
