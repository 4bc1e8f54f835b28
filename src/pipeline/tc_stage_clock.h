/* Time spent in each stage of a run, for `tracecensus bench`.
 *
 * A run asked to time itself (tc_run_opts.time_stages) reads the clock
 * around whole operations only: one tc_stream_read of up to 1 MiB, one
 * chunker feed, one chunk's parse, census or fold, a site's fold, the writers.
 * Never per event, so a run that is not asked pays one predictable branch
 * per chunk operation and nothing else. The clock is the thread's own CPU
 * time, so time the thread spent descheduled on a busy machine is not
 * charged to the stage it was in. Each worker adds into its own cache line;
 * the run sums them at the end. A stage's time is therefore CPU time summed
 * over the workers. */
#ifndef TC_STAGE_CLOCK_H
#define TC_STAGE_CLOCK_H

#include <stdint.h>
#include <time.h>

typedef enum {
  TC_CLOCK_READ,    /* tc_stream_read: file reads and decompression */
  TC_CLOCK_CHUNK,   /* the chunker: event boundaries, copies into chunks */
  TC_CLOCK_PARSE,   /* simdjson On-Demand over each chunk */
  TC_CLOCK_CENSUS,  /* the per-worker census tables, and what the fold needs copied out */
  TC_CLOCK_KERNELS, /* the in-order fold: B/E and async pairing, the metric kernels */
  TC_CLOCK_FOLD,    /* each site taken out of the workers and folded into the
                       corpus tables, in corpus order (the main thread) */
  TC_CLOCK_WRITE,   /* the DevTools view and every report writer (CPU of every thread) */
  TC_CLOCK_COUNT
} tc_clock_stage;

/* "read + decompress", "chunk", ... for people; static. */
const char *tc_clock_stage_label(tc_clock_stage s);
/* "read_decompress", "chunk", ... for machine outputs; static. */
const char *tc_clock_stage_key(tc_clock_stage s);

static inline uint64_t tc_clock_read(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Monotonic wall nanoseconds. */
static inline uint64_t tc_clock_ns(void) { return tc_clock_read(CLOCK_MONOTONIC); }

/* CPU nanoseconds of the calling thread: what the stage clocks read. */
static inline uint64_t tc_clock_cpu_ns(void) { return tc_clock_read(CLOCK_THREAD_CPUTIME_ID); }

#endif
