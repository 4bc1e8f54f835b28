/* The output folder as one set: nothing of a new set shows in OUTDIR before
 * commit, commit replaces the whole folder (dropping products the run did
 * not rewrite, keeping files and folders tracecensus does not write), abort
 * and a signal handler's discard leave OUTDIR byte-identical with nothing
 * beside it, a second begin fails while the lock is held, what a killed run
 * left is cleaned (and a moved-aside OUTDIR put back), and the paths that
 * cannot be swapped are refused. Each test works in its own scratch folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/tc_outfile.h"
#include "report/tc_outset.h"
#include "testdir.h"

/* The names in the scratch folder's REL (see testdir_list), static. */
static const char *listing(const char *rel) {
  static char buf[4096];
  return testdir_list(testdir_scratch, rel, buf, sizeof buf);
}

static char *slurp(const char *rel) { return testdir_read(testdir_scratch, rel); }

static void expect_file(const char *rel, const char *text) {
  char *got = slurp(rel);
  assert_non_null(got);
  assert_string_equal(got, text);
  free(got);
}

static void put(const char *rel, const char *text) {
  assert_int_equal(testdir_write(testdir_scratch, rel, text, strlen(text)), 0);
}

static void write_product(tc_outset *s, const char *name, const char *text) {
  tc_outfile *f;
  assert_int_equal(tc_outfile_open(tc_outset_dir(s), name, &f, NULL), TC_OK);
  fputs(text, tc_outfile_fp(f));
  assert_int_equal(tc_outfile_commit(f, NULL), TC_OK);
}

static tc_outset *begin(const char *rel) {
  char *p = testdir_path(testdir_scratch, rel);
  tc_outset *s = NULL;
  tc_why why;
  assert_int_equal(tc_outset_begin(p, &s, &why), TC_OK);
  assert_string_equal(why.path, "");
  free(p);
  assert_non_null(s);
  return s;
}

static void commit(tc_outset *s) {
  tc_why why;
  assert_int_equal(tc_outset_commit(s, &why), TC_OK);
  assert_string_equal(why.path, "");
}

/* The folder OUTDIR is written into is beside it, hidden, and named for it. */
static void expect_staging_beside(tc_outset *s, const char *parent_rel, const char *base) {
  char *parent = testdir_path(testdir_scratch, parent_rel);
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s/.%s.tc-new-", parent, base);
  assert_memory_equal(tc_outset_dir(s), prefix, strlen(prefix));
  free(parent);
}

static void test_first_set(void **state) {
  (void)state;
  tc_outset *s = begin("a/b/out"); /* parents are created */
  expect_staging_beside(s, "a/b", "out");
  write_product(s, "census.json", "{}\n");
  write_product(s, "run.json", "{\"run\":1}\n");
  /* Readers see no OUTDIR at all before commit. */
  assert_string_equal(listing("a/b/out"), "-");
  commit(s);
  assert_string_equal(listing("a/b"), "out");
  assert_string_equal(listing("a/b/out"), "census.json run.json");
  expect_file("a/b/out/run.json", "{\"run\":1}\n");
}

static void test_replace_whole(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  char *out = testdir_path(testdir_scratch, "out");
  assert_int_equal(chmod(out, 0750), 0);
  put("out/census.json", "old census\n");
  put("out/metrics.md", "old metrics\n");
  put("out/.census.md.tmp4242", "an older version's temporary file\n");
  put("out/notes.txt", "mine\n");
  assert_int_equal(testdir_mkdir(testdir_scratch, "out/keep"), 0);
  put("out/keep/deep.txt", "deep\n");
  struct stat before, after;
  char *notes = testdir_path(testdir_scratch, "out/notes.txt");
  assert_int_equal(stat(notes, &before), 0);

  tc_outset *s = begin("out");
  write_product(s, "census.json", "new census\n");
  expect_file("out/census.json", "old census\n");
  expect_file("out/metrics.md", "old metrics\n");
  commit(s);

  /* One new set: the product not rewritten is gone with the old set, the
   * user's file is the same file, the folder moved over whole. */
  assert_string_equal(listing(""), "out");
  assert_string_equal(listing("out"), "census.json keep notes.txt");
  expect_file("out/census.json", "new census\n");
  expect_file("out/keep/deep.txt", "deep\n");
  assert_int_equal(stat(notes, &after), 0);
  assert_int_equal(after.st_ino, before.st_ino);
  assert_int_equal(stat(out, &after), 0);
  assert_int_equal(after.st_mode & 07777, 0750);
  free(out);
  free(notes);
}

