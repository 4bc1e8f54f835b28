/* Phase letters and their indices: every letter of TC_PH_LETTERS maps to
 * its own index and back, every other one-byte string and every string that
 * is not one byte long counts as OTHER (key ""), and the sorted order is
 * bytewise on the keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "census/tc_phase.h"

static void test_letters_round_trip(void **state) {
  (void)state;
  size_t nletters = strlen(TC_PH_LETTERS);
  assert_int_equal(nletters + 1, TC_PH_COUNT);
  int seen[TC_PH_COUNT] = {0};
  for (size_t i = 0; i < nletters; i++) {
    char c = TC_PH_LETTERS[i];
    tc_str ph = {&c, 1};
    int idx = tc_phase_index(ph);
    assert_int_equal(idx, (int)i);
    assert_true(idx != TC_PH_OTHER);
    const char *key = tc_phase_key(idx);
    assert_int_equal(strlen(key), 1);
    assert_int_equal(key[0], c);
    assert_int_equal(tc_phase_index(tc_str_c(key)), idx);
    seen[idx]++;
  }
  for (int i = 0; i < TC_PH_OTHER; i++)
    assert_int_equal(seen[i], 1);
  assert_string_equal(tc_phase_key(TC_PH_OTHER), "");
}

static void test_other(void **state) {
  (void)state;
  tc_str none = {NULL, 0};
  assert_int_equal(tc_phase_index(none), TC_PH_OTHER);
  assert_int_equal(tc_phase_index(tc_str_c("")), TC_PH_OTHER);
  assert_int_equal(tc_phase_index(tc_str_c("XY")), TC_PH_OTHER);
  assert_int_equal(tc_phase_index(tc_str_c("BE")), TC_PH_OTHER);
  /* The first byte alone would be a phase; the length makes it OTHER. */
  tc_str x_then_nul = {"X\0", 2};
  assert_int_equal(tc_phase_index(x_then_nul), TC_PH_OTHER);
  /* Every single byte that is not a letter of the format, NUL included. */
  int others = 0;
  for (int b = 0; b < 256; b++) {
    char c = (char)b;
    tc_str ph = {&c, 1};
    int idx = tc_phase_index(ph);
    if (b != 0 && memchr(TC_PH_LETTERS, b, strlen(TC_PH_LETTERS))) {
      assert_true(idx != TC_PH_OTHER);
    } else {
      assert_int_equal(idx, TC_PH_OTHER);
      others++;
    }
  }
  assert_int_equal(others, 256 - (TC_PH_COUNT - 1));
  assert_string_equal(tc_phase_key(-1), "");
  assert_string_equal(tc_phase_key(TC_PH_COUNT), "");
}

static void test_sorted(void **state) {
  (void)state;
  int order[TC_PH_COUNT];
  memset(order, 0xff, sizeof order);
  tc_phase_sorted(order);
  int seen[TC_PH_COUNT] = {0};
  for (int i = 0; i < TC_PH_COUNT; i++) {
    assert_in_range(order[i], 0, TC_PH_COUNT - 1);
    seen[order[i]]++;
  }
  for (int i = 0; i < TC_PH_COUNT; i++)
    assert_int_equal(seen[i], 1);
  assert_int_equal(order[0], TC_PH_OTHER);
  for (int i = 1; i < TC_PH_COUNT; i++) {
    tc_str a = tc_str_c(tc_phase_key(order[i - 1])), b = tc_str_c(tc_phase_key(order[i]));
    assert_true(tc_str_cmp(a, b) < 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_letters_round_trip),
      cmocka_unit_test(test_other),
      cmocka_unit_test(test_sorted),
  };
  return cmocka_run_group_tests_name("phase", tests, NULL, NULL);
}
