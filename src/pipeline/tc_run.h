/* One census run over a corpus: the whole flow of the program.
 *
 * Design. Every trace becomes a task on the work-stealing pool, largest
 * first. A trace task streams its file (tc_stream), cuts the decompressed
 * bytes into chunks of whole events (tc_chunker) and spawns one task per
 * chunk, so a huge trace is parsed by every worker at once; it keeps at most
 * a fixed number of chunks in flight, helping with pool work while it waits,
 * so memory stays bounded however large the trace is. A chunk task parses its
 * chunk with its worker's own simdjson parser and adds the order-free
 * statistics to its worker's census tables. What needs trace order (B/E
 * stacks, flow and async pairing, the metric kernels) is copied into the
 * chunk's tc_seq and folded strictly in chunk order by whichever worker
 * finds the next chunk ready. At the end the per-worker tables are merged
 * (tc_census_merge) into tables that depend on nothing but the input. */
#ifndef TC_RUN_H
#define TC_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "io/tc_stream.h"
#include "json/tc_chunker.h"
#include "kernels/tc_kernels.h"
#include "io/tc_corpus.h"
#include "pipeline/tc_stage_clock.h"
#include "reduce/tc_census_result.h"
#include "reduce/tc_metrics_set.h"
#include "reduce/tc_run_facts.h"
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
  tc_progress *progress; /* optional */
  int time_stages;       /* fill tc_run_result.stage_ns (tc_stage_clock.h) */
} tc_run_opts;

void tc_run_opts_default(tc_run_opts *o);

/* The limits of tc_run_opts, checked by tc_run_opts_check and so by tc_run
 * and tc_census_job_run; the command line and job files name them in
 * their messages.
 *   threads      0 (one per online CPU) to TC_MAX_THREADS
 *   chunk_bytes  0 (the default, 1 MiB) or TC_MIN_CHUNK_BYTES to
 *                TC_MAX_CHUNK_BYTES: the chunker keeps offsets in a chunk
 *                as 32-bit numbers, so a chunk stays well below 4 GiB
 *   inflight     0 (2 x threads + 2) to TC_MAX_INFLIGHT chunks per trace
 *   kernels      tc_kernel_opts_check (bucket_ms, refresh_hz) */
#define TC_MAX_THREADS 1024u
#define TC_MIN_CHUNK_BYTES ((size_t)4096)
#define TC_MAX_CHUNK_BYTES ((size_t)1 << 30)
#define TC_MAX_INFLIGHT 4096u

/* TC_OK, or TC_E_USAGE with the first option out of its limits named in
 * WHY (CAP bytes; WHY may be NULL), in the words of a job file's key:
 * "threads must be an integer from 0 (all CPUs) to 1024". */
tc_err tc_run_opts_check(const tc_run_opts *o, char *why, size_t cap);

typedef struct {
  tc_census_result census;
  tc_metrics_set *metrics; /* every trace's metrics; NULL with no_metrics */
  tc_trace_status *traces; /* parallel to corpus->traces */
  tc_run_totals totals;
  /* With time_stages: nanoseconds per stage summed over the workers
   * (TC_CLOCK_WRITE is the writer's to add); else zeros. */
  uint64_t stage_ns[TC_CLOCK_COUNT];
} tc_run_result;

/* Runs the census over CORPUS. Per-trace problems are recorded in
 * out->traces and never stop the run; only options out of their limits
 * (TC_E_USAGE, see tc_run_opts_check) or memory or thread failure return
 * an error. Free with tc_run_result_free. */
tc_err tc_run(const tc_corpus *corpus, const tc_run_opts *opts, tc_run_result *out);

void tc_run_result_free(tc_run_result *r, uint32_t ntraces);

#endif
