#include "util/tc_sketch_bin.h"

#include <math.h>
#include <stdlib.h>


/* tc_sketch.c charges values below this to the zero count, so no bucket
 * lies below its bucket. */
#define MIN_POSITIVE 1e-4

/* The bucket of V > 0, computed as tc_sketch computes it. */
static int64_t bucket_of(double v) {
  double lg = log((1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA));
  return (int64_t)ceil(log(v) / lg);
}

typedef struct {
  int64_t idx;
  uint64_t count;
} bucket;

/* The non-empty bucket after position *POS (start at 0); 0 when none is
 * left. */
static int next_bucket(const tc_sketch *s, uint32_t *pos, bucket *b) {
  int32_t idx;
  if (!tc_sketch_next(s, pos, &idx, &b->count))
    return 0;
  b->idx = idx;
  return 1;
}

/* Gives the empty sketch S the NB buckets BS (ascending, checked), as
 * adding their values would. On failure S may hold some; the caller frees
 * it. */
static tc_err set_buckets(tc_sketch *s, const bucket *bs, uint64_t nb) {
  tc_err e = TC_OK;
  for (uint64_t i = 0; i < nb && !e; i++)
    e = tc_sketch_add_bucket(s, (int32_t)bs[i].idx, bs[i].count);
  return e;
}

/* Layout: uvar n, and when n > 0: uvar zeros, f64 sum, f64 min, f64 max,
 * uvar number of non-empty buckets, then the first bucket's index (svar)
 * and count (uvar), and for each further one the gap to the previous index
 * (uvar, >= 1) and its count. */
void tc_sketch_encode(const tc_sketch *s, tc_bin_buf *b) {
  tc_bin_put_uvar(b, s->n);
  if (!s->n)
    return;
  tc_bin_put_uvar(b, s->zeros);
  tc_bin_put_f64(b, s->sum);
  tc_bin_put_f64(b, s->min);
  tc_bin_put_f64(b, s->max);
  uint64_t nb = 0;
  uint32_t pos = 0;
  bucket bk, prev = {0, 0};
  while (next_bucket(s, &pos, &bk))
    nb++;
  tc_bin_put_uvar(b, nb);
  for (pos = 0; next_bucket(s, &pos, &bk); prev = bk) {
    if (prev.count)
      tc_bin_put_uvar(b, (uint64_t)(bk.idx - prev.idx));
    else
      tc_bin_put_svar(b, bk.idx);
    tc_bin_put_uvar(b, bk.count);
  }
}

/* Reads the buckets into a scratch array no longer than the input allows,
 * checking each against [LO, HI] and adding their counts to *TOTAL. */
static bucket *read_buckets(tc_bin_reader *r, uint64_t nb, int64_t lo, int64_t hi,
                            uint64_t *total) {
  bucket *bs = malloc((nb ? nb : 1) * sizeof *bs);
  if (!bs)
    return NULL;
  for (uint64_t i = 0; i < nb && !r->err; i++) {
    size_t at = r->pos;
    int64_t idx;
    if (i == 0) {
      idx = tc_bin_get_svar(r);
    } else {
      uint64_t gap = tc_bin_get_uvar(r);
      idx = gap >= 1 && gap <= (uint64_t)(hi - bs[i - 1].idx) ? bs[i - 1].idx + (int64_t)gap
                                                            : hi + 1;
    }
    uint64_t count = tc_bin_get_uvar(r);
    if (r->err)
      break;
    if (idx < lo || idx > hi)
      tc_bin_fail_at(r, at, "sketch bucket outside the sketch's min and max");
    else if (!count)
      tc_bin_fail_at(r, at, "sketch bucket with no values");
    else if (count > UINT64_MAX - *total)
      tc_bin_fail_at(r, at, "sketch counts overflow");
    bs[i].idx = idx;
    bs[i].count = count;
    *total += count;
  }
  return bs;
}

tc_err tc_sketch_decode(tc_bin_reader *r, tc_sketch *s) {
  size_t start = r->pos;
  uint64_t n = tc_bin_get_uvar(r);
  if (r->err || !n)
    return r->err;
  uint64_t zeros = tc_bin_get_uvar(r);
  double sum = tc_bin_get_f64(r);
  double min = tc_bin_get_f64(r), max = tc_bin_get_f64(r);
  size_t at = r->pos;
  uint64_t nb = tc_bin_get_count(r, UINT32_MAX, 2);
  if (r->err)
    return r->err;
  if (!(min <= max) || isnan(sum)) {
    tc_bin_fail_at(r, start, "sketch min, max or sum is not a number in order");
    return r->err;
  }
  /* One bucket of slack either side for rounding at bucket edges. */
  int64_t lo = 1, hi = 0;
  if (max >= MIN_POSITIVE) {
    lo = bucket_of(min > MIN_POSITIVE ? min : MIN_POSITIVE) - 1;
    hi = bucket_of(isinf(max) ? 1.7976931348623157e308 : max) + 1;
  }
  uint64_t total = zeros;
  bucket *bs = read_buckets(r, nb, lo, hi, &total);
  if (!bs)
    return TC_E_NOMEM;
  if (!r->err && total != n)
    tc_bin_fail_at(r, at, "sketch bucket counts do not add up to n");
  tc_err e = r->err ? r->err : set_buckets(s, bs, nb);
  free(bs);
  if (e) {
    tc_sketch_free(s);
    return e;
  }
  s->n = n;
  s->zeros = zeros;
  s->sum = sum;
  s->min = min;
  s->max = max;
  return TC_OK;
}
