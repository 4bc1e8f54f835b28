/* The bump allocator: alignment, blocks that never move, allocations larger
 * than a block, copies, and reuse after free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "util/tc_arena.h"

static void aligned_and_stable(void **state) {
  (void)state;
  tc_arena a = {NULL, 256};
  char *first = tc_arena_alloc(&a, 3);
  assert_non_null(first);
  memcpy(first, "ab", 3);
  char *ptrs[200];
  for (int i = 0; i < 200; i++) {
    ptrs[i] = tc_arena_alloc(&a, (size_t)i % 37 + 1);
    assert_non_null(ptrs[i]);
    assert_int_equal((uintptr_t)ptrs[i] % 16, 0);
    memset(ptrs[i], i, (size_t)i % 37 + 1);
  }
  /* many blocks later, the first allocation and every other hold their bytes */
  assert_string_equal(first, "ab");
  for (int i = 0; i < 200; i++)
    for (size_t k = 0; k < (size_t)i % 37 + 1; k++)
      assert_int_equal((unsigned char)ptrs[i][k], (unsigned char)i);
  tc_arena_free(&a);
  assert_null(a.head);
}

static void larger_than_a_block(void **state) {
  (void)state;
  tc_arena a = {NULL, 64};
  char *big = tc_arena_alloc(&a, 10000);
  assert_non_null(big);
  memset(big, 'x', 10000);
  char *small = tc_arena_alloc(&a, 8);
  assert_non_null(small);
  assert_true(small + 8 <= big || small >= big + 10000); /* no overlap */
  tc_arena_free(&a);
}

static void copies_are_terminated(void **state) {
  (void)state;
  tc_arena a = {0};
  char *c = tc_arena_copy(&a, (tc_str){"hello world", 5});
  assert_string_equal(c, "hello");
  char *e = tc_arena_copy(&a, (tc_str){NULL, 0});
  assert_non_null(e);
  assert_string_equal(e, "");
  tc_arena_free(&a);
  /* usable again after free */
  assert_string_equal(tc_arena_copy(&a, tc_str_c("again")), "again");
  tc_arena_free(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(aligned_and_stable),
      cmocka_unit_test(larger_than_a_block),
      cmocka_unit_test(copies_are_terminated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
