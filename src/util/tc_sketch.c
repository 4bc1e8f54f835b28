#include "util/tc_sketch.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
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
static int32_t bucket_of_log(double v) {
  return (int32_t)ceil(log(v > DBL_MAX ? DBL_MAX : v) / log_gamma());
}

/* Durations and most numeric arguments are whole microseconds, and a few
 * hundred distinct ones cover nine events in ten, so the bucket of a small
 * whole number is computed by log() once per process and then looked up
 * (log was 1.1 % of a census's instructions). Entries hold bucket + 1, 0
 * for not yet known; threads that race store the same value, so relaxed
 * atomics suffice. Only the pages of the numbers met are ever touched. */
#define SMALL_WHOLE 65536
static _Atomic uint16_t small_bucket[SMALL_WHOLE];

static int32_t bucket_of(double v) {
  if (!(v < SMALL_WHOLE) || v != (double)(uint32_t)v)
    return bucket_of_log(v);
  uint32_t i = (uint32_t)v;
  uint16_t known = atomic_load_explicit(&small_bucket[i], memory_order_relaxed);
  if (known)
    return (int32_t)known - 1;
  int32_t b = bucket_of_log(v);
  if (b >= 0 && b < UINT16_MAX)
    atomic_store_explicit(&small_bucket[i], (uint16_t)(b + 1), memory_order_relaxed);
  return b;
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
  free(s->cells);
  tc_sketch_init(s);
}

/* Index of the first of the N elements of STRIDE bytes at BASE, ascending
 * by the int32_t each starts with (a page's key, a cell's bucket), that is
 * >= KEY. */
