/* tracecensus: the command line. The only part of the program that prints
 * to the user or exits; everything else is the core library. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "census/tc_schema.h"
#include "cli/tc_args.h"
#include "cli/tc_interrupt.h"
#include "cli/tc_job.h"
#include "cli/tc_progress.h"
#include "pipeline/tc_bench.h"
#include "pipeline/tc_corpus.h"
#include "pipeline/tc_run.h"
#include "report/metrics_report.h"
#include "report/tc_bench_report.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"

enum { EXIT_CLEAN = 0, EXIT_INPUT_ERRORS = 1, EXIT_FATAL = 2 };

/* One census to run, from the command line or a job file. */
typedef struct {
  const char *const *inputs;
  int ninputs;
  const char *manifest, *schema, *outdir, *job;
  int verbosity;
  tc_run_opts *opts;
} census_job;

/* The reason, the command's synopsis (its usage up to the first blank
 * line) and where the rest is. */
static int fail_usage(const char *msg, tc_cmd cmd) {
  const char *u = tc_args_usage(cmd), *end = strstr(u, "\n\n");
  fprintf(stderr, "tracecensus: %s\n%.*s\nMore: tracecensus %s--help\n", msg,
          end ? (int)(end - u + 1) : (int)strlen(u), u,
          cmd == TC_CMD_CENSUS  ? "census "
          : cmd == TC_CMD_RUN   ? "run "
          : cmd == TC_CMD_BENCH ? "bench "
                                : "");
  return EXIT_FATAL;
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

/* Names every INPUT that cannot be reached, each on its own line; returns
 * how many there were and marks them in MISSING. */
static int name_missing_inputs(const census_job *j, char *missing) {
  int n = 0;
  for (int i = 0; i < j->ninputs; i++) {
    struct stat st;
    missing[i] = stat(j->inputs[i], &st) != 0;
    if (missing[i]) {
      fprintf(stderr, "tracecensus: %s: %s; skipped\n", j->inputs[i], strerror(errno));
      n++;
    }
  }
  return n;
}

/* Whether a path the corpus skipped is an INPUT name_missing_inputs named. */
static int named_missing(const char *path, const census_job *j, const char *missing) {
  for (int i = 0; i < j->ninputs; i++)
    if (missing[i] && strcmp(j->inputs[i], path) == 0)
      return 1;
  return 0;
}

/* What the corpus scan skipped (less the INPUTs named already) and its
 * warnings; returns how many were skipped. */
static int print_corpus_notes(const tc_corpus *c, const census_job *j, const char *missing) {
  int n = 0;
  for (uint32_t i = 0; i < c->nskipped; i++) {
    const tc_corpus_note *note = &c->skipped[i];
    if (named_missing(note->path, j, missing))
      continue;
    n++;
    if (note->line)
      fprintf(stderr, "tracecensus: %s:%" PRIu32 ": %s\n", note->path, note->line, note->why);
    else
      fprintf(stderr, "tracecensus: %s: %s; skipped\n", note->path, note->why);
  }
  for (uint32_t i = 0; i < c->nwarnings; i++)
    fprintf(stderr, "tracecensus: warning: %s\n", c->warnings[i].why);
  return n;
}

/* One line per problem, naming the file and where in it. */
static void print_problems(const tc_corpus *c, const tc_run_result *r) {
  for (uint32_t i = 0; i < c->ntraces; i++) {
    const tc_trace_status *st = &r->traces[i];
    const char *path = c->traces[i].path;
    if (st->fatal == TC_E_NOT_TRACE)
      fprintf(stderr, "tracecensus: %s: %s (JSON byte %" PRIu64 "); trace skipped\n", path,
              tc_strerror(st->fatal), st->shape.not_trace_offset);
    else if (st->fatal)
      fprintf(stderr, "tracecensus: %s: %s; trace skipped\n", path, tc_strerror(st->fatal));
    if (st->shape.trailing_bytes)
      fprintf(stderr,
              "tracecensus: %s: %s at JSON byte %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
              " JSON values); not counted\n",
              path, tc_strerror(TC_E_TRAILING_DATA), st->shape.trailing_offset,
              st->shape.trailing_size, st->shape.trailing_values);
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

static void print_traces(const tc_corpus *c, const tc_run_result *r) {
  for (uint32_t i = 0; i < c->ntraces; i++) {
    const tc_trace_status *st = &r->traces[i];
    fprintf(stderr,
            "tracecensus: %s: site %s, %s, %" PRIu64 " events, %" PRIu64 " skipped, %" PRIu64
            " bytes on disk, %" PRIu64 " bytes of JSON, %s\n",
            c->traces[i].path, c->sites[c->traces[i].site].name, tc_format_name(st->format),
            st->events, st->bad_events, c->traces[i].size, st->out_bytes,
            st->fatal                                                       ? "failed"
            : st->stream_err || st->bad_events || st->shape.trailing_bytes ? "partial"
                                                                           : "ok");
  }
}

/* The end-of-run line: what was counted, what went wrong, how fast. */
static void print_summary(const census_job *j, const tc_corpus *c, const tc_run_result *r,
                          int unreadable, int schema_bad) {
  uint32_t whole = 0;
  for (uint32_t i = 0; i < c->ntraces; i++)
    whole += r->traces[i].fatal != TC_OK;
  fprintf(stderr, "tracecensus: %u sites, %u traces, %" PRIu64 " events, %zu names; errors: ",
          c->nsites, c->ntraces, r->events, r->census.nevents);
  if (!r->traces_with_errors && !unreadable && !schema_bad)
    fputs("none", stderr);
  else
    fprintf(stderr, "%u traces (%u skipped whole), %" PRIu64 " events skipped, %d inputs unreadable%s",
            r->traces_with_errors, whole, r->bad_events, unreadable,
            schema_bad ? ", DevTools schema unreadable" : "");
  fprintf(stderr,
          "; %.1f MB on disk, %.1f MB of JSON in %.2f s (%.0f MB/s of JSON, %u threads) -> %s\n",
          c->bytes / 1e6, r->out_bytes / 1e6, r->seconds,
          r->seconds > 0 ? r->out_bytes / 1e6 / r->seconds : 0.0, r->threads, j->outdir);
}

static void print_set_failure(const char *outdir, tc_err e, const tc_outset_why *why) {
  fprintf(stderr, "tracecensus: %s: %s", outdir, tc_strerror(e));
  if (e == TC_E_OUT_BUSY && why->pid)
    fprintf(stderr, " (pid %ld holds %s)", why->pid, why->path);
  else if (e == TC_E_OUT_BUSY)
    fprintf(stderr, " (its lock is %s)", why->path);
  else if (e == TC_E_OUT_UNSAFE && why->detail)
    fprintf(stderr, ": %s", why->detail);
  else if (why->errnum)
    fprintf(stderr, ": %s: %s", why->path, strerror(why->errnum));
  fputs("; nothing written\n", stderr);
}

static void print_leftover(const tc_outset_why *why, int verbosity) {
  if (why->path[0] && verbosity >= 0)
    fprintf(stderr, "tracecensus: warning: %s: could not be removed (%s); it holds files "
            "tracecensus did not write\n", why->path, strerror(why->errnum));
}

/* Runs every writer into DIR; on failure *WHAT names the file or files. */
static tc_err write_all(const tc_report_ctx *ctx, const tc_run_result *res, const char *dir,
                        const char **what) {
  static const struct {
    const char *name;
    tc_err (*write)(const tc_report_ctx *, const char *);
  } writers[] = {{"census.json", tc_write_census_json}, {"census.csv", tc_write_census_csv},
                 {"census.md", tc_write_census_md}, {"run.json", tc_write_run_json}};
  tc_err e = TC_OK;
  for (size_t i = 0; !e && i < sizeof writers / sizeof *writers; i++) {
    *what = writers[i].name;
    e = writers[i].write(ctx, dir);
  }
  if (!e && res->metrics) {
    *what = "metrics.*";
    e = tc_metrics_write(res->metrics, dir);
  }
  return e;
}

/* Runs every writer into the staging folder DIR; on failure says which
 * file and why (the errno the file saw: ENOSPC, EFBIG, EROFS, ...). */
static tc_err write_reports(const tc_report_ctx *ctx, const tc_run_result *res, const char *dir,
                            const char *outdir) {
  const char *what = NULL;
  tc_err e = write_all(ctx, res, dir, &what);
  if (!e)
    return TC_OK;
  const char *file;
  int err = tc_outfile_failure(&file);
  if (e == TC_E_WRITE && err)
    fprintf(stderr, "tracecensus: %s/%s: cannot write: %s%s", outdir, file, strerror(err),
            err == EFBIG ? " (the file size limit, ulimit -f)" : "");
  else
    fprintf(stderr, "tracecensus: %s/%s: %s", outdir, what, tc_strerror(e));
  fprintf(stderr, "; %s keeps its previous outputs\n", outdir);
  return e;
}

static int run_census(const census_job *j) {
  /* A schema the user named must load; the bundled one missing only makes
   * the DevTools fields null and the run's status 1. */
  char exe_buf[4096], why[512];
  const char *schema_path = j->schema ? j->schema : default_schema(exe_buf, sizeof exe_buf);
  tc_schema *schema = NULL;
  const char *schema_error = NULL;
  if (load_schema(schema_path, &schema, why, sizeof why)) {
    fprintf(stderr, "tracecensus: %s: %s%s\n", schema_path, why,
            j->schema ? "" : "; DevTools fields will be null");
    if (j->schema)
      return EXIT_FATAL;
    schema_error = why;
  }
  if (j->manifest && access(j->manifest, R_OK) != 0) {
    fprintf(stderr, "tracecensus: %s: cannot read the manifest: %s\n", j->manifest, strerror(errno));
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  char *missing = calloc((size_t)j->ninputs, 1);
  int nmissing = missing ? name_missing_inputs(j, missing) : 0;
  if (!missing || nmissing == j->ninputs) {
    if (missing)
      fprintf(stderr, "tracecensus: no INPUT exists (%d named above); nothing written\n", nmissing);
    free(missing);
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  if (j->verbosity > 0) {
    fprintf(stderr, "tracecensus: %d inputs into %s; schema %s; metrics %s", j->ninputs, j->outdir,
            schema_path, j->opts->no_metrics ? "off" : "on");
    if (j->opts->chunk_bytes)
      fprintf(stderr, "; chunks of %zu bytes", j->opts->chunk_bytes);
    fputc('\n', stderr);
  }
  tc_outset *set;
  tc_outset_why sw;
  tc_err e = tc_interrupt_begin(j->outdir, &set, &sw);
  if (e) {
    print_set_failure(j->outdir, e, &sw);
    free(missing);
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  print_leftover(&sw, j->verbosity);
  if (j->verbosity > 0 && tc_outset_recovered(set))
    fprintf(stderr, "tracecensus: removed %u leftovers of an interrupted run beside %s\n",
            tc_outset_recovered(set), j->outdir);
  tc_corpus corpus;
  int rc = EXIT_FATAL;
  e = tc_corpus_scan(j->inputs, j->ninputs, j->manifest, &corpus);
  if (e) {
    fprintf(stderr, "tracecensus: %s: %s\n", e == TC_E_NOMEM ? "corpus" : j->manifest,
            tc_strerror(e));
    goto out_set;
  }
  if (corpus.nsites == 0) {
    print_corpus_notes(&corpus, j, missing);
    fprintf(stderr, "tracecensus: no sites found in");
    for (int i = 0; i < j->ninputs; i++)
      if (!missing[i])
        fprintf(stderr, " %s", j->inputs[i]);
    fputs(" (a corpus folder holds one folder per site); nothing written\n", stderr);
    goto out_corpus;
  }
  tc_progress prog;
  atomic_init(&prog.bytes_done, 0);
  atomic_init(&prog.traces_done, 0);
  j->opts->progress = &prog;
  tc_progress_view *view =
      j->verbosity >= 0 ? tc_progress_start(&prog, corpus.bytes, corpus.ntraces) : NULL;
  tc_run_result res;
  e = tc_run(&corpus, j->opts, &res);
  tc_progress_stop(view);
  if (e) {
    fprintf(stderr, "tracecensus: run failed: %s; nothing written\n", tc_strerror(e));
    goto out_corpus;
  }
  tc_devtools dt;
  int have_dt = 0;
  if (schema) {
    if ((e = tc_devtools_compute(&res.census, schema, &dt)))
      schema_error = tc_strerror(e);
    else
      have_dt = 1;
  }
  tc_report_ctx ctx = {&corpus, &res, j->job, j->manifest, have_dt ? &dt : NULL, schema_path,
                       schema ? tc_schema_generator(schema) : NULL, schema_error};
  if (!write_reports(&ctx, &res, tc_outset_dir(set), j->outdir)) {
    e = tc_interrupt_commit(set, &sw);
    set = NULL;
    if (e) {
      fprintf(stderr, "tracecensus: %s: cannot put the new outputs in place: %s: %s; it keeps its "
              "previous outputs\n", j->outdir, sw.path, strerror(sw.errnum));
    } else {
      print_leftover(&sw, j->verbosity);
      int unreadable = nmissing + print_corpus_notes(&corpus, j, missing);
      print_problems(&corpus, &res);
      if (j->verbosity > 0)
        print_traces(&corpus, &res);
      rc = res.traces_with_errors || unreadable || schema_error ? EXIT_INPUT_ERRORS : EXIT_CLEAN;
      if (j->verbosity >= 0)
        print_summary(j, &corpus, &res, unreadable, schema_error != NULL);
    }
  }
  if (have_dt)
    tc_devtools_free(&dt);
  tc_run_result_free(&res, corpus.ntraces);
out_corpus:
  tc_corpus_free(&corpus);
out_set:
  if (set)
    tc_interrupt_abort(set);
  free(missing);
  tc_schema_free(schema);
  return rc;
}

static void apply_common(const tc_args *a, tc_run_opts *opts) {
  if (a->threads_set)
    opts->threads = a->threads;
}

/* What the bench's writers need besides the run. */
typedef struct {
  const char *manifest, *schema_path, *schema_error;
  const tc_schema *schema;
} bench_ctx;

/* The write stage of one bench run: the DevTools view and every writer, as
 * run_census does them. */
static tc_err bench_write(void *ctx, const tc_corpus *corpus, const tc_run_result *res,
                          const char *dir) {
  const bench_ctx *b = ctx;
  tc_devtools dt;
  tc_err e = b->schema ? tc_devtools_compute(&res->census, b->schema, &dt) : TC_OK;
  if (e)
    return e;
  tc_report_ctx rc = {corpus, res, NULL, b->manifest, b->schema ? &dt : NULL, b->schema_path,
                      b->schema ? tc_schema_generator(b->schema) : NULL, b->schema_error};
  const char *what;
  e = write_all(&rc, res, dir, &what);
  if (b->schema)
    tc_devtools_free(&dt);
  return e;
}

/* An export file: written whole, or named with why not. */
static int bench_export(const char *path, const tc_bench_result *r,
                        void (*write)(const tc_bench_result *, FILE *)) {
  FILE *fp = fopen(path, "w");
  if (fp) {
    write(r, fp);
    if (fclose(fp) == 0)
      return 0;
  }
  fprintf(stderr, "tracecensus: %s: cannot write: %s\n", path, strerror(errno));
  return 1;
}

static int cmd_bench(const tc_args *a) {
  char exe_buf[4096], why[512];
  bench_ctx b = {a->manifest, a->schema ? a->schema : default_schema(exe_buf, sizeof exe_buf),
                 NULL, NULL};
  tc_schema *schema = NULL;
  if (load_schema(b.schema_path, &schema, why, sizeof why)) {
    fprintf(stderr, "tracecensus: %s: %s\n", b.schema_path, why);
    if (a->schema)
      return EXIT_FATAL;
    b.schema_error = why;
  }
  b.schema = schema;
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  apply_common(a, &opts);
  opts.chunk_bytes = a->chunk_bytes;
  opts.no_metrics = a->no_metrics;
  tc_corpus corpus;
  tc_err e = tc_corpus_scan(a->inputs, a->ninputs, a->manifest, &corpus);
  if (e || corpus.ntraces == 0) {
    fprintf(stderr, "tracecensus: %s\n", e ? tc_strerror(e) : "no trace found in the INPUTs");
    if (!e)
      tc_corpus_free(&corpus);
    tc_schema_free(schema);
    return EXIT_FATAL;
  }
  tc_bench_opts bo = {a->runs, a->warmup, a->baseline, bench_write, &b};
  tc_bench_result r;
  e = tc_bench_run(&corpus, &opts, &bo, &r);
  int rc = EXIT_CLEAN;
  if (e) {
    fprintf(stderr, "tracecensus: bench failed: %s\n", tc_strerror(e));
    rc = EXIT_FATAL;
  } else {
    tc_bench_write_table(&r, stdout);
    if ((a->export_json && bench_export(a->export_json, &r, tc_bench_write_json)) ||
        (a->export_md && bench_export(a->export_md, &r, tc_bench_write_markdown)))
      rc = EXIT_FATAL;
  }
  tc_bench_result_free(&r);
  tc_corpus_free(&corpus);
  tc_schema_free(schema);
  return rc;
}

static int cmd_census(const tc_args *a) {
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  apply_common(a, &opts);
  if (a->chunk_bytes)
    opts.chunk_bytes = a->chunk_bytes;
  opts.no_metrics = a->no_metrics;
  census_job j = {a->inputs, a->ninputs, a->manifest, a->schema, a->outdir, NULL, a->verbosity,
                  &opts};
  return run_census(&j);
}

static int cmd_run(const tc_args *a) {
  tc_job job;
  int line;
  char why[256];
  if (tc_job_load(a->job, &job, &line, why, sizeof why)) {
    if (line)
      fprintf(stderr, "tracecensus: %s:%d: %s\n", a->job, line, why);
    else
      fprintf(stderr, "tracecensus: %s: %s\n", a->job, why);
    return EXIT_FATAL;
  }
  apply_common(a, &job.run);
  census_job j = {(const char *const *)job.corpus, job.ncorpus, job.manifest, job.schema,
                  job.output, a->job, a->verbosity, &job.run};
  int rc = run_census(&j);
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
  tc_interrupt_install();
  tc_args a;
  char why[256];
  tc_err e = tc_args_parse(argc, argv, &a, why, sizeof why);
  int rc;
  if (e == TC_E_NOMEM)
    rc = (fputs("tracecensus: out of memory\n", stderr), EXIT_FATAL);
  else if (e)
    rc = fail_usage(why, a.cmd);
  else if (a.cmd == TC_CMD_HELP)
    rc = (fputs(tc_args_usage(a.help_for), stdout), EXIT_CLEAN);
  else if (a.cmd == TC_CMD_VERSION)
    rc = (puts("tracecensus " TC_VERSION), EXIT_CLEAN);
  else if (a.cmd == TC_CMD_CENSUS)
    rc = cmd_census(&a);
  else if (a.cmd == TC_CMD_BENCH)
    rc = cmd_bench(&a);
  else
    rc = cmd_run(&a);
  tc_args_free(&a);
  return rc;
}
