/* tc_hll against exact distinct counts: exact up to TC_HLL_EXACT, then
 * within its stated standard error (each single estimate within 4 of them,
 * and the error measured over 200 independent sketches close to
 * 1.04/sqrt(m)); shards merged in any order and grouping give the bytes of
 * one sketch; encodings round-trip and hostile ones are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tc_bin_check.h"
#include "tc_rng.h"
#include "util/tc_hll.h"
#include "util/tc_xxh64.h"

#define SE (1.04 / 64.0) /* 1.04 / sqrt(4096) */

static uint64_t value_hash(uint64_t v, uint64_t salt) {
  unsigned char b[16];
  for (int i = 0; i < 8; i++) {
    b[i] = (unsigned char)(v >> (8 * i));
    b[8 + i] = (unsigned char)(salt >> (8 * i));
  }
  return tc_xxh64(b, sizeof b, 0);
}

#define assert_same(a, b) TC_ASSERT_SAME_BYTES(tc_hll_encode, a, b)

/* With repeats in random order: the count is the number of distinct
 * values, exactly, up to the switch. */
static void test_exact_small(void **state) {
  (void)state;
  tc_rng rng = {1};
  for (uint64_t distinct = 0; distinct <= TC_HLL_EXACT; distinct += 1 + distinct / 7) {
    tc_hll h;
    tc_hll_init(&h);
    for (uint64_t i = 0; i < distinct * 5; i++)
      assert_int_equal(tc_hll_add(&h, value_hash(tc_rng_below(&rng, distinct), 0)), TC_OK);
    for (uint64_t v = 0; v < distinct; v++)
      assert_int_equal(tc_hll_add(&h, value_hash(v, 0)), TC_OK);
    assert_true(tc_hll_exact(&h));
    assert_true(tc_hll_count(&h) == (double)distinct);
    assert_true(h.cap * sizeof *h.set <= TC_HLL_BYTES);
    tc_hll_free(&h);
  }
  /* Hash 0 is a value like any other. */
  tc_hll h;
  tc_hll_init(&h);
  tc_hll_add(&h, 0);
  tc_hll_add(&h, 0);
  tc_hll_add(&h, 5);
  assert_true(tc_hll_count(&h) == 2);
  tc_hll_free(&h);
}

static void test_switch_to_registers(void **state) {
  (void)state;
  tc_hll h;
  tc_hll_init(&h);
  for (uint64_t v = 0; v < TC_HLL_EXACT; v++)
    tc_hll_add(&h, value_hash(v, 9));
  assert_true(tc_hll_exact(&h));
  tc_hll_add(&h, value_hash(0, 9)); /* a repeat does not switch */
  assert_true(tc_hll_exact(&h));
  tc_hll_add(&h, value_hash(TC_HLL_EXACT, 9));
  assert_false(tc_hll_exact(&h));
  assert_null(h.set);
  double c = tc_hll_count(&h);
  assert_true(fabs(c - (TC_HLL_EXACT + 1)) <= 4 * SE * (TC_HLL_EXACT + 1));
  tc_hll_free(&h);
}

static void test_accuracy_single(void **state) {
  (void)state;
  static const uint64_t ns[] = {300, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 1000000};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    tc_hll h;
    tc_hll_init(&h);
    for (uint64_t v = 0; v < ns[k]; v++) {
      tc_hll_add(&h, value_hash(v, 77));
      if (v % 3 == 0)
        tc_hll_add(&h, value_hash(v, 77));
    }
    double rel = tc_hll_count(&h) / (double)ns[k] - 1;
    assert_true(fabs(rel) <= 4 * SE);
    tc_hll_free(&h);
  }
}

/* 200 sketches of independent values: their root-mean-square error is the
 * stated standard error (within the spread 200 samples allow), and their
 * mean shows no bias, at a count in the estimator's hard middle range
 * (2.5 m, where the original HyperLogLog switches estimators) and well
 * above it. */
static void test_accuracy_spread(void **state) {
  (void)state;
  static const uint64_t ns[] = {10000, 60000};
  for (size_t k = 0; k < 2; k++) {
    double sq = 0, sum = 0;
    for (uint64_t trial = 0; trial < 200; trial++) {
      tc_hll h;
      tc_hll_init(&h);
      for (uint64_t v = 0; v < ns[k]; v++)
        tc_hll_add(&h, value_hash(v, 1000 + trial));
      double rel = tc_hll_count(&h) / (double)ns[k] - 1;
      sq += rel * rel;
      sum += rel;
      tc_hll_free(&h);
    }
    double rms = sqrt(sq / 200), mean = sum / 200;
    assert_true(rms > 0.75 * SE && rms < 1.3 * SE);
    assert_true(fabs(mean) < 0.5 * SE);
  }
}

/* Shards of one stream, merged in random orders and groupings, equal one
 * sketch of everything, byte for byte, whatever mode each shard is in. */
