/* tracecensus: the command line. The only part of the program that prints
 * to the user or exits; everything else is the core library. */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/tc_args.h"
#include "cli/tc_bench_print.h"
#include "cli/tc_interrupt.h"
#include "cli/tc_job.h"
#include "cli/tc_progress.h"
#include "diff/tc_diff_job.h"
#include "pipeline/tc_bench.h"
#include "pipeline/tc_census_job.h"
#include "pipeline/tc_partial.h"
#include "reduce/tc_run_facts.h"
#include "report/tc_text.h"
#include "util/tc_hugepages.h"
#include "util/tc_spill.h"

enum { EXIT_CLEAN = 0, EXIT_INPUT_ERRORS = 1, EXIT_FATAL = 2 };

/* The reason, the command's synopsis (its usage up to the first blank
 * line) and where the rest is. */
static int fail_usage(const char *msg, tc_cmd cmd) {
  const char *u = tc_args_usage(cmd), *end = strstr(u, "\n\n");
  tc_text_term_printf(stderr, "tracecensus: %s\n", msg); /* MSG may quote an argument */
  fprintf(stderr, "%.*s\nMore: tracecensus %s--help\n", end ? (int)(end - u + 1) : (int)strlen(u),
          u,
          cmd == TC_CMD_CENSUS  ? "census "
          : cmd == TC_CMD_RUN   ? "run "
          : cmd == TC_CMD_MERGE ? "merge "
          : cmd == TC_CMD_DIFF  ? "diff "
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

/* One census to run and how chatty to be, for the stage hook. */
typedef struct {
  const tc_census_opts *opts;
  int verbosity;
  tc_progress progress;
  tc_progress_view *view;
} census_cli;

/* What the corpus scan skipped (less the INPUTs named already) and its
 * warnings. */
static void print_corpus_notes(const tc_census_outcome *o, const tc_census_opts *j) {
  const tc_corpus *c = &o->corpus;
  for (uint32_t i = 0; i < c->nskipped; i++) {
    const tc_corpus_note *note = &c->skipped[i];
    if (tc_census_note_is_missing_input(o, j, i))
      continue;
    if (note->line)
      tc_text_term_printf(stderr, "tracecensus: %s:%" PRIu32 ": %s\n", note->path, note->line,
                          note->why);
    else
      tc_text_term_printf(stderr, "tracecensus: %s: %s; skipped\n", note->path, note->why);
  }
  for (uint32_t i = 0; i < c->nwarnings; i++)
    tc_text_term_printf(stderr, "tracecensus: warning: %s\n", c->warnings[i].why);
}

/* Calls FN with each trace this run read (a shard's, or every one) and its
 * status read back, or NULL when it could not be. */
static void each_status(const tc_corpus *c, const tc_run_result *r,
                        void (*fn)(const tc_corpus *c, const tc_trace *t,
                                   const tc_trace_status *st)) {
  unsigned char *buf = NULL;
  size_t cap = 0;
  const tc_trace_rows *rows = &r->tables.traces;
  for (size_t i = 0; i < tc_trace_rows_count(rows); i++) {
    tc_trace_status status;
    const tc_trace *t = &c->traces[tc_trace_rows_trace(rows, i)];
    fn(c, t, tc_trace_rows_get(rows, i, &status, NULL, NULL, &buf, &cap) ? NULL : &status);
  }
  free(buf);
}

/* One line per problem, naming the file and where in it. */
static void print_problem(const tc_corpus *c, const tc_trace *t, const tc_trace_status *st) {
  (void)c;
  const char *path = t->path;
  if (!st) {
    tc_text_term_printf(stderr, "tracecensus: %s: its status could not be read back\n", path);
    return;
  }
  /* A Perfetto trace's offsets count its decompressed protobuf bytes. */
  const char *unit = st->shape.perfetto ? "protobuf byte" : "JSON byte";
  if (st->fatal == TC_E_NOT_TRACE)
    tc_text_term_printf(stderr, "tracecensus: %s: %s (JSON byte %" PRIu64 "); trace skipped\n",
                        path, tc_strerror(st->fatal), st->shape.not_trace_offset);
  else if (st->fatal)
    tc_text_term_printf(stderr, "tracecensus: %s: %s; trace skipped\n", path,
                        tc_strerror(st->fatal));
  if (st->shape.trailing_bytes)
    tc_text_term_printf(stderr,
                        "tracecensus: %s: %s at %s %" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
                        " JSON values); not counted\n",
                        path, tc_strerror(TC_E_TRAILING_DATA), unit, st->shape.trailing_offset,
                        st->shape.trailing_size, st->shape.trailing_values);
  if (st->stream_err)
    tc_text_term_printf(stderr,
                        "tracecensus: %s: %s at %s %" PRIu64 "; events before it were counted\n",
                        path, tc_strerror(st->stream_err), unit, st->stream_offset);
  for (size_t k = 0; k < st->nerrors; k++)
    tc_text_term_printf(
        stderr, "tracecensus: %s: event %" PRIu64 " at %s %" PRIu64 ": %s; skipped\n", path,
        st->errors[k].index, unit, st->errors[k].offset, tc_strerror(st->errors[k].code));
  if (st->bad_events > st->nerrors)
    tc_text_term_printf(stderr,
                        "tracecensus: %s: %" PRIu64 " more events skipped (see run.json)\n", path,
                        st->bad_events - st->nerrors);
}

static void print_trace(const tc_corpus *c, const tc_trace *t, const tc_trace_status *st) {
  if (!st)
    return; /* print_problem named it */
  tc_text_term_printf(stderr,
                      "tracecensus: %s: site %s, %s, %" PRIu64 " events, %" PRIu64
                      " skipped, %" PRIu64 " bytes on disk, %" PRIu64 " bytes of %s, %s\n",
                      t->path, c->sites[t->site].name, tc_format_name(st->format), st->events,
                      st->bad_events, t->size, st->out_bytes,
                      st->shape.perfetto ? "Perfetto protobuf" : "JSON",
                      st->fatal                                                      ? "failed"
                      : st->stream_err || st->bad_events || st->shape.trailing_bytes ? "partial"
                                                                                     : "ok");
}

/* The end-of-run line: what was counted, what went wrong, how fast. */
static void print_summary(const tc_census_outcome *o, const char *outdir) {
  const tc_corpus *c = &o->corpus;
  const tc_run_totals *t = &o->run.tables.totals;
  uint32_t whole = t->traces_failed;
  tc_text_term_printf(stderr,
                      "tracecensus: %u sites, %u traces, %" PRIu64 " events, %zu names; errors: ",
                      c->nsites, c->ntraces, t->events, o->run.tables.census.nevents);
  if (!t->traces_with_errors && !o->unreadable && !o->schema_error)
    fputs("none", stderr);
  else
    tc_text_term_printf(
        stderr, "%u traces (%u skipped whole), %" PRIu64 " events skipped, %d inputs unreadable%s",
        t->traces_with_errors, whole, t->bad_events, o->unreadable,
        o->schema_error ? ", DevTools schema unreadable" : "");
  const char *unit = tc_decompressed_unit(t->out_bytes, t->proto_bytes);
  if (t->merged_folders)
    tc_text_term_printf(stderr,
                        "; %.1f MB on disk, %.1f MB of %s merged from %u state folder%s "
                        "in %.2f s -> %s\n",
                        c->bytes / 1e6, t->out_bytes / 1e6, unit, t->merged_folders,
                        t->merged_folders == 1 ? "" : "s", t->seconds, outdir);
  else
    /* MB/s on disk is the progress line's rate; MB/s of what was
     * decompressed (JSON, or protobuf) is the benchmarks' unit. */
    tc_text_term_printf(
        stderr,
        "; %.1f MB on disk, %.1f MB of %s in %.2f s (%.0f MB/s on disk, %.0f MB/s of %s, "
        "%u threads) -> %s\n",
        c->bytes / 1e6, t->out_bytes / 1e6, unit, t->seconds,
        t->seconds > 0 ? c->bytes / 1e6 / t->seconds : 0.0,
        t->seconds > 0 ? t->out_bytes / 1e6 / t->seconds : 0.0, unit, t->threads, outdir);
}

static void print_set_failure(const char *outdir, tc_err e, const tc_why *why) {
  tc_text_term_printf(stderr, "tracecensus: %s: %s", outdir, tc_strerror(e));
  if (e == TC_E_OUT_BUSY && why->pid)
    tc_text_term_printf(stderr, " (pid %ld holds %s)", why->pid, why->path);
  else if (e == TC_E_OUT_BUSY)
    tc_text_term_printf(stderr, " (its lock is %s)", why->path);
  else if (e == TC_E_OUT_UNSAFE && why->reason[0])
    tc_text_term_printf(stderr, ": %s", why->reason);
  else if (why->errnum)
    tc_text_term_printf(stderr, ": %s: %s", why->path, strerror(why->errnum));
  fputs("; nothing written\n", stderr);
}

static void print_leftover(const tc_why *why, int verbosity) {
  if (why->path[0] && verbosity >= 0)
    tc_text_term_printf(stderr,
                        "tracecensus: warning: %s: could not be removed (%s); it holds files "
                        "tracecensus did not write\n",
                        why->path, strerror(why->errnum));
}

static void print_inputs(const tc_census_outcome *o, const census_cli *cli) {
  const tc_census_opts *j = cli->opts;
  /* A job's inputs are its corpus lines: the job file is what to fix. */
  for (int i = 0; o->input_errno && i < j->ninputs; i++)
    if (o->input_errno[i] && j->job)
      tc_text_term_printf(stderr, "tracecensus: %s: corpus %s: %s; skipped\n", j->job, j->inputs[i],
                          strerror(o->input_errno[i]));
    else if (o->input_errno[i])
      tc_text_term_printf(stderr, "tracecensus: %s: %s; skipped\n", j->inputs[i],
                          strerror(o->input_errno[i]));
  if (o->err == TC_E_NO_INPUT && j->job)
    tc_text_term_printf(stderr,
                        "tracecensus: %s: no corpus of the job exists (%d named above); nothing "
                        "written\n",
                        j->job, o->nmissing);
  else if (o->err == TC_E_NO_INPUT)
    tc_text_term_printf(stderr, "tracecensus: no INPUT exists (%d named above); nothing written\n",
                        o->nmissing);
  if (!o->err && cli->verbosity > 0) {
    /* A shard run has no OUTDIR: merge writes it. */
    tc_text_term_printf(stderr, "tracecensus: %d inputs%s%s; schema %s; metrics %s; scope %s",
                        j->ninputs, j->outdir ? " into " : "", j->outdir ? j->outdir : "",
                        j->schema, j->run.no_metrics ? "off" : "on", tc_scope_name(j->run.scope));
    if (j->run.chunk_bytes)
      tc_text_term_printf(stderr, "; chunks of %zu bytes", j->run.chunk_bytes);
    if (j->run.state_dir)
      tc_text_term_printf(stderr, "; state in %s", j->run.state_dir);
    if (j->state_only)
      tc_text_term_printf(stderr, "; shard %u/%u", j->run.shard, j->run.nshards);
    fputc('\n', stderr);
  }
}

static void print_corpus(const tc_census_outcome *o, census_cli *cli) {
  const tc_census_opts *j = cli->opts;
  if (o->err == TC_E_NO_SITES) {
    print_corpus_notes(o, j);
    tc_text_term_printf(stderr, "tracecensus: no sites found in");
    for (int i = 0; i < j->ninputs; i++)
      if (!o->input_errno[i])
        tc_text_term_printf(stderr, " %s", j->inputs[i]);
    fputs(" (a corpus folder holds one folder per site); nothing written\n", stderr);
  } else if (o->err) {
    tc_text_term_printf(stderr, "tracecensus: %s: %s\n",
                        o->err == TC_E_NOMEM ? "corpus" : j->manifest, tc_strerror(o->err));
  } else if (cli->verbosity >= 0) {
    cli->view = tc_progress_start(&cli->progress, o->corpus.bytes, o->corpus.ntraces);
  }
}

static void print_write_failure(const tc_census_outcome *o, const char *outdir) {
  if (o->err == TC_E_WRITE && o->why.errnum)
    tc_text_term_printf(stderr, "tracecensus: %s/%s: cannot write: %s%s", outdir, o->failed_file,
                        strerror(o->why.errnum),
                        o->why.errnum == EFBIG ? " (the file size limit, ulimit -f)" : "");
  else
    tc_text_term_printf(stderr, "tracecensus: %s/%s: %s", outdir, o->failed_file,
                        tc_strerror(o->err));
  tc_text_term_printf(stderr, "; %s keeps its previous outputs\n", outdir);
}

static void print_end(const tc_census_outcome *o, const census_cli *cli) {
  const tc_census_opts *j = cli->opts;
  if (o->err) {
    tc_text_term_printf(
        stderr,
        "tracecensus: %s: cannot put the new outputs in place: %s: %s; it keeps its "
        "previous outputs\n",
        j->outdir, o->set_why.path, strerror(o->set_why.errnum));
    return;
  }
  print_leftover(&o->set_why, cli->verbosity);
  print_corpus_notes(o, j);
  each_status(&o->corpus, &o->run, print_problem);
  if (cli->verbosity > 0)
    each_status(&o->corpus, &o->run, print_trace);
  if (cli->verbosity >= 0)
    print_summary(o, j->outdir);
}

/* A partial state file that failed: which, where in it and why. */
static void print_state_failure(tc_err e, const tc_why *w) {
  int bad = e == TC_E_BAD_BINARY || e == TC_E_PARTIAL_VERSION || e == TC_E_NOT_PARTIAL;
  tc_text_term_printf(stderr, "tracecensus: %s: %s", w->path, tc_strerror(e));
  if (e == TC_E_STATE_BUSY && w->pid)
    tc_text_term_printf(stderr, " (pid %ld holds it)", w->pid);
  else if (e == TC_E_STATE_OTHER_SHARD)
    tc_text_term_printf(stderr, ": %s", w->reason);
  else if (bad)
    tc_text_term_printf(stderr, " at byte %" PRIu64 "%s%s (remove it to run its site again)",
                        w->offset, w->reason[0] ? ": " : "", w->reason);
  else if (w->errnum)
    tc_text_term_printf(stderr, ": %s", strerror(w->errnum));
  fputs("; nothing written\n", stderr);
}

/* The end of a run with a state folder: what was reused, and for a shard
 * (which writes no OUTDIR) its problems and its own summary line. */
static void print_state_end(const tc_census_outcome *o, const census_cli *cli) {
  const tc_census_opts *j = cli->opts;
  const tc_run_result *r = &o->run;
  /* Not an error (the sites run again, as a fresh run would), but what
   * the user asked to resume was not resumed. */
  if (r->sites_resettled && cli->verbosity >= 0)
    tc_text_term_printf(
        stderr,
        "tracecensus: %s: %u sites were saved with another %s than this run's; they "
        "ran again\n",
        j->run.state_dir, r->sites_resettled, r->settings_differ);
  if (cli->verbosity > 0)
    tc_text_term_printf(
        stderr, "tracecensus: %u traces (%u sites) reused from %s; %u sites run and saved\n",
        r->traces_reused, r->sites_reused, j->run.state_dir, r->sites_saved);
  if (!j->state_only)
    return;
  print_corpus_notes(o, j);
  each_status(&o->corpus, &o->run, print_problem);
  if (cli->verbosity > 0)
    each_status(&o->corpus, &o->run, print_trace);
  if (cli->verbosity >= 0)
    tc_text_term_printf(
        stderr,
        "tracecensus: shard %u/%u: %u of %u sites, %" PRIu64 " events, %u traces with "
        "errors; state in %s (tracecensus merge writes the outputs)\n",
        j->run.shard, j->run.nshards, r->sites_run, o->corpus.nsites, r->tables.totals.events,
        r->tables.totals.traces_with_errors, j->run.state_dir);
}

/* Sites of the corpus in the run's shard (all of them without --shard). */
static uint32_t sites_in_shard(const tc_corpus *c, const tc_census_opts *j) {
  if (j->run.nshards <= 1)
    return c->nsites;
  uint32_t n = 0;
  for (uint32_t s = 0; s < c->nsites; s++)
    n += tc_partial_shard_of(c->sites[s].name, j->run.nshards) == j->run.shard;
  return n;
}

/* SIGINT or SIGTERM stopped a run with a state folder: what was kept and
 * how to go on. The job then aborts its output set and returns, and the
 * command dies of that signal (census_command). */
static void print_interrupted(const tc_census_outcome *o, const census_cli *cli) {
  const tc_census_opts *j = cli->opts;
  tc_text_term_printf(stderr,
                      "tracecensus: stopped: %u of %u sites done (%u saved by this run) in %s; ",
                      o->run.sites_saved + o->run.sites_reused, sites_in_shard(&o->corpus, j),
                      o->run.sites_saved, j->run.state_dir);
  struct stat st;
  if (j->state_only)
    fputs("nothing else written", stderr);
  else if (stat(j->outdir, &st) == 0)
    tc_text_term_printf(stderr, "%s keeps its previous outputs", j->outdir);
  else
    tc_text_term_printf(stderr, "%s not written", j->outdir);
  fputs(". To resume, run the same command again\n", stderr);
}

/* The scratch files' folder and errno, which the error code cannot carry. */
static void print_scratch_failure(const char *what) {
  tc_text_term_printf(stderr,
                      "tracecensus: %s failed: %s in %s: %s (TMPDIR chooses the folder); "
                      "nothing written\n",
                      what, tc_strerror(TC_E_SCRATCH), tc_spill_dir(), strerror(tc_spill_errno()));
}

static void print_merge_failure(const tc_census_outcome *o) {
  if (o->err == TC_E_SCRATCH) {
    print_scratch_failure("merge");
  } else if (o->err == TC_E_STATE_INCOMPLETE || o->err == TC_E_STATE_MISMATCH) {
    tc_text_term_printf(stderr, "tracecensus: %s: %s; nothing written\n", tc_strerror(o->err),
                        o->merge.missing ? o->merge.missing : "");
    if (o->merge.nmissing)
      tc_text_term_printf(stderr,
                          "tracecensus: %u sites have no partial: run their shards again, or give "
                          "the state folders that hold them\n",
                          o->merge.nmissing);
  } else if (o->merge.file.path[0]) {
    print_state_failure(o->err, &o->merge.file);
  } else {
    tc_text_term_printf(stderr, "tracecensus: merge failed: %s; nothing written\n",
                        tc_strerror(o->err));
  }
}

static atomic_int stop_signal;

/* Says what each stage of the job found, as soon as it is known. */
static void on_stage(const tc_census_outcome *o, void *user) {
  census_cli *cli = user;
  const tc_census_opts *j = cli->opts;
  switch (o->stage) {
  case TC_STAGE_OPTIONS:
    if (o->err)
      tc_text_term_printf(stderr, "tracecensus: %s\n", o->why.reason);
    break;
  case TC_STAGE_SCHEMA:
    if (o->schema_error)
      tc_text_term_printf(stderr, "tracecensus: %s: %s%s\n", o->schema_path, o->why.reason,
                          j->schema_required ? "" : "; DevTools fields will be null");
    break;
  case TC_STAGE_MANIFEST:
    if (o->err)
      tc_text_term_printf(stderr, "tracecensus: %s: cannot read the manifest: %s\n", j->manifest,
                          strerror(o->why.errnum));
    break;
  case TC_STAGE_INPUTS:
    print_inputs(o, cli);
    break;
  case TC_STAGE_OUTSET:
    if (o->err) {
      print_set_failure(j->outdir, o->err, &o->set_why);
      break;
    }
    print_leftover(&o->set_why, cli->verbosity);
    if (cli->verbosity > 0 && o->recovered)
      tc_text_term_printf(stderr,
                          "tracecensus: removed %u leftovers of an interrupted run beside %s\n",
                          o->recovered, j->outdir);
    break;
  case TC_STAGE_CORPUS:
    print_corpus(o, cli);
    break;
  case TC_STAGE_STATE:
    if (o->err)
      print_state_failure(o->err, &o->state_why);
    break;
  case TC_STAGE_RUN:
    tc_progress_stop(cli->view);
    cli->view = NULL;
    if (o->err == TC_E_INTERRUPTED)
      print_interrupted(o, cli);
    else if (o->err && o->run.state_why.path[0])
      print_state_failure(o->err, &o->run.state_why);
    else if (o->err == TC_E_SCRATCH)
      print_scratch_failure("run");
    else if (o->err)
      tc_text_term_printf(stderr, "tracecensus: run failed: %s; nothing written\n",
                          tc_strerror(o->err));
    else if (j->run.state_dir)
      print_state_end(o, cli);
    break;
  case TC_STAGE_MERGE:
    if (o->err)
      print_merge_failure(o);
    break;
  case TC_STAGE_WRITE:
    if (o->err)
      print_write_failure(o, j->outdir);
    break;
  case TC_STAGE_COMMIT:
    print_end(o, cli);
    break;
  }
}

/* A schema the user named must load; the bundled one missing only makes
 * the DevTools fields null and the run's status 1. */
static int run_census(tc_census_opts *j, int verbosity, int merge) {
  char exe_buf[4096];
  j->schema_required = j->schema != NULL;
  if (!j->schema)
    j->schema = default_schema(exe_buf, sizeof exe_buf);
  census_cli cli = {.opts = j, .verbosity = verbosity};
  atomic_init(&cli.progress.bytes_done, 0);
  atomic_init(&cli.progress.traces_done, 0);
  j->run.progress = &cli.progress;
  if (j->run.state_dir) {
    j->run.stop = &stop_signal;
    tc_interrupt_defer(&stop_signal, j->run.state_dir);
  }
  const tc_census_hooks hooks = {tc_interrupt_begin, tc_interrupt_commit, tc_interrupt_abort,
                                 on_stage, &cli};
  tc_census_outcome o;
  tc_err e = merge ? tc_census_merge_run(j, &hooks, &o)
                                     : tc_census_job_run(j, &hooks, &o);
  int rc = e ? EXIT_FATAL : tc_census_outcome_clean(&o) ? EXIT_CLEAN : EXIT_INPUT_ERRORS;
  tc_census_outcome_free(&o);
  /* Interrupted: the job has aborted its output set and freed its state;
   * or a signal came after the last trace started: the outputs are
   * complete (and in place), but the user asked the process to end. */
  if (atomic_load(&stop_signal))
    tc_interrupt_die(atomic_load(&stop_signal));
  return rc;
}

static void apply_common(const tc_args *a, tc_run_opts *opts) {
  if (a->threads_set)
    opts->threads = a->threads;
  if (a->state)
    opts->state_dir = a->state;
  opts->shard = a->shard;
  opts->nshards = a->nshards;
}

/* The options that shape the census's work, as census and bench take them. */
static void apply_census_work(const tc_args *a, tc_run_opts *opts) {
  apply_common(a, opts);
  if (a->chunk_bytes)
    opts->chunk_bytes = a->chunk_bytes;
  opts->no_metrics = a->no_metrics;
  if (a->whole_urls)
    opts->value_flags |= TC_VP_WHOLE_URLS;
  if (a->value_sites_set)
    opts->value_sites = a->value_sites;
  if (a->scope_set)
    opts->scope = a->scope;
}

static int cmd_census(const tc_args *a) {
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  apply_census_work(a, &opts);
  tc_census_opts j = {.inputs = a->inputs, .ninputs = a->ninputs, .manifest = a->manifest,
                      .schema = a->schema, .outdir = a->outdir, .run = opts,
                      .state_only = a->nshards > 0};
  return run_census(&j, a->verbosity, 0);
}

static int cmd_merge(const tc_args *a) {
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  tc_census_opts j = {.inputs = a->inputs, .ninputs = a->ninputs, .schema = a->schema,
                      .outdir = a->outdir, .run = opts};
  return run_census(&j, a->verbosity, 1);
}

/* An export file: written whole, or named with why not. */
static int bench_export(const char *path, const tc_bench_result *r,
                        void (*write)(const tc_bench_result *, FILE *)) {
  FILE *fp = fopen(path, "w");
  if (fp) {
    write(r, fp);
    if (!ferror(fp) && fclose(fp) == 0)
      return 0;
  }
  tc_text_term_printf(stderr, "tracecensus: %s: cannot write: %s\n", path, strerror(errno));
  return 1;
}

static int cmd_bench(const tc_args *a) {
  char exe_buf[4096];
  tc_census_opts j = {.inputs = a->inputs, .ninputs = a->ninputs, .manifest = a->manifest,
                      .schema = a->schema ? a->schema : default_schema(exe_buf, sizeof exe_buf),
                      .schema_required = a->schema != NULL};
  tc_run_opts_default(&j.run);
  apply_census_work(a, &j.run);
  tc_bench_opts bo = {a->runs, a->warmup, a->baseline};
  tc_bench_result r;
  tc_err e = tc_bench_run(&j, &bo, &r);
  int rc = EXIT_CLEAN;
  if (e) {
    tc_text_term_printf(stderr, "tracecensus: bench failed: %s%s%s\n", tc_strerror(e),
                        r.why[0] ? ": " : "", r.why);
    rc = EXIT_FATAL;
  } else {
    tc_bench_write_table(&r, stdout);
    if ((a->export_json && bench_export(a->export_json, &r, tc_bench_write_json)) ||
        (a->export_md && bench_export(a->export_md, &r, tc_bench_write_markdown)))
      rc = EXIT_FATAL;
  }
  tc_bench_result_free(&r);
  return rc;
}

static int cmd_run(const tc_args *a) {
  tc_job job;
  int line;
  char why[256];
  if (tc_job_load(a->job, &job, &line, why, sizeof why)) {
    if (line)
      tc_text_term_printf(stderr, "tracecensus: %s:%d: %s\n", a->job, line, why);
    else
      tc_text_term_printf(stderr, "tracecensus: %s: %s\n", a->job, why);
    return EXIT_FATAL;
  }
  if (job.state && !a->state)
    job.run.state_dir = job.state;
  apply_common(a, &job.run);
  if (a->nshards && !job.run.state_dir) {
    tc_job_free(&job);
    return fail_usage("--shard needs a state folder: --state DIR or the job's `state`", TC_CMD_RUN);
  }
  tc_census_opts j = {.inputs = (const char *const *)job.corpus, .ninputs = job.ncorpus,
                      .manifest = job.manifest, .schema = job.schema, .outdir = job.output,
                      .job = a->job, .run = job.run, .state_only = a->nshards > 0,
                      .timings_apart = job.timings_apart};
  int rc = run_census(&j, a->verbosity, 0);
  tc_job_free(&job);
  return rc;
}

/* Says why an output folder could not be read for diff. */
static void print_diff_load_failure(tc_err e, const tc_why *why) {
  tc_text_term_printf(stderr, "tracecensus: %s: ", why->path);
  if (e == TC_E_OPEN)
    tc_text_term_printf(stderr, "cannot read: %s", strerror(why->errnum));
  else if (e == TC_E_BAD_JSON && why->has_offset)
    tc_text_term_printf(stderr, "%s at byte %" PRIu64 " (%s)", tc_strerror(e), why->offset,
                        why->reason);
  else if (e == TC_E_BAD_OUTPUT || e == TC_E_BAD_JSON)
    tc_text_term_printf(stderr, "%s: %s", tc_strerror(e), why->reason);
  else
    fputs(tc_strerror(e), stderr);
  fputs("; nothing compared\n", stderr);
}

/* diff: 0 no differences, 1 differences, 2 trouble (diff(1)'s convention). */
static int cmd_diff(const tc_args *a) {
  const tc_diff_hooks hooks = {tc_interrupt_begin, tc_interrupt_commit, tc_interrupt_abort};
  tc_diff_outcome o;
  tc_err e = tc_diff_job_run(a->diff_a, a->diff_b, a->outdir, &hooks, &o);
  int rc = EXIT_FATAL;
  if (o.stage == TC_DIFF_READ_A || o.stage == TC_DIFF_READ_B) {
    if (e)
      print_diff_load_failure(e, &o.read_why);
  } else if (o.stage == TC_DIFF_COMPARE && e) {
    tc_text_term_printf(stderr, "tracecensus: diff: %s\n", tc_strerror(e));
  } else if (o.stage == TC_DIFF_COMPARE) {
    tc_diff_write_md(o.diff, stdout);
    rc = fflush(stdout) == 0 && !ferror(stdout) ? o.diff->changed : EXIT_FATAL;
  } else if (o.stage == TC_DIFF_OUTSET) {
    print_set_failure(a->outdir, e, &o.set_why);
  } else if (o.stage == TC_DIFF_WRITE) {
    tc_text_term_printf(
        stderr, "tracecensus: %s/%s: cannot write: %s; %s keeps its previous outputs\n", a->outdir,
        o.failed_file, o.write_why.errnum ? strerror(o.write_why.errnum) : tc_strerror(e),
        a->outdir);
  } else if (e) {
    tc_text_term_printf(
        stderr,
        "tracecensus: %s: cannot put the new outputs in place: %s: %s; it keeps its "
        "previous outputs\n",
        a->outdir, o.set_why.path, strerror(o.set_why.errnum));
  } else {
    print_leftover(&o.set_why, 0);
    rc = o.diff->changed;
  }
  tc_diff_outcome_free(&o);
  return rc;
}

/* Starts this program again with glibc asked for huge pages
 * (util/tc_hugepages.h says why), before anything else has run; returns
 * only when it did not. Not under LD_PRELOAD: a preloaded malloc ignores
 * glibc's tunables, and a tool's preload (valgrind's) or a test's fault
 * shim would not follow the exec. Not for a secure-execution process,
 * whose environment glibc filters: the tunable could vanish and the
 * restart repeat. Not when the kernel started the dynamic loader itself
 * (`ld.so tracecensus ...`, no interpreter base): /proc/self/exe is then
 * the loader, which would take the first argument for the program. */
static void restart_with_huge_pages(char **argv) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
  const char *was = getenv("GLIBC_TUNABLES"), *preload = getenv("LD_PRELOAD");
  char tunables[4096];
  if ((preload && *preload) || getauxval(AT_SECURE) || !getauxval(AT_BASE) ||
      !tc_hugetlb_tunables(tc_thp_mode_now(), was, tunables, sizeof tunables))
    return;
  char *saved = was ? strdup(was) : NULL;
  if ((was && !saved) || setenv("GLIBC_TUNABLES", tunables, 1) != 0) {
    free(saved);
    return;
  }
  execv("/proc/self/exe", argv);
  if (saved)
    setenv("GLIBC_TUNABLES", saved, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  free(saved);
#else
  (void)argv;
#endif
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
  restart_with_huge_pages(argv);
  /* Chunk buffers (about 1 MiB) and the parsers' indexes are freed and
   * allocated again all run long: kept by malloc rather than unmapped and
   * trimmed, they are not faulted in afresh each time. A heap is made or
   * grown 48 MiB past the need: glibc advises huge pages for a thread
   * arena's heap as it is made, so this puts a worker's working set in
   * huge pages (with the default 128 KiB most of it stayed in 4 KiB pages:
   * 12.6 K faults against 1.9 K over bench/README's 8-site corpus, 4.8 K
   * at 32 MiB). Address space only: pages are resident once touched. */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 48 << 20);
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
  else if (a.cmd == TC_CMD_MERGE)
    rc = cmd_merge(&a);
  else if (a.cmd == TC_CMD_DIFF)
    rc = cmd_diff(&a);
  else if (a.cmd == TC_CMD_BENCH)
    rc = cmd_bench(&a);
  else
    rc = cmd_run(&a);
  tc_args_free(&a);
  return rc;
}
