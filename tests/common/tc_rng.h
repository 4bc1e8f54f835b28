/* A seeded splitmix64 generator for the sketch tests: the same seed gives
 * the same stream on every host, so every random test is deterministic. */
#ifndef TC_RNG_H
#define TC_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s;
} tc_rng;

static inline uint64_t tc_rng_next(tc_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the slight modulo bias does not matter here). */
static inline uint64_t tc_rng_below(tc_rng *r, uint64_t n) { return tc_rng_next(r) % n; }

/* Uniform in (0, 1). */
static inline double tc_rng_unit(tc_rng *r) {
  return ((double)(tc_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

#endif
