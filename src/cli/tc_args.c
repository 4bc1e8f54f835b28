#define _GNU_SOURCE /* getopt_long */
#include "cli/tc_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tc_partial.h"
#include "pipeline/tc_run.h"

static const char usage_census[] =
    "usage: tracecensus census [-T N] [-q | -v] [--manifest FILE] [--schema FILE]\n"
    "                          [--scope no-chrome-ui|page|all] [--chunk-bytes B]\n"
    "                          [--no-metrics] [--whole-urls] [--value-sites N]\n"
    "                          [--state DIR] -o OUTDIR [--] INPUT...\n"
    "       tracecensus census [OPTIONS] --state DIR --shard I/N [--] INPUT...\n"
    "\n"
    "Counts every event of every trace under INPUT (corpus directories, one\n"
    "subdirectory per site, or single trace files, each its own site) and writes\n"
    "into OUTDIR: census.json, census.csv, census.md (every event name: records,\n"
    "sites, phases, categories, durations, DevTools' view), census_args.csv (one\n"
    "row per event and argument path with its value profile), run.json (every\n"
    "input's status, the settings), metrics.csv, metrics.json, metrics.md\n"
    "(runtime metrics per trace and site) and report.html (all of it on one\n"
    "page, with plots).\n"
    "\n"
    "  -T, --threads=N      worker threads, 0 = one per online CPU (default 0)\n"
    "  -o, --output=OUTDIR  output folder, replaced as a whole when the run ends:\n"
    "                       readers see the previous set or the new one, never a\n"
    "                       mix; files in it that tracecensus does not write are kept\n"
    "      --manifest=FILE  TSV listing every site of the crawl (column `site`), so\n"
    "                       sites that left no trace still count in \"of S sites\"\n"
    "      --schema=FILE    DevTools schema (default: the bundled data/devtools-schema.tsv)\n"
    "      --scope=SCOPE    which processes of each trace the census counts:\n"
    "                       no-chrome-ui (default) every process but the renderers\n"
    "                       of Chrome's own UI (chrome:// pages such as the omnibox\n"
    "                       popup); page: the page under test and its iframes, with\n"
    "                       the browser, GPU and utility processes; all: every record.\n"
    "                       What is left out is counted apart in every output\n"
    "      --chunk-bytes=B  size of the chunks big traces are split into\n"
    "                       (4096 to 1073741824, default 1048576)\n"
    "      --no-metrics     census only, no metric kernels (to measure what they cost)\n"
    "      --whole-urls     argument value profiles list URLs whole, not cut to\n"
    "                       scheme + host\n"
    "      --value-sites=N  a string argument value is printed only when seen on at\n"
    "                       least N sites (0 prints all; default 3)\n"
    "      --state=DIR      keep each finished site's partial state in DIR; run again\n"
    "                       with the same DIR to resume, reusing every site whose\n"
    "                       traces did not change (-v says how many)\n"
    "      --shard=I/N      only the I-th of N shares of the sites (0 <= I < N), by a\n"
    "                       hash of the site name; needs --state, writes no OUTDIR\n"
    "                       (then -o is not needed): `tracecensus merge` adds them up\n"
    "  -q, --quiet          no progress and no summary line; problems are still named\n"
    "  -v, --verbose        also the settings, one line per trace, and what was cleaned\n"
    "  -h, --help           this text;  -V, --version  the version\n";

