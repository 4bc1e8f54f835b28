/* tc_topk against exact counts of the same streams: on random (Zipf,
 * uniform) and adversarial streams (all distinct, round robin over K+1
 * values, heavy values arriving last, long runs, ties), alone and as
 * partials merged in the canonical order and in random trees, every listed
 * count brackets the true count within err <= floor <= N/K, every value
 * more frequent than floor is listed, and sites are exact where err is 0
 * and a lower bound elsewhere. At most K distinct values: exact and the
 * same bytes in any order. Encodings round-trip (also mid-stream) and
 * hostile ones are refused with the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_bin_check.h"
#include "tc_rng.h"
#include "util/tc_topk.h"
#include "util/tc_xxh64.h"

#define MAXIDS 40000
#define MAXSITES 64

typedef struct {
  uint32_t id;
  uint32_t site;
} item;

typedef struct {
  item *v;
  size_t n;
  uint32_t ids;   /* ids are below this */
  uint32_t sites; /* sites are below this, ascending through the stream */
} stream;

static char names[MAXIDS][12];

static tc_str name(uint32_t id) { return tc_str_c(names[id]); }

static void add(tc_topk *t, uint32_t id, uint32_t site) {
  tc_str v = name(id);
  assert_int_equal(tc_topk_add(t, v, tc_xxh64(v.ptr, v.len, 0), 1000 + site), TC_OK);
}

static void feed(tc_topk *t, const stream *s, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    add(t, s->v[i].id, s->v[i].site);
}

/* Exact counts and site sets of S[from, to). */
typedef struct {
  uint64_t *f;
  uint64_t *sites; /* bit per site */
} exact;

static exact count(const stream *s) {
  exact e = {calloc(s->ids, sizeof(uint64_t)), calloc(s->ids, sizeof(uint64_t))};
  for (size_t i = 0; i < s->n; i++) {
    e.f[s->v[i].id]++;
    e.sites[s->v[i].id] |= 1ULL << s->v[i].site;
  }
  return e;
}

static void exact_free(exact *e) {
  free(e->f);
  free(e->sites);
}

/* Every bound of tc_topk.h; SITES_CANONICAL when the sketch saw its sites
 * in order. */
static void check(const tc_topk *t, const stream *s, int sites_canonical) {
  exact e = count(s);
  assert_true(t->n == s->n);
  assert_true(t->floor * TC_TOPK_K <= s->n);
  tc_topk_item it[TC_TOPK_K];
  size_t n = tc_topk_list(t, it);
  assert_int_equal(n, t->used);
  char *listed = calloc(s->ids, 1);
  for (size_t i = 0; i < n; i++) {
    char tmp[16] = {0};
    memcpy(tmp, it[i].value.ptr, it[i].value.len < 15 ? it[i].value.len : 15);
    uint32_t id = (uint32_t)strtoul(tmp + 1, NULL, 10);
    assert_true(tc_str_eq(it[i].value, name(id)));
    assert_false(it[i].truncated);
    listed[id] = 1;
    assert_true(it[i].count - it[i].err <= e.f[id]);
    assert_true(e.f[id] <= it[i].count);
    assert_true(it[i].err <= t->floor);
    uint64_t true_sites = (uint64_t)__builtin_popcountll(e.sites[id]);
    assert_true(it[i].sites >= 1);
    if (sites_canonical) {
      assert_true(it[i].sites <= true_sites);
      if (!it[i].err)
        assert_true(it[i].sites == true_sites);
    }
    if (i)
      assert_true(it[i - 1].count >= it[i].count);
  }
  for (uint32_t id = 0; id < s->ids; id++)
    if (e.f[id] > t->floor)
      assert_true(listed[id]);
  free(listed);
  exact_free(&e);
}

#define assert_same(a, b) TC_ASSERT_SAME_BYTES(tc_topk_encode, a, b)
#define enc(t, b) TC_ENCODE(tc_topk_encode, t, b)

static void set_sites(stream *s, uint32_t sites) {
  s->sites = sites;
  for (size_t i = 0; i < s->n; i++)
    s->v[i].site = (uint32_t)(i * sites / s->n);
}

static stream make(size_t n, uint32_t ids) {
  stream s = {calloc(n, sizeof(item)), n, ids, 1};
  return s;
}

