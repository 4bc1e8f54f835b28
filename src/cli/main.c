/* tracecensus: the command line. The only part of the program that prints
 * to the user or exits; everything else is the core library. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/tc_job.h"
#include "census/tc_schema.h"
#include "cli/tc_progress.h"
#include "pipeline/tc_corpus.h"
#include "pipeline/tc_run.h"
#include "report/metrics_report.h"
#include "report/tc_census_report.h"

enum { EXIT_CLEAN = 0, EXIT_INPUT_ERRORS = 1, EXIT_FATAL = 2 };

static const char usage[] =
    "usage: tracecensus census [-T N] [--manifest FILE] [--schema FILE] [--chunk-bytes B]\n"
    "                          [--no-metrics] -o OUTDIR INPUT...\n"
    "       tracecensus run [-T N] JOB\n"
    "       tracecensus --help | --version\n"
    "\n"
    "census  counts every event of every trace under INPUT (corpus directories, one\n"
    "        subdirectory per site, or single trace files, each its own site) and\n"
    "        writes census.json, census.csv, census.md, run.json and metrics.csv,\n"
    "        metrics.json, metrics.md (runtime metrics per trace and site) into OUTDIR.\n"
    "run     does the same for a job file (see jobs/).\n"
    "\n"
    "  -T N             worker threads (default: online CPUs)\n"
    "  -o OUTDIR        output folder (created if missing; files replaced atomically)\n"
    "  --manifest FILE  TSV listing every site of the crawl (column `site`), so\n"
    "                   sites that left no trace still count in \"of S sites\"\n"
    "  --chunk-bytes B  size of the chunks big traces are split into (default 1 MiB)\n"
    "  --schema FILE    DevTools schema (default: the bundled data/devtools-schema.tsv)\n"
    "  --no-metrics     census only, no metric kernels (to measure what they cost)\n"
    "\n"
    "Traces may be plain JSON, gzip or zstd (recognised by their bytes), as a JSON\n"
    "array of events or an object with traceEvents.\n"
    "Exit status: 0 all inputs read cleanly, 1 some inputs had errors (the report\n"
    "is written and run.json says what was skipped), 2 usage or fatal error.\n";

static int fail_usage(const char *msg) {
  fprintf(stderr, "tracecensus: %s\n\n%s", msg, usage);
  return EXIT_FATAL;
}

static int parse_threads(const char *v, unsigned *out) {
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || *end || n < 0 || n > 1024)
    return 0;
  *out = (unsigned)n;
  return 1;
}

/* One line per problem, naming the file and where in it. */
static void print_problems(const tc_corpus *c, const tc_run_result *r) {
  if (c->problem)
    fprintf(stderr, "tracecensus: %s: cannot be read, skipped\n", c->problem);
  for (uint32_t i = 0; i < c->ntraces; i++) {
    const tc_trace_status *st = &r->traces[i];
    const char *path = c->traces[i].path;
    if (st->fatal)
      fprintf(stderr, "tracecensus: %s: %s; trace skipped\n", path, tc_strerror(st->fatal));
    if (st->stream_err)
      fprintf(stderr, "tracecensus: %s: %s at JSON byte %" PRIu64 "; events before it were counted\n",
              path, tc_strerror(st->stream_err), st->stream_offset);
    for (size_t k = 0; k < st->nerrors; k++)
      fprintf(stderr, "tracecensus: %s: event %" PRIu64 " at JSON byte %" PRIu64 ": %s; skipped\n",
              path, st->errors[k].index, st->errors[k].offset, tc_strerror(st->errors[k].code));
    if (st->bad_events > st->nerrors)
      fprintf(stderr, "tracecensus: %s: %" PRIu64 " more events skipped (see run.json)\n", path,
              st->bad_events - st->nerrors);
  }
}

/* The bundled schema: where the build put it, else beside the binary's
 * tree (build/../data), so a moved or copied checkout still finds it. */
static const char *default_schema(char *buf, size_t cap) {
  if (access(TC_DEFAULT_SCHEMA, R_OK) == 0)
    return TC_DEFAULT_SCHEMA;
  ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
  if (n > 0) {
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash) {
      *slash = '\0';
      size_t used = strlen(buf);
      snprintf(buf + used, cap - used, "/../data/devtools-schema.tsv");
      if (access(buf, R_OK) == 0)
        return buf;
    }
  }
  return TC_DEFAULT_SCHEMA;
}

