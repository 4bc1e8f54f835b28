/* Files of an output set: written under the final name in the folder given,
 * never over an existing file, only product names, and a failed write
 * (here the file size limit, which fails a write() with EFBIG once
 * SIGXFSZ is ignored) reported at commit with its errno and the file
 * removed. Each test works in its own scratch folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/tc_outfile.h"
#include "testdir.h"

static const char *listing(void) {
  static char buf[1024];
  return testdir_list(testdir_scratch, ".", buf, sizeof buf);
}

static char *slurp(const char *rel) { return testdir_read(testdir_scratch, rel); }

static void test_write_and_commit(void **state) {
  (void)state;
  tc_outfile *f = NULL;
  tc_why why;
  assert_int_equal(tc_outfile_open(testdir_scratch, "census.json", &f, &why), TC_OK);
  assert_non_null(f);
  fputs("{\"ok\":true}\n", tc_outfile_fp(f));
  assert_int_equal(tc_outfile_commit(f, &why), TC_OK);
  char *got = slurp("census.json");
  assert_non_null(got);
  assert_string_equal(got, "{\"ok\":true}\n");
  free(got);
  assert_string_equal(listing(), "census.json");
}

static void test_abort_leaves_nothing(void **state) {
  (void)state;
  tc_outfile *f = NULL;
  tc_why why;
  assert_int_equal(tc_outfile_open(testdir_scratch, "census.md", &f, &why), TC_OK);
  fputs("half a report", tc_outfile_fp(f));
  tc_outfile_abort(f);
  assert_string_equal(listing(), "");
  tc_outfile_abort(NULL);
}

/* The set owns every name it writes: an unlisted one is refused, and an
 * existing file (which a fresh staging folder never holds) is not
 * overwritten. */
static void test_refusals(void **state) {
  (void)state;
  tc_outfile *f = (tc_outfile *)&f;
  tc_why why;
  assert_int_equal(tc_outfile_open(testdir_scratch, "notes.txt", &f, &why), TC_E_WRITE);
  assert_null(f);
  assert_int_equal(why.errnum, EINVAL);
  assert_string_equal(why.path, "notes.txt");
  assert_int_equal(testdir_write(testdir_scratch, "run.json", "old\n", 4), 0);
  assert_int_equal(tc_outfile_open(testdir_scratch, "run.json", &f, &why), TC_E_WRITE);
  assert_int_equal(why.errnum, EEXIST);
  assert_non_null(strstr(why.path, "/run.json"));
  char *got = slurp("run.json");
  assert_string_equal(got, "old\n");
  free(got);
  char *missing = testdir_path(testdir_scratch, "no/such");
  assert_int_equal(tc_outfile_open(missing, "census.csv", &f, &why), TC_E_WRITE);
  assert_int_equal(why.errnum, ENOENT);
  free(missing);
  assert_string_equal(listing(), "run.json");
}

/* Past the file size limit a write fails with EFBIG; commit sees it even
 * though the stream wrote on long after, and removes the file. */
static void test_write_failure_reported(void **state) {
  (void)state;
  struct rlimit old, small = {4096, 0};
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small.rlim_max = old.rlim_max;
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  tc_outfile *f = NULL;
  tc_why why;
  assert_int_equal(tc_outfile_open(testdir_scratch, "metrics.json", &f, &why), TC_OK);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  for (int i = 0; i < 100000; i++)
    fprintf(tc_outfile_fp(f), "line %d of a report too big for the limit\n", i);
  tc_err e = tc_outfile_commit(f, &why);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, prev);
  assert_int_equal(e, TC_E_WRITE);
  assert_int_equal(why.errnum, EFBIG);
  assert_non_null(strstr(why.path, "/metrics.json"));
  assert_string_equal(listing(), "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_write_and_commit, testdir_setup, testdir_teardown),
      cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, testdir_setup, testdir_teardown),
      cmocka_unit_test_setup_teardown(test_refusals, testdir_setup, testdir_teardown),
      cmocka_unit_test_setup_teardown(test_write_failure_reported, testdir_setup, testdir_teardown),
  };
  return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
