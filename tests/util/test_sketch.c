/* The quantile sketch against exact nearest-rank quantiles (the value of
 * rank ceil(q*n) in sorted order) of the same data, computed here by
 * sorting: every answer within TC_SKETCH_ALPHA relative error, min and max
 * exact, and shards merged in any order equal to one sketch of everything,
 * bucket for bucket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "util/tc_sketch.h"

#define N 100000

static const double qs[] = {0.0,  1e-5, 0.001, 0.01, 0.05, 0.1,   0.25,   0.333, 0.5,
                            0.66, 0.75, 0.9,   0.95, 0.99, 0.999, 0.9999, 1.0};
#define NQ (sizeof qs / sizeof *qs)

static uint64_t rng_state;

static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* In (0, 1). */
static double next_unit(void) { return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0; }

static double next_normal(void) {
  return sqrt(-2.0 * log(next_unit())) * cos(6.283185307179586 * next_unit());
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double exact_quantile(const double *sorted, size_t n, double q) {
  if (q <= 0)
    return sorted[0];
  size_t rank = (size_t)ceil(q * (double)n);
  if (rank < 1)
    rank = 1;
  if (rank > n)
    rank = n;
  return sorted[rank - 1];
}

/* Builds a sketch of V[0..n) and checks every quantile of qs against the
 * sorted data; returns the worst relative error seen. */
static double check_against_exact(const char *what, const double *v, size_t n) {
  tc_sketch s;
  tc_sketch_init(&s);
  double *sorted = malloc(n * sizeof *sorted);
  assert_non_null(sorted);
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(tc_sketch_add(&s, v[i]), TC_OK);
    sorted[i] = v[i];
  }
  qsort(sorted, n, sizeof *sorted, cmp_double);
  assert_int_equal(s.n, n);
  assert_true(s.min == sorted[0]);
  assert_true(s.max == sorted[n - 1]);
  assert_true(tc_sketch_quantile(&s, 0) == sorted[0]);
  assert_true(tc_sketch_quantile(&s, 1) == sorted[n - 1]);
  double worst = 0;
  for (size_t k = 0; k < NQ; k++) {
    double want = exact_quantile(sorted, n, qs[k]);
    double got = tc_sketch_quantile(&s, qs[k]);
    double err = want == 0 ? (got == 0 ? 0 : INFINITY) : fabs(got - want) / want;
    if (err > worst)
      worst = err;
    if (err > TC_SKETCH_ALPHA * (1 + 1e-9))
      fail_msg("%s: q=%g exact %.17g sketch %.17g (relative error %g)", what, qs[k], want, got, err);
  }
  print_message("%-22s n=%zu worst relative error %.12f (alpha %g)\n", what, n, worst,
                TC_SKETCH_ALPHA);
  free(sorted);
  tc_sketch_free(&s);
  return worst;
}

static double *values(size_t n) {
  double *v = malloc(n * sizeof *v);
  assert_non_null(v);
  return v;
}

static void test_uniform(void **state) {
  (void)state;
  rng_state = 1;
  double *v = values(N);
  for (size_t i = 0; i < N; i++)
    v[i] = 1000.0 * next_unit();
  check_against_exact("uniform 0..1000", v, N);
  free(v);
}

static void test_log_normal(void **state) {
  (void)state;
  rng_state = 2;
  double *v = values(N);
  for (size_t i = 0; i < N; i++)
    v[i] = exp(3.0 + 2.0 * next_normal()); /* durations in us: median ~20, tail to ~1e5 */
  check_against_exact("log-normal", v, N);
  free(v);
}

static void test_many_duplicates(void **state) {
  (void)state;
  static const double few[] = {0.5, 3, 3.0000001, 17, 1e6};
  rng_state = 3;
  double *v = values(N);
  for (size_t i = 0; i < N; i++)
    v[i] = few[next_u64() % 5];
  check_against_exact("five values", v, N);
  free(v);
}

/* Zeros are counted exactly: a quantile whose rank falls among them is 0. */
static void test_zeros(void **state) {
  (void)state;
  rng_state = 4;
  double *v = values(N);
  for (size_t i = 0; i < N; i++)
    v[i] = next_u64() % 10 < 4 ? 0 : 50.0 * next_unit();
  check_against_exact("40% zeros", v, N);
  for (size_t i = 0; i < N; i++)
    v[i] = 0;
  check_against_exact("all zeros", v, N);
  free(v);
}

