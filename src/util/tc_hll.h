/* Distinct values: HyperLogLog with an exact small mode.
 *
 * Values are added as their 64-bit tc_xxh64 hash (the caller hashes once
 * and shares the hash with the other sketches). Up to TC_HLL_EXACT distinct
 * hashes are kept as a set and counted exactly; past that the set becomes
 * TC_HLL_M = 2^TC_HLL_P one-byte registers (Flajolet et al. 2007) and the
 * count an estimate with standard error 1.04 / sqrt(TC_HLL_M) = 1.63 %,
 * computed with Ertl's improved estimator ("New cardinality estimation
 * algorithms for HyperLogLog sketches", 2017), which needs no bias tables
 * and holds that error from small to huge counts. "Exact" means exact on
 * hashes: two different values with the same 64-bit hash count once (for
 * 256 values, a chance of 2e-15).
 *
 * Merging is a union: the set, or the register-wise maximum, so the state
 * after any adds and merges is a function of the set of hashes alone,
 * whatever their order or grouping, and equal to one sketch fed everything.
 *
 * Memory: at most TC_HLL_BYTES on the heap (the set's table while small,
 * the registers after), nothing before the first value. Not thread-safe. */
#ifndef TC_HLL_H
#define TC_HLL_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_bin.h"
#include "util/tc_error.h"

#define TC_HLL_P 12
#define TC_HLL_M (1u << TC_HLL_P)
#define TC_HLL_EXACT 256
/* The set's largest table (2 * TC_HLL_EXACT slots of 8 bytes) equals the
 * registers' size. */
#define TC_HLL_BYTES 4096

typedef struct {
  uint64_t *set;  /* open addressing, 0 = empty (hash 0 is stored as 1); owned */
  uint32_t nset;  /* hashes in the set */
  uint32_t cap;   /* slots of set, a power of two */
  uint8_t *reg;   /* TC_HLL_M registers once past TC_HLL_EXACT, else NULL; owned */
} tc_hll;

void tc_hll_init(tc_hll *h);
void tc_hll_free(tc_hll *h);

tc_err tc_hll_add(tc_hll *h, uint64_t hash);

/* DST := DST union SRC. */
tc_err tc_hll_merge(tc_hll *dst, const tc_hll *src);

/* The number of distinct hashes: exact while tc_hll_exact says so. */
double tc_hll_count(const tc_hll *h);
static inline int tc_hll_exact(const tc_hll *h) { return h->reg == NULL; }

/* Appends H. The set is written sorted, so equal states give equal bytes. */
void tc_hll_encode(const tc_hll *h, tc_bin_buf *b);
/* Reads one encoded sketch into H (initialised, empty). On failure H is
 * left empty and R says where and why. */
tc_err tc_hll_decode(tc_bin_reader *r, tc_hll *h);

#endif