static stream zipf(tc_rng *r, size_t n, uint32_t ids, double a) {
  stream s = make(n, ids);
  double *cdf = malloc(ids * sizeof *cdf), sum = 0;
  for (uint32_t i = 0; i < ids; i++)
    cdf[i] = (sum += 1 / pow(i + 1, a));
  for (size_t i = 0; i < n; i++) {
    double u = tc_rng_unit(r) * sum;
    uint32_t lo = 0, hi = ids - 1;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (cdf[mid] < u)
        lo = mid + 1;
      else
        hi = mid;
    }
    /* Scatter the ranks so the frequent values are not the low ids. */
    s.v[i].id = (uint32_t)((lo * 7919ULL) % ids);
  }
  free(cdf);
  return s;
}

static stream uniform(tc_rng *r, size_t n, uint32_t ids) {
  stream s = make(n, ids);
  for (size_t i = 0; i < n; i++)
    s.v[i].id = (uint32_t)tc_rng_below(r, ids);
  return s;
}

static stream all_distinct(size_t n) {
  stream s = make(n, (uint32_t)n);
  for (size_t i = 0; i < n; i++)
    s.v[i].id = (uint32_t)i;
  return s;
}

/* The classic worst case: K+1 values in turn, so every add evicts. */
static stream round_robin(size_t n) {
  stream s = make(n, TC_TOPK_K + 1);
  for (size_t i = 0; i < n; i++)
    s.v[i].id = (uint32_t)(i % (TC_TOPK_K + 1));
  return s;
}

/* Noise first, then five values that make up a third of the stream. */
static stream heavy_last(size_t n) {
  stream s = make(n, (uint32_t)n);
  size_t noise = n - n / 3;
  for (size_t i = 0; i < n; i++)
    s.v[i].id = i < noise ? (uint32_t)i : (uint32_t)(i % 5);
  return s;
}

static stream runs(size_t n, uint32_t ids, size_t run) {
  stream s = make(n, ids);
  for (size_t i = 0; i < n; i++)
    s.v[i].id = (uint32_t)((i / run) % ids);
  return s;
}

/* 64 values, each exactly n/64 times, interleaved: all ties. */
static stream ties(tc_rng *r, size_t n) {
  stream s = make(n, 64);
  for (size_t i = 0; i < n; i++)
    s.v[i].id = (uint32_t)(i % 64);
  for (size_t i = n - 1; i > 0; i--) {
    size_t j = tc_rng_below(r, i + 1);
    item t = s.v[i];
    s.v[i] = s.v[j];
    s.v[j] = t;
  }
  return s;
}

#define NSTREAMS 9

static stream pick(int k, tc_rng *r) {
  switch (k) {
  case 0: return zipf(r, 100000, 5000, 1.1);
  case 1: return zipf(r, 60000, 20000, 0.8);
  case 2: return uniform(r, 50000, 40);
  case 3: return all_distinct(20000);
  case 4: return round_robin(30000);
  case 5: return heavy_last(30000);
  case 6: return runs(40000, 300, 97);
  case 7: return ties(r, 64 * 300);
  default: return uniform(r, 20000, TC_TOPK_K);
  }
}

static void setup_names(void) {
  for (uint32_t i = 0; i < MAXIDS; i++)
    snprintf(names[i], sizeof names[i], "v%u", i);
}

static void test_single_sketch(void **state) {
  (void)state;
  tc_rng r = {7};
  for (int k = 0; k < NSTREAMS; k++) {
    stream s = pick(k, &r);
    set_sites(&s, 1 + (uint32_t)(k * 7 % MAXSITES));
    tc_topk t;
    tc_topk_init(&t);
    feed(&t, &s, 0, s.n);
    check(&t, &s, 1);
    if (s.ids <= TC_TOPK_K) {
      assert_true(t.floor == 0);
      for (uint32_t i = 0; i < t.used; i++)
        assert_true(t.c[i].err == 0);
    }
    tc_topk_free(&t);
    free(s.v);
  }
}

/* Per-trace partials: every site split into a few traces, one sketch each,
 * merged in the canonical order of (site, trace) by folding into one. */
