/* tc_spill: records of every size read back exactly, whether still in the
 * write buffer, on disk or across the two; a zeroed spill is empty; a
 * temporary folder that cannot hold the file fails the append, sticky. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/tc_spill.h"

/* Record I: I * 37 % 70,000 bytes (so some cross the 64 KiB buffer), each
 * byte a function of I and its place. */
static size_t len_of(size_t i) { return i * 37 % 70000; }

static unsigned char byte_of(size_t i, size_t k) { return (unsigned char)(i * 131 + k * 7); }

static void fill(unsigned char *p, size_t i) {
  for (size_t k = 0; k < len_of(i); k++)
    p[k] = byte_of(i, k);
}

static void check(const tc_spill *s, size_t i, unsigned char **buf, size_t *cap) {
  size_t len = 0;
  assert_int_equal(tc_spill_read(s, i, buf, cap, &len), TC_OK);
  assert_int_equal(len, len_of(i));
  for (size_t k = 0; k < len; k++)
    if ((*buf)[k] != byte_of(i, k))
      fail_msg("record %zu byte %zu", i, k);
}

static void records_read_back(void **state) {
  (void)state;
  enum { N = 400 };
  tc_spill s = {0}; /* a zeroed spill is an empty one */
  assert_int_equal(tc_spill_count(&s), 0);
  unsigned char *rec = malloc(70000), *buf = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < N; i++) {
    fill(rec, i);
    assert_int_equal(tc_spill_append(&s, rec, len_of(i)), TC_OK);
    /* the newest, still buffered, and an old one, on disk by now */
    check(&s, i, &buf, &cap);
    check(&s, i / 2, &buf, &cap);
  }
  assert_int_equal(tc_spill_count(&s), N);
  assert_int_equal(tc_spill_flush(&s), TC_OK);
  for (size_t i = 0; i < N; i++)
    check(&s, i, &buf, &cap);
  assert_int_equal(tc_spill_read(&s, N, &buf, &cap, &(size_t){0}), TC_E_USAGE);
  free(rec);
  free(buf);
  tc_spill_free(&s);
  tc_spill_free(&s); /* freed twice is freed once */
}

static void unwritable_folder_fails(void **state) {
  (void)state;
  const char *old = getenv("TMPDIR");
  char *saved = old ? strdup(old) : NULL;
  setenv("TMPDIR", "/nonexistent/tracecensus-spill-test", 1);
  tc_spill s = {0};
  static unsigned char big[70000];
  assert_int_equal(tc_spill_errno(), 0);
  assert_int_equal(tc_spill_append(&s, big, sizeof big), TC_E_SCRATCH);
  assert_int_equal(tc_spill_append(&s, big, 1), TC_E_SCRATCH);
  /* the message's facts: the folder and why */
  assert_string_equal(tc_spill_dir(), "/nonexistent/tracecensus-spill-test");
  assert_int_equal(tc_spill_errno(), ENOENT);
  tc_spill_free(&s);
  if (saved)
    setenv("TMPDIR", saved, 1);
  else
    unsetenv("TMPDIR");
  free(saved);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(records_read_back),
      cmocka_unit_test(unwritable_folder_fails),
  };
  return cmocka_run_group_tests_name("spill", tests, NULL, NULL);
}
