/* Job files written to a scratch directory and loaded: every key, comments
 * and blank lines, repeated keys, and each way a job can be wrong, with
 * the line and the reason it is reported with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/tc_job.h"
#include "testdir.h"

static char why[256];

static tc_err load(const char *body, tc_job *job, int *line) {
  assert_int_equal(testdir_write(testdir_scratch, "t.job", body, strlen(body)), 0);
  char *p = testdir_path(testdir_scratch, "t.job");
  memset(why, 'x', sizeof why);
  tc_err e = tc_job_load(p, job, line, why, sizeof why);
  free(p);
  return e;
}

/* A failed load reports LINE and WHY and hands nothing out. */
static void expect_error(const char *body, int want_line, const char *want_why) {
  tc_job job;
  int line = -1;
  assert_int_equal(load(body, &job, &line), TC_E_BAD_JOB);
  assert_int_equal(line, want_line);
  assert_string_equal(why, want_why);
  assert_null(job.corpus);
  assert_int_equal(job.ncorpus, 0);
  assert_null(job.output);
  assert_null(job.manifest);
  assert_null(job.schema);
  assert_null(job.marks[0]);
  assert_null(job.marks[1]);
}

/* GOT is REL in the job file's folder (the scratch directory). */
static void expect_in_scratch(const char *got, const char *rel) {
  char *want = testdir_path(testdir_scratch, rel);
  assert_string_equal(got, want);
  free(want);
}

static void every_key_read(void **state) {
  (void)state;
  const char *body = "# a job\n"
                     "\n"
                     "corpus = corpus/one   # first\n"
                     "  corpus=corpus/two\t\n"
                     "\t# indented comment\n"
                     "corpus = corpus/three\r\n"
                     "manifest = old.tsv\n"
                     "manifest = corpus/manifest.tsv\n"
                     "output = reports/out\n"
                     "schema = data/schema.tsv\n"
                     "threads = 3\n"
                     "chunk_bytes = 65536\n"
                     "bucket_ms = 12.5\n"
                     "refresh_hz = 120\n"
                     "window_start_mark = start here\n"
                     "window_end_mark = old end\n"
                     "window_end_mark = end=here\n"
                     "timings = host.json\n"
                     "   \n";
  tc_job job;
  int line = -1;
  assert_int_equal(load(body, &job, &line), TC_OK);
  assert_string_equal(why, "");
  static const char *const corpus[] = {"corpus/one", "corpus/two", "corpus/three"};
  assert_int_equal(job.ncorpus, 3);
  for (int i = 0; i < 3; i++)
    expect_in_scratch(job.corpus[i], corpus[i]);
  /* A repeated single key keeps the last value. */
  expect_in_scratch(job.manifest, "corpus/manifest.tsv");
  expect_in_scratch(job.output, "reports/out");
  expect_in_scratch(job.schema, "data/schema.tsv");
  assert_int_equal(job.run.threads, 3);
  assert_int_equal(job.run.chunk_bytes, 65536);
  assert_true(job.run.kernels.bucket_ms == 12.5);
  assert_true(job.run.kernels.refresh_hz == 120);
  /* Only the first '=' splits; inner spaces stay. The run options point at
   * the job's own copies. */
  assert_string_equal(job.marks[0], "start here");
  assert_string_equal(job.marks[1], "end=here");
  assert_ptr_equal(job.run.kernels.window_start_mark, job.marks[0]);
  assert_ptr_equal(job.run.kernels.window_end_mark, job.marks[1]);
  assert_int_equal(job.timings_apart, 1);
  tc_job_free(&job);
  assert_null(job.corpus);
  assert_int_equal(job.ncorpus, 0);
}

/* Keys left out keep the run's defaults. */
static void defaults_kept(void **state) {
  (void)state;
  tc_job job;
  int line;
  assert_int_equal(load("corpus = c\noutput = o\n", &job, &line), TC_OK);
  tc_run_opts def;
  tc_run_opts_default(&def);
  assert_int_equal(job.run.threads, def.threads);
  assert_int_equal(job.run.chunk_bytes, def.chunk_bytes);
  assert_int_equal(job.run.inflight, def.inflight);
  assert_int_equal(job.run.no_metrics, def.no_metrics);
  assert_true(job.run.kernels.bucket_ms == def.kernels.bucket_ms);
  assert_true(job.run.kernels.refresh_hz == def.kernels.refresh_hz);
  assert_null(job.run.kernels.window_start_mark);
  assert_null(job.run.kernels.window_end_mark);
  assert_null(job.manifest);
  assert_null(job.schema);
  assert_int_equal(job.timings_apart, 0);
  tc_job_free(&job);
}

