/* Atomic output files: nothing appears under the final name before commit,
 * abort leaves the folder as it was, commit replaces an existing file in
 * one step, and a commit that cannot rename reports TC_E_WRITE. Each test
 * works in its own fresh folder under a mkdtemp root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/tc_outfile.h"

static char root[] = "/tmp/tc_outfile_XXXXXX";
static int serial;

static void fresh_dir(char *out, size_t cap) {
  snprintf(out, cap, "%s/t%d", root, serial++);
}

/* Names in DIR other than . and .., or -1 if DIR cannot be read. */
static int entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      n++;
  closedir(d);
  return n;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return NULL;
  char *buf = calloc(1, 4096);
  assert_non_null(buf);
  size_t n = fread(buf, 1, 4095, fp);
  buf[n] = '\0';
  fclose(fp);
  return buf;
}

static void spit(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  assert_int_equal(fclose(fp), 0);
}

static void test_nothing_before_commit(void **state) {
  (void)state;
  char dir[256], final[300];
  fresh_dir(dir, sizeof dir);
  strcat(dir, "/a/b"); /* parents are created too */
  snprintf(final, sizeof final, "%s/census.json", dir);
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "census.json", &f), TC_OK);
  assert_non_null(f);
  fputs("{\"ok\":true}\n", tc_outfile_fp(f));
  fflush(tc_outfile_fp(f));
  assert_false(exists(final));
  assert_int_equal(entries(dir), 1); /* the temporary file */
  assert_int_equal(tc_outfile_commit(f), TC_OK);
  char *got = slurp(final);
  assert_non_null(got);
  assert_string_equal(got, "{\"ok\":true}\n");
  free(got);
  assert_int_equal(entries(dir), 1); /* and no temporary left */
}

static void test_abort_leaves_nothing(void **state) {
  (void)state;
  char dir[256], final[300];
  fresh_dir(dir, sizeof dir);
  snprintf(final, sizeof final, "%s/census.md", dir);
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "census.md", &f), TC_OK);
  fputs("half a report", tc_outfile_fp(f));
  tc_outfile_abort(f);
  assert_false(exists(final));
  assert_int_equal(entries(dir), 0);
  tc_outfile_abort(NULL);
}

/* Until commit, readers see the old file whole; after it, the new one. */
static void test_commit_replaces(void **state) {
  (void)state;
  char dir[256], final[300];
  fresh_dir(dir, sizeof dir);
  assert_int_equal(tc_mkdirs(dir), TC_OK);
  snprintf(final, sizeof final, "%s/run.json", dir);
  spit(final, "old contents\n");
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "run.json", &f), TC_OK);
  fputs("new\n", tc_outfile_fp(f));
  fflush(tc_outfile_fp(f));
  char *got = slurp(final);
  assert_string_equal(got, "old contents\n");
  free(got);
  assert_int_equal(tc_outfile_commit(f), TC_OK);
  got = slurp(final);
  assert_string_equal(got, "new\n");
  free(got);
  assert_int_equal(entries(dir), 1);

  /* An aborted rewrite keeps the committed file. */
  assert_int_equal(tc_outfile_open(dir, "run.json", &f), TC_OK);
  fputs("discarded\n", tc_outfile_fp(f));
  tc_outfile_abort(f);
  got = slurp(final);
  assert_string_equal(got, "new\n");
  free(got);
  assert_int_equal(entries(dir), 1);
}

/* The rename has nowhere to go: commit fails and leaves no file behind. */
static void test_commit_failure(void **state) {
  (void)state;
  char dir[256], final[300];
  fresh_dir(dir, sizeof dir);
  snprintf(final, sizeof final, "%s/census.csv", dir);
  tc_outfile *f = NULL;
  assert_int_equal(tc_outfile_open(dir, "census.csv", &f), TC_OK);
  fputs("a,b\n", tc_outfile_fp(f));
  /* Remove the folder from under the open temporary file. */
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    assert_int_equal(unlink(p), 0);
  }
  closedir(d);
  assert_int_equal(rmdir(dir), 0);
  assert_int_equal(tc_outfile_commit(f), TC_E_WRITE);
  assert_false(exists(final));
  assert_false(exists(dir));
}

static void test_open_failures(void **state) {
  (void)state;
  char dir[256], blocker[300];
  fresh_dir(dir, sizeof dir);
  assert_int_equal(tc_mkdirs(dir), TC_OK);
  assert_int_equal(tc_mkdirs(dir), TC_OK); /* already there is fine */
  /* A plain file where a folder should be. */
  snprintf(blocker, sizeof blocker, "%s/file", dir);
  spit(blocker, "x");
  char below[400];
  snprintf(below, sizeof below, "%s/sub", blocker);
  tc_outfile *f = (tc_outfile *)&f;
  assert_int_equal(tc_outfile_open(below, "census.json", &f), TC_E_WRITE);
  assert_null(f);
  assert_int_equal(entries(dir), 1);
}

static int remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d)
    return unlink(path);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", path, e->d_name);
    remove_tree(p);
  }
  closedir(d);
  return rmdir(path);
}

static int cleanup(void **state) {
  (void)state;
  return remove_tree(root);
}

int main(void) {
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nothing_before_commit),
      cmocka_unit_test(test_abort_leaves_nothing),
      cmocka_unit_test(test_commit_replaces),
      cmocka_unit_test(test_commit_failure),
      cmocka_unit_test(test_open_failures),
  };
  return cmocka_run_group_tests_name("outfile", tests, NULL, cleanup);
}
