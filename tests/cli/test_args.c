/* The command line: every spelling of every option (short with and without
 * a space, long with = or a space, letters grouped), options after operands
 * and "--", help and version from every command, and the message each
 * usage error is reported with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tc_args.h"

static char why[256];
static char words[64][128];
static char *argv_buf[65];

/* Parses LINE split at spaces ("" for an empty word is not needed here),
 * with "tracecensus" as argv[0]. */
static tc_err parse(const char *line, tc_args *a) {
  int argc = 0;
  argv_buf[argc++] = strcpy(words[0], "tracecensus");
  for (const char *p = line; *p;) {
    size_t n = strcspn(p, " ");
    assert_true(n < sizeof words[0] && argc < 64);
    memcpy(words[argc], p, n);
    words[argc][n] = '\0';
    argv_buf[argc] = words[argc];
    argc++;
    p += n;
    p += *p == ' ';
  }
  argv_buf[argc] = NULL;
  memset(why, 'x', sizeof why);
  return tc_args_parse(argc, argv_buf, a, why, sizeof why);
}

static void ok(const char *line, tc_args *a) {
  assert_int_equal(parse(line, a), TC_OK);
  assert_string_equal(why, "");
}

static void usage(const char *line, const char *want) {
  tc_args a;
  tc_err e = parse(line, &a);
  if (e != TC_E_USAGE)
    fail_msg("'%s' parsed (%d), expected the usage error \"%s\"", line, e, want);
  assert_string_equal(why, want);
  tc_args_free(&a);
}

static void expect_inputs(const tc_args *a, int n, ...) {
  va_list ap;
  va_start(ap, n);
  assert_int_equal(a->ninputs, n);
  for (int i = 0; i < n; i++)
    assert_string_equal(a->inputs[i], va_arg(ap, const char *));
  va_end(ap);
}

