/* A mergeable quantile sketch with bounded relative error (the DDSketch
 * idea: logarithmic buckets of ratio gamma = (1+a)/(1-a)).
 *
 * Any quantile it returns is within a relative error of TC_SKETCH_ALPHA of
 * the exact nearest-rank quantile (the value of rank ceil(q*n) in sorted
 * order, ranks from 1). Merging adds bucket counts, so sketches built on
 * shards and merged in any order give exactly the same answers as one
 * sketch built on all values. Values must be >= 0; values below 1e-4 (a
 * tenth of a nanosecond, in the microseconds traces use) count as zero, so
 * the error bound holds from 1e-4 up to the largest double.
 *
 * Memory grows with the buckets held, never with the values' range: up to
 * TC_SKETCH_SPARSE_MAX non-empty buckets are kept as a sorted list of
 * (bucket, count) cells, TC_SKETCH_CELL_BYTES each (a name with a handful
 * of distinct durations, an argument with a few values, costs a few dozen
 * bytes); past that in pages of TC_SKETCH_PAGE buckets, and only pages
 * holding a value exist. A page costs TC_SKETCH_PAGE_BYTES, so a sketch
 * holds at most that much per value added beyond TC_SKETCH_BASE_BYTES, and
 * at most TC_SKETCH_MAX_PAGES pages (the whole range of doubles, 630 KB in
 * all) whatever it is fed. Durations of one kind of event usually span a
 * few decades: some ten pages. Which of the two forms a sketch takes is a
 * function of its buckets alone (the list while they fit), whatever the
 * adds and merges that made it. */
#ifndef TC_SKETCH_H
#define TC_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"

#define TC_SKETCH_ALPHA 0.005

#define TC_SKETCH_PAGE 64
/* A page's counts, the allocator's header, and its directory entry with
 * the directory's slack (it doubles). */
#define TC_SKETCH_PAGE_BYTES (TC_SKETCH_PAGE * 8 + 16 + 2 * 16)
/* The directory's first 16 entries, made with the first page. */
#define TC_SKETCH_BASE_BYTES 256
/* Buckets from 1e-4 to DBL_MAX, in pages. */
#define TC_SKETCH_MAX_PAGES 1125
/* The most non-empty buckets kept as cells: as many bytes as a page's counts. */
#define TC_SKETCH_SPARSE_MAX 32

typedef struct {
  int32_t key;      /* bucket index / TC_SKETCH_PAGE, rounded down */
  uint64_t *counts; /* TC_SKETCH_PAGE of them, owned */
} tc_sketch_page;

typedef struct {
  int32_t bucket;   /* first, as a page's key is: one search serves both */
  uint64_t count;   /* > 0 */
} tc_sketch_cell;

#define TC_SKETCH_CELL_BYTES sizeof(tc_sketch_cell)

typedef struct {
  tc_sketch_cell *cells; /* while npages == 0: the non-empty buckets,
                            ascending; owned */
  uint32_t ncells, cells_cap;
  tc_sketch_page *pages; /* once past TC_SKETCH_SPARSE_MAX buckets
                            (cells then NULL): ascending by key; owned */
  size_t cap;
  uint32_t npages;
  uint32_t last;         /* page (or cell) of the latest value: the next is
                            likely there */
  uint64_t zeros;        /* values == 0 (and negatives, clamped) */
  uint64_t n;            /* all values */
  double sum;            /* for the mean; summed in insertion order */
  double min, max;       /* exact */
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

/* The count of bucket INDEX (values in (gamma^(i-1), gamma^i]), for tests. */
uint64_t tc_sketch_bucket(const tc_sketch *s, int32_t index);

/* The non-empty buckets in ascending order: start with *POS = 0; each call
 * gives the next one's index and count and returns 1, or returns 0 when
 * none is left. S must not change in between. */
int tc_sketch_next(const tc_sketch *s, uint32_t *pos, int32_t *bucket, uint64_t *count);

/* Adds COUNT (> 0) values to bucket INDEX alone, for a decoder rebuilding a
 * sketch from its buckets in any order: n, zeros, sum, min and max are the
 * caller's to set. */
tc_err tc_sketch_add_bucket(tc_sketch *s, int32_t index, uint64_t count);

/* Adds V COUNT times: the same buckets, n, min and max as COUNT adds (the
 * sum gets V * COUNT). */
tc_err tc_sketch_add_n(tc_sketch *s, double v, uint64_t count);

/* The same, with the sum too as COUNT calls of tc_sketch_add leave it: V
 * added COUNT times, which rounds otherwise than V * COUNT. */
tc_err tc_sketch_add_run(tc_sketch *s, double v, uint64_t count);

/* Bytes the sketch holds on the heap (cells, or directory and pages). */
size_t tc_sketch_bytes(const tc_sketch *s);

#endif
