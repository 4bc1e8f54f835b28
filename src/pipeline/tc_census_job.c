#include "pipeline/tc_census_job.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/tc_state.h"
#include "report/tc_outfile.h"

/* ---- the writers: one row per output file, run in this order ---- */

static tc_err write_census_json(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_census_json(&o->report, dir, why);
}

static tc_err write_census_csv(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_census_csv(&o->report, dir, why);
}

static tc_err write_census_md(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_census_md(&o->report, dir, why);
}

static tc_err write_census_args_csv(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_census_args_csv(&o->report, dir, why);
}

static tc_err write_run_json(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_run_json(&o->report, dir, why);
}

static tc_err write_host_json(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return o->report.timings_apart ? tc_write_host_json(&o->report, dir, why) : TC_OK;
}

/* metrics.csv, metrics.json, metrics.md; none after --no-metrics. */
static tc_err write_metrics_csv(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return o->metrics ? tc_write_metrics_csv(o->metrics, dir, why) : TC_OK;
}

static tc_err write_metrics_json(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return o->metrics ? tc_write_metrics_json(o->metrics, dir, why) : TC_OK;
}

static tc_err write_metrics_md(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return o->metrics ? tc_write_metrics_md(o->metrics, dir, why) : TC_OK;
}

/* report.html: the census and, unless --no-metrics, the metrics. */
static tc_err write_report_html(const tc_census_outcome *o, const char *dir, tc_why *why) {
  return tc_write_report_html(&o->report, o->metrics, dir, why);
}

static const struct {
  const char *name; /* the file, for a failure's message */
  tc_err (*write)(const tc_census_outcome *o, const char *dir, tc_why *why);
} writers[] = {
    {"census.json", write_census_json},
    {"census.csv", write_census_csv},
    {"census.md", write_census_md},
    {"census_args.csv", write_census_args_csv},
    {"run.json", write_run_json},
    {"host.json", write_host_json},
    {"metrics.csv", write_metrics_csv},
    {"metrics.json", write_metrics_json},
    {"metrics.md", write_metrics_md},
    {"report.html", write_report_html},
};

#define NWRITERS (sizeof writers / sizeof *writers)

/* The writers share nothing they change: each reads the outcome (the
 * metrics records through a cursor of its own) and writes its own file, so
 * they run on as many threads as the run had, each taking the next writer
 * of the table. */
typedef struct {
  const tc_census_outcome *o;
  const char *dir;
  atomic_size_t next;
  tc_err err[NWRITERS];
  tc_why why[NWRITERS];
} write_job;

static void *writer_thread(void *arg) {
  write_job *j = arg;
  for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < NWRITERS;) {
    j->err[i] = writers[i].write(j->o, j->dir, &j->why[i]);
  }
  return NULL;
}

/* Runs every writer into DIR on up to THREADS threads (0: one per CPU); on
 * failure names the first failing file in the table's order, whatever
 * order they ran in, and its errno (ENOSPC, EFBIG, EROFS, ...). */
