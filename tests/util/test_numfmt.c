/* Number text against printf itself. tc_numfmt_num must write, byte for
 * byte, what the reports wrote before it existed: the reference is that
 * algorithm (printf_ref_num: exact %.0f for integers under 2^53, else up to
 * 17 rounds of snprintf + strtod for the shortest %.{p}g that reads back).
 * The inputs: random bit patterns of every exponent, random decimals of 1
 * to 17 digits, ratios and milliseconds as the reports hold them, every
 * power of two and of ten with their neighbours, subnormals, the integers
 * and halves around 2^53, and the special values. tc_numfmt_g and tc_numfmt_fixed must equal
 * %.{p}g and %.{p}f, exact ties (k / 2^m) included.
 *
 * `test_numfmt [SCALE]` multiplies every random count by SCALE (default 1:
 * 2.3 million doubles against the old loop, 15 s; SCALE 10 compares 22 million). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printf_ref.h"
#include "util/tc_numfmt.h"

static long scale = 1;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static unsigned long nums, forms; /* values compared */

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static double from_bits(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* Fails with the value's bits, so any mismatch can be replayed. */
static void expect_num(double v) {
  if (!isfinite(v))
    return;
  char want[64], got[TC_NUMFMT_MAX + 1];
  size_t wn = printf_ref_num(v, want, sizeof want);
  size_t gn = tc_numfmt_num(v, got);
  got[gn] = '\0';
  nums++;
  if (gn != wn || memcmp(got, want, wn) != 0) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    fail_msg("tc_numfmt_num(0x%016llx) wrote '%s', printf's shortest is '%s'", (unsigned long long)b,
             got, want);
  }
}

/* FN's text against printf's FORMAT ("%.*g" or "%.*f") at precision PREC. */
static void expect_form(double v, int prec, const char *format,
                        size_t (*fn)(double, int, char *), const char *name) {
  char want[TC_NUMFMT_FIXED_MAX + 8], got[TC_NUMFMT_FIXED_MAX + 1];
  int wn = snprintf(want, sizeof want, format, prec, v);
  size_t gn = fn(v, prec, got);
  got[gn] = '\0';
  forms++;
  if ((int)gn != wn || strcmp(got, want) != 0) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    fail_msg("%s(0x%016llx, %d) wrote '%s', printf '%s'", name, (unsigned long long)b, prec, got,
             want);
  }
}

static void expect_g(double v, int prec) { expect_form(v, prec, "%.*g", tc_numfmt_g, "tc_numfmt_g"); }

static void expect_fixed(double v, int prec) {
  expect_form(v, prec, "%.*f", tc_numfmt_fixed, "tc_numfmt_fixed");
}

/* V and its neighbours up to K steps either way. */
static void expect_around(double v, int k) {
  double up = v, down = v;
  expect_num(v);
  for (int i = 0; i < k; i++) {
    up = nextafter(up, INFINITY);
    down = nextafter(down, -INFINITY);
    expect_num(up);
    expect_num(down);
  }
}

static void test_random_bits(void **state) {
  (void)state;
  for (long i = 0; i < 400000 * scale; i++)
    expect_num(from_bits(next()));
}

/* A random decimal of 1..17 digits with an exponent near 0 or anywhere,
 * read by strtod: the doubles whose shortest text is that decimal or near. */
static double random_decimal(int wide) {
  char s[64];
  int digits = 1 + (int)(next() % 17);
  uint64_t m = next() % 100000000000000000ULL;
  for (int d = digits; d < 17; d++)
    m /= 10;
  int e = wide ? (int)(next() % 640) - 330 : (int)(next() % 24) - 12;
  snprintf(s, sizeof s, "%s%llue%d", next() & 1 ? "-" : "", (unsigned long long)m, e);
  return strtod(s, NULL);
}

static void test_random_decimals(void **state) {
  (void)state;
  for (long i = 0; i < 700000 * scale; i++)
    expect_num(random_decimal(0));
  for (long i = 0; i < 300000 * scale; i++)
    expect_num(random_decimal(1));
}

/* What the reports hold: records per site, quantiles in microseconds,
 * milliseconds from microseconds, percentages. */
static void test_report_values(void **state) {
  (void)state;
  for (long i = 0; i < 200000 * scale; i++) {
    double a = (double)(next() % 10000000), b = (double)(1 + next() % 1000);
    expect_num(a / b);
    expect_num(a / 1e3);
    expect_num(100.0 * (double)(next() % 100000) / (double)(1 + next() % 100000));
  }
}

/* Every power of two (where shortest digits and %g's rule can part) and of
 * ten, three neighbours either way, both signs; the extremes. */
