/* Job files (jobs/NAME.job): what to run and where to write it.
 *
 * One "key = value" per line, '#' starts a comment. Relative paths are
 * taken from the job file's folder, so a job runs the same from any
 * directory: `corpus = ../corpus/crawl` in jobs/bundled.job is
 * corpus/crawl from the repository root. They are joined by their text
 * ("jobs/../corpus" is "corpus"; a job folder reached through a symlink
 * resolves from the link's folder).
 * Keys: corpus (required; repeat for several), manifest, output (required),
 * threads, chunk_bytes, bucket_ms, refresh_hz, window_start_mark,
 * window_end_mark, schema, state (the partial state folder, as --state),
 * scope, timings (run.json, the default, or host.json: the run's timings
 * and host facts go to OUTDIR/host.json and are null in run.json, so a
 * committed output folder stays the same bytes run after run). */
#ifndef TC_JOB_H
#define TC_JOB_H

#include <stddef.h>

#include "pipeline/tc_run.h"

typedef struct {
  char **corpus;
  int ncorpus;
  char *manifest;
  char *output;
  char *schema;
  char *state;
  tc_run_opts run;
  int timings_apart; /* timings = host.json */
  char *marks[2]; /* owned copies behind run.kernels' window marks */
} tc_job;

/* Parses PATH into *job (free with tc_job_free). On error, *line is the
 * offending line number (0 if the file could not be read or lacks a
 * required key) and WHY (CAP bytes) says what was wrong: "unknown key
 * 'thredas' (did you mean 'threads'?)". */
tc_err tc_job_load(const char *path, tc_job *job, int *line, char *why, size_t cap);
void tc_job_free(tc_job *job);

#endif
