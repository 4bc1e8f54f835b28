#include "reduce/tc_sketch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Values below this are charged to the zero bucket: trace times are in
 * microseconds with at most nanosecond resolution. */
#define TC_SKETCH_MIN_POSITIVE 1e-4

static double log_gamma(void) {
  static const double g = (1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA);
  return log(g);
}

static int32_t bucket_of(double v) { return (int32_t)ceil(log(v) / log_gamma()); }

/* The point of bucket i = (g^(i-1), g^i] closest in relative terms to all of it. */
static double bucket_value(int32_t i) {
  double g = exp(log_gamma());
  return 2.0 * pow(g, i) / (g + 1.0);
}

void tc_sketch_init(tc_sketch *s) {
  memset(s, 0, sizeof *s);
}

void tc_sketch_free(tc_sketch *s) {
  if (!s)
    return;
  free(s->counts);
  tc_sketch_init(s);
}

static tc_err ensure_range(tc_sketch *s, int32_t lo, int32_t hi) {
  if (s->nbuckets && lo >= s->lo && hi < s->lo + (int32_t)s->nbuckets)
    return TC_OK;
  int32_t nlo = s->nbuckets ? (lo < s->lo ? lo : s->lo) : lo;
  int32_t nhi = s->nbuckets ? (hi > s->lo + (int32_t)s->nbuckets - 1 ? hi : s->lo + (int32_t)s->nbuckets - 1) : hi;
  /* Grow with slack on the side that grew, so a drifting range does not
   * reallocate on every value. */
  if (s->nbuckets) {
    if (nlo < s->lo)
      nlo -= 32;
    if (nhi > s->lo + (int32_t)s->nbuckets - 1)
      nhi += 32;
  }
  uint32_t n = (uint32_t)(nhi - nlo + 1);
  uint64_t *c = calloc(n, sizeof *c);
  if (!c)
    return TC_E_NOMEM;
  if (s->nbuckets)
    memcpy(c + (s->lo - nlo), s->counts, s->nbuckets * sizeof *c);
  free(s->counts);
  s->counts = c;
  s->lo = nlo;
  s->nbuckets = n;
  return TC_OK;
}

tc_err tc_sketch_add(tc_sketch *s, double v) {
  if (!(v == v))
    v = 0; /* NaN never reaches here from the parser; stay total anyway */
  if (s->n == 0 || v < s->min)
    s->min = v;
  if (s->n == 0 || v > s->max)
    s->max = v;
  s->n++;
  s->sum += v;
  if (v < TC_SKETCH_MIN_POSITIVE) {
    s->zeros++;
    return TC_OK;
  }
  int32_t b = bucket_of(v);
  tc_err e = ensure_range(s, b, b);
  if (e)
    return e;
  s->counts[b - s->lo]++;
  return TC_OK;
}

tc_err tc_sketch_merge(tc_sketch *dst, const tc_sketch *src) {
  if (src->n == 0)
    return TC_OK;
  if (src->nbuckets) {
    tc_err e = ensure_range(dst, src->lo, src->lo + (int32_t)src->nbuckets - 1);
    if (e)
      return e;
    for (uint32_t i = 0; i < src->nbuckets; i++)
      dst->counts[src->lo - dst->lo + (int32_t)i] += src->counts[i];
  }
  if (dst->n == 0 || src->min < dst->min)
    dst->min = src->min;
  if (dst->n == 0 || src->max > dst->max)
    dst->max = src->max;
  dst->n += src->n;
  dst->zeros += src->zeros;
  dst->sum += src->sum;
  return TC_OK;
}

double tc_sketch_quantile(const tc_sketch *s, double q) {
  if (s->n == 0)
    return 0;
  if (q <= 0)
    return s->min;
  if (q >= 1)
    return s->max;
  uint64_t rank = (uint64_t)ceil(q * (double)s->n);
  if (rank < 1)
    rank = 1;
  if (rank <= s->zeros)
    return s->min < 0 ? s->min : 0;
  uint64_t seen = s->zeros;
  for (uint32_t i = 0; i < s->nbuckets; i++) {
    seen += s->counts[i];
    if (seen >= rank) {
      double v = bucket_value(s->lo + (int32_t)i);
      /* The exact extremes are known: never answer outside them. */
      if (v < s->min)
        v = s->min;
      if (v > s->max)
        v = s->max;
      return v;
    }
  }
  return s->max;
}