static const char usage_run[] =
    "usage: tracecensus run [-T N] [-q | -v] [--state DIR] [--shard I/N] [--] JOB\n"
    "\n"
    "Runs the census described by a job file (jobs/*.job: corpus, manifest, output,\n"
    "threads, chunk_bytes, schema, state, scope, bucket_ms, refresh_hz,\n"
    "window_start_mark, window_end_mark, timings), exactly as `census` would with\n"
    "the same settings. `timings = host.json` writes the run's host facts (threads,\n"
    "kernel, seconds, peak RSS, MB/s) to OUTDIR/host.json, null in run.json.\n"
    "\n"
    "  -T, --threads=N  worker threads, overriding the job's `threads`\n"
    "      --state=DIR  partial state folder, overriding the job's `state`\n"
    "      --shard=I/N  only shard I of N, into the state folder (see census --help)\n"
    "  -q, --quiet      no progress and no summary line; problems are still named\n"
    "  -v, --verbose    also the settings, one line per trace, and what was cleaned\n"
    "  -h, --help       this text;  -V, --version  the version\n";

static const char usage_bench[] =
    "usage: tracecensus bench [-T N] [--runs K] [--warmup W] [--baseline]\n"
    "                         [--export-json FILE] [--export-markdown FILE]\n"
    "                         [--manifest FILE] [--schema FILE] [--chunk-bytes B]\n"
    "                         [--no-metrics] [--whole-urls] [--value-sites N]\n"
    "                         [--scope SCOPE] [--] INPUT...\n"
    "\n"
    "Runs the whole census over INPUT (as `census` reads it) K times after W\n"
    "warm-ups and prints, per stage (read + decompress, chunk, parse, census\n"
    "tables, kernels, merge, write), the share of the time and MB/s of JSON\n"
    "(median, min, max), events/s, peak RSS, the CPU, the simdjson kernel and the\n"
    "threads. The reports are written into a temporary folder ($TMPDIR, else\n"
    "/tmp) and removed after each run.\n"
    "\n"
    "  -T, --threads=N          worker threads, 0 = one per online CPU (default 0)\n"
    "      --runs=K             measured runs (default 5)\n"
    "      --warmup=W           runs before them, not measured (default 1)\n"
    "      --baseline           also run, interleaved in this process, a plain simdjson\n"
    "                           On-Demand walk and decompression alone over the same\n"
    "                           files, and print tracecensus's ratio to each\n"
    "      --export-json=FILE   every figure as JSON (raw numbers, per-run times)\n"
    "      --export-markdown=FILE  the table as Markdown\n"
    "      --manifest, --schema, --chunk-bytes, --no-metrics, --whole-urls,\n"
    "      --value-sites, --scope  as for census (the export records them)\n"
    "  -h, --help               this text;  -V, --version  the version\n";

static const char usage_merge[] =
    "usage: tracecensus merge [-q | -v] [--schema FILE] -o OUTDIR [--] STATEDIR...\n"
    "\n"
    "Adds up the partial state of the shards of one census (the DIRs of\n"
    "`census --state DIR --shard I/N`, in any order) into OUTDIR: the same files,\n"
    "byte for byte, as one run over the whole corpus. Refuses, naming what is\n"
    "missing, when a site of the corpus has no partial in any STATEDIR.\n"
    "\n"
    "  -o, --output=OUTDIR  output folder, replaced as a whole (as census)\n"
    "      --schema=FILE    DevTools schema (default: the bundled one)\n"
    "  -q, --quiet          no summary line; problems are still named\n"
    "  -v, --verbose        also one line per trace\n"
    "  -h, --help           this text;  -V, --version  the version\n";

static const char usage_diff[] =
    "usage: tracecensus diff [-o OUTDIR] [--] A B\n"
    "\n"
    "Compares two output folders of tracecensus, A the baseline and B the current\n"
    "crawl: events new in B and vanished from A, records per surveyed site and\n"
    "share of sites with their change, argument paths and undeclared args that\n"
    "appeared or vanished, the median and p90 across sites of busy rate, TBT, long\n"
    "tasks, frame intervals and heap growth, and the sites whose metrics changed.\n"
    "change = (B - A) / |A|; \"not comparable\" instead when the baseline is zero,\n"
    "the sample counts differ or the conditions differ (S, the sites, a site's\n"
    "Chrome major version or trace config, the metric options), saying what differs.\n"
    "\n"
    "  -o, --output=OUTDIR  write diff.md, diff.json, diff.csv and diff.html into\n"
    "                       OUTDIR as one set (default: diff.md to stdout)\n"
    "  -h, --help           this text;  -V, --version  the version\n"
    "\n"
    "Exit status, as diff(1)'s: 0 no differences, 1 differences, 2 trouble (a\n"
    "folder lacks census.json or run.json, a file is not valid JSON or not an\n"
    "output of this version, OUTDIR cannot be written).\n";

