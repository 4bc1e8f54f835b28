/* A mergeable quantile sketch with bounded relative error (the DDSketch
 * idea: logarithmic buckets of ratio gamma = (1+a)/(1-a)).
 *
 * Any quantile it returns is within a relative error of TC_SKETCH_ALPHA of
 * the exact nearest-rank quantile (the value of rank ceil(q*n) in sorted
 * order, ranks from 1). Merging adds bucket counts, so sketches built on
 * shards and merged in any order give exactly the same answers as one
 * sketch built on all values. Values must be >= 0; values below 1e-4 (a
 * tenth of a nanosecond, in the microseconds traces use) count as zero, so
 * the error bound holds from 1e-4 up. Memory grows with the log of the
 * value range, not with n. */
#ifndef TC_SKETCH_H
#define TC_SKETCH_H

#include <stdint.h>

#include "util/tc_error.h"

#define TC_SKETCH_ALPHA 0.005

typedef struct {
  int32_t lo;        /* bucket index of counts[0] */
  uint32_t nbuckets; /* allocated length of counts */
  uint64_t *counts;  /* owned */
  uint64_t zeros;    /* values == 0 (and negatives, clamped) */
  uint64_t n;        /* all values */
  double sum;        /* for the mean; summed in insertion order */
  double min, max;   /* exact */
} tc_sketch;

void tc_sketch_init(tc_sketch *s);
void tc_sketch_free(tc_sketch *s);

tc_err tc_sketch_add(tc_sketch *s, double v);

/* DST += SRC. The sum is the only field whose last bits can depend on merge
 * order; reports print it rounded. */
tc_err tc_sketch_merge(tc_sketch *dst, const tc_sketch *src);

/* Nearest-rank quantile, q in [0,1]. Returns 0 for an empty sketch: callers
 * check n first and report n/a. q == 0 and q == 1 return the exact min/max. */
double tc_sketch_quantile(const tc_sketch *s, double q);

#endif