static void test_single_value(void **state) {
  (void)state;
  double v[1000];
  for (size_t i = 0; i < 1000; i++)
    v[i] = 123.456;
  assert_true(check_against_exact("one value x1000", v, 1000) == 0);
  assert_true(check_against_exact("one value x1", v, 1) == 0);
}

static void test_huge_range(void **state) {
  (void)state;
  rng_state = 5;
  double *v = values(N);
  for (size_t i = 0; i < N; i++)
    v[i] = pow(10.0, -3.0 + 12.0 * next_unit()); /* log-uniform 1e-3 .. 1e9 */
  v[0] = 1e-3;
  v[1] = 1e9;
  check_against_exact("log-uniform 1e-3..1e9", v, N);
  free(v);
}

/* Values at and next to bucket boundaries gamma^i, where rounding in
 * ceil(log v / log gamma) decides the bucket. */
static void test_bucket_edges(void **state) {
  (void)state;
  const double g = (1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA);
  size_t n = 0;
  double *v = values(3 * 4200);
  for (int i = -900; i <= 2800; i++) { /* 1.2e-4 .. 1.4e12 */
    double e = pow(g, i);
    v[n++] = e;
    v[n++] = nextafter(e, 0);
    v[n++] = nextafter(e, INFINITY);
  }
  check_against_exact("gamma^i and neighbours", v, n);
  free(v);
}

/* Whole numbers up to and past the 65,536 whose buckets tc_sketch keeps
 * once computed: each lands in ceil(log v / log gamma), computed here, both
 * the first time (computed) and the second (looked up), and fractions next
 * to them are not given their whole neighbour's bucket. */
static void test_whole_numbers(void **state) {
  (void)state;
  const double lg = log((1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA));
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t w = 1; w <= 70000; w++) {
      double vs[] = {w, w + 0.5, nextafter(w, 0)};
      for (size_t k = 0; k < sizeof vs / sizeof *vs; k++) {
        tc_sketch s;
        tc_sketch_init(&s);
        assert_int_equal(tc_sketch_add(&s, vs[k]), TC_OK);
        int32_t want = (int32_t)ceil(log(vs[k]) / lg);
        if (tc_sketch_bucket(&s, want) != 1)
          fail_msg("%.17g (pass %d): not in bucket %d", vs[k], pass, want);
        tc_sketch_free(&s);
      }
    }
}

static void test_empty(void **state) {
  (void)state;
  tc_sketch s;
  tc_sketch_init(&s);
  assert_int_equal(s.n, 0);
  assert_true(tc_sketch_quantile(&s, 0.5) == 0);
  tc_sketch t;
  tc_sketch_init(&t);
  assert_int_equal(tc_sketch_merge(&s, &t), TC_OK);
  assert_int_equal(s.n, 0);
  assert_int_equal(tc_sketch_add(&t, 7), TC_OK);
  assert_int_equal(tc_sketch_merge(&s, &t), TC_OK);
  assert_int_equal(s.n, 1);
  assert_true(s.min == 7 && s.max == 7);
  assert_true(tc_sketch_quantile(&s, 0.5) == 7);
  tc_sketch_free(&s);
  tc_sketch_free(&t);
  tc_sketch_free(NULL);
}

/* ---- merge ------------------------------------------------------------- */

/* The bucket range either sketch holds anything in. */
static void bucket_range(const tc_sketch *s, int64_t *lo, int64_t *hi) {
  uint32_t pos = 0;
  int32_t b;
  uint64_t count;
  while (tc_sketch_next(s, &pos, &b, &count)) {
    if (b < *lo)
      *lo = b;
    if (b + 1 > *hi)
      *hi = b + 1;
  }
}

/* Same counts in every bucket (whatever pages each happens to hold), same
 * zeros, n, min and max, and the same answer to every quantile. */