static const char usage_all[] =
    "usage: tracecensus census [OPTIONS] -o OUTDIR INPUT...\n"
    "       tracecensus census [OPTIONS] --state DIR --shard I/N INPUT...\n"
    "       tracecensus run [OPTIONS] JOB\n"
    "       tracecensus merge [OPTIONS] -o OUTDIR STATEDIR...\n"
    "       tracecensus diff [-o OUTDIR] A B\n"
    "       tracecensus bench [OPTIONS] INPUT...\n"
    "       tracecensus help [census | run | merge | diff | bench]\n"
    "       tracecensus -h | --help | -V | --version\n"
    "\n"
    "census  counts every event of every trace under INPUT and writes the census and\n"
    "        the runtime metrics into OUTDIR (`tracecensus census --help`)\n"
    "run     does the same for a job file (`tracecensus run --help`)\n"
    "merge   adds up the partial state of shards into OUTDIR (`tracecensus merge --help`)\n"
    "diff    compares two output folders (`tracecensus diff --help`)\n"
    "bench   times the census per stage, beside a plain simdjson walk\n"
    "        (`tracecensus bench --help`)\n"
    "\n"
    "Traces may be plain JSON, gzip or zstd (recognised by their bytes), as a JSON\n"
    "array of events or an object with traceEvents.\n"
    "\n"
    "Exit status: 0 all inputs read cleanly; 1 some inputs had errors (the report is\n"
    "written, and run.json says what was skipped); 2 usage or fatal error, nothing\n"
    "written (OUTDIR keeps its previous outputs); killed by SIGINT, SIGTERM or SIGHUP\n"
    "the run removes its partial outputs and dies of that signal (a shell shows\n"
    "128 + the signal: 130, 143, 129); with --state it first finishes the traces\n"
    "in progress and saves their sites, and the same command resumes.\n";

const char *tc_args_usage(tc_cmd cmd) {
  return cmd == TC_CMD_CENSUS  ? usage_census
         : cmd == TC_CMD_RUN   ? usage_run
         : cmd == TC_CMD_MERGE ? usage_merge
         : cmd == TC_CMD_DIFF  ? usage_diff
         : cmd == TC_CMD_BENCH ? usage_bench
                               : usage_all;
}

enum {
  OPT_MANIFEST = 256,
  OPT_SCHEMA,
  OPT_CHUNK,
  OPT_NO_METRICS,
  OPT_WHOLE_URLS,
  OPT_VALUE_SITES,
  OPT_SCOPE,
  OPT_STATE,
  OPT_SHARD,
  OPT_RUNS,
  OPT_WARMUP,
  OPT_BASELINE,
  OPT_EXPORT_JSON,
  OPT_EXPORT_MD
};

/* What the census reads and computes: bench takes every one of them, so
 * that any census a user runs can be measured. */
#define CENSUS_WORK_OPTS                                                       \
  {"threads", required_argument, NULL, 'T'},                                   \
      {"manifest", required_argument, NULL, OPT_MANIFEST},                     \
      {"schema", required_argument, NULL, OPT_SCHEMA},                         \
      {"chunk-bytes", required_argument, NULL, OPT_CHUNK},                     \
      {"no-metrics", no_argument, NULL, OPT_NO_METRICS},                       \
      {"whole-urls", no_argument, NULL, OPT_WHOLE_URLS},                       \
      {"value-sites", required_argument, NULL, OPT_VALUE_SITES},               \
      {"scope", required_argument, NULL, OPT_SCOPE}

