/* tc_grow: the one resizing rule. Old elements keep their bytes, every new
 * element is zero, capacity covers the need, and a need already met changes
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"

typedef struct {
  uint64_t a;
  char name[13];
  double d;
} rec;

static int all_zero(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i])
      return 0;
  return 1;
}

static void test_from_empty(void **state) {
  (void)state;
  rec *v = NULL;
  size_t cap = 0;
  assert_int_equal(TC_GROW(v, cap, 1), TC_OK);
  assert_non_null(v);
  assert_true(cap >= 1);
  assert_true(all_zero(v, cap * sizeof *v));
  free(v);
}

/* Grows step by step and by big jumps, dirtying everything it holds between
 * steps, so stale bytes from realloc would show up as non-zero. */
static void test_new_elements_zeroed_old_kept(void **state) {
  (void)state;
  static const size_t needs[] = {1, 2, 3, 16, 17, 33, 100, 101, 1000, 5000, 5001, 70000};
  rec *v = NULL;
  size_t cap = 0, filled = 0;
  for (size_t k = 0; k < sizeof needs / sizeof *needs; k++) {
    size_t old_cap = cap;
    assert_int_equal(TC_GROW(v, cap, needs[k]), TC_OK);
    assert_true(cap >= needs[k]);
    /* Doubling keeps the number of reallocations logarithmic. */
    assert_true(cap < 2 * needs[k] || cap == old_cap || cap <= 16);
    for (size_t i = 0; i < filled; i++) {
      rec want;
      memset(&want, (int)(i % 251) + 1, sizeof want);
      assert_memory_equal(&v[i], &want, sizeof want);
    }
    assert_true(all_zero(v + filled, (cap - filled) * sizeof *v));
    for (size_t i = filled; i < cap; i++)
      memset(&v[i], (int)(i % 251) + 1, sizeof v[i]);
    filled = cap;
  }
  free(v);
}

static void test_need_already_met(void **state) {
  (void)state;
  unsigned char *v = NULL;
  size_t cap = 0;
  assert_int_equal(TC_GROW(v, cap, 40), TC_OK);
  memset(v, 0xab, cap);
  unsigned char *before = v;
  size_t cap_before = cap;
  assert_int_equal(TC_GROW(v, cap, cap), TC_OK);
  assert_int_equal(TC_GROW(v, cap, 0), TC_OK);
  assert_int_equal(TC_GROW(v, cap, 1), TC_OK);
  assert_ptr_equal(v, before);
  assert_int_equal(cap, cap_before);
  for (size_t i = 0; i < cap; i++)
    assert_int_equal(v[i], 0xab);
  free(v);
}

/* A need whose byte size does not fit in size_t must fail and leave the
 * array alone (n * elem once wrapped to 0 and "succeeded"). */
static void test_size_overflow_fails(void **state) {
  (void)state;
  uint32_t *v = NULL;
  size_t cap = 0;
  size_t need = (SIZE_MAX >> 2) + 1; /* need * 4 == 2^64 */
  tc_err e = TC_GROW(v, cap, need);
  if (e == TC_OK)
    free(v);
  assert_int_equal(e, TC_E_NOMEM);
  assert_null(v);
  assert_int_equal(cap, 0);
}

/* tc_grow_to: exactly what one reservation asks, by half at least after
 * that; old bytes kept, new ones zero. */
static void test_grow_to(void **state) {
  (void)state;
  rec *v = NULL;
  size_t cap = 0;
  assert_int_equal(tc_grow_to((void **)&v, &cap, 1000, sizeof *v), TC_OK);
  assert_int_equal(cap, 1000);
  assert_true(all_zero(v, cap * sizeof *v));
  memset(v, 0xAB, cap * sizeof *v);
  assert_int_equal(tc_grow_to((void **)&v, &cap, 1001, sizeof *v), TC_OK);
  assert_int_equal(cap, 1500);
  assert_true(v[999].a == 0xABABABABABABABABULL);
  assert_true(all_zero(v + 1000, 500 * sizeof *v));
  assert_int_equal(tc_grow_to((void **)&v, &cap, 4000, sizeof *v), TC_OK);
  assert_int_equal(cap, 4000);
  assert_int_equal(tc_grow_to((void **)&v, &cap, 10, sizeof *v), TC_OK);
  assert_int_equal(cap, 4000);
  assert_int_equal(tc_grow_to((void **)&v, &cap, SIZE_MAX / 2, sizeof *v), TC_E_NOMEM);
  assert_int_equal(cap, 4000);
  free(v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_from_empty),
      cmocka_unit_test(test_new_elements_zeroed_old_kept),
      cmocka_unit_test(test_need_already_met),
      cmocka_unit_test(test_size_overflow_fails),
      cmocka_unit_test(test_grow_to),
  };
  return cmocka_run_group_tests_name("util_grow", tests, NULL, NULL);
}