static void test_canonical_merge(void **state) {
  (void)state;
  tc_rng r = {8};
  for (int k = 0; k < NSTREAMS; k++) {
    stream s = pick(k, &r);
    set_sites(&s, 12);
    tc_topk all;
    tc_topk_init(&all);
    size_t from = 0;
    while (from < s.n) {
      size_t len = 1 + tc_rng_below(&r, s.n / 20);
      size_t to = from + len < s.n ? from + len : s.n;
      /* A partial never spans two sites. */
      for (size_t i = from + 1; i < to; i++)
        if (s.v[i].site != s.v[from].site) {
          to = i;
          break;
        }
      tc_topk part;
      tc_topk_init(&part);
      feed(&part, &s, from, to);
      assert_int_equal(tc_topk_merge(&all, &part), TC_OK);
      tc_topk_free(&part);
      from = to;
    }
    check(&all, &s, 1);
    tc_topk_free(&all);
    free(s.v);
  }
}

/* Shards merged in random trees: the count bounds hold whatever the order
 * (sites are then only what the sketch says they are). */
static void test_random_merge_trees(void **state) {
  (void)state;
  tc_rng r = {9};
  enum { SHARDS = 16 };
  for (int k = 0; k < NSTREAMS; k++) {
    stream s = pick(k, &r);
    set_sites(&s, 16);
    tc_topk sh[SHARDS];
    for (int i = 0; i < SHARDS; i++)
      tc_topk_init(&sh[i]);
    for (size_t i = 0; i < s.n; i++)
      add(&sh[tc_rng_below(&r, SHARDS)], s.v[i].id, s.v[i].site);
    int alive = SHARDS;
    while (alive > 1) {
      int a = (int)tc_rng_below(&r, (uint64_t)alive), b = (int)tc_rng_below(&r, (uint64_t)alive - 1);
      if (b >= a)
        b++;
      assert_int_equal(tc_topk_merge(&sh[a], &sh[b]), TC_OK);
      tc_topk_free(&sh[b]);
      sh[b] = sh[--alive];
    }
    check(&sh[0], &s, 0);
    tc_topk_free(&sh[0]);
    free(s.v);
  }
}

/* At most K distinct values: exact, and the same bytes however the stream
 * is cut, ordered and merged. */
static void test_small_order_free(void **state) {
  (void)state;
  tc_rng r = {10};
  stream s = uniform(&r, 5000, TC_TOPK_K);
  tc_topk whole;
  tc_topk_init(&whole);
  feed(&whole, &s, 0, s.n);
  for (int trial = 0; trial < 30; trial++) {
    for (size_t i = s.n - 1; i > 0; i--) {
      size_t j = tc_rng_below(&r, i + 1);
      item t = s.v[i];
      s.v[i] = s.v[j];
      s.v[j] = t;
    }
    tc_topk a, b;
    tc_topk_init(&a);
    tc_topk_init(&b);
    size_t cut = tc_rng_below(&r, s.n + 1);
    feed(&a, &s, 0, cut);
    feed(&b, &s, cut, s.n);
    assert_int_equal(tc_topk_merge(trial % 2 ? &a : &b, trial % 2 ? &b : &a), TC_OK);
    assert_same(trial % 2 ? &a : &b, &whole);
    tc_topk_free(&a);
    tc_topk_free(&b);
  }
  tc_topk_free(&whole);
  free(s.v);
}

/* The same adds and merges give the same bytes, and a sketch that went
 * through encode and decode goes on exactly as the original. */
static void test_deterministic_and_resumable(void **state) {
  (void)state;
  tc_rng r = {11};
  for (int k = 0; k < NSTREAMS; k++) {
    stream s = pick(k, &r);
    set_sites(&s, 5);
    tc_topk a, b;
    tc_topk_init(&a);
    tc_topk_init(&b);
    size_t half = s.n / 2;
    feed(&a, &s, 0, half);
    tc_bin_buf buf;
    enc(&a, &buf);
    tc_bin_reader rd;
    tc_bin_reader_init(&rd, buf.ptr, buf.len, 0);
    assert_int_equal(tc_topk_decode(&rd, &b), TC_OK);
    assert_int_equal(tc_bin_finish(&rd), TC_OK);
    tc_bin_buf_free(&buf);
    feed(&a, &s, half, s.n);
    feed(&b, &s, half, s.n);
    assert_same(&a, &b);
    tc_topk c;
    tc_topk_init(&c);
    feed(&c, &s, 0, s.n);
    assert_same(&a, &c);
    tc_topk_free(&a);
    tc_topk_free(&b);
    tc_topk_free(&c);
    free(s.v);
  }
}

