/* The bump allocator: alignment, blocks that never move, allocations larger
 * than a block, copies, reuse after free, and a reset that merges blocks. */
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

/* A reset keeps the memory as one block: the same fill again fits in it. */
static void reset_keeps_one_block(void **state) {
  (void)state;
  tc_arena a = {NULL, 64};
  tc_arena_reset(&a); /* nothing to keep */
  assert_null(a.head);
  for (int i = 0; i < 10; i++)
    assert_non_null(tc_arena_alloc(&a, 48));
  tc_arena_reset(&a);
  char *first = tc_arena_alloc(&a, 48);
  assert_non_null(first);
  for (int i = 1; i < 10; i++)
    assert_ptr_equal(tc_arena_alloc(&a, 48), first + 48 * i); /* one block holds them */
  tc_arena_reset(&a);
  assert_ptr_equal(tc_arena_alloc(&a, 1), first); /* one block: reused as it is */
  tc_arena_free(&a);
  assert_null(a.head);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(aligned_and_stable),
      cmocka_unit_test(larger_than_a_block),
      cmocka_unit_test(copies_are_terminated),
      cmocka_unit_test(reset_keeps_one_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