static void test_abort_keeps_previous(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  put("out/census.json", "old\n");
  tc_outset *s = begin("out");
  write_product(s, "census.json", "new\n");
  write_product(s, "census.csv", "a,b\n");
  tc_outset_abort(s);
  assert_string_equal(listing(""), "out");
  assert_string_equal(listing("out"), "census.json");
  expect_file("out/census.json", "old\n");
  tc_outset_abort(NULL);
}

/* What a signal handler does: staging and lock gone at once, OUTDIR as it
 * was. Abort afterwards only frees. */
static void test_discard_from_signal(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  put("out/run.json", "old\n");
  tc_outset *s = begin("out");
  write_product(s, "run.json", "new\n");
  tc_outfile *half;
  assert_int_equal(tc_outfile_open(tc_outset_dir(s), "census.md", &half, NULL), TC_OK);
  fputs("half", tc_outfile_fp(half));
  fflush(tc_outfile_fp(half));
  tc_outset_discard_signal(s);
  assert_string_equal(listing(""), "out");
  expect_file("out/run.json", "old\n");
  tc_outfile_abort(half);
  tc_outset_abort(s);
  assert_string_equal(listing(""), "out");
}

static void test_second_run_refused(void **state) {
  (void)state;
  tc_outset *s = begin("out");
  static const char held[] = ".out.tc-lock .out.tc-new-";
  assert_memory_equal(listing(""), held, sizeof held - 1);
  char *p = testdir_path(testdir_scratch, "out");
  tc_outset *t = (tc_outset *)&t;
  tc_why why;
  assert_int_equal(tc_outset_begin(p, &t, &why), TC_E_OUT_BUSY);
  assert_null(t);
  assert_int_equal(why.pid, (long)getpid());
  assert_non_null(strstr(why.path, "/.out.tc-lock"));
  /* Another OUTDIR in the same parent is not locked by it. */
  tc_outset *other = begin("other");
  tc_outset_abort(other);
  tc_outset_abort(s);
  assert_string_equal(listing(""), "");
  assert_int_equal(tc_outset_begin(p, &t, &why), TC_OK);
  tc_outset_abort(t);
  free(p);
}

/* A killed run's staging folder and lock file; a killed fallback swap's
 * moved-aside OUTDIR, put back since OUTDIR is missing; a user's file that
 * only a leftover still holds moves into OUTDIR rather than vanish. */
static void test_leftovers_cleaned(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  put("out/census.json", "current\n");
  assert_int_equal(testdir_mkdir(testdir_scratch, ".out.tc-new-abc123"), 0);
  put(".out.tc-new-abc123/census.json", "half\n");
  put(".out.tc-new-abc123/mine.txt", "only copy\n");
  put(".out.tc-lock", "99999\n");
  put(".outx.tc-new-zzzzzz", "another OUTDIR's name: not ours to touch\n");
  tc_outset *s = begin("out");
  assert_int_equal(tc_outset_recovered(s), 1);
  tc_outset_abort(s);
  assert_string_equal(listing(""), ".outx.tc-new-zzzzzz out");
  assert_string_equal(listing("out"), "census.json mine.txt");
  expect_file("out/census.json", "current\n");

  char *out = testdir_path(testdir_scratch, "out"), *aside = testdir_path(testdir_scratch, ".out.tc-old-q1w2e3");
  assert_int_equal(rename(out, aside), 0);
  assert_int_equal(testdir_mkdir(testdir_scratch, ".out.tc-new-r4t5y6"), 0);
  put(".out.tc-new-r4t5y6/census.json", "complete but never put in place\n");
  s = begin("out");
  assert_int_equal(tc_outset_recovered(s), 2);
  tc_outset_abort(s);
  assert_string_equal(listing(""), ".outx.tc-new-zzzzzz out");
  expect_file("out/census.json", "current\n");
  free(out);
  free(aside);
}

