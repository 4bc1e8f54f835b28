/* One census run over a corpus: the whole flow of the program.
 *
 * The trace engine (tc_trace_engine.c) reads, chunks, parses and folds
 * every trace on the work-stealing pool; the site window
 * (tc_site_window.c) decides which sites run, and takes each finished site
 * out of the engine as one unit (reduce/tc_site_unit.h), written to the
 * state folder and folded into the corpus tables (reduce/tc_corpus_fold.h)
 * in corpus order, the path a resumed run and a merge take too. Each file
 * has its design narrative; tc_run_ctx.h has the state they share and its
 * locks. This file's functions set the run up and tear it down. */
#ifndef TC_RUN_H
#define TC_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "io/tc_corpus.h"
#include "kernels/tc_kernels.h"
#include "pipeline/tc_stage_clock.h"
#include "reduce/tc_corpus_fold.h"
#include "util/tc_error.h"

/* Counters a progress display may read while the run goes on. */
typedef struct {
  atomic_uint_fast64_t bytes_done; /* compressed bytes consumed */
  atomic_uint_fast64_t traces_done;
} tc_progress;

typedef struct {
  unsigned threads;      /* 0 = online CPUs */
  size_t chunk_bytes;    /* target chunk size; 0 = default */
  unsigned inflight;     /* chunks in flight per trace; 0 = default */
  tc_kernel_opts kernels;
  int no_metrics;        /* census only: no kernel runs (to measure their cost) */
  uint32_t value_flags;  /* TC_VP_* of the value profiles (TC_VP_WHOLE_URLS) */
  uint32_t value_sites;  /* a string value is printed when seen on this many sites */
  tc_census_scope scope; /* which processes the census counts (census/tc_census.h) */
  tc_progress *progress; /* optional */
  int time_stages;       /* fill tc_run_result.stage_ns (tc_stage_clock.h) */
  /* Partial state (pipeline/tc_partial.h): each finished site's partial is
   * written here at once, and a site whose partial matches (same settings,
   * same traces by tc_file_id) is read back instead of run. NULL: none. */
  const char *state_dir;
  uint32_t shard, nshards; /* only shard SHARD of NSHARDS (tc_partial_shard_of); nshards <= 1: all */
  /* Once set (by a signal handler), no further trace starts; the run ends
   * with TC_E_INTERRUPTED after saving the sites it finished. NULL: never. */
  const atomic_int *stop;
} tc_run_opts;

void tc_run_opts_default(tc_run_opts *o);

/* The limits of tc_run_opts, checked by tc_run_opts_check and so by tc_run
 * and tc_census_job_run; the command line and job files name them in
 * their messages.
 *   threads      0 (one per online CPU) to TC_MAX_THREADS
 *   chunk_bytes  0 (the default, TC_DEFAULT_CHUNK_BYTES) or TC_MIN_CHUNK_BYTES to
 *                TC_MAX_CHUNK_BYTES: the chunker keeps offsets in a chunk
 *                as 32-bit numbers, so a chunk stays well below 4 GiB
 *   inflight     0 (2 x threads + 2) to TC_MAX_INFLIGHT chunks per trace
 *   kernels      tc_kernel_opts_check (bucket_ms, refresh_hz) */
#define TC_MAX_THREADS 1024u
#define TC_MIN_CHUNK_BYTES ((size_t)4096)
#define TC_DEFAULT_CHUNK_BYTES ((size_t)1 << 20)
#define TC_MAX_CHUNK_BYTES ((size_t)1 << 30)
#define TC_MAX_INFLIGHT 4096u

/* TC_OK, or TC_E_USAGE with the first option out of its limits named in
 * WHY (CAP bytes; WHY may be NULL), in the words of a job file's key:
 * "threads must be an integer from 0 (all CPUs) to 1024". */
tc_err tc_run_opts_check(const tc_run_opts *o, char *why, size_t cap);

typedef struct {
  tc_corpus_tables tables; /* every table, sealed; the totals also say how
                              the run went (threads, seconds, kernel) */
  /* With time_stages: nanoseconds per stage summed over the workers
   * (TC_CLOCK_WRITE is the writer's to add); else zeros. */
  uint64_t stage_ns[TC_CLOCK_COUNT];
  /* With time_stages, wall nanoseconds: the main thread waiting for the
   * oldest site of the window to finish, and the workers asleep in the
   * pool for want of a task (summed over them); else zeros. */
  uint64_t fold_wait_ns, worker_idle_ns;
  /* Sites of this run (its shard), and of them those read back from the
   * state folder, with their traces; sites whose partial was written. */
  uint32_t sites_run, sites_reused, traces_reused, sites_saved;
  /* Sites whose partial was made with other settings, so ran again, and
   * the first setting that differed ("whole_urls", "scope", ...). */
  uint32_t sites_resettled;
  char settings_differ[32];
  tc_why state_why; /* with TC_E_WRITE, TC_E_OPEN, TC_E_NOT_PARTIAL,
                       TC_E_PARTIAL_VERSION or TC_E_BAD_BINARY from state */
} tc_run_result;

/* Runs the census over CORPUS (see the design above). Per-trace problems
 * are recorded in the trace rows and never stop the run; only options out
 * of their limits (TC_E_USAGE, see tc_run_opts_check), memory or thread
 * failure, the state folder (out->state_why says which file and where) and
 * an interrupt (TC_E_INTERRUPTED) return an error. On an error out holds
 * only the counts. Free with tc_run_result_free. */
tc_err tc_run(const tc_corpus *corpus, const tc_run_opts *opts, tc_run_result *out);

/* Accepts NULL. */
void tc_run_result_free(tc_run_result *r);

#endif