static void test_merge_any_order(void **state) {
  (void)state;
  tc_rng rng = {42};
  static const uint64_t totals[] = {50, 256, 257, 600, 20000};
  for (size_t k = 0; k < sizeof totals / sizeof *totals; k++) {
    enum { SHARDS = 7 };
    tc_hll whole, shard[SHARDS];
    tc_hll_init(&whole);
    for (int s = 0; s < SHARDS; s++)
      tc_hll_init(&shard[s]);
    for (uint64_t i = 0; i < totals[k] * 2; i++) {
      uint64_t h = value_hash(tc_rng_below(&rng, totals[k]), 5);
      tc_hll_add(&whole, h);
      /* Skewed shards: some stay exact, some switch. */
      int s = (int)tc_rng_below(&rng, 1 + tc_rng_below(&rng, SHARDS));
      tc_hll_add(&shard[s], h);
    }
    for (int trial = 0; trial < 20; trial++) {
      int order[SHARDS];
      for (int s = 0; s < SHARDS; s++)
        order[s] = s;
      for (int s = SHARDS - 1; s > 0; s--) {
        int j = (int)tc_rng_below(&rng, (uint64_t)s + 1), t = order[s];
        order[s] = order[j];
        order[j] = t;
      }
      /* Two halves merged separately, then together. */
      tc_hll a, b;
      tc_hll_init(&a);
      tc_hll_init(&b);
      int cut = (int)tc_rng_below(&rng, SHARDS + 1);
      for (int s = 0; s < SHARDS; s++)
        assert_int_equal(tc_hll_merge(s < cut ? &a : &b, &shard[order[s]]), TC_OK);
      assert_int_equal(tc_hll_merge(trial % 2 ? &a : &b, trial % 2 ? &b : &a), TC_OK);
      assert_same(trial % 2 ? &a : &b, &whole);
      tc_hll_free(&a);
      tc_hll_free(&b);
    }
    tc_hll_free(&whole);
    for (int s = 0; s < SHARDS; s++)
      tc_hll_free(&shard[s]);
  }
}

static void test_round_trip(void **state) {
  (void)state;
  static const uint64_t ns[] = {0, 1, 17, 256, 257, 5000};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    tc_hll h, back;
    tc_hll_init(&h);
    tc_hll_init(&back);
    for (uint64_t v = 0; v < ns[k]; v++)
      tc_hll_add(&h, value_hash(v, 3));
    tc_bin_buf b;
    TC_ENCODE(tc_hll_encode, &h, &b);
    tc_bin_reader r;
    tc_bin_reader_init(&r, b.ptr, b.len, 0);
    assert_int_equal(tc_hll_decode(&r, &back), TC_OK);
    assert_int_equal(tc_bin_finish(&r), TC_OK);
    assert_same(&h, &back);
    assert_true(tc_hll_count(&h) == tc_hll_count(&back));
    TC_ASSERT_PREFIXES_REFUSED(tc_hll, tc_hll_init, tc_hll_decode, &b);
    tc_bin_buf_free(&b);
    tc_hll_free(&h);
    tc_hll_free(&back);
  }
}

static void expect_refused(const tc_bin_buf *b, const char *why) {
  tc_hll t;
  tc_hll_init(&t);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b->ptr, b->len, 0);
  assert_int_equal(tc_hll_decode(&r, &t), TC_E_BAD_BINARY);
  assert_string_equal(r.why, why);
  assert_null(t.set);
  assert_null(t.reg);
}

static void test_hostile(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_u8(&b, 2);
  expect_refused(&b, "unknown HyperLogLog kind");
  tc_bin_buf_free(&b);
  tc_bin_put_u8(&b, 0);
  tc_bin_put_uvar(&b, 3);
  tc_bin_put_uvar(&b, 10);
  tc_bin_put_uvar(&b, 0);
  tc_bin_put_uvar(&b, 1);
  expect_refused(&b, "HyperLogLog hashes not strictly ascending");
  tc_bin_buf_free(&b);
  tc_bin_put_u8(&b, 0);
  tc_bin_put_uvar(&b, TC_HLL_EXACT + 1);
  for (int i = 0; i <= TC_HLL_EXACT; i++)
    tc_bin_put_uvar(&b, 1);
  expect_refused(&b, "count above the format's limit");
  tc_bin_buf_free(&b);
  tc_bin_put_u8(&b, 0);
  tc_bin_put_uvar(&b, 200);
  expect_refused(&b, "count larger than the rest of the input can hold");
  tc_bin_buf_free(&b);
  tc_bin_put_u8(&b, 0);
  tc_bin_put_uvar(&b, 2);
  tc_bin_put_uvar(&b, UINT64_MAX);
  tc_bin_put_uvar(&b, 1);
  expect_refused(&b, "HyperLogLog hashes not strictly ascending");
  tc_bin_buf_free(&b);
  unsigned char reg[TC_HLL_M] = {0};
  reg[100] = 64 - TC_HLL_P + 2;
  tc_bin_put_u8(&b, 1);
  tc_bin_put_raw(&b, reg, sizeof reg);
  expect_refused(&b, "HyperLogLog register above its maximum");
  tc_bin_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact_small),     cmocka_unit_test(test_switch_to_registers),
      cmocka_unit_test(test_accuracy_single), cmocka_unit_test(test_accuracy_spread),
      cmocka_unit_test(test_merge_any_order), cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_hostile),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