static void test_refused_paths(void **state) {
  (void)state;
  tc_outset *s = (tc_outset *)&s;
  tc_why why;
  put("file", "not a folder\n");
  char *file = testdir_path(testdir_scratch, "file");
  assert_int_equal(tc_outset_begin(file, &s, &why), TC_E_OUT_NOT_DIR);
  assert_null(s);
  expect_file("file", "not a folder\n");
  assert_int_equal(tc_outset_begin("/", &s, &why), TC_E_OUT_UNSAFE);
  assert_string_equal(why.reason, "it is the root folder");
  /* A parent that is a file. */
  char *below = testdir_path(testdir_scratch, "file/out");
  assert_int_equal(tc_outset_begin(below, &s, &why), TC_E_WRITE);
  assert_int_not_equal(why.errnum, 0);

  /* The current directory inside OUTDIR, given as "." or by name. */
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  assert_int_equal(testdir_mkdir(testdir_scratch, "out/sub"), 0);
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  char *sub = testdir_path(testdir_scratch, "out/sub"), *out = testdir_path(testdir_scratch, "out");
  assert_int_equal(chdir(sub), 0);
  assert_int_equal(tc_outset_begin(out, &s, &why), TC_E_OUT_UNSAFE);
  assert_non_null(strstr(why.reason, "current directory"));
  assert_int_equal(tc_outset_begin("..", &s, &why), TC_E_OUT_UNSAFE);
  assert_int_equal(chdir(cwd), 0);
  assert_string_equal(listing(""), "file out");
  free(file);
  free(below);
  free(sub);
  free(out);
}

/* A symlink at OUTDIR: the folder it names is replaced, the link stays. */
static void test_symlink_followed(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "real"), 0);
  put("real/census.json", "old\n");
  char *link = testdir_path(testdir_scratch, "link");
  assert_int_equal(symlink("real", link), 0);
  tc_outset *s = begin("link");
  write_product(s, "census.json", "new\n");
  commit(s);
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  expect_file("real/census.json", "new\n");
  assert_string_equal(listing(""), "link real");
  free(link);
}

static void test_products(void **state) {
  (void)state;
  static const char *const yes[] = {"census.json", "census.csv",   "census.md", "run.json",
                                    "metrics.csv", "metrics.json", "metrics.md", "diff.md",
                                    "diff.json",   "diff.csv",     "diff.html", "census_args.csv"};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    assert_true(tc_outset_product(yes[i]));
  static const char *const no[] = {"", "census", "census.json.bak", ".census.json", "notes.txt",
                                   "metrics.html"};
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    assert_false(tc_outset_product(no[i]));
}

/* A set replaces only its own family's files: a diff into a census folder
 * keeps the census, a census into it then keeps the diff, and each drops
 * its own files it does not write again. */
static void test_families_kept_apart(void **state) {
  (void)state;
  assert_int_equal(testdir_mkdir(testdir_scratch, "out"), 0);
  put("out/census.json", "census\n");
  put("out/metrics.md", "metrics\n");
  put("out/diff.html", "an old diff page\n");
  tc_outset *s = begin("out");
  write_product(s, "diff.md", "diff\n");
  write_product(s, "diff.json", "{}\n");
  commit(s);
  assert_string_equal(listing("out"), "census.json diff.json diff.md metrics.md");
  s = begin("out");
  write_product(s, "census.json", "new census\n");
  commit(s);
  assert_string_equal(listing("out"), "census.json diff.json diff.md");
  expect_file("out/census.json", "new census\n");
  expect_file("out/diff.md", "diff\n");
  /* An aborted diff leaves the folder as it was. */
  s = begin("out");
  write_product(s, "diff.md", "half\n");
  tc_outset_abort(s);
  assert_string_equal(listing("out"), "census.json diff.json diff.md");
  expect_file("out/diff.md", "diff\n");
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, testdir_setup, testdir_teardown)
  const struct CMUnitTest tests[] = {
      T(test_first_set),         T(test_replace_whole),     T(test_abort_keeps_previous),
      T(test_discard_from_signal), T(test_second_run_refused), T(test_leftovers_cleaned),
      T(test_refused_paths),     T(test_symlink_followed),  T(test_products),
      T(test_families_kept_apart),
  };
#undef T
  return cmocka_run_group_tests_name("outset", tests, NULL, NULL);
}