static void test_truncation(void **state) {
  (void)state;
  char a64[65], longx[80], longy[80], utf2[80], utf4[80];
  memset(a64, 'A', 64);
  a64[64] = 0;
  snprintf(longx, sizeof longx, "%sx", a64);
  snprintf(longy, sizeof longy, "%syz", a64);
  /* 63 ASCII bytes then e-acute (C3 A9): the cut at 64 would split it. */
  memset(utf2, 'B', 63);
  snprintf(utf2 + 63, sizeof utf2 - 63, "\xc3\xa9tail");
  /* 61 bytes then a 4-byte emoji: back to 61. */
  memset(utf4, 'C', 61);
  snprintf(utf4 + 61, sizeof utf4 - 61, "\xf0\x9f\x98\x80tail");
  const char *vals[] = {longx, longy, a64, longx, utf2, utf4};
  tc_topk t;
  tc_topk_init(&t);
  for (size_t i = 0; i < 6; i++) {
    tc_str v = tc_str_c(vals[i]);
    tc_topk_add(&t, v, tc_xxh64(v.ptr, v.len, 0), 1);
  }
  tc_topk_item it[TC_TOPK_K];
  assert_int_equal(tc_topk_list(&t, it), 4);
  /* The two long A values count as one cut value, after the whole A64. */
  assert_true(it[0].count == 3 && it[0].truncated && it[0].value.len == 64);
  assert_memory_equal(it[0].value.ptr, a64, 64);
  assert_true(it[1].count == 1 && !it[1].truncated && tc_str_eqc(it[1].value, a64));
  assert_true(it[2].truncated && it[2].value.len == 63 && it[2].value.ptr[0] == 'B');
  assert_true(it[3].truncated && it[3].value.len == 61 && it[3].value.ptr[0] == 'C');
  tc_bin_buf b;
  enc(&t, &b);
  tc_topk back;
  tc_topk_init(&back);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  assert_int_equal(tc_topk_decode(&r, &back), TC_OK);
  assert_same(&t, &back);
  /* A decoded cut value is the same key as a new add of a long value. */
  tc_str v = tc_str_c(longy);
  tc_topk_add(&back, v, tc_xxh64(v.ptr, v.len, 0), 1);
  tc_topk_add(&t, v, tc_xxh64(v.ptr, v.len, 0), 1);
  assert_same(&t, &back);
  assert_int_equal(back.used, 4);
  tc_bin_buf_free(&b);
  tc_topk_free(&t);
  tc_topk_free(&back);
}

static void test_prefixes_refused(void **state) {
  (void)state;
  tc_rng r = {12};
  stream s = zipf(&r, 3000, 500, 1.0);
  set_sites(&s, 3);
  tc_topk t;
  tc_topk_init(&t);
  feed(&t, &s, 0, s.n);
  tc_bin_buf b;
  enc(&t, &b);
  TC_ASSERT_PREFIXES_REFUSED(tc_topk, tc_topk_init, tc_topk_decode, &b);
  tc_bin_buf_free(&b);
  tc_topk_free(&t);
  free(s.v);
}

typedef struct {
  const char *val;
  uint8_t trunc;
  uint64_t count, err, sites;
} raw_counter;

static void put_sketch(tc_bin_buf *b, uint64_t n, uint64_t floor, const raw_counter *c, size_t k) {
  tc_bin_buf_init(b);
  tc_bin_put_uvar(b, n);
  tc_bin_put_uvar(b, floor);
  tc_bin_put_uvar(b, k);
  for (size_t i = 0; i < k; i++) {
    tc_bin_put_bytes(b, tc_str_c(c[i].val));
    tc_bin_put_u8(b, c[i].trunc);
    tc_bin_put_uvar(b, c[i].count);
    tc_bin_put_uvar(b, c[i].err);
    tc_bin_put_uvar(b, c[i].sites);
    tc_bin_put_u64(b, 1);
    tc_bin_put_u64(b, 2);
  }
}