static void threads_every_spelling(void **state) {
  (void)state;
  static const struct {
    const char *line;
    unsigned threads;
  } cases[] = {{"census -T0 -o o in", 0},          {"census -T 0 -o o in", 0},
               {"census --threads=0 -o o in", 0},  {"census --threads 3 -o o in", 3},
               {"census -T4 -o o in", 4},          {"census -o o in -T 1024", 1024},
               {"census --thr=2 -o o in", 2},      {"run -T 7 jobs/x.job", 7},
               {"run --threads=0 jobs/x.job", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_args a;
    ok(cases[i].line, &a);
    assert_int_equal(a.threads_set, 1);
    assert_int_equal(a.threads, cases[i].threads);
    tc_args_free(&a);
  }
  tc_args a;
  ok("census -o o in", &a);
  assert_int_equal(a.threads_set, 0);
  tc_args_free(&a);
  static const char *const bad[] = {"many", "-1", "1025", "2x", "+3", "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char line[128], want[128];
    snprintf(line, sizeof line, "census -T %s -o o in", bad[i]);
    snprintf(want, sizeof want, "-T needs a thread count from 0 (one per CPU) to 1024, not '%s'",
             bad[i]);
    usage(line, want);
  }
}

static void census_options(void **state) {
  (void)state;
  tc_args a;
  ok("census --manifest m.tsv --schema=s.tsv --chunk-bytes 4096 --no-metrics -oout c1 c2", &a);
  assert_int_equal(a.cmd, TC_CMD_CENSUS);
  assert_string_equal(a.outdir, "out");
  assert_string_equal(a.manifest, "m.tsv");
  assert_string_equal(a.schema, "s.tsv");
  assert_int_equal(a.chunk_bytes, 4096);
  assert_int_equal(a.no_metrics, 1);
  assert_int_equal(a.verbosity, 0);
  expect_inputs(&a, 2, "c1", "c2");
  tc_args_free(&a);
  /* Options may follow operands; the last -o wins. */
  ok("census c1 -o first c2 --output=second c3", &a);
  assert_string_equal(a.outdir, "second");
  expect_inputs(&a, 3, "c1", "c2", "c3");
  assert_null(a.manifest);
  assert_int_equal(a.chunk_bytes, 0);
  assert_int_equal(a.no_metrics, 0);
  tc_args_free(&a);
  /* After "--" everything is an INPUT, however it looks. */
  ok("census -o out -- -weird --manifest -T", &a);
  expect_inputs(&a, 3, "-weird", "--manifest", "-T");
  assert_null(a.manifest);
  tc_args_free(&a);
  usage("census --chunk-bytes 4095 -o o in",
        "--chunk-bytes needs a size from 4096 to 1073741824, not '4095'");
  usage("census --chunk-bytes=1073741825 -o o in",
        "--chunk-bytes needs a size from 4096 to 1073741824, not '1073741825'");
  ok("census --chunk-bytes=1073741824 -o o in", &a);
  assert_int_equal(a.chunk_bytes, 1073741824);
  tc_args_free(&a);
}

static void verbosity(void **state) {
  (void)state;
  static const struct {
    const char *line;
    int v;
  } cases[] = {{"census -q -o o in", -1},       {"census --quiet -o o in", -1},
               {"census -v -o o in", 1},        {"census -vv -o o in", 2},
               {"census -v --verbose -o o in", 2}, {"census -q -v -o o in", 1},
               {"census -v -q -o o in", -1},    {"census -qvT2 -o o in", 1},
               {"run -q j", -1}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_args a;
    ok(cases[i].line, &a);
    assert_int_equal(a.verbosity, cases[i].v);
    tc_args_free(&a);
  }
}

static void help_and_version(void **state) {
  (void)state;
  static const struct {
    const char *line;
    tc_cmd cmd, help_for;
  } cases[] = {
      {"--help", TC_CMD_HELP, TC_CMD_HELP},        {"-h", TC_CMD_HELP, TC_CMD_HELP},
      {"help", TC_CMD_HELP, TC_CMD_HELP},          {"help census", TC_CMD_HELP, TC_CMD_CENSUS},
      {"help run", TC_CMD_HELP, TC_CMD_RUN},       {"census --help", TC_CMD_HELP, TC_CMD_CENSUS},
      {"census -h", TC_CMD_HELP, TC_CMD_CENSUS},   {"census -o o in --help", TC_CMD_HELP, TC_CMD_CENSUS},
      {"run --help", TC_CMD_HELP, TC_CMD_RUN},     {"run -h jobs/x.job", TC_CMD_HELP, TC_CMD_RUN},
      {"census --help --bogus", TC_CMD_HELP, TC_CMD_CENSUS},
      {"-V", TC_CMD_VERSION, TC_CMD_HELP},         {"--version", TC_CMD_VERSION, TC_CMD_HELP},
      {"census -V", TC_CMD_VERSION, TC_CMD_HELP},  {"run --version", TC_CMD_VERSION, TC_CMD_HELP},
      {"help diff", TC_CMD_HELP, TC_CMD_DIFF},     {"diff --help", TC_CMD_HELP, TC_CMD_DIFF},
      {"diff a b -h", TC_CMD_HELP, TC_CMD_DIFF},   {"diff -V", TC_CMD_VERSION, TC_CMD_HELP},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_args a;
    ok(cases[i].line, &a);
    assert_int_equal(a.cmd, cases[i].cmd);
    if (a.cmd == TC_CMD_HELP)
      assert_int_equal(a.help_for, cases[i].help_for);
    tc_args_free(&a);
  }
  /* Each text names every option its command takes. */
  assert_non_null(strstr(tc_args_usage(TC_CMD_CENSUS), "--chunk-bytes"));
  assert_non_null(strstr(tc_args_usage(TC_CMD_CENSUS), "--threads=N"));
  assert_non_null(strstr(tc_args_usage(TC_CMD_RUN), "--threads=N"));
  assert_non_null(strstr(tc_args_usage(TC_CMD_HELP), "Exit status"));
  assert_null(strstr(tc_args_usage(TC_CMD_RUN), "--manifest"));
}

static void run_operands(void **state) {
  (void)state;
  tc_args a;
  ok("run jobs/x.job", &a);
  assert_int_equal(a.cmd, TC_CMD_RUN);
  assert_string_equal(a.job, "jobs/x.job");
  assert_int_equal(a.ninputs, 0);
  tc_args_free(&a);
  ok("run -- -odd.job", &a);
  assert_string_equal(a.job, "-odd.job");
  tc_args_free(&a);
  usage("run", "run needs a JOB file");
  usage("run a.job b.job", "run takes one JOB, not 2");
  usage("run -o out a.job", "unknown option '-o'");
  usage("run --manifest m a.job", "unknown option '--manifest'");
}

static void bench_options(void **state) {
  (void)state;
  tc_args a;
  ok("bench in", &a);
  assert_int_equal(a.cmd, TC_CMD_BENCH);
  assert_int_equal(a.runs, 5);
  assert_int_equal(a.warmup, 1);
  assert_int_equal(a.baseline, 0);
  assert_null(a.export_json);
  assert_null(a.export_md);
  expect_inputs(&a, 1, "in");
  tc_args_free(&a);
  ok("bench -T1 --runs 2 --warmup=0 --baseline --export-json j.json --export-markdown=m.md "
     "--manifest m.tsv --no-metrics --whole-urls --value-sites 7 --scope all a b", &a);
  assert_int_equal(a.threads, 1);
  assert_int_equal(a.runs, 2);
  assert_int_equal(a.warmup, 0);
  assert_int_equal(a.baseline, 1);
  assert_string_equal(a.export_json, "j.json");
  assert_string_equal(a.export_md, "m.md");
  assert_string_equal(a.manifest, "m.tsv");
  assert_int_equal(a.no_metrics, 1);
  assert_int_equal(a.whole_urls, 1);
  assert_int_equal(a.value_sites_set, 1);
  assert_int_equal(a.value_sites, 7);
  assert_int_equal(a.scope_set, 1);
  assert_int_equal(a.scope, TC_SCOPE_ALL);
  expect_inputs(&a, 2, "a", "b");
  tc_args_free(&a);
  ok("help bench", &a);
  assert_int_equal(a.help_for, TC_CMD_BENCH);
  tc_args_free(&a);
  assert_non_null(strstr(tc_args_usage(TC_CMD_BENCH), "--export-markdown"));
  usage("bench", "bench needs at least one INPUT");
  usage("bench --runs 0 in", "--runs needs a count from 1 to 100000, not '0'");
  usage("bench --warmup -1 in", "--warmup needs a count from 0 to 100000, not '-1'");
  usage("bench --export-json= in", "--export-json needs a file name, not ''");
  usage("bench -o out in", "unknown option '-o'");
}

/* --state, --shard and the merge command, spelt every way. */
static void state_and_shards(void **state) {
  (void)state;
  tc_args a;
  ok("census --state st --shard=2/4 in", &a);
  assert_string_equal(a.state, "st");
  assert_int_equal(a.shard, 2);
  assert_int_equal(a.nshards, 4);
  assert_null(a.outdir);
  tc_args_free(&a);
  ok("run --shard 0/1 --state=st jobs/x.job", &a);
  assert_int_equal(a.cmd, TC_CMD_RUN);
  assert_int_equal(a.nshards, 1);
  tc_args_free(&a);
  ok("merge -o out s2 -- s0 s1", &a);
  assert_int_equal(a.cmd, TC_CMD_MERGE);
  assert_string_equal(a.outdir, "out");
  expect_inputs(&a, 3, "s2", "s0", "s1");
  tc_args_free(&a);
}

static void diff_operands(void **state) {
  (void)state;
  tc_args a;
  ok("diff old new", &a);
  assert_int_equal(a.cmd, TC_CMD_DIFF);
  assert_string_equal(a.diff_a, "old");
  assert_string_equal(a.diff_b, "new");
  assert_null(a.outdir);
  tc_args_free(&a);
  ok("diff old -o out new", &a);
  assert_string_equal(a.outdir, "out");
  assert_string_equal(a.diff_b, "new");
  tc_args_free(&a);
  ok("diff --output=out -- -a -b", &a);
  assert_string_equal(a.outdir, "out");
  assert_string_equal(a.diff_a, "-a");
  assert_string_equal(a.diff_b, "-b");
  tc_args_free(&a);
  usage("diff", "diff takes two output folders A and B, not 0");
  usage("diff a b c", "diff takes two output folders A and B, not 3");
  usage("diff -T 2 a b", "unknown option '-T'");
  usage("diff a b -o", "option '-o' needs a value");
  assert_non_null(strstr(tc_args_usage(TC_CMD_DIFF), "--output=OUTDIR"));
  assert_non_null(strstr(tc_args_usage(TC_CMD_HELP), "tracecensus diff"));
}

static void usage_errors_named(void **state) {
  (void)state;
  usage("", "missing command");
  usage("frobnicate", "unknown command 'frobnicate'");
  usage("help frob", "no help on 'frob': the commands are census, run, merge, diff and bench");
  usage("census", "census needs -o OUTDIR");
  usage("census in", "census needs -o OUTDIR");
  usage("census -o out", "census needs at least one INPUT");
  usage("census --shard 1/4 in", "--shard needs --state DIR (the merge reads the shards' state)");
  usage("census --state s --shard 4/4 in", "--shard needs I/N with 0 <= I < N (shard I of N), not '4/4'");
  usage("census --state s --shard 1 in", "--shard needs I/N with 0 <= I < N (shard I of N), not '1'");
  usage("census --state s --shard 0/4 -o o in",
        "a --shard run writes only its state: no -o (merge writes OUTDIR)");
  usage("census --state= -o o in", "--state needs a folder name, not ''");
  usage("merge s0 s1", "merge needs -o OUTDIR");
  usage("merge -o out", "merge needs at least one STATEDIR");
  usage("merge -T 2 -o out s0", "unknown option '-T'");
  usage("census --bogus -o o in", "unknown option '--bogus'");
  usage("census --bogus=1 -o o in", "unknown option '--bogus'");
  usage("census --no-metrics=1 -o o in", "option '--no-metrics' takes no value");
  usage("census -o o in -x", "unknown option '-x'");
  usage("census -qx -o o in", "unknown option '-x'");
  /* A bad letter in the middle of a group, right after a long option. */
  usage("census --output=o -xq in", "unknown option '-x'");
  usage("census in -o", "option '-o' needs a value");
  usage("census in --output", "option '--output' needs a value");
  usage("census -o o in --manifest", "option '--manifest' needs a value");
  usage("census -o o in -T", "option '-T' needs a value");
  usage("run j --threads", "option '--threads' needs a value");
  usage("census --output= in", "-o needs a folder name, not ''");
  /* "--no" would be --no-metrics, the only long option it starts. */
  tc_args a;
  ok("census --no -o o in", &a);
  assert_int_equal(a.no_metrics, 1);
  tc_args_free(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_every_spelling), cmocka_unit_test(census_options),
      cmocka_unit_test(verbosity),              cmocka_unit_test(help_and_version),
      cmocka_unit_test(run_operands),           cmocka_unit_test(usage_errors_named),
      cmocka_unit_test(state_and_shards),
      cmocka_unit_test(diff_operands),
      cmocka_unit_test(bench_options),
  };
  return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