static const struct option census_opts[] = {
    CENSUS_WORK_OPTS,
    {"output", required_argument, NULL, 'o'},
    {"state", required_argument, NULL, OPT_STATE}, {"shard", required_argument, NULL, OPT_SHARD},
    {"quiet", no_argument, NULL, 'q'}, {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

static const struct option bench_opts[] = {
    CENSUS_WORK_OPTS,
    {"runs", required_argument, NULL, OPT_RUNS},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"baseline", no_argument, NULL, OPT_BASELINE},
    {"export-json", required_argument, NULL, OPT_EXPORT_JSON},
    {"export-markdown", required_argument, NULL, OPT_EXPORT_MD},
    {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

/* Run takes the census options that do not belong in the job file. */
static const struct option run_opts[] = {
    {"threads", required_argument, NULL, 'T'}, {"quiet", no_argument, NULL, 'q'},
    {"state", required_argument, NULL, OPT_STATE}, {"shard", required_argument, NULL, OPT_SHARD},
    {"verbose", no_argument, NULL, 'v'},       {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},       {NULL, 0, NULL, 0}};

static const struct option merge_opts[] = {
    {"output", required_argument, NULL, 'o'}, {"schema", required_argument, NULL, OPT_SCHEMA},
    {"quiet", no_argument, NULL, 'q'},        {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};
static const struct option diff_opts[] = {
    {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0}};

__attribute__((format(printf, 3, 4))) static tc_err usage_error(char *why, size_t cap,
                                                                const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
  return TC_E_USAGE;
}

static int parse_uint(const char *v, unsigned long long lo, unsigned long long hi,
                      unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || end == v || *end || v[0] == '-' || v[0] == '+' || n < lo || n > hi)
    return 0;
  *out = n;
  return 1;
}

/* Says what was wrong with the option getopt stopped at (C is what it
 * returned). A long option always moves optind past its word; a short
 * one inside a group of letters may not, so BEFORE (optind before the
 * call) tells which kind it was. */
static tc_err option_error(char **argv, int before, int c, char *why, size_t cap) {
  const char *word = argv[optind - 1];
  if (optind > before && word[0] == '-' && word[1] == '-') {
    int n = (int)strcspn(word, "=");
    if (c == ':')
      return usage_error(why, cap, "option '%.*s' needs a value", n, word);
    return usage_error(why, cap, optopt ? "option '%.*s' takes no value" : "unknown option '%.*s'",
                       n, word);
  }
  if (c == ':')
    return usage_error(why, cap, "option '-%c' needs a value", optopt);
  return usage_error(why, cap, "unknown option '-%c'", optopt);
}

static tc_err parse_options(int argc, char **argv, const struct option *opts, tc_args *a,
                            char *why, size_t cap) {
  const char *shorts = a->cmd == TC_CMD_CENSUS  ? ":T:o:qvhV"
                       : a->cmd == TC_CMD_MERGE ? ":o:qvhV"
                       : a->cmd == TC_CMD_DIFF  ? ":o:hV"
                       : a->cmd == TC_CMD_BENCH ? ":T:hV"
                                                : ":T:qvhV";
  opterr = 0;
  optind = 0; /* glibc: start afresh, whatever an earlier parse left */
  for (;;) {
    int before = optind ? optind : 1;
    int c = getopt_long(argc, argv, shorts, opts, NULL);
    unsigned long long n;
    switch (c) {
    case -1:
      return TC_OK;
    case 'h':
      a->help_for = a->cmd;
      a->cmd = TC_CMD_HELP;
      return TC_OK;
    case 'V':
      a->cmd = TC_CMD_VERSION;
      return TC_OK;
    case 'q':
      a->verbosity = -1;
      break;
    case 'v':
      a->verbosity = a->verbosity < 0 ? 1 : a->verbosity + 1;
      break;
    case 'T':
      if (!parse_uint(optarg, 0, TC_MAX_THREADS, &n))
        return usage_error(why, cap,
                           "-T needs a thread count from 0 (one per CPU) to %u, not '%s'",
                           TC_MAX_THREADS, optarg);
      a->threads = (unsigned)n;
      a->threads_set = 1;
      break;
    case 'o':
      if (!*optarg)
        return usage_error(why, cap, "-o needs a folder name, not ''");
      a->outdir = optarg;
      break;
    case OPT_MANIFEST:
      a->manifest = optarg;
      break;
    case OPT_SCHEMA:
      a->schema = optarg;
      break;
    case OPT_CHUNK:
      if (!parse_uint(optarg, TC_MIN_CHUNK_BYTES, TC_MAX_CHUNK_BYTES, &n))
        return usage_error(why, cap, "--chunk-bytes needs a size from %zu to %zu, not '%s'",
                           TC_MIN_CHUNK_BYTES, TC_MAX_CHUNK_BYTES, optarg);
      a->chunk_bytes = (size_t)n;
      break;
    case OPT_NO_METRICS:
      a->no_metrics = 1;
      break;
    case OPT_WHOLE_URLS:
      a->whole_urls = 1;
      break;
    case OPT_VALUE_SITES:
      if (!parse_uint(optarg, 0, UINT32_MAX, &n))
        return usage_error(why, cap, "--value-sites needs a site count from 0, not '%s'", optarg);
      a->value_sites = (uint32_t)n;
      a->value_sites_set = 1;
      break;
    case OPT_SCOPE:
      if (tc_scope_parse(optarg, &a->scope))
        return usage_error(why, cap, "--scope is no-chrome-ui, page or all, not '%s'", optarg);
      a->scope_set = 1;
      break;
    case OPT_RUNS:
      if (!parse_uint(optarg, 1, 100000, &n))
        return usage_error(why, cap, "--runs needs a count from 1 to 100000, not '%s'", optarg);
      a->runs = (unsigned)n;
      break;
    case OPT_WARMUP:
      if (!parse_uint(optarg, 0, 100000, &n))
        return usage_error(why, cap, "--warmup needs a count from 0 to 100000, not '%s'", optarg);
      a->warmup = (unsigned)n;
      break;
    case OPT_BASELINE:
      a->baseline = 1;
      break;
    case OPT_EXPORT_JSON:
    case OPT_EXPORT_MD:
      if (!*optarg)
        return usage_error(why, cap, "%s needs a file name, not ''",
                           c == OPT_EXPORT_JSON ? "--export-json" : "--export-markdown");
      *(c == OPT_EXPORT_JSON ? &a->export_json : &a->export_md) = optarg;
      break;
    case OPT_STATE:
      if (!*optarg)
        return usage_error(why, cap, "--state needs a folder name, not ''");
      a->state = optarg;
      break;
    case OPT_SHARD: {
      char *slash = strchr(optarg, '/');
      unsigned long long i, nn;
      if (slash)
        *slash = '\0';
      int ok = slash && parse_uint(optarg, 0, TC_PARTIAL_MAX_SHARDS, &i) &&
               parse_uint(slash + 1, 1, TC_PARTIAL_MAX_SHARDS, &nn) &&
               i < nn;
      if (slash)
        *slash = '/';
      if (!ok)
        return usage_error(why, cap, "--shard needs I/N with 0 <= I < N (shard I of N), not '%s'",
                           optarg);
      a->shard = (unsigned)i;
      a->nshards = (unsigned)nn;
      break;
    }
    default:
      return option_error(argv, before, c, why, cap);
    }
  }
}

/* The command NAME names, TC_CMD_HELP when none: `help NAME` and the
 * command word itself take the same names. */
static tc_cmd command_named(const char *name) {
  static const struct {
    const char *name;
    tc_cmd cmd;
  } names[] = {{"census", TC_CMD_CENSUS},
               {"run", TC_CMD_RUN},
               {"merge", TC_CMD_MERGE},
               {"diff", TC_CMD_DIFF},
               {"bench", TC_CMD_BENCH}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i].name))
      return names[i].cmd;
  return TC_CMD_HELP;
}

tc_err tc_args_parse(int argc, char **argv, tc_args *a, char *why, size_t cap) {
  memset(a, 0, sizeof *a);
  a->cmd = TC_CMD_HELP;
  a->help_for = TC_CMD_HELP;
  why[0] = '\0';
  if (argc < 2)
    return usage_error(why, cap, "missing command");
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
    if (argc > 2 && !strcmp(cmd, "help")) {
      a->help_for = command_named(argv[2]);
      if (a->help_for == TC_CMD_HELP)
        return usage_error(why, cap,
                           "no help on '%s': the commands are census, run, merge, diff and bench",
                           argv[2]);
    }
    return TC_OK;
  }
  if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
    a->cmd = TC_CMD_VERSION;
    return TC_OK;
  }
  a->cmd = command_named(cmd);
  if (a->cmd == TC_CMD_HELP)
    return usage_error(why, cap, "unknown command '%s'", cmd);
  /* The command's name stands where getopt expects the program's. */
  int n = argc - 1;
  char **v = argv + 1;
  if (a->cmd == TC_CMD_BENCH) {
    a->runs = 5;
    a->warmup = 1;
  }
  tc_err e = parse_options(n, v,
                           a->cmd == TC_CMD_CENSUS  ? census_opts
                           : a->cmd == TC_CMD_RUN   ? run_opts
                           : a->cmd == TC_CMD_DIFF  ? diff_opts
                           : a->cmd == TC_CMD_BENCH ? bench_opts
                                                    : merge_opts,
                           a, why, cap);
  if (e || a->cmd == TC_CMD_HELP || a->cmd == TC_CMD_VERSION)
    return e;
  int nops = n - optind;
  if (a->nshards && !a->state && a->cmd == TC_CMD_CENSUS)
    return usage_error(why, cap, "--shard needs --state DIR (the merge reads the shards' state)");
  if (a->cmd == TC_CMD_RUN) {
    if (nops != 1)
      return nops ? usage_error(why, cap, "run takes one JOB, not %d", nops)
                  : usage_error(why, cap, "run needs a JOB file");
    a->job = v[optind];
    return TC_OK;
  }
  if (a->cmd == TC_CMD_DIFF) {
    if (nops != 2)
      return usage_error(why, cap, "diff takes two output folders A and B, not %d", nops);
    a->diff_a = v[optind];
    a->diff_b = v[optind + 1];
    return TC_OK;
  }
  const char *name = a->cmd == TC_CMD_MERGE ? "merge" : "census";
  if (a->cmd != TC_CMD_BENCH && !a->outdir && !a->nshards)
    return usage_error(why, cap, "%s needs -o OUTDIR", name);
  if (a->outdir && a->nshards)
    return usage_error(why, cap, "a --shard run writes only its state: no -o (merge writes OUTDIR)");
  if (!nops)
    return usage_error(why, cap, a->cmd == TC_CMD_MERGE   ? "merge needs at least one STATEDIR"
                                 : a->cmd == TC_CMD_BENCH ? "bench needs at least one INPUT"
                                                          : "census needs at least one INPUT");
  if (!(a->inputs = malloc((size_t)nops * sizeof *a->inputs)))
    return TC_E_NOMEM;
  for (int i = 0; i < nops; i++)
    a->inputs[i] = v[optind + i];
  a->ninputs = nops;
  return TC_OK;
}

void tc_args_free(tc_args *a) {
  free(a->inputs);
  a->inputs = NULL;
  a->ninputs = 0;
}