static tc_err run_writers(tc_census_outcome *o, const char *dir, unsigned threads) {
  write_job j = {.o = o, .dir = dir};
  atomic_init(&j.next, 0);
  if (!threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n > 0 ? (unsigned)n : 1;
  }
  pthread_t t[NWRITERS];
  unsigned started = 0;
  while (started + 1 < threads && started + 1 < NWRITERS &&
         pthread_create(&t[started], NULL, writer_thread, &j) == 0)
    started++;
  writer_thread(&j);
  for (unsigned i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  /* Out of descriptors (a small ulimit -n): the writers that found none
   * run again one at a time, when the others have closed theirs. */
  for (size_t i = 0; started && i < NWRITERS; i++)
    if (j.err[i] && (j.why[i].errnum == EMFILE || j.why[i].errnum == ENFILE)) {
      tc_why_clear(&j.why[i]);
      j.err[i] = writers[i].write(o, dir, &j.why[i]);
    }
  for (size_t i = 0; i < NWRITERS; i++)
    if (j.err[i]) {
      o->failed_file = writers[i].name;
      o->why = j.why[i];
      return j.err[i];
    }
  return TC_OK;
}

/* ---- the stages ---- */

static tc_err load_schema(const tc_census_opts *opts, tc_census_outcome *o) {
  o->schema_path = opts->schema;
  if (!opts->schema) {
    o->schema_error = "no DevTools schema given";
    return TC_OK;
  }
  tc_err e = tc_schema_load(opts->schema, &o->schema, &o->schema_line);
  if (!e)
    return TC_OK;
  if (o->schema_line)
    tc_why_reason(&o->why, "%s at line %d", tc_strerror(e), o->schema_line);
  else
    tc_why_reason(&o->why, "cannot open %s", opts->schema);
  o->schema_error = o->why.reason;
  return opts->schema_required ? e : TC_OK;
}

static tc_err check_manifest(const tc_census_opts *opts, tc_census_outcome *o) {
  if (opts->manifest && access(opts->manifest, R_OK) != 0) {
    tc_why_errno(&o->why, opts->manifest, errno);
    return TC_E_OPEN;
  }
  return TC_OK;
}

static tc_err check_inputs(const tc_census_opts *opts, tc_census_outcome *o) {
  o->input_errno = calloc(opts->ninputs > 0 ? (size_t)opts->ninputs : 1, sizeof *o->input_errno);
  if (!o->input_errno)
    return TC_E_NOMEM;
  for (int i = 0; i < opts->ninputs; i++) {
    struct stat st;
    if (stat(opts->inputs[i], &st) != 0) {
      o->input_errno[i] = errno ? errno : ENOENT;
      o->nmissing++;
    }
  }
  return o->nmissing == opts->ninputs ? TC_E_NO_INPUT : TC_OK;
}

static tc_err scan_corpus(const tc_census_opts *opts, tc_census_outcome *o) {
  tc_err e = tc_corpus_scan(opts->inputs, opts->ninputs, opts->manifest, &o->corpus);
  if (e)
    return e;
  o->unreadable = o->nmissing;
  for (uint32_t i = 0; i < o->corpus.nskipped; i++)
    o->unreadable += !tc_census_note_is_missing_input(o, opts, i);
  return o->corpus.nsites ? TC_OK : TC_E_NO_SITES;
}

/* What the writers read beside the corpus tables: DevTools' view of the
 * census when a schema loaded (reduce/tc_devtools.h), and the context the
 * census writers take. Reduction, not writing: it runs before the writers
 * start. */
static void finish_views(const tc_census_opts *opts, tc_census_outcome *o) {
  /* The fold reduced every site's metrics and sealed them. */
  o->metrics = o->run.tables.metrics;
  o->run.tables.metrics = NULL;
  if (o->schema) {
    tc_err e = tc_devtools_compute(&o->run.tables.census, o->schema, &o->devtools);
    if (e)
      o->schema_error = tc_strerror(e);
    else
      o->have_devtools = 1;
  }
  o->report = (tc_report_ctx){
      .corpus = &o->corpus,
      .census = &o->run.tables.census,
      .traces = &o->run.tables.traces,
      .totals = &o->run.tables.totals,
      .job = o->merged_job ? o->merged_job : opts->job,
      .manifest = o->merged_manifest ? o->merged_manifest : opts->manifest,
      .devtools = o->have_devtools ? &o->devtools : NULL,
      .schema_path = o->schema_path,
      .schema_generator = o->schema ? tc_schema_generator(o->schema) : NULL,
      .schema_error = o->schema_error,
      .timings_apart = opts->timings_apart,
  };
}

/* Marks stage S done (or failed with E) and tells the caller. */
static tc_err reached(tc_census_outcome *o, const tc_census_hooks *h, tc_census_stage s,
                      tc_err e) {
  o->stage = s;
  o->err = e;
  if (h && h->stage)
    h->stage(o, h->user);
  return e;
}

/* The set's begin, commit and abort: the caller's, else tc_outset_*. */
typedef struct {
  tc_err (*begin)(const char *, tc_outset **, tc_why *);
  tc_err (*commit)(tc_outset *, tc_why *);
  void (*abort)(tc_outset *);
} set_ops;

static const tc_census_hooks *hooks_or_none(const tc_census_hooks *h) {
  static const tc_census_hooks none;
  return h ? h : &none;
}

static set_ops ops_of(const tc_census_hooks *h) {
  return (set_ops){h->set_begin ? h->set_begin : tc_outset_begin,
                   h->set_commit ? h->set_commit : tc_outset_commit,
                   h->set_abort ? h->set_abort : tc_outset_abort};
}

static tc_err begin_set(const set_ops *ops, const tc_census_opts *opts, const tc_census_hooks *h,
                        tc_census_outcome *o, tc_outset **set) {
  *set = NULL;
  tc_err e = ops->begin(opts->outdir, set, &o->set_why);
  if (!e)
    o->recovered = tc_outset_recovered(*set);
  return reached(o, h, TC_STAGE_OUTSET, e);
}

/* The writers, then the commit, which frees the set whether it succeeds or
 * not; on a failed write the set is aborted. */
static tc_err write_and_commit(const set_ops *ops, const tc_census_opts *opts,
                               const tc_census_hooks *h, tc_census_outcome *o, tc_outset *set) {
  finish_views(opts, o);
  if (reached(o, h, TC_STAGE_WRITE, run_writers(o, tc_outset_dir(set), opts->run.threads))) {
    ops->abort(set);
    return o->err;
  }
  return reached(o, h, TC_STAGE_COMMIT, ops->commit(set, &o->set_why));
}

static tc_err begin_state(const tc_census_opts *opts, tc_census_outcome *o) {
  char *settings = tc_partial_settings(!opts->run.no_metrics, &opts->run.kernels, opts->run.scope,
                                        opts->run.value_flags);
  if (!settings)
    return TC_E_NOMEM;
  tc_err e = tc_state_begin(opts->run.state_dir, &o->corpus, settings, opts->run.shard,
                            opts->run.nshards, opts->run.value_sites, opts->manifest, opts->job,
                            &o->state_lock, &o->state_why);
  o->have_state_lock = !e;
  free(settings);
  return e;
}

tc_err tc_census_job_run(const tc_census_opts *opts, const tc_census_hooks *hooks,
                         tc_census_outcome *o) {
  memset(o, 0, sizeof *o);
  const tc_census_hooks *h = hooks_or_none(hooks);
  set_ops ops = ops_of(h);

  if (reached(o, h, TC_STAGE_OPTIONS, tc_run_opts_check(&opts->run, o->why.reason, sizeof o->why.reason)) ||
      reached(o, h, TC_STAGE_SCHEMA, load_schema(opts, o)) ||
      reached(o, h, TC_STAGE_MANIFEST, check_manifest(opts, o)) ||
      reached(o, h, TC_STAGE_INPUTS, check_inputs(opts, o)))
    return o->err;
  tc_outset *set = NULL;
  if (!opts->state_only && begin_set(&ops, opts, h, o, &set))
    return o->err;
  if (!reached(o, h, TC_STAGE_CORPUS, scan_corpus(opts, o)) &&
      !(opts->run.state_dir && reached(o, h, TC_STAGE_STATE, begin_state(opts, o))) &&
      !reached(o, h, TC_STAGE_RUN, tc_run(&o->corpus, &opts->run, &o->run))) {
    if (opts->state_only)
      return TC_OK;
    return write_and_commit(&ops, opts, h, o, set);
  }
  if (set)
    ops.abort(set);
  return o->err;
}

tc_err tc_census_merge_run(const tc_census_opts *opts, const tc_census_hooks *hooks,
                           tc_census_outcome *o) {
  memset(o, 0, sizeof *o);
  const tc_census_hooks *h = hooks_or_none(hooks);
  set_ops ops = ops_of(h);
  tc_outset *set;
  if (reached(o, h, TC_STAGE_SCHEMA, load_schema(opts, o)) || begin_set(&ops, opts, h, o, &set))
    return o->err;
  if (reached(o, h, TC_STAGE_MERGE,
              tc_merge_states(opts->inputs, opts->ninputs, &o->corpus, &o->run.tables,
                              &o->merged_manifest, &o->merged_job, &o->merge))) {
    ops.abort(set);
    return o->err;
  }
  /* What the shards' scans skipped, as a one-machine run counts it. */
  o->unreadable = (int)o->corpus.nskipped;
  return write_and_commit(&ops, opts, h, o, set);
}

int tc_census_note_is_missing_input(const tc_census_outcome *o, const tc_census_opts *opts,
                                    uint32_t i) {
  const char *path = o->corpus.skipped[i].path;
  for (int k = 0; o->input_errno && k < opts->ninputs; k++)
    if (o->input_errno[k] && strcmp(opts->inputs[k], path) == 0)
      return 1;
  return 0;
}

int tc_census_outcome_clean(const tc_census_outcome *o) {
  return !o->err && !o->run.tables.totals.traces_with_errors && !o->unreadable && !o->schema_error;
}

void tc_census_outcome_free(tc_census_outcome *o) {
  if (o->have_devtools)
    tc_devtools_free(&o->devtools);
  tc_metrics_reduction_free(o->metrics);
  /* both leave a zeroed struct on failure, and free one as nothing */
  tc_run_result_free(&o->run);
  tc_corpus_free(&o->corpus);
  free(o->input_errno);
  tc_schema_free(o->schema);
  free(o->merge.missing);
  free(o->merged_manifest);
  free(o->merged_job);
  if (o->have_state_lock)
    close(o->state_lock);
  memset(o, 0, sizeof *o);
}