static void malformed_lines_named(void **state) {
  (void)state;
  expect_error("corpus = c\n# x\n\noutputs = o\noutput = o\n", 4,
               "unknown key 'outputs' (did you mean 'output'?)");
  expect_error("corpus = c\noutput o\n", 2, "expected key = value");
  expect_error("= c\n", 1, "missing key before '='");
  /* A key is matched whole, not by prefix; a typo is named with the key
   * it is nearest to (two edits at most, a swap of neighbours is one). */
  expect_error("corpus = c\noutput = o\nthread = 2\n", 3,
               "unknown key 'thread' (did you mean 'threads'?)");
  expect_error("corpus = c\nthredas = 2\n", 2, "unknown key 'thredas' (did you mean 'threads'?)");
  expect_error("corpus = c\nbukcet_ms = 2\n", 2,
               "unknown key 'bukcet_ms' (did you mean 'bucket_ms'?)");
  expect_error("corpus = c\nshema=x\n", 2, "unknown key 'shema' (did you mean 'schema'?)");
  expect_error("corpus = c\nfrobnicate = 1\n", 2, "unknown key 'frobnicate'");
  expect_error("corpus = c\ncorpuses = d\n", 2, "unknown key 'corpuses' (did you mean 'corpus'?)");
  expect_error("corpus = c\ntimings = host\n", 2, "timings must be run.json or host.json");
  expect_error("corpus = c\ntimigns = host.json\n", 2,
               "unknown key 'timigns' (did you mean 'timings'?)");
}

static const char threads_why[] = "threads must be an integer from 0 (all CPUs) to 1024";
static const char chunk_why[] = "chunk_bytes must be an integer from 4096 to 1073741824";

static void check_value(const char *key, const char *value, int ok, const char *why_bad) {
  char body[256];
  snprintf(body, sizeof body, "corpus = c\n%s = %s\noutput = o\n", key, value);
  if (!ok) {
    expect_error(body, 2, why_bad);
    return;
  }
  tc_job job;
  int line;
  assert_int_equal(load(body, &job, &line), TC_OK);
  tc_job_free(&job);
}

