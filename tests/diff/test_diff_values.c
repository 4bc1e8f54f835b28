/* tc_diff_value_shift on value profiles written here in census.json's
 * shape: each shift follows from the counts by construction (README.md,
 * "Comparing two crawls"), and a profile that is missing, damaged or
 * hostile gives no shift rather than a number made up from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "diff/tc_diff_side.h"

/* A profile of VALUES values: TYPES the six type counts (null, bool,
 * number, string, array, object), SENT the five sentinel counts (zero,
 * minus_one, empty_string, null, false), CONSTANT a `constant` object's
 * text or "null". */
static tc_jtree *profile(unsigned values, const unsigned types[6], const unsigned sent[5],
                         const char *constant) {
  char buf[1024];
  snprintf(buf, sizeof buf,
           "{\"values\":%u,\"types\":{\"null\":%u,\"bool\":%u,\"number\":%u,\"string\":%u,"
           "\"array\":%u,\"object\":%u},\"sentinels\":{\"zero\":%u,\"minus_one\":%u,"
           "\"empty_string\":%u,\"null\":%u,\"false\":%u},\"constant\":%s,\"profile\":\"p%u\"}",
           values, types[0], types[1], types[2], types[3], types[4], types[5], sent[0], sent[1],
           sent[2], sent[3], sent[4], constant, values);
  tc_jtree *t = NULL;
  tc_why why;
  assert_int_equal(tc_jtree_parse(buf, strlen(buf), &t, &why), TC_OK);
  return t;
}

static tc_jtree *raw(const char *text) {
  tc_jtree *t = NULL;
  tc_why why;
  assert_int_equal(tc_jtree_parse(text, strlen(text), &t, &why), TC_OK);
  return t;
}

static const unsigned no_sent[5] = {0};

static double shift(tc_jtree *a, tc_jtree *b, const char **basis) {
  double s = tc_diff_value_shift(tc_jtree_root(a), tc_jtree_root(b), basis);
  tc_jtree_free(a);
  tc_jtree_free(b);
  return s;
}

static void same_profile_no_shift(void **state) {
  (void)state;
  static const unsigned t[6] = {0, 0, 80, 20, 0, 0}, z[5] = {10, 0, 5, 0, 0};
  const char *basis = "x";
  assert_true(shift(profile(100, t, z, "null"), profile(100, t, z, "null"), &basis) == 0);
  assert_null(basis);
  /* Shares, not counts: ten times the values, the same mix. */
  static const unsigned t10[6] = {0, 0, 800, 200, 0, 0}, z10[5] = {100, 0, 50, 0, 0};
  assert_true(shift(profile(100, t, z, "null"), profile(1000, t10, z10, "null"), &basis) == 0);
}

/* All numbers, then half of them strings: half the values changed type. */
static void types_total_variation(void **state) {
  (void)state;
  static const unsigned a[6] = {0, 0, 40, 0, 0, 0}, b[6] = {0, 0, 20, 20, 0, 0};
  const char *basis;
  assert_true(shift(profile(40, a, no_sent, "null"), profile(40, b, no_sent, "null"), &basis) == 0.5);
  assert_string_equal(basis, "types");
  /* Every value another type: 1. */
  static const unsigned c[6] = {0, 0, 0, 0, 0, 40};
  assert_true(shift(profile(40, a, no_sent, "null"), profile(40, c, no_sent, "null"), &basis) == 1);
}

/* A quarter of the values became 0 (still numbers): the sentinel moved. */
static void sentinel_share(void **state) {
  (void)state;
  static const unsigned t[6] = {0, 0, 40, 0, 0, 0}, z[5] = {10, 0, 0, 0, 0};
  const char *basis;
  assert_true(shift(profile(40, t, no_sent, "null"), profile(40, t, z, "null"), &basis) == 0.25);
  assert_string_equal(basis, "sentinel 0");
  static const unsigned f[5] = {0, 0, 0, 0, 30}, bt[6] = {0, 40, 0, 0, 0, 0};
  assert_true(shift(profile(40, bt, no_sent, "null"), profile(40, bt, f, "null"), &basis) == 0.75);
  assert_string_equal(basis, "sentinel false");
}

