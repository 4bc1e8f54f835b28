/* The whole census job through its one entry point, on corpora written
 * here: the stages come in order, every output file lands in OUTDIR, the
 * figures in census.json and run.json are those of the events the test
 * wrote, and a job that fails at a stage names it and writes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/tc_census_job.h"
#include "testdir.h"

/* Records the stages the hook saw, in order. */
typedef struct {
  tc_census_stage seen[16];
  tc_err errs[16];
  int n;
} stage_log;

static void log_stage(const tc_census_outcome *o, void *user) {
  stage_log *l = user;
  assert_true(l->n < 16);
  l->seen[l->n] = o->stage;
  l->errs[l->n++] = o->err;
}

/* Two sites of two and one traces; one trace holds K events named "A" and
 * one "B" with an argument, so every count is known. */
static void write_corpus(const char *dir) {
  assert_int_equal(testdir_mkdir(dir, "crawl"), 0);
  assert_int_equal(testdir_mkdir(dir, "crawl/one"), 0);
  assert_int_equal(testdir_mkdir(dir, "crawl/two"), 0);
  static const char a[] = "[{\"name\":\"A\",\"ph\":\"X\",\"ts\":1,\"dur\":5,\"pid\":1,\"tid\":1},"
                          "{\"name\":\"A\",\"ph\":\"X\",\"ts\":9,\"dur\":5,\"pid\":1,\"tid\":1}]";
  static const char b[] = "[{\"name\":\"B\",\"ph\":\"i\",\"ts\":2,\"pid\":1,\"tid\":1,"
                          "\"args\":{\"x\":1}}]";
  assert_int_equal(testdir_write(dir, "crawl/one/t1.json", a, strlen(a)), 0);
  assert_int_equal(testdir_write(dir, "crawl/one/t2.json", b, strlen(b)), 0);
  assert_int_equal(testdir_write(dir, "crawl/two/t.json", a, strlen(a)), 0);
}

static void opts_for(tc_census_opts *o, const char *const *inputs, int n, const char *outdir) {
  memset(o, 0, sizeof *o);
  o->inputs = inputs;
  o->ninputs = n;
  o->outdir = outdir;
  tc_run_opts_default(&o->run);
  o->run.threads = 2;
}

static void whole_run_writes_every_file(void **state) {
  (void)state;
  const char *dir = testdir_scratch;
  write_corpus(dir);
  char *crawl = testdir_path(dir, "crawl"), *out = testdir_path(dir, "out");
  const char *inputs[] = {crawl};
  tc_census_opts opts;
  opts_for(&opts, inputs, 1, out);
  stage_log log = {0};
  tc_census_hooks hooks = {.stage = log_stage, .user = &log};
  tc_census_outcome o;
  assert_int_equal(tc_census_job_run(&opts, &hooks, &o), TC_OK);
  /* every stage once, in order, none failing */
  assert_int_equal(log.n, TC_STAGE_COMMIT + 1);
  for (int i = 0; i < log.n; i++) {
    assert_int_equal(log.seen[i], i);
    assert_int_equal(log.errs[i], TC_OK);
  }
  assert_int_equal(o.corpus.nsites, 2);
  assert_int_equal(o.corpus.ntraces, 3);
  assert_int_equal(o.run.tables.totals.events, 5);
  assert_int_equal(o.run.tables.census.nevents, 2);
  assert_int_equal(o.unreadable, 0);
  /* no schema given: the DevTools view is missing, and said so */
  assert_non_null(o.schema_error);
  assert_false(tc_census_outcome_clean(&o));
  tc_census_outcome_free(&o);
  char names[256];
  assert_string_equal(testdir_list(dir, "out", names, sizeof names),
                      "census.csv census.json census.md census_args.csv metrics.csv "
                      "metrics.json metrics.md report.html run.json");
  char *census = testdir_read(dir, "out/census.json");
  assert_non_null(census);
  assert_non_null(strstr(census, "\"sites_total\": 2"));
  assert_non_null(strstr(census, "\"records\": 5"));
  free(census);
  char *run = testdir_read(dir, "out/run.json");
  assert_non_null(run);
  assert_non_null(strstr(run, "\"events\": 5"));
  assert_non_null(strstr(run, "\"job\": null"));
  free(run);
  free(crawl);
  free(out);
}