static void threads_range(void **state) {
  (void)state;
  static const struct {
    const char *v;
    int ok;
  } cases[] = {{"0", 1},    {"1", 1},  {"1024", 1}, {"1025", 0}, {"-1", 0},
               {"abc", 0},  {"3x", 0}, {"", 0},     {"2.5", 0},
               {"18446744073709551617", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_value("threads", cases[i].v, cases[i].ok, threads_why);
}

static void chunk_bytes_range(void **state) {
  (void)state;
  static const struct {
    const char *v;
    int ok;
  } cases[] = {{"4096", 1},        {"1073741824", 1}, {"4095", 0}, {"0", 0},
               {"1073741825", 0},  {"-4096", 0},      {"4k", 0},
               {"99999999999999999999999", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_value("chunk_bytes", cases[i].v, cases[i].ok, chunk_why);
}

static void rates_positive(void **state) {
  (void)state;
  static const char bucket_why[] = "bucket_ms must be a number of at least 1";
  static const char hz_why[] = "refresh_hz must be a number above 0 and at most 1000";
  /* value, ok as bucket_ms, ok as refresh_hz */
  static const struct {
    const char *v;
    int bucket_ok, hz_ok;
  } cases[] = {{"200", 1, 1}, {"0.5", 0, 1}, {"1e2", 1, 1}, {"0", 0, 0},    {"-5", 0, 0},
               {"abc", 0, 0}, {"", 0, 0},    {"nan", 0, 0}, {"5ms", 0, 0},  {"inf", 0, 0},
               {"1e-300", 0, 1}, {"1000", 1, 1}, {"1001", 1, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    check_value("bucket_ms", cases[i].v, cases[i].bucket_ok, bucket_why);
    check_value("refresh_hz", cases[i].v, cases[i].hz_ok, hz_why);
  }
}

static void required_keys(void **state) {
  (void)state;
  static const char need[] = "a job needs at least `corpus` and `output`";
  expect_error("output = o\nthreads = 2\n", 0, need);
  expect_error("corpus = c\ncorpus = d\n", 0, need);
  expect_error("", 0, need);
  expect_error("# only a comment\n\n", 0, need);
  tc_job job;
  int line = -1;
  char *missing = testdir_path(testdir_scratch, "no-such.job");
  assert_int_equal(tc_job_load(missing, &job, &line, why, sizeof why), TC_E_BAD_JOB);
  free(missing);
  assert_int_equal(line, 0);
  assert_string_equal(why, "cannot open the job file: No such file or directory");
}

/* Relative paths are the job folder's, joined by their text; absolute ones
 * are kept; a job loaded from the current directory keeps its spelling. */
static void paths_from_the_job_folder(void **state) {
  (void)state;
  const char *body = "corpus = ../up/c\n"
                     "corpus = /abs//c/\n"
                     "corpus = ./a/./b/../c\n"
                     "manifest = a/../../../m.tsv\n"
                     "output = .\n"
                     "state = b/..\n";
  tc_job job;
  int line;
  assert_int_equal(load(body, &job, &line), TC_OK);
  char *parent = strdup(testdir_scratch);
  assert_non_null(parent);
  *strrchr(parent, '/') = '\0';
  char *grand = strdup(parent);
  assert_non_null(grand);
  *strrchr(grand, '/') = '\0';
  char want[4096];
  snprintf(want, sizeof want, "%s/up/c", parent);
  assert_string_equal(job.corpus[0], want);
  assert_string_equal(job.corpus[1], "/abs//c/");
  expect_in_scratch(job.corpus[2], "a/c");
  snprintf(want, sizeof want, "%s/m.tsv", grand);
  assert_string_equal(job.manifest, want);
  assert_string_equal(job.output, testdir_scratch);
  assert_string_equal(job.state, testdir_scratch);
  tc_job_free(&job);
  free(parent);
  free(grand);

  char *cwd = getcwd(NULL, 0);
  assert_non_null(cwd);
  assert_int_equal(chdir(testdir_scratch), 0);
  assert_int_equal(tc_job_load("t.job", &job, &line, why, sizeof why), TC_OK);
  assert_string_equal(job.corpus[0], "../up/c");
  assert_string_equal(job.corpus[2], "./a/./b/../c");
  tc_job_free(&job);
  assert_int_equal(chdir(cwd), 0);
  free(cwd);
}

/* Every job shipped in jobs/ loads: none uses a key the reader lacks, and
 * its corpus, taken from jobs/, exists. */
static void shipped_jobs_load(void **state) {
  (void)state;
  DIR *d = opendir(JOBS_DIR);
  assert_non_null(d);
  int njobs = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t n = strlen(de->d_name);
    if (n < 4 || strcmp(de->d_name + n - 4, ".job") != 0)
      continue;
    char *p = testdir_path(JOBS_DIR, de->d_name);
    tc_job job;
    int line;
    assert_int_equal(tc_job_load(p, &job, &line, why, sizeof why), TC_OK);
    assert_true(job.ncorpus >= 1);
    assert_non_null(job.output);
    for (int i = 0; i < job.ncorpus; i++)
      if (access(job.corpus[i], R_OK) != 0)
        fail_msg("%s: corpus %s does not exist", de->d_name, job.corpus[i]);
    tc_job_free(&job);
    free(p);
    njobs++;
  }
  closedir(d);
  assert_true(njobs > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_key_read),    cmocka_unit_test(defaults_kept),
      cmocka_unit_test(malformed_lines_named), cmocka_unit_test(threads_range),
      cmocka_unit_test(chunk_bytes_range), cmocka_unit_test(rates_positive),
      cmocka_unit_test(required_keys),     cmocka_unit_test(paths_from_the_job_folder),
      cmocka_unit_test(shipped_jobs_load),
  };
  return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