static void constants(void **state) {
  (void)state;
  static const unsigned t[6] = {0, 0, 9, 0, 0, 0};
  const char *basis;
  const char *one = "{\"type\":\"number\",\"value\":1,\"sites\":3}";
  const char *two = "{\"type\":\"number\",\"value\":2,\"sites\":3}";
  assert_true(shift(profile(9, t, no_sent, one), profile(9, t, no_sent, two), &basis) == 1);
  assert_string_equal(basis, "constant");
  assert_true(shift(profile(9, t, no_sent, one), profile(9, t, no_sent, one), &basis) == 0);
  /* No longer the only value. */
  assert_true(shift(profile(9, t, no_sent, one), profile(9, t, no_sent, "null"), &basis) == 0.5);
  assert_string_equal(basis, "constant");
  /* A constant withheld (seen on too few sites to print) cannot be told
   * from another one. */
  const char *hidden = "{\"type\":\"string\",\"value\":null,\"value_na\":\"seen on 1 site\",\"sites\":1}";
  static const unsigned s[6] = {0, 0, 0, 9, 0, 0};
  assert_true(shift(profile(9, s, no_sent, hidden), profile(9, s, no_sent, hidden), &basis) == 0);
  assert_null(basis);
  const char *x = "{\"type\":\"string\",\"value\":\"x\",\"sites\":3}";
  const char *y = "{\"type\":\"string\",\"value\":\"y\",\"sites\":3}";
  assert_true(shift(profile(9, s, no_sent, x), profile(9, s, no_sent, y), &basis) == 1);
}

/* The largest reading wins: types 0.5 beat a sentinel's 0.25. */
static void largest_reading(void **state) {
  (void)state;
  static const unsigned a[6] = {0, 0, 40, 0, 0, 0}, b[6] = {0, 0, 20, 20, 0, 0};
  static const unsigned z[5] = {10, 0, 0, 0, 0};
  const char *basis;
  assert_true(shift(profile(40, a, no_sent, "null"), profile(40, b, z, "null"), &basis) == 0.5);
  assert_string_equal(basis, "types");
}

/* Missing, damaged or hostile profiles: no shift, no basis. */
static void unreadable_profiles(void **state) {
  (void)state;
  static const unsigned t[6] = {0, 0, 40, 0, 0, 0};
  static const char *const bad[] = {
      "{}",
      "{\"values\":0,\"types\":{},\"sentinels\":{}}",
      "{\"values\":40,\"types\":{\"number\":40},\"sentinels\":{}}",
      "{\"values\":40,\"types\":{\"null\":0,\"bool\":0,\"number\":41,\"string\":0,\"array\":0,"
      "\"object\":0},\"sentinels\":{\"zero\":0,\"minus_one\":0,\"empty_string\":0,\"null\":0,"
      "\"false\":0}}",
      "{\"values\":40,\"types\":{\"null\":-1,\"bool\":0,\"number\":40,\"string\":0,\"array\":0,"
      "\"object\":0},\"sentinels\":{\"zero\":0,\"minus_one\":0,\"empty_string\":0,\"null\":0,"
      "\"false\":0}}",
      "{\"values\":\"40\",\"types\":[],\"sentinels\":7}",
      "[1,2,3]",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *basis = "x";
    assert_true(shift(profile(40, t, no_sent, "null"), raw(bad[i]), &basis) == 0);
    assert_null(basis);
    assert_true(shift(raw(bad[i]), profile(40, t, no_sent, "null"), &basis) == 0);
  }
  const char *basis;
  assert_true(tc_diff_value_shift(NULL, NULL, &basis) == 0);
}

static void profile_text(void **state) {
  (void)state;
  static const unsigned t[6] = {0, 0, 7, 0, 0, 0};
  tc_jtree *p = profile(7, t, no_sent, "null");
  tc_str s = tc_diff_profile_text(tc_jtree_root(p));
  assert_int_equal(s.len, 2);
  assert_memory_equal(s.ptr, "p7", 2);
  tc_jtree_free(p);
  assert_int_equal(tc_diff_profile_text(NULL).len, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_profile_no_shift), cmocka_unit_test(types_total_variation),
      cmocka_unit_test(sentinel_share),        cmocka_unit_test(constants),
      cmocka_unit_test(largest_reading),       cmocka_unit_test(unreadable_profiles),
      cmocka_unit_test(profile_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