static void test_boundaries(void **state) {
  (void)state;
  for (int e = -1074; e <= 1023; e++) {
    expect_around(ldexp(1.0, e), 3);
    expect_around(-ldexp(1.0, e), 3);
    expect_around(ldexp(1.5, e < 1023 ? e : 1022), 1);
  }
  for (int e = -323; e <= 308; e++) {
    char s[16];
    snprintf(s, sizeof s, "1e%d", e);
    expect_around(strtod(s, NULL), 3);
    expect_around(-strtod(s, NULL), 3);
  }
  const double specials[] = {0.0, -0.0, DBL_MIN, DBL_MAX, DBL_TRUE_MIN, DBL_EPSILON, 0.1, 0.2,
                             0.3, 1.0 / 3.0, 2.0 / 3.0, M_PI, M_E, 1e23, 5e-324, 1.7976931348623157e308};
  for (size_t i = 0; i < sizeof specials / sizeof *specials; i++) {
    expect_around(specials[i], 5);
    expect_around(-specials[i], 5);
  }
  char buf[TC_NUMFMT_MAX];
  assert_int_equal(tc_numfmt_num(NAN, buf), 0);
  assert_int_equal(tc_numfmt_num(INFINITY, buf), 0);
  assert_int_equal(tc_numfmt_num(-INFINITY, buf), 0);
  assert_int_equal(tc_numfmt_num(-0.0, buf), 1);
  assert_memory_equal(buf, "0", 1);
}

static void test_subnormals(void **state) {
  (void)state;
  for (long i = 0; i < 100000 * scale; i++) {
    uint64_t b = next() & ((1ULL << 52) - 1);
    b >>= next() % 52; /* short mantissas too */
    expect_num(from_bits(b | (next() & (1ULL << 63))));
  }
}

/* Where the integer form stops: every integer and half within 2^12 of 2^53,
 * random doubles in [2^52, 2^54] and near 2^63 and 2^64. */
static void test_around_2p53(void **state) {
  (void)state;
  const double p53 = 9007199254740992.0;
  for (int k = -4096; k <= 4096; k++) {
    expect_num(p53 + k);
    expect_num(-(p53 + k));
    expect_num(p53 / 2 + k + 0.5);
  }
  for (long i = 0; i < 50000 * scale; i++) {
    expect_num(ldexp(1.0 + (double)(next() >> 11) / 9007199254740992.0, 52 + (int)(next() % 2)));
    expect_num(ldexp(1.0 + (double)(next() >> 11) / 9007199254740992.0, 62 + (int)(next() % 2)));
  }
}

/* %.{p}g and %.{p}f for every precision the reports use and more, on random
 * values and on exact ties (odd multiples of a power of two), where printf
 * rounds half to even. */
static void test_printf_forms(void **state) {
  (void)state;
  for (long i = 0; i < 60000 * scale; i++) {
    double r = i % 2 ? from_bits(next()) : random_decimal(0);
    double tie = ldexp((double)(2 * (next() % 50000000) + 1), -(int)(next() % 12));
    for (int p = 1; p <= 17; p++) {
      expect_g(r, p);
      expect_g(tie, p);
    }
    for (int p = 0; p <= 6; p++) {
      expect_fixed(tie, p);
      expect_fixed(fabs(r) < 1e300 ? r : r / 1e300, p);
    }
  }
  const double special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, DBL_MAX, -DBL_MAX,
                            DBL_TRUE_MIN, 1e6, 999999.95, 0.0001, 0.00001};
  for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
    for (int p = 1; p <= 17; p++)
      expect_g(special[i], p);
    for (int p = 0; p <= 17; p++)
      expect_fixed(special[i], p);
  }
}

static void test_integers(void **state) {
  (void)state;
  char buf[TC_NUMFMT_MAX], want[64];
  const uint64_t u[] = {0, 1, 9, 10, 99, 100, 999999, 1000000, UINT32_MAX, UINT64_MAX};
  for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
    snprintf(want, sizeof want, "%llu", (unsigned long long)u[i]);
    assert_int_equal(tc_numfmt_u64(u[i], buf), strlen(want));
    assert_memory_equal(buf, want, strlen(want));
  }
  const int64_t s[] = {0, -1, 1, -42, INT64_MIN, INT64_MAX};
  for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
    snprintf(want, sizeof want, "%lld", (long long)s[i]);
    assert_int_equal(tc_numfmt_i64(s[i], buf), strlen(want));
    assert_memory_equal(buf, want, strlen(want));
  }
  for (long i = 0; i < 100000 * scale; i++) {
    uint64_t v = next() >> (next() % 64);
    forms++;
    snprintf(want, sizeof want, "%llu", (unsigned long long)v);
    assert_int_equal(tc_numfmt_u64(v, buf), strlen(want));
    assert_memory_equal(buf, want, strlen(want));
  }
}

int main(int argc, char **argv) {
  if (argc > 1)
    scale = atol(argv[1]) > 0 ? atol(argv[1]) : 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_bits),   cmocka_unit_test(test_random_decimals),
      cmocka_unit_test(test_report_values), cmocka_unit_test(test_boundaries),
      cmocka_unit_test(test_subnormals),    cmocka_unit_test(test_around_2p53),
      cmocka_unit_test(test_printf_forms),  cmocka_unit_test(test_integers),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  print_message("test_numfmt: %lu doubles against the old shortest-%%g loop, %lu against "
                "%%.{p}g, %%.{p}f and %%llu\n",
                nums, forms);
  return failed;
}