/* Loads the schema into *out, or says in WHY why not. */
static tc_err load_schema(const char *path, tc_schema **out, char *why, size_t cap) {
  int line;
  tc_err e = tc_schema_load(path, out, &line);
  if (!e)
    return TC_OK;
  if (line)
    snprintf(why, cap, "%s at line %d", tc_strerror(e), line);
  else
    snprintf(why, cap, "cannot open %s", path);
  return e;
}

static int run_census(const char *const *inputs, int ninputs, const char *manifest,
                      const char *schema_path, const char *outdir, const char *job,
                      tc_run_opts *opts) {
  /* A schema the user named must load; the bundled one missing only makes
   * the DevTools fields null and the run's status 1. */
  char exe_buf[4096], why[512];
  int user_schema = schema_path != NULL;
  if (!schema_path)
    schema_path = default_schema(exe_buf, sizeof exe_buf);
  tc_schema *schema = NULL;
  const char *schema_error = NULL;
  if (load_schema(schema_path, &schema, why, sizeof why)) {
    fprintf(stderr, "tracecensus: %s: %s%s\n", schema_path, why,
            user_schema ? "" : "; DevTools fields will be null");
    if (user_schema)
      return EXIT_FATAL;
    schema_error = why;
  }
  tc_corpus corpus;
  tc_err e = tc_corpus_scan(inputs, ninputs, manifest, &corpus);
  if (e) {
    fprintf(stderr, "tracecensus: %s: %s\n", e == TC_E_BAD_MANIFEST ? manifest : "corpus",
            tc_strerror(e));
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  if (corpus.nsites == 0) {
    fprintf(stderr, "tracecensus: no sites found in the inputs\n");
    tc_corpus_free(&corpus);
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  tc_progress prog;
  atomic_init(&prog.bytes_done, 0);
  atomic_init(&prog.traces_done, 0);
  opts->progress = &prog;
  tc_progress_view *view = tc_progress_start(&prog, corpus.bytes, corpus.ntraces);
  tc_run_result res;
  e = tc_run(&corpus, opts, &res);
  tc_progress_stop(view);
  if (e) {
    fprintf(stderr, "tracecensus: run failed: %s\n", tc_strerror(e));
    tc_corpus_free(&corpus);
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  tc_devtools dt;
  int have_dt = 0;
  if (schema) {
    if ((e = tc_devtools_compute(&res.census, schema, &dt)))
      schema_error = tc_strerror(e);
    else
      have_dt = 1;
  }
  tc_report_ctx ctx = {&corpus, &res, job, manifest, have_dt ? &dt : NULL, schema_path,
                       schema ? tc_schema_generator(schema) : NULL, schema_error};
  static const struct {
    const char *name;
    tc_err (*write)(const tc_report_ctx *, const char *);
  } writers[] = {{"census.json", tc_write_census_json}, {"census.csv", tc_write_census_csv},
                 {"census.md", tc_write_census_md}, {"run.json", tc_write_run_json}};
  const char *what = NULL;
  for (size_t i = 0; !e && i < sizeof writers / sizeof *writers; i++) {
    what = writers[i].name;
    e = writers[i].write(&ctx, outdir);
  }
  if (!e && res.metrics) {
    what = "metrics.*";
    e = tc_metrics_write(res.metrics, outdir);
  } else if (!e) {
    /* A census-only run must not leave an older run's metrics beside it. */
    static const char *const stale[] = {"metrics.csv", "metrics.json", "metrics.md"};
    for (size_t i = 0; i < 3; i++) {
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", outdir, stale[i]);
      unlink(p);
    }
  }
  int rc = EXIT_CLEAN;
  if (e) {
    fprintf(stderr, "tracecensus: %s/%s: %s\n", outdir, what, tc_strerror(e));
    rc = EXIT_FATAL;
  } else {
    print_problems(&corpus, &res);
    if (res.traces_with_errors || corpus.problem || schema_error)
      rc = EXIT_INPUT_ERRORS;
    fprintf(stderr,
            "tracecensus: %u sites, %u traces, %" PRIu64 " events, %zu names; %.1f MB of JSON in "
            "%.2f s (%.0f MB/s, %u threads) -> %s\n",
            corpus.nsites, corpus.ntraces, res.events, res.census.nevents, res.out_bytes / 1e6,
            res.seconds, res.seconds > 0 ? res.out_bytes / 1e6 / res.seconds : 0.0, res.threads,
            outdir);
  }
  if (have_dt)
    tc_devtools_free(&dt);
  tc_schema_free(schema);
  tc_run_result_free(&res, corpus.ntraces);
  tc_corpus_free(&corpus);
  return rc;
}

static int cmd_census(int argc, char **argv) {
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  const char *outdir = NULL, *manifest = NULL, *schema = NULL;
  const char **inputs = calloc((size_t)argc, sizeof *inputs);
  int ninputs = 0;
  if (!inputs)
    return EXIT_FATAL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-T") == 0 && next) {
      if (!parse_threads(next, &opts.threads))
        return free(inputs), fail_usage("-T needs a thread count from 0 to 1024");
      i++;
    } else if (strcmp(a, "-o") == 0 && next) {
      outdir = next;
      i++;
    } else if (strcmp(a, "--manifest") == 0 && next) {
      manifest = next;
      i++;
    } else if (strcmp(a, "--no-metrics") == 0) {
      opts.no_metrics = 1;
    } else if (strcmp(a, "--schema") == 0 && next) {
      schema = next;
      i++;
    } else if (strcmp(a, "--chunk-bytes") == 0 && next) {
      char *end;
      unsigned long long n = strtoull(next, &end, 10);
      if (*end || end == next || next[0] == '-' || n < 4096 || n > TC_MAX_CHUNK_BYTES)
        return free(inputs), fail_usage("--chunk-bytes needs a size from 4096 to 1073741824");
      opts.chunk_bytes = (size_t)n;
      i++;
    } else if (a[0] == '-' && a[1]) {
      free(inputs);
      return fail_usage("unknown option or missing value");
    } else {
      inputs[ninputs++] = a;
    }
  }
  int rc;
  if (!outdir)
    rc = fail_usage("census needs -o OUTDIR");
  else if (!ninputs)
    rc = fail_usage("census needs at least one INPUT");
  else
    rc = run_census(inputs, ninputs, manifest, schema, outdir, NULL, &opts);
  free(inputs);
  return rc;
}

static int cmd_run(int argc, char **argv) {
  const char *path = NULL;
  int threads_set = 0;
  unsigned threads = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "-T") == 0 && i + 1 < argc) {
      if (!parse_threads(argv[++i], &threads))
        return fail_usage("-T needs a thread count from 0 to 1024");
      threads_set = 1;
    } else if (argv[i][0] == '-') {
      return fail_usage("unknown option");
    } else if (!path) {
      path = argv[i];
    } else {
      return fail_usage("run takes one JOB");
    }
  }
  if (!path)
    return fail_usage("run needs a JOB file");
  tc_job job;
  int line;
  const char *why;
  if (tc_job_load(path, &job, &line, &why)) {
    if (line)
      fprintf(stderr, "tracecensus: %s:%d: %s\n", path, line, why);
    else
      fprintf(stderr, "tracecensus: %s: %s\n", path, why);
    return EXIT_FATAL;
  }
  if (threads_set)
    job.run.threads = threads;
  int rc = run_census((const char *const *)job.corpus, job.ncorpus, job.manifest, job.schema,
                      job.output, path, &job.run);
  tc_job_free(&job);
  return rc;
}

int main(int argc, char **argv) {
#if defined(TC_SIMD_HASWELL) && (defined(__x86_64__) || defined(__i386__))
  /* The parser was built for AVX2; say so rather than die on SIGILL. */
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2")) {
    fputs("tracecensus: this build needs a CPU with AVX2 and BMI2; rebuild with -Dsimd=false\n",
          stderr);
    return EXIT_FATAL;
  }
#endif
  if (argc < 2)
    return fail_usage("missing command");
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage, stdout);
    return EXIT_CLEAN;
  }
  if (strcmp(cmd, "--version") == 0) {
    puts("tracecensus " TC_VERSION);
    return EXIT_CLEAN;
  }
  if (strcmp(cmd, "census") == 0)
    return cmd_census(argc - 2, argv + 2);
  if (strcmp(cmd, "run") == 0)
    return cmd_run(argc - 2, argv + 2);
  return fail_usage("unknown command");
}
