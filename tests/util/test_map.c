/* The interning tables against plain models: tc_map gives dense ids in
 * first-insertion order and keeps its own NUL-terminated copy of every key
 * (empty keys and keys with NUL bytes inside included); tc_imap does the
 * same for 64-bit keys. Both are grown to 100,000 keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_map.h"

#define MANY 100000

static tc_str str_n(const char *p, size_t n) {
  tc_str s = {p, n};
  return s;
}

static void test_ids_in_insertion_order(void **state) {
  (void)state;
  static const char *const words[] = {"RunTask", "Paint", "Layout", "ParseHTML", "Commit"};
  tc_map m;
  tc_map_init(&m);
  assert_int_equal(tc_map_count(&m), 0);
  assert_int_equal(tc_map_find(&m, tc_str_c("Paint")), UINT32_MAX);
  for (uint32_t i = 0; i < 5; i++) {
    uint32_t id = 99;
    int inserted = -1;
    assert_int_equal(tc_map_intern(&m, tc_str_c(words[i]), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 1);
    assert_int_equal(tc_map_count(&m), i + 1);
  }
  /* Interning again finds the first id and inserts nothing; INSERTED may be NULL. */
  for (uint32_t i = 0; i < 5; i++) {
    uint32_t id = 99;
    int inserted = -1;
    assert_int_equal(tc_map_intern(&m, tc_str_c(words[4 - i]), &id, &inserted), TC_OK);
    assert_int_equal(id, 4 - i);
    assert_int_equal(inserted, 0);
    assert_int_equal(tc_map_intern(&m, tc_str_c(words[i]), &id, NULL), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(tc_map_find(&m, tc_str_c(words[i])), i);
  }
  assert_int_equal(tc_map_count(&m), 5);
  /* A prefix or an extension of a key is another key. */
  assert_int_equal(tc_map_find(&m, tc_str_c("Pain")), UINT32_MAX);
  assert_int_equal(tc_map_find(&m, tc_str_c("Paints")), UINT32_MAX);
  tc_map_free(&m);
  assert_int_equal(tc_map_count(&m), 0);
  assert_int_equal(tc_map_find(&m, tc_str_c("Paint")), UINT32_MAX);
}

static void test_keys_are_copied(void **state) {
  (void)state;
  tc_map m;
  tc_map_init(&m);
  char buf[32];
  uint32_t id;
  for (int i = 0; i < 3; i++) {
    snprintf(buf, sizeof buf, "name-%d", i);
    /* The key is given without its NUL, in a buffer about to be reused. */
    assert_int_equal(tc_map_intern(&m, str_n(buf, strlen(buf)), &id, NULL), TC_OK);
    assert_int_equal(id, (uint32_t)i);
    memset(buf, 'x', sizeof buf);
  }
  for (int i = 0; i < 3; i++) {
    char want[32];
    snprintf(want, sizeof want, "name-%d", i);
    tc_str k = tc_map_key(&m, (uint32_t)i);
    assert_true(k.ptr < buf || k.ptr >= buf + sizeof buf);
    assert_int_equal(k.len, strlen(want));
    assert_memory_equal(k.ptr, want, k.len);
    assert_int_equal(k.ptr[k.len], '\0');
    assert_int_equal(tc_map_find(&m, tc_str_c(want)), (uint32_t)i);
  }
  tc_map_free(&m);
}

static void test_empty_key_and_embedded_nul(void **state) {
  (void)state;
  tc_map m;
  tc_map_init(&m);
  uint32_t id;
  int inserted;
  /* A key with no bytes is a key like any other, whether or not it has a pointer. */
  tc_str none = {NULL, 0};
  assert_int_equal(tc_map_find(&m, none), UINT32_MAX);
  assert_int_equal(tc_map_intern(&m, none, &id, &inserted), TC_OK);
  assert_int_equal(id, 0);
  assert_int_equal(inserted, 1);
  assert_int_equal(tc_map_intern(&m, tc_str_c(""), &id, &inserted), TC_OK);
  assert_int_equal(id, 0);
  assert_int_equal(inserted, 0);
  assert_non_null(tc_map_key(&m, 0).ptr);
  assert_int_equal(tc_map_key(&m, 0).len, 0);
  assert_int_equal(tc_map_key(&m, 0).ptr[0], '\0');

  /* Bytes after a NUL count: "a\0b", "a\0c", "a" and "a\0" are four keys. */
  static const char ab[] = {'a', '\0', 'b'};
  static const char ac[] = {'a', '\0', 'c'};
  tc_str keys[] = {str_n(ab, 3), str_n(ac, 3), str_n("a", 1), str_n(ab, 2)};
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(tc_map_intern(&m, keys[i], &id, &inserted), TC_OK);
    assert_int_equal(id, i + 1);
    assert_int_equal(inserted, 1);
  }
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(tc_map_find(&m, keys[i]), i + 1);
    tc_str k = tc_map_key(&m, i + 1);
    assert_int_equal(k.len, keys[i].len);
    assert_memory_equal(k.ptr, keys[i].ptr, k.len);
    assert_int_equal(k.ptr[k.len], '\0');
  }
  assert_int_equal(tc_map_count(&m), 5);
  tc_map_free(&m);
}