static void expect(uint64_t n, uint64_t floor, const raw_counter *c, size_t k, const char *why) {
  tc_bin_buf b;
  put_sketch(&b, n, floor, c, k);
  tc_topk t;
  tc_topk_init(&t);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  tc_err e = tc_topk_decode(&r, &t);
  if (!why) {
    assert_int_equal(e, TC_OK);
    tc_topk_free(&t);
  } else {
    assert_int_equal(e, TC_E_BAD_BINARY);
    assert_string_equal(r.why, why);
    assert_null(t.c);
  }
  tc_bin_buf_free(&b);
}

static void test_hostile(void **state) {
  (void)state;
  const raw_counter ok[] = {{"a", 0, 5, 0, 2}, {"b", 0, 3, 1, 1}};
  expect(40, 1, ok, 2, NULL);
  const raw_counter dup[] = {{"a", 0, 5, 0, 2}, {"a", 0, 3, 1, 1}};
  expect(40, 1, dup, 2, "top value listed twice");
  const raw_counter order[] = {{"b", 0, 3, 1, 1}, {"a", 0, 5, 0, 2}};
  expect(40, 1, order, 2, "top values not in listing order");
  const raw_counter errbig[] = {{"a", 0, 5, 5, 1}};
  expect(10, 5, errbig, 1, "top value's error not below its count");
  const raw_counter below[] = {{"a", 0, 2, 0, 1}};
  expect(100, 3, below, 1, "top value's count or error outside the sketch's floor");
  const raw_counter errfloor[] = {{"a", 0, 9, 4, 1}};
  expect(100, 3, errfloor, 1, "top value's count or error outside the sketch's floor");
  const raw_counter nosites[] = {{"a", 0, 5, 0, 0}};
  expect(10, 0, nosites, 1, "top value's sites outside 1 to its certain count");
  const raw_counter manysites[] = {{"a", 0, 5, 2, 4}};
  expect(10, 2, manysites, 1, "top value's sites outside 1 to its certain count");
  const raw_counter flag[] = {{"a", 2, 5, 0, 1}};
  expect(10, 0, flag, 1, "top value's cut flag is neither 0 nor 1");
  const raw_counter shortcut[] = {{"abc", 1, 5, 0, 1}};
  expect(10, 0, shortcut, 1, "cut top value shorter than the cut length");
  /* 2 counters of 5 plus 30 empty ones that could each hide up to 1. */
  const raw_counter sum[] = {{"a", 0, 5, 0, 1}, {"b", 0, 5, 0, 1}};
  expect(41, 1, sum, 2, NULL);
  expect(39, 1, sum, 2, "top-value counts do not add up to the values counted");
  expect(5, 0, NULL, 0, "top-value counts do not add up to the values counted");
  char long_val[TC_TOPK_MAXLEN + 2];
  memset(long_val, 'z', sizeof long_val - 1);
  long_val[sizeof long_val - 1] = 0;
  const raw_counter toolong[] = {{long_val, 1, 5, 0, 1}};
  expect(10, 0, toolong, 1, "string longer than the format allows");
}

/* Merging empties and into empties. */
static void test_merge_edges(void **state) {
  (void)state;
  tc_topk a, e;
  tc_topk_init(&a);
  tc_topk_init(&e);
  assert_int_equal(tc_topk_merge(&a, &e), TC_OK);
  assert_null(a.c);
  for (uint32_t i = 0; i < 100; i++)
    add(&a, i % 50, 0);
  tc_topk copy;
  tc_topk_init(&copy);
  assert_int_equal(tc_topk_merge(&copy, &a), TC_OK);
  assert_same(&copy, &a);
  assert_int_equal(tc_topk_merge(&a, &e), TC_OK);
  assert_same(&copy, &a);
  tc_topk_free(&a);
  tc_topk_free(&copy);
}

int main(void) {
  setup_names();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_single_sketch),
      cmocka_unit_test(test_canonical_merge),
      cmocka_unit_test(test_random_merge_trees),
      cmocka_unit_test(test_small_order_free),
      cmocka_unit_test(test_deterministic_and_resumable),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_prefixes_refused),
      cmocka_unit_test(test_hostile),
      cmocka_unit_test(test_merge_edges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