static void assert_same_sketch(const tc_sketch *a, const tc_sketch *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->zeros, b->zeros);
  assert_true(a->min == b->min);
  assert_true(a->max == b->max);
  assert_true(fabs(a->sum - b->sum) <= 1e-9 * fabs(a->sum));
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bucket_range(a, &lo, &hi);
  bucket_range(b, &lo, &hi);
  for (int64_t i = lo; i < hi; i++)
    if (tc_sketch_bucket(a, (int32_t)i) != tc_sketch_bucket(b, (int32_t)i))
      fail_msg("bucket %lld: %llu vs %llu", (long long)i,
               (unsigned long long)tc_sketch_bucket(a, (int32_t)i),
               (unsigned long long)tc_sketch_bucket(b, (int32_t)i));
  for (int k = 0; k <= 1000; k++)
    assert_true(tc_sketch_quantile(a, k / 1000.0) == tc_sketch_quantile(b, k / 1000.0));
}

#define SHARDS 9

static void test_merge_any_order(void **state) {
  (void)state;
  rng_state = 6;
  tc_sketch all, shard[SHARDS];
  tc_sketch_init(&all);
  for (int k = 0; k < SHARDS; k++)
    tc_sketch_init(&shard[k]);
  /* Each shard has its own value range (so bucket arrays start and end in
   * different places), one is empty and one holds only zeros. */
  for (size_t i = 0; i < N; i++) {
    int k = (int)(next_u64() % SHARDS);
    double v;
    if (k == 0)
      continue;
    if (k == 1)
      v = 0;
    else
      v = pow(10.0, (double)(k - 4) + 2.0 * next_unit());
    assert_int_equal(tc_sketch_add(&shard[k], v), TC_OK);
    assert_int_equal(tc_sketch_add(&all, v), TC_OK);
  }
  static const int orders[][SHARDS] = {
      {0, 1, 2, 3, 4, 5, 6, 7, 8},
      {8, 7, 6, 5, 4, 3, 2, 1, 0},
      {4, 0, 8, 2, 6, 1, 7, 3, 5},
      {5, 3, 7, 1, 6, 2, 8, 0, 4},
  };
  tc_sketch first;
  for (size_t o = 0; o < sizeof orders / sizeof *orders; o++) {
    tc_sketch m;
    tc_sketch_init(&m);
    for (int k = 0; k < SHARDS; k++)
      assert_int_equal(tc_sketch_merge(&m, &shard[orders[o][k]]), TC_OK);
    assert_same_sketch(&m, &all);
    if (o == 0)
      first = m;
    else {
      assert_same_sketch(&m, &first);
      tc_sketch_free(&m);
    }
  }
  /* A tree of merges: pairs first, then pairs of pairs. */
  tc_sketch t[SHARDS];
  for (int k = 0; k < SHARDS; k++) {
    tc_sketch_init(&t[k]);
    assert_int_equal(tc_sketch_merge(&t[k], &shard[k]), TC_OK);
  }
  for (int step = 1; step < SHARDS; step *= 2)
    for (int k = 0; k + step < SHARDS; k += 2 * step)
      assert_int_equal(tc_sketch_merge(&t[k], &t[k + step]), TC_OK);
  assert_same_sketch(&t[0], &all);
  for (int k = 0; k < SHARDS; k++) {
    tc_sketch_free(&t[k]);
    tc_sketch_free(&shard[k]);
  }
  tc_sketch_free(&first);
  tc_sketch_free(&all);
}

/* ---- memory ------------------------------------------------------------ */

/* Memory follows the values held, not their range: 3,000 sketches of two
 * values 303 orders of magnitude apart cost two cells each (before, each
 * spanned 70,000 buckets: 1.75 GB in all), and stay within alpha; a sketch
 * of more buckets than the cells hold costs pages, as many as its values
 * touch. */