static uint32_t lower_bound_at(const void *base, size_t stride, uint32_t n, int32_t key) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int32_t k;
    memcpy(&k, (const char *)base + mid * stride, sizeof k);
    if (k < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

_Static_assert(offsetof(tc_sketch_page, key) == 0 && offsetof(tc_sketch_cell, bucket) == 0,
               "lower_bound_at reads the key each element starts with");

static uint32_t lower_bound(const tc_sketch *s, int32_t key) {
  return lower_bound_at(s->pages, sizeof *s->pages, s->npages, key);
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

static tc_err page_add(tc_sketch *s, int32_t b, uint64_t count) {
  int32_t key = page_key(b);
  uint64_t *c = page(s, key);
  if (!c)
    return TC_E_NOMEM;
  c[b - key * TC_SKETCH_PAGE] += count;
  return TC_OK;
}

static uint32_t cell_bound(const tc_sketch *s, int32_t b) {
  return lower_bound_at(s->cells, sizeof *s->cells, s->ncells, b);
}

/* The cells become pages: a bucket more than the list holds is coming. On
 * failure S is unchanged. */
static tc_err to_pages(tc_sketch *s) {
  tc_sketch dense;
  tc_sketch_init(&dense);
  for (uint32_t i = 0; i < s->ncells; i++)
    if (page_add(&dense, s->cells[i].bucket, s->cells[i].count)) {
      tc_sketch_free(&dense);
      return TC_E_NOMEM;
    }
  free(s->cells);
  s->cells = NULL;
  s->ncells = s->cells_cap = 0;
  s->pages = dense.pages;
  s->cap = dense.cap;
  s->npages = dense.npages;
  s->last = 0;
  return TC_OK;
}

/* COUNT more values in bucket B, in whichever form S has. */
static tc_err bucket_add(tc_sketch *s, int32_t b, uint64_t count) {
  if (s->npages)
    return page_add(s, b, count);
  uint32_t at = s->last < s->ncells && s->cells[s->last].bucket == b ? s->last : cell_bound(s, b);
  if (at < s->ncells && s->cells[at].bucket == b) {
    s->cells[at].count += count;
    s->last = at;
    return TC_OK;
  }
  if (s->ncells == TC_SKETCH_SPARSE_MAX) {
    tc_err e = to_pages(s);
    return e ? e : page_add(s, b, count);
  }
  if (s->ncells == s->cells_cap) {
    uint32_t cap = s->cells_cap ? 2 * s->cells_cap : 2;
    tc_sketch_cell *c = realloc(s->cells, cap * sizeof *c);
    if (!c)
      return TC_E_NOMEM;
    s->cells = c;
    s->cells_cap = cap;
  }
  memmove(s->cells + at + 1, s->cells + at, (s->ncells - at) * sizeof *s->cells);
  s->cells[at] = (tc_sketch_cell){b, count};
  s->ncells++;
  s->last = at;
  return TC_OK;
}

/* V COUNT times. RUN: the sum as COUNT separate adds leave it, V added
 * COUNT times; else V * COUNT, which rounds otherwise. */
static tc_err add_count(tc_sketch *s, double v, uint64_t count, int run) {
  if (!(v == v))
    v = 0; /* NaN never reaches here from the parser; stay total anyway */
  if (!count)
    return TC_OK;
  if (s->n == 0 || v < s->min)
    s->min = v;
  if (s->n == 0 || v > s->max)
    s->max = v;
  s->n += count;
  if (run)
    for (uint64_t i = 0; i < count; i++)
      s->sum += v;
  else
    s->sum += count == 1 ? v : v * (double)count;
  if (v < TC_SKETCH_MIN_POSITIVE) {
    s->zeros += count;
    return TC_OK;
  }
  return bucket_add(s, bucket_of(v), count);
}

tc_err tc_sketch_add_n(tc_sketch *s, double v, uint64_t count) { return add_count(s, v, count, 0); }

tc_err tc_sketch_add(tc_sketch *s, double v) { return tc_sketch_add_n(s, v, 1); }

tc_err tc_sketch_add_run(tc_sketch *s, double v, uint64_t count) {
  return add_count(s, v, count, 1);
}

tc_err tc_sketch_add_bucket(tc_sketch *s, int32_t index, uint64_t count) {
  return count ? bucket_add(s, index, count) : TC_OK;
}

int tc_sketch_next(const tc_sketch *s, uint32_t *pos, int32_t *bucket, uint64_t *count) {
  if (!s->npages) {
    if (*pos >= s->ncells)
      return 0;
    *bucket = s->cells[*pos].bucket;
    *count = s->cells[(*pos)++].count;
    return 1;
  }
  while (*pos < s->npages * TC_SKETCH_PAGE) {
    uint32_t i = (*pos)++;
    const tc_sketch_page *pg = &s->pages[i / TC_SKETCH_PAGE];
    if (pg->counts[i % TC_SKETCH_PAGE]) {
      *bucket = pg->key * TC_SKETCH_PAGE + (int32_t)(i % TC_SKETCH_PAGE);
      *count = pg->counts[i % TC_SKETCH_PAGE];
      return 1;
    }
  }
  return 0;
}

tc_err tc_sketch_merge(tc_sketch *dst, const tc_sketch *src) {
  if (src->n == 0)
    return TC_OK;
  /* Two sets of pages add page by page; anything else bucket by bucket,
   * so a merge costs what SRC holds. */
  if (src->npages && !dst->npages && to_pages(dst))
    return TC_E_NOMEM;
  if (src->npages) {
    for (uint32_t i = 0; i < src->npages; i++) {
      uint64_t *c = page(dst, src->pages[i].key);
      if (!c)
        return TC_E_NOMEM;
      for (int k = 0; k < TC_SKETCH_PAGE; k++)
        c[k] += src->pages[i].counts[k];
    }
  } else {
    for (uint32_t i = 0; i < src->ncells; i++)
      if (bucket_add(dst, src->cells[i].bucket, src->cells[i].count))
        return TC_E_NOMEM;
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
  uint64_t seen = s->zeros, count;
  uint32_t pos = 0;
  int32_t b;
  while (tc_sketch_next(s, &pos, &b, &count)) {
    if ((seen += count) < rank)
      continue;
    double v = bucket_value(b);
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
  if (!s->npages) {
    uint32_t at = cell_bound(s, index);
    return at < s->ncells && s->cells[at].bucket == index ? s->cells[at].count : 0;
  }
  int32_t key = page_key(index);
  uint32_t at = lower_bound(s, key);
  if (at == s->npages || s->pages[at].key != key)
    return 0;
  return s->pages[at].counts[index - key * TC_SKETCH_PAGE];
}

size_t tc_sketch_bytes(const tc_sketch *s) {
  return (size_t)s->cells_cap * sizeof *s->cells + s->cap * sizeof *s->pages +
         (size_t)s->npages * TC_SKETCH_PAGE * sizeof(uint64_t);
}
