#include "util/tc_hll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Register values run from 0 (untouched) to Q + 1. */
#define Q (64 - TC_HLL_P)

void tc_hll_init(tc_hll *h) { memset(h, 0, sizeof *h); }

void tc_hll_free(tc_hll *h) {
  free(h->set);
  free(h->reg);
  tc_hll_init(h);
}

static void reg_add(uint8_t *reg, uint64_t hash) {
  uint32_t idx = (uint32_t)(hash >> Q);
  /* The marker bit caps the rank at Q + 1 when the low bits are all zero. */
  uint64_t w = (hash << TC_HLL_P) | (1ULL << (TC_HLL_P - 1));
  uint8_t rank = (uint8_t)(__builtin_clzll(w) + 1);
  if (rank > reg[idx])
    reg[idx] = rank;
}

static uint32_t slot_of(uint64_t hash, uint32_t cap) {
  /* The top bits pick the register; the low bits spread the set. */
  return (uint32_t)hash & (cap - 1);
}

static int set_has(const tc_hll *h, uint64_t hash) {
  if (!h->cap)
    return 0;
  for (uint32_t i = slot_of(hash, h->cap); h->set[i]; i = (i + 1) & (h->cap - 1))
    if (h->set[i] == hash)
      return 1;
  return 0;
}

/* Inserts a hash known to be absent into a table with a free slot. */
static void set_put(uint64_t *set, uint32_t cap, uint64_t hash) {
  uint32_t i = slot_of(hash, cap);
  while (set[i])
    i = (i + 1) & (cap - 1);
  set[i] = hash;
}

static tc_err to_registers(tc_hll *h) {
  uint8_t *reg = calloc(TC_HLL_M, 1);
  if (!reg)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < h->cap; i++)
    if (h->set[i])
      reg_add(reg, h->set[i]);
  free(h->set);
  h->set = NULL;
  h->nset = h->cap = 0;
  h->reg = reg;
  return TC_OK;
}

static tc_err set_grow(tc_hll *h, uint32_t cap) {
  uint64_t *set = calloc(cap, sizeof *set);
  if (!set)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < h->cap; i++)
    if (h->set[i])
      set_put(set, cap, h->set[i]);
  free(h->set);
  h->set = set;
  h->cap = cap;
  return TC_OK;
}

tc_err tc_hll_add(tc_hll *h, uint64_t hash) {
  if (h->reg) {
    reg_add(h->reg, hash);
    return TC_OK;
  }
  hash += hash == 0;
  if (set_has(h, hash))
    return TC_OK;
  if (h->nset == TC_HLL_EXACT) {
    tc_err e = to_registers(h);
    if (!e)
      reg_add(h->reg, hash);
    return e;
  }
  /* Load at most 1/2, so the largest table is 2 * TC_HLL_EXACT slots. */
  if (2 * (h->nset + 1) > h->cap) {
    tc_err e = set_grow(h, h->cap ? 2 * h->cap : 2);
    if (e)
      return e;
  }
  set_put(h->set, h->cap, hash);
  h->nset++;
  return TC_OK;
}

tc_err tc_hll_merge(tc_hll *dst, const tc_hll *src) {
  if (src->reg) {
    if (!dst->reg) {
      tc_err e = to_registers(dst);
      if (e)
        return e;
    }
    for (uint32_t i = 0; i < TC_HLL_M; i++)
      if (src->reg[i] > dst->reg[i])
        dst->reg[i] = src->reg[i];
    return TC_OK;
  }
  for (uint32_t i = 0; i < src->cap; i++) {
    if (!src->set[i])
      continue;
    tc_err e = tc_hll_add(dst, src->set[i]);
    if (e)
      return e;
  }
  return TC_OK;
}

/* Ertl 2017, Algorithm 6 (sigma and tau as given there). */
static double sigma(double x) {
  if (x == 1.0)
    return INFINITY;
  double y = 1.0, z = x, z_old;
  do {
    x *= x;
    z_old = z;
    z += x * y;
    y += y;
  } while (z != z_old);
  return z;
}

static double tau(double x) {
  if (x == 0.0 || x == 1.0)
    return 0.0;
  double y = 1.0, z = 1.0 - x, z_old;
  do {
    x = sqrt(x);
    z_old = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
  } while (z != z_old);
  return z / 3.0;
}

double tc_hll_count(const tc_hll *h) {
  if (!h->reg)
    return (double)h->nset;
  uint32_t c[Q + 2] = {0};
  for (uint32_t i = 0; i < TC_HLL_M; i++)
    c[h->reg[i]]++;
  const double m = TC_HLL_M;
  double z = m * tau(1.0 - c[Q + 1] / m);
  for (int k = Q; k >= 1; k--)
    z = 0.5 * (z + c[k]);
  z += m * sigma(c[0] / m);
  return m * m / (2.0 * log(2.0)) / z;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Layout: u8 kind. Kind 0, the exact set: uvar count, then the hashes
 * ascending as uvar gaps (the first from 0), every gap >= 1. Kind 1:
 * TC_HLL_M register bytes. */
void tc_hll_encode(const tc_hll *h, tc_bin_buf *b) {
  if (h->reg) {
    tc_bin_put_u8(b, 1);
    tc_bin_put_raw(b, h->reg, TC_HLL_M);
    return;
  }
  tc_bin_put_u8(b, 0);
  tc_bin_put_uvar(b, h->nset);
  uint64_t sorted[TC_HLL_EXACT];
  uint32_t n = 0;
  for (uint32_t i = 0; i < h->cap; i++)
    if (h->set[i])
      sorted[n++] = h->set[i];
  qsort(sorted, n, sizeof *sorted, cmp_u64);
  uint64_t prev = 0;
  for (uint32_t i = 0; i < n; i++) {
    tc_bin_put_uvar(b, sorted[i] - prev);
    prev = sorted[i];
  }
}

tc_err tc_hll_decode(tc_bin_reader *r, tc_hll *h) {
  size_t at = r->pos;
  uint8_t kind = tc_bin_get_u8(r);
  if (r->err)
    return r->err;
  tc_err e = TC_OK;
  if (kind == 1) {
    const unsigned char *reg = tc_bin_get_raw(r, TC_HLL_M);
    if (!reg)
      return r->err;
    for (uint32_t i = 0; i < TC_HLL_M; i++)
      if (reg[i] > Q + 1) {
        tc_bin_fail_at(r, r->pos - TC_HLL_M + i, "HyperLogLog register above its maximum");
        return r->err;
      }
    if (!(h->reg = malloc(TC_HLL_M)))
      return TC_E_NOMEM;
    memcpy(h->reg, reg, TC_HLL_M);
    return TC_OK;
  }
  if (kind != 0) {
    tc_bin_fail_at(r, at, "unknown HyperLogLog kind");
    return r->err;
  }
  uint64_t n = tc_bin_get_count(r, TC_HLL_EXACT, 1);
  uint64_t prev = 0;
  for (uint64_t i = 0; i < n && !r->err && !e; i++) {
    at = r->pos;
    uint64_t gap = tc_bin_get_uvar(r);
    if (r->err)
      break;
    if (gap == 0 || gap > UINT64_MAX - prev) {
      tc_bin_fail_at(r, at, "HyperLogLog hashes not strictly ascending");
      break;
    }
    prev += gap;
    e = tc_hll_add(h, prev);
  }
  if (r->err || e) {
    tc_hll_free(h);
    return r->err ? r->err : e;
  }
  return TC_OK;
}