/* A key larger than the arena's blocks gets a block of its own. */
static void test_long_keys(void **state) {
  (void)state;
  enum { LONG = 200000 };
  char *big = malloc(LONG);
  assert_non_null(big);
  for (size_t i = 0; i < LONG; i++)
    big[i] = (char)('a' + i % 26);
  tc_map m;
  tc_map_init(&m);
  uint32_t id;
  assert_int_equal(tc_map_intern(&m, tc_str_c("short"), &id, NULL), TC_OK);
  assert_int_equal(tc_map_intern(&m, str_n(big, LONG), &id, NULL), TC_OK);
  assert_int_equal(id, 1);
  assert_int_equal(tc_map_intern(&m, str_n(big, LONG - 1), &id, NULL), TC_OK);
  assert_int_equal(id, 2);
  assert_int_equal(tc_map_intern(&m, tc_str_c("after"), &id, NULL), TC_OK);
  assert_int_equal(id, 3);
  assert_int_equal(tc_map_find(&m, str_n(big, LONG)), 1);
  assert_int_equal(tc_map_find(&m, str_n(big, LONG - 1)), 2);
  tc_str k = tc_map_key(&m, 1);
  assert_int_equal(k.len, LONG);
  assert_memory_equal(k.ptr, big, LONG);
  assert_int_equal(k.ptr[LONG], '\0');
  assert_true(tc_str_eqc(tc_map_key(&m, 0), "short"));
  assert_true(tc_str_eqc(tc_map_key(&m, 3), "after"));
  tc_map_free(&m);
  free(big);
}

/* Growth re-slots every key many times; ids, texts and the key pointers
 * handed out earlier must all survive it. */
