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

#include <dirent.h>
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

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = testdir_new();
  return dir ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  testdir_free(dir);
  dir = NULL;
  return 0;
}

/* Names in DIR other than . and .., or -1 if DIR cannot be read. */
static int entries(const char *d) {
  DIR *dp = opendir(d);
  if (!dp)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      n++;
  closedir(dp);
  return n;
}

static char *slurp(const char *rel) {
  char *p = testdir_path(dir, rel);
  FILE *fp = fopen(p, "rb");
  free(p);
  if (!fp)
    return NULL;
  char *buf = calloc(1, 1 << 16);
  assert_non_null(buf);
  size_t n = fread(buf, 1, (1 << 16) - 1, fp);
  buf[n] = '\0';
  fclose(fp);
  return buf;
}

static void test_write_and_commit(void **state) {
  (void)state;
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "census.json", &f), TC_OK);
  assert_non_null(f);
  fputs("{\"ok\":true}\n", tc_outfile_fp(f));
  assert_int_equal(tc_outfile_commit(f), TC_OK);
  char *got = slurp("census.json");
  assert_non_null(got);
  assert_string_equal(got, "{\"ok\":true}\n");
  free(got);
  assert_int_equal(entries(dir), 1);
}

static void test_abort_leaves_nothing(void **state) {
  (void)state;
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "census.md", &f), TC_OK);
  fputs("half a report", tc_outfile_fp(f));
  tc_outfile_abort(f);
  assert_int_equal(entries(dir), 0);
  tc_outfile_abort(NULL);
}

/* The set owns every name it writes: an unlisted one is refused, and an
 * existing file (which a fresh staging folder never holds) is not
 * overwritten. */
static void test_refusals(void **state) {
  (void)state;
  tc_outfile *f = (tc_outfile *)&f;
  const char *name;
  assert_int_equal(tc_outfile_open(dir, "notes.txt", &f), TC_E_WRITE);
  assert_null(f);
  assert_int_equal(tc_outfile_failure(&name), EINVAL);
  assert_string_equal(name, "notes.txt");
  assert_int_equal(testdir_write(dir, "run.json", "old\n", 4), 0);
  assert_int_equal(tc_outfile_open(dir, "run.json", &f), TC_E_WRITE);
  assert_int_equal(tc_outfile_failure(&name), EEXIST);
  assert_string_equal(name, "run.json");
  char *got = slurp("run.json");
  assert_string_equal(got, "old\n");
  free(got);
  char *missing = testdir_path(dir, "no/such");
  assert_int_equal(tc_outfile_open(missing, "census.csv", &f), TC_E_WRITE);
  assert_int_equal(tc_outfile_failure(&name), ENOENT);
  free(missing);
  assert_int_equal(entries(dir), 1);
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
  assert_int_equal(tc_outfile_open(dir, "metrics.json", &f), TC_OK);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  for (int i = 0; i < 100000; i++)
    fprintf(tc_outfile_fp(f), "line %d of a report too big for the limit\n", i);
  tc_err e = tc_outfile_commit(f);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, prev);
  assert_int_equal(e, TC_E_WRITE);
  const char *name;
  assert_int_equal(tc_outfile_failure(&name), EFBIG);
  assert_string_equal(name, "metrics.json");
  assert_int_equal(entries(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_write_and_commit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
      cmocka_unit_test_setup_teardown(test_write_failure_reported, setup, teardown),
  };
  return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