static void test_memory_follows_values(void **state) {
  (void)state;
  enum { NAMES = 3000 };
  tc_sketch *s = calloc(NAMES, sizeof *s);
  assert_non_null(s);
  size_t bytes = 0;
  for (int i = 0; i < NAMES; i++) {
    assert_int_equal(tc_sketch_add(&s[i], 0.001), TC_OK);
    assert_int_equal(tc_sketch_add(&s[i], 1e300), TC_OK);
    assert_int_equal(s[i].ncells, 2);
    assert_int_equal(s[i].npages, 0);
    bytes += tc_sketch_bytes(&s[i]);
    assert_true(fabs(tc_sketch_quantile(&s[i], 0.5) - 0.001) <= TC_SKETCH_ALPHA * 0.001);
    assert_true(fabs(tc_sketch_quantile(&s[i], 0.95) - 1e300) <= TC_SKETCH_ALPHA * 1e300);
  }
  assert_true(bytes <= (size_t)NAMES * 2 * TC_SKETCH_CELL_BYTES);
  print_message("3000 names x {0.001, 1e300}: %zu bytes of sketches\n", bytes);
  for (int i = 0; i < NAMES; i++)
    tc_sketch_free(&s[i]);
  /* One bucket more than the cells hold, the values in three far-apart
   * runs: pages for those runs alone, and the same buckets as merging the
   * values one sketch each (cells into cells, then into pages). */
  tc_sketch t, u;
  tc_sketch_init(&t);
  tc_sketch_init(&u);
  const double g = (1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA);
  double x = 1.0;
  for (int i = 0; i <= TC_SKETCH_SPARSE_MAX + 1; i++, x *= g) {
    double v = i == TC_SKETCH_SPARSE_MAX + 1 ? -1 : i == TC_SKETCH_SPARSE_MAX ? 1e100
             : i % 2 ? x : x * 1e200;
    assert_int_equal(t.ncells, i <= TC_SKETCH_SPARSE_MAX ? i : 0);
    assert_int_equal(tc_sketch_add(&t, v), TC_OK);
    tc_sketch one;
    tc_sketch_init(&one);
    assert_int_equal(tc_sketch_add(&one, v), TC_OK);
    assert_int_equal(tc_sketch_merge(&u, &one), TC_OK);
    tc_sketch_free(&one);
  }
  assert_int_equal(t.ncells, 0);
  assert_true(t.npages >= 3 && t.npages <= 5);
  assert_true(tc_sketch_bytes(&t) <= TC_SKETCH_BASE_BYTES + 5 * TC_SKETCH_PAGE_BYTES);
  assert_same_sketch(&t, &u);
  assert_true(tc_sketch_quantile(&t, 0) == -1);
  tc_sketch_free(&u);
  tc_sketch_free(&t);
  free(s);
}

/* Every bucket from 1e-4 to the largest double, and infinity: at most
 * TC_SKETCH_MAX_PAGES pages, and every quantile within alpha. */
static void test_whole_range(void **state) {
  (void)state;
  const double g = (1.0 + TC_SKETCH_ALPHA) / (1.0 - TC_SKETCH_ALPHA);
  size_t n = 0, cap = 80000;
  double *v = values(cap);
  for (double x = 1e-4; x < DBL_MAX / g && n < cap; x *= g)
    v[n++] = x;
  v[n++] = DBL_MAX;
  check_against_exact("1e-4 .. DBL_MAX", v, n);
  tc_sketch s;
  tc_sketch_init(&s);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(tc_sketch_add(&s, v[i]), TC_OK);
  assert_int_equal(tc_sketch_add(&s, INFINITY), TC_OK);
  assert_true(s.npages <= TC_SKETCH_MAX_PAGES);
  assert_true(tc_sketch_bytes(&s) <= (size_t)TC_SKETCH_MAX_PAGES * TC_SKETCH_PAGE_BYTES);
  assert_true(s.max == INFINITY);
  assert_true(tc_sketch_quantile(&s, 1) == INFINITY);
  assert_true(isfinite(tc_sketch_quantile(&s, 0.999999)));
  tc_sketch_free(&s);
  free(v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform),       cmocka_unit_test(test_log_normal),
      cmocka_unit_test(test_many_duplicates), cmocka_unit_test(test_zeros),
      cmocka_unit_test(test_single_value),  cmocka_unit_test(test_huge_range),
      cmocka_unit_test(test_bucket_edges),  cmocka_unit_test(test_whole_numbers),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_merge_any_order),
      cmocka_unit_test(test_memory_follows_values), cmocka_unit_test(test_whole_range),
  };
  return cmocka_run_group_tests_name("sketch", tests, NULL, NULL);
}