static void test_map_grows_to_many_keys(void **state) {
  (void)state;
  tc_map m;
  tc_map_init(&m);
  const char **first_ptr = malloc(MANY * sizeof *first_ptr);
  assert_non_null(first_ptr);
  char buf[32];
  for (uint32_t i = 0; i < MANY; i++) {
    int n = snprintf(buf, sizeof buf, "ev.%u/%u", i * 2654435761u, i);
    uint32_t id;
    int inserted;
    assert_int_equal(tc_map_intern(&m, str_n(buf, (size_t)n), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 1);
    first_ptr[i] = tc_map_key(&m, id).ptr;
  }
  assert_int_equal(tc_map_count(&m), MANY);
  for (uint32_t i = 0; i < MANY; i++) {
    int n = snprintf(buf, sizeof buf, "ev.%u/%u", i * 2654435761u, i);
    assert_int_equal(tc_map_find(&m, str_n(buf, (size_t)n)), i);
    tc_str k = tc_map_key(&m, i);
    assert_ptr_equal(k.ptr, first_ptr[i]);
    assert_int_equal(k.len, (size_t)n);
    assert_memory_equal(k.ptr, buf, k.len);
    assert_int_equal(k.ptr[k.len], '\0');
    uint32_t id;
    int inserted;
    assert_int_equal(tc_map_intern(&m, str_n(buf, (size_t)n), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 0);
    /* The same text with the last byte dropped was never inserted. */
    assert_int_equal(tc_map_find(&m, str_n(buf, (size_t)n - 1)), UINT32_MAX);
  }
  assert_int_equal(tc_map_count(&m), MANY);
  free(first_ptr);
  tc_map_free(&m);
}

/* ---- tc_imap ------------------------------------------------------------ */

/* Keys shaped like the census's (name id << 32 | other id), plus the ends of
 * the range: 0 must not be mistaken for an empty slot. */
static uint64_t ikey(uint32_t i) {
  if (i == 0)
    return 0;
  if (i == 1)
    return UINT64_MAX;
  return (uint64_t)(i % 977) << 32 | (i / 977);
}

/* Joined parts end to end, empty ones (NULL included) adding nothing; the
 * scratch grows and is reused. */
static void test_key_join(void **state) {
  (void)state;
  char *buf = NULL;
  size_t cap = 0;
  uint32_t n = 3;
  tc_str key;
  const tc_str parts[] = {{(const char *)&n, sizeof n}, {NULL, 0}, tc_str_c("abc")};
  assert_int_equal(tc_map_key_join(&buf, &cap, parts, 3, &key), TC_OK);
  assert_int_equal(key.len, sizeof n + 3);
  assert_ptr_equal(key.ptr, buf);
  assert_memory_equal(key.ptr, &n, sizeof n);
  assert_memory_equal(key.ptr + sizeof n, "abc", 3);
  const tc_str one[] = {tc_str_c("x")};
  assert_int_equal(tc_map_key_join(&buf, &cap, one, 1, &key), TC_OK);
  assert_int_equal(key.len, 1);
  assert_ptr_equal(key.ptr, buf);
  assert_memory_equal(key.ptr, "x", 1);
  free(buf);
}

static void test_imap_ids_and_find(void **state) {
  (void)state;
  tc_imap m;
  tc_imap_init(&m);
  assert_int_equal(tc_imap_find(&m, 0), UINT32_MAX);
  assert_int_equal(tc_imap_find(&m, 42), UINT32_MAX);
  for (uint32_t i = 0; i < 10; i++) {
    uint32_t id = 99;
    int inserted = -1;
    assert_int_equal(tc_imap_intern(&m, ikey(i), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 1);
  }
  for (uint32_t i = 0; i < 10; i++) {
    uint32_t id = 99;
    int inserted = -1;
    assert_int_equal(tc_imap_intern(&m, ikey(i), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 0);
    assert_int_equal(tc_imap_intern(&m, ikey(i), &id, NULL), TC_OK);
    assert_int_equal(tc_imap_find(&m, ikey(i)), i);
  }
  assert_int_equal(m.count, 10);
  assert_int_equal(tc_imap_find(&m, 1), UINT32_MAX);
  assert_int_equal(tc_imap_find(&m, UINT64_MAX - 1), UINT32_MAX);
  assert_int_equal(tc_imap_find(&m, (uint64_t)1 << 32), UINT32_MAX);
  tc_imap_free(&m);
  assert_int_equal(tc_imap_find(&m, 0), UINT32_MAX);
}

typedef struct {
  uint32_t *visits; /* by id */
  uint64_t *keys;   /* by id, what each visit said */
  uint32_t calls;
} each_log;

static void log_visit(void *ctx, uint64_t key, uint32_t id) {
  each_log *l = ctx;
  l->calls++;
  if (id < MANY) {
    l->visits[id]++;
    l->keys[id] = key;
  }
}

static void test_imap_grows_and_each_visits_all(void **state) {
  (void)state;
  tc_imap m;
  tc_imap_init(&m);
  each_log l = {calloc(MANY, sizeof(uint32_t)), calloc(MANY, sizeof(uint64_t)), 0};
  assert_non_null(l.visits);
  assert_non_null(l.keys);
  tc_imap_each(&m, log_visit, &l);
  assert_int_equal(l.calls, 0);
  for (uint32_t i = 0; i < MANY; i++) {
    uint32_t id;
    int inserted;
    assert_int_equal(tc_imap_intern(&m, ikey(i), &id, &inserted), TC_OK);
    assert_int_equal(id, i);
    assert_int_equal(inserted, 1);
  }
  assert_int_equal(m.count, MANY);
  for (uint32_t i = 0; i < MANY; i++)
    assert_int_equal(tc_imap_find(&m, ikey(i)), i);
  /* Keys never inserted: the same shape one past the range used above. */
  for (uint32_t i = 0; i < 1000; i++)
    assert_int_equal(tc_imap_find(&m, (uint64_t)(977 + i) << 32 | i), UINT32_MAX);
  tc_imap_each(&m, log_visit, &l);
  assert_int_equal(l.calls, MANY);
  for (uint32_t i = 0; i < MANY; i++) {
    assert_int_equal(l.visits[i], 1);
    assert_true(l.keys[i] == ikey(i));
  }
  free(l.visits);
  free(l.keys);
  tc_imap_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ids_in_insertion_order),
      cmocka_unit_test(test_keys_are_copied),
      cmocka_unit_test(test_empty_key_and_embedded_nul),
      cmocka_unit_test(test_long_keys),
      cmocka_unit_test(test_map_grows_to_many_keys),
      cmocka_unit_test(test_key_join),
      cmocka_unit_test(test_imap_ids_and_find),
      cmocka_unit_test(test_imap_grows_and_each_visits_all),
  };
  return cmocka_run_group_tests_name("util_map", tests, NULL, NULL);
}
