#include "util/tc_sketch.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"

/* Values below this are charged to the zero bucket: trace times are in
 * microseconds with at most nanosecond resolution. */
#define TC_SKETCH_MIN_POSITIVE 1e-4

static double log_gamma(void) {
  static const double g = (1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA);
  return log(g);
}

/* Infinity has no bucket; the largest double's is the last. */
static int32_t bucket_of(double v) {
  return (int32_t)ceil(log(v > DBL_MAX ? DBL_MAX : v) / log_gamma());
}

/* The point of bucket i = (g^(i-1), g^i] closest in relative terms to all of it. */
static double bucket_value(int32_t i) {
  double g = exp(log_gamma()), p = pow(g, i);
  /* Near the largest double 2 * g^i overflows; the point itself does not. */
  if (p > DBL_MAX / 2)
    return pow(g, i - 1) * (2.0 * g / (g + 1.0));
  return 2.0 * p / (g + 1.0);
}

static int32_t page_key(int32_t bucket) {
  return (bucket >= 0 ? bucket : bucket - (TC_SKETCH_PAGE - 1)) / TC_SKETCH_PAGE;
}

void tc_sketch_init(tc_sketch *s) {
  memset(s, 0, sizeof *s);
}

void tc_sketch_free(tc_sketch *s) {
  if (!s)
    return;
  for (uint32_t i = 0; i < s->npages; i++)
    free(s->pages[i].counts);
  free(s->pages);
  tc_sketch_init(s);
}

/* Index of the first page whose key is >= KEY. */
static uint32_t lower_bound(const tc_sketch *s, int32_t key) {
  uint32_t lo = 0, hi = s->npages;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->pages[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The counts of page KEY, made if missing; NULL if memory fails. Values of
 * one name cluster, so the page of the previous value is tried first. */
static uint64_t *page(tc_sketch *s, int32_t key) {
  if (s->last < s->npages && s->pages[s->last].key == key)
    return s->pages[s->last].counts;
  uint32_t at = lower_bound(s, key);
  if (at == s->npages || s->pages[at].key != key) {
    if (TC_GROW(s->pages, s->cap, (size_t)s->npages + 1))
      return NULL;
    uint64_t *counts = calloc(TC_SKETCH_PAGE, sizeof *counts);
    if (!counts)
      return NULL;
    memmove(s->pages + at + 1, s->pages + at, (s->npages - at) * sizeof *s->pages);
    s->pages[at] = (tc_sketch_page){key, counts};
    s->npages++;
  }
  s->last = at;
  return s->pages[at].counts;
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
  int32_t b = bucket_of(v), key = page_key(b);
  uint64_t *c = page(s, key);
  if (!c)
    return TC_E_NOMEM;
  c[b - key * TC_SKETCH_PAGE]++;
  return TC_OK;
}

tc_err tc_sketch_merge(tc_sketch *dst, const tc_sketch *src) {
  if (src->n == 0)
    return TC_OK;
  for (uint32_t i = 0; i < src->npages; i++) {
    uint64_t *c = page(dst, src->pages[i].key);
    if (!c)
      return TC_E_NOMEM;
    for (int k = 0; k < TC_SKETCH_PAGE; k++)
      c[k] += src->pages[i].counts[k];
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
  for (uint32_t i = 0; i < s->npages; i++)
    for (int k = 0; k < TC_SKETCH_PAGE; k++) {
      seen += s->pages[i].counts[k];
      if (seen < rank)
        continue;
      double v = bucket_value(s->pages[i].key * TC_SKETCH_PAGE + k);
      /* The exact extremes are known: never answer outside them. */
      if (v < s->min)
        v = s->min;
      if (v > s->max)
        v = s->max;
      return v;
    }
  return s->max;
}

uint64_t tc_sketch_bucket(const tc_sketch *s, int32_t index) {
  int32_t key = page_key(index);
  uint32_t at = lower_bound(s, key);
  if (at == s->npages || s->pages[at].key != key)
    return 0;
  return s->pages[at].counts[index - key * TC_SKETCH_PAGE];
}

size_t tc_sketch_bytes(const tc_sketch *s) {
  return s->cap * sizeof *s->pages + (size_t)s->npages * TC_SKETCH_PAGE * sizeof(uint64_t);
}