static void no_metrics_writes_no_metrics_files(void **state) {
  (void)state;
  const char *dir = testdir_scratch;
  write_corpus(dir);
  char *crawl = testdir_path(dir, "crawl"), *out = testdir_path(dir, "out");
  const char *inputs[] = {crawl};
  tc_census_opts opts;
  opts_for(&opts, inputs, 1, out);
  opts.run.no_metrics = 1;
  tc_census_outcome o;
  assert_int_equal(tc_census_job_run(&opts, NULL, &o), TC_OK);
  assert_null(o.run.tables.metrics);
  tc_census_outcome_free(&o);
  char names[256];
  assert_string_equal(testdir_list(dir, "out", names, sizeof names),
                      "census.csv census.json census.md census_args.csv report.html run.json");
  /* the page is written all the same, saying the metrics are missing */
  char *page = testdir_read(dir, "out/report.html");
  assert_non_null(page);
  assert_non_null(strstr(page, "n/a: this run computed no metrics (--no-metrics)."));
  free(page);
  free(crawl);
  free(out);
}

/* Each failing stage ends the job there, and OUTDIR is never made. */
static void failures_stop_at_their_stage(void **state) {
  (void)state;
  const char *dir = testdir_scratch;
  assert_int_equal(testdir_mkdir(dir, "empty"), 0);
  char *missing = testdir_path(dir, "missing"), *empty = testdir_path(dir, "empty");
  char *out = testdir_path(dir, "out"), *schema = testdir_path(dir, "no-schema.tsv");
  struct {
    const char *input, *manifest, *schema;
    tc_census_stage stage;
    tc_err err;
    unsigned threads;
  } cases[] = {
      {empty, NULL, NULL, TC_STAGE_OPTIONS, TC_E_USAGE, TC_MAX_THREADS + 1},
      {empty, NULL, schema, TC_STAGE_SCHEMA, TC_E_BAD_SCHEMA, 0},
      {empty, missing, NULL, TC_STAGE_MANIFEST, TC_E_OPEN, 0},
      {missing, NULL, NULL, TC_STAGE_INPUTS, TC_E_NO_INPUT, 0},
      {empty, NULL, NULL, TC_STAGE_CORPUS, TC_E_NO_SITES, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *inputs[] = {cases[i].input};
    tc_census_opts opts;
    opts_for(&opts, inputs, 1, out);
    opts.manifest = cases[i].manifest;
    opts.schema = cases[i].schema;
    opts.schema_required = cases[i].schema != NULL;
    if (cases[i].threads)
      opts.run.threads = cases[i].threads;
    stage_log log = {0};
    tc_census_hooks hooks = {.stage = log_stage, .user = &log};
    tc_census_outcome o;
    assert_int_equal(tc_census_job_run(&opts, &hooks, &o), cases[i].err);
    assert_int_equal(o.stage, cases[i].stage);
    assert_int_equal(log.n, (int)cases[i].stage + 1);
    assert_int_equal(log.errs[log.n - 1], cases[i].err);
    if (cases[i].stage == TC_STAGE_INPUTS)
      assert_int_equal(o.nmissing, 1);
    if (cases[i].stage == TC_STAGE_OPTIONS)
      assert_string_equal(o.why.reason, "threads must be an integer from 0 (all CPUs) to 1024");
    tc_census_outcome_free(&o);
    /* OUTDIR is never made */
    assert_int_not_equal(access(out, F_OK), 0);
  }
  free(missing);
  free(empty);
  free(out);
  free(schema);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(whole_run_writes_every_file, testdir_setup, testdir_teardown),
      cmocka_unit_test_setup_teardown(no_metrics_writes_no_metrics_files, testdir_setup,
                                      testdir_teardown),
      cmocka_unit_test_setup_teardown(failures_stop_at_their_stage, testdir_setup,
                                      testdir_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
