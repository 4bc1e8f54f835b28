/* The whole census, end to end: the one entry point the command line, the
 * tests and the benchmarks call.
 *
 *   options -> schema -> manifest -> inputs -> output set -> corpus -> tc_run
 *          -> DevTools view, metrics reduction -> every writer -> commit
 *
 * Each step is a stage (tc_census_stage). After each one the job calls the
 * caller's optional stage hook with the outcome so far, so a caller that
 * reports as it goes (the command line: a warning as soon as it is known, a
 * progress line while the traces are read) sees every stage in order; the
 * job itself never prints. A stage that fails ends the job: outcome.stage
 * names it and outcome.err says why, and nothing is written (OUTDIR keeps
 * its previous outputs).
 *
 * The writers are one table in tc_census_job.c, run in its order into the
 * staging folder of the output set; a new output file is one more row.
 *
 * With partial state (run.state_dir) the job writes the state folder's
 * shard record once the corpus is scanned (TC_STAGE_STATE), and a shard
 * (state_only) stops after the run: it has no output set and no writers.
 * tc_census_merge_run is the same job with the shards' state folders in
 * place of the scan and the run (TC_STAGE_MERGE), so a merge writes its
 * outputs with the very writers a census uses. */
#ifndef TC_CENSUS_JOB_H
#define TC_CENSUS_JOB_H

#include "census/tc_schema.h"
#include "io/tc_corpus.h"
#include "pipeline/tc_merge.h"
#include "pipeline/tc_run.h"
#include "reduce/tc_devtools.h"
#include "report/tc_census_report.h"
#include "report/tc_metrics_report.h"
#include "report/tc_outset.h"
#include "util/tc_error.h"

/* One census to run, from the command line or a job file. Every pointer is
 * borrowed and must outlive tc_census_job_run. */
typedef struct {
  const char *const *inputs; /* corpus folders or trace files */
  int ninputs;
  const char *manifest;      /* or NULL */
  const char *schema;        /* the DevTools schema to load, or NULL for none */
  /* A schema the user named must load (else the job fails at
   * TC_STAGE_SCHEMA); the bundled one missing only makes the DevTools
   * fields null and schema_error set. */
  int schema_required;
  const char *outdir;
  const char *job;           /* the job file named in run.json, or NULL */
  tc_run_opts run;
  int state_only;            /* a shard (--shard): only run.state_dir is written */
  int timings_apart;         /* host facts in host.json, null in run.json (job key timings) */
} tc_census_opts;

typedef enum {
  TC_STAGE_OPTIONS,  /* opts->run within tc_run_opts_check's limits (why when not) */
  TC_STAGE_SCHEMA,   /* the schema loaded (or not: schema_error) */
  TC_STAGE_MANIFEST, /* the manifest is readable (why.errnum when not) */
  TC_STAGE_INPUTS,   /* every INPUT stat'ed (input_errno); fails when none exists */
  TC_STAGE_OUTSET,   /* the output set begun: locked, staging folder made (set_why) */
  TC_STAGE_CORPUS,   /* the corpus scanned; fails with TC_E_NO_SITES when it has none */
  TC_STAGE_RUN,      /* tc_run done */
  TC_STAGE_WRITE,    /* every writer (failed_file, why) */
  TC_STAGE_COMMIT,   /* the set swapped in (set_why) */
  TC_STAGE_STATE,    /* the state folder's shard record written (state_why); after CORPUS */
  TC_STAGE_MERGE,    /* merge: the shards' partials read and folded (merge); after OUTSET */
} tc_census_stage;

/* What the job did, for the caller to print from. The job owns every
 * buffer in it until tc_census_outcome_free. */
typedef struct {
  tc_census_stage stage; /* the last stage reached (the failing one when err) */
  tc_err err;            /* TC_OK, or why STAGE failed */
  /* Where and why: a failed manifest check or write (path, errnum),
   * options out of their limits or the schema's failure (reason). */
  tc_why why;

  const char *schema_path;
  tc_schema *schema;        /* NULL when none loaded */
  int schema_line;          /* a bad schema's line, from 1; 0: it could not be opened */
  const char *schema_error; /* why the DevTools fields are null, or NULL (may point
                               into why.reason) */

  int *input_errno;         /* per INPUT: 0, or the errno stat gave (missing) */
  int nmissing;
  /* Inputs that could not be read: the missing INPUTs and what the corpus
   * scan skipped besides them (from TC_STAGE_CORPUS on). */
  int unreadable;

  tc_why set_why;    /* the outset's failure, or a leftover it could not remove */
  unsigned recovered;       /* leftovers of killed runs the outset removed */

  tc_corpus corpus;         /* from TC_STAGE_CORPUS on */
  tc_run_result run;        /* from TC_STAGE_RUN on */
  tc_devtools devtools;     /* when have_devtools */
  int have_devtools;
  tc_report_ctx report;     /* what the census writers read */
  tc_metrics_reduction *metrics; /* what the metrics writers read; NULL with no_metrics */

  const char *failed_file;  /* the output file a failed write was on (static) */

  tc_why state_why;         /* TC_STAGE_STATE's failure */
  int state_lock;           /* the state folder's lock, held while the outcome lives */
  int have_state_lock;
  tc_merge_why merge;       /* TC_STAGE_MERGE's failure */
  char *merged_manifest, *merged_job; /* merge: the shards' manifest and job paths */
} tc_census_outcome;

/* Callbacks; every member may be NULL. */
typedef struct {
  /* The output set's begin, commit and abort: the command line passes its
   * signal-watching ones (cli/tc_interrupt.h); NULL means tc_outset_*. */
  tc_err (*set_begin)(const char *outdir, tc_outset **set, tc_why *why);
  tc_err (*set_commit)(tc_outset *set, tc_why *why);
  void (*set_abort)(tc_outset *set);
  /* Called once each stage is done or has failed, in stage order. */
  void (*stage)(const tc_census_outcome *o, void *user);
  void *user;
} tc_census_hooks;

/* Runs the job; HOOKS may be NULL. Returns out->err. Free OUT with
 * tc_census_outcome_free whatever it returns. */
tc_err tc_census_job_run(const tc_census_opts *opts, const tc_census_hooks *hooks,
                         tc_census_outcome *out);

/* Merges the state folders OPTS->inputs into OPTS->outdir (tracecensus
 * merge; manifest, job and run are taken from the shards' records). */
tc_err tc_census_merge_run(const tc_census_opts *opts, const tc_census_hooks *hooks,
                           tc_census_outcome *out);

void tc_census_outcome_free(tc_census_outcome *o);

/* Whether the corpus scan's skipped note I is a missing INPUT, already
 * named by input_errno. */
int tc_census_note_is_missing_input(const tc_census_outcome *o, const tc_census_opts *opts,
                                    uint32_t i);

/* Whether a finished job read every input cleanly: no trace with an
 * error, nothing unreadable, the DevTools view present. */
int tc_census_outcome_clean(const tc_census_outcome *o);

#endif
