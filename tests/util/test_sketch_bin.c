/* tc_sketch_encode/decode: a decoded sketch answers every quantile exactly
 * as the original and encodes to the same bytes, for empty, zero-only,
 * narrow and full-range sketches; every prefix is refused, and so are
 * counts that do not add up and buckets outside min and max. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "util/tc_sketch_bin.h"
#include "tc_bin_check.h"
#include "tc_rng.h"

#define enc(s, b) TC_ENCODE(tc_sketch_encode, s, b)

static void fill(tc_sketch *s, int kind, tc_rng *r) {
  int n = kind == 0 ? 0 : 5000;
  for (int i = 0; i < n; i++) {
    double u = tc_rng_unit(r);
    double v = kind == 1 ? 0 : kind == 2 ? 100 + u : kind == 3 ? exp(u * 40 - 10)
             : kind == 4 ? exp(u * 1400 - 700) : (i % 3 ? u * 1e-5 : u * 1e6);
    assert_int_equal(tc_sketch_add(s, v), TC_OK);
  }
}

static void test_round_trip(void **state) {
  (void)state;
  tc_rng r = {31};
  for (int kind = 0; kind < 6; kind++) {
    tc_sketch s, back;
    tc_sketch_init(&s);
    tc_sketch_init(&back);
    fill(&s, kind, &r);
    tc_bin_buf b;
    enc(&s, &b);
    tc_bin_reader rd;
    tc_bin_reader_init(&rd, b.ptr, b.len, 0);
    assert_int_equal(tc_sketch_decode(&rd, &back), TC_OK);
    assert_int_equal(tc_bin_finish(&rd), TC_OK);
    assert_true(back.n == s.n && back.zeros == s.zeros);
    assert_true(back.min == s.min && back.max == s.max && back.sum == s.sum);
    for (int q = 0; q <= 1000; q++)
      assert_true(tc_sketch_quantile(&back, q / 1000.0) == tc_sketch_quantile(&s, q / 1000.0));
    TC_ASSERT_SAME_BYTES(tc_sketch_encode, &back, &s);
    /* Decoded sketches merge like the originals. */
    assert_int_equal(tc_sketch_merge(&back, &s), TC_OK);
    assert_true(back.n == 2 * s.n);
    TC_ASSERT_PREFIXES_REFUSED(tc_sketch, tc_sketch_init, tc_sketch_decode, &b);
    tc_bin_buf_free(&b);
    tc_sketch_free(&s);
    tc_sketch_free(&back);
  }
}

/* A sketch of N values, ZEROS of them zero, within [MIN, MAX], with the
 * given (index, count) buckets; the first index absolute, the rest gaps. */
static void put(tc_bin_buf *b, uint64_t n, uint64_t zeros, double min, double max,
                const int64_t *idx, const uint64_t *count, int nb) {
  tc_bin_buf_init(b);
  tc_bin_put_uvar(b, n);
  tc_bin_put_uvar(b, zeros);
  tc_bin_put_f64(b, 0);
  tc_bin_put_f64(b, min);
  tc_bin_put_f64(b, max);
  tc_bin_put_uvar(b, (uint64_t)nb);
  for (int i = 0; i < nb; i++) {
    if (i == 0)
      tc_bin_put_svar(b, idx[0]);
    else
      tc_bin_put_uvar(b, (uint64_t)(idx[i] - idx[i - 1]));
    tc_bin_put_uvar(b, count[i]);
  }
}

static void expect(const tc_bin_buf *b, const char *why) {
  tc_sketch s;
  tc_sketch_init(&s);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b->ptr, b->len, 0);
  tc_err e = tc_sketch_decode(&r, &s);
  if (why) {
    assert_int_equal(e, TC_E_BAD_BINARY);
    assert_string_equal(r.why, why);
    assert_null(s.pages);
    assert_null(s.cells);
  } else {
    assert_int_equal(e, TC_OK);
  }
  tc_sketch_free(&s);
}

static void test_hostile(void **state) {
  (void)state;
  /* Buckets of 1 and 100 (gamma ~ 1.01005: bucket of 100 is 461). */
  const int64_t idx[] = {0, 461};
  const uint64_t cnt[] = {2, 3};
  tc_bin_buf b;
  put(&b, 5, 0, 1, 100, idx, cnt, 2);
  expect(&b, NULL);
  tc_bin_buf_free(&b);
  put(&b, 6, 0, 1, 100, idx, cnt, 2);
  expect(&b, "sketch bucket counts do not add up to n");
  tc_bin_buf_free(&b);
  const uint64_t zero[] = {2, 0};
  put(&b, 2, 0, 1, 100, idx, zero, 2);
  expect(&b, "sketch bucket with no values");
  tc_bin_buf_free(&b);
  /* Two buckets a whole range apart in a few bytes, with a min and max
   * that do not allow them: refused before any allocation of the range. */
  const int64_t far[] = {-900, 70000};
  put(&b, 5, 0, 1, 100, far, cnt, 2);
  expect(&b, "sketch bucket outside the sketch's min and max");
  tc_bin_buf_free(&b);
  const int64_t high[] = {0, 462 + 1};
  put(&b, 5, 0, 1, 100, high, cnt, 2);
  expect(&b, "sketch bucket outside the sketch's min and max");
  tc_bin_buf_free(&b);
  put(&b, 5, 0, 100, 1, idx, cnt, 2);
  expect(&b, "sketch min, max or sum is not a number in order");
  tc_bin_buf_free(&b);
  put(&b, 5, 0, NAN, 100, idx, cnt, 2);
  expect(&b, "sketch min, max or sum is not a number in order");
  tc_bin_buf_free(&b);
  /* Only values below 1e-4: no bucket may exist. */
  const int64_t one[] = {0};
  const uint64_t c1[] = {1};
  put(&b, 2, 1, 0, 1e-5, one, c1, 1);
  expect(&b, "sketch bucket outside the sketch's min and max");
  tc_bin_buf_free(&b);
  /* A bucket count that claims more buckets than the input holds. */
  put(&b, 5, 0, 1, 100, idx, cnt, 2);
  b.ptr[1 + 1 + 24] = 100;
  expect(&b, "count larger than the rest of the input can hold");
  tc_bin_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_hostile),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
