/* `tracecensus bench`: the whole pipeline run K times after W warm-ups,
 * timed per stage (tc_stage_clock.h), and optionally, in the same process
 * and interleaved with those runs, three baselines over the same files:
 * the On-Demand walk that reads every args value (json/tc_walk.h; the fair
 * anchor, as the census reads every value), the key-only walk, and
 * decompression alone. Interleaving
 * puts every variant under the same machine load, so their ratios hold on a
 * shared, noisy machine where lone absolute times do not.
 *
 * Each run is the whole census job (tc_census_job_run: options, schema,
 * inputs, output set, corpus, run, DevTools view and every writer, commit)
 * with its OUTDIR in a temporary folder (mkdtemp in $TMPDIR, else /tmp)
 * that is removed at the end: the write stage is measured, nothing reaches a
 * user's folder. The bench never prints; see report/tc_bench_report.h. */
#ifndef TC_BENCH_H
#define TC_BENCH_H

#include <stdint.h>

#include "pipeline/tc_census_job.h"
#include "pipeline/tc_run.h"
#include "pipeline/tc_stage_clock.h"
#include "util/tc_error.h"

typedef struct {
  unsigned runs;   /* measured runs, >= 1 */
  unsigned warmup; /* runs before them, not recorded */
  int baseline;    /* also the two walks and decompression alone */
} tc_bench_opts;

/* The two walks: keys only (the plain walk), and every args value read. */
typedef enum { TC_BENCH_KEYS, TC_BENCH_VALUES, TC_BENCH_NWALKS } tc_bench_walk_kind;

/* One measured run. Seconds; the baseline's are NaN without --baseline.
 * The CPU seconds (user + system of the whole process, every thread) are
 * what a shared machine disturbs least. */
typedef struct {
  double wall;                  /* the run, its writers included */
  double cpu;
  double walk_cpu[TC_BENCH_NWALKS], decompress_cpu;
  double stage[TC_CLOCK_COUNT]; /* CPU seconds, summed over the workers */
  uint64_t peak_rss_kib;        /* of this run alone when the peak could be reset */
  double walk[TC_BENCH_NWALKS], decompress;
  /* The run stage's wall seconds (tc_run: the scan and the writers left
   * out), the main thread's wait for sites to fold in it, and the workers'
   * time asleep for want of work (summed over them). */
  double run_wall, fold_wait, worker_idle;
} tc_bench_sample;

typedef struct {
  tc_bench_sample *samples; /* runs of them, in run order; owned */
  unsigned nsamples, warmup;
  int baseline;
  /* The corpus as the pipeline read it (the same every run). */
  uint32_t sites, traces;
  uint64_t file_bytes, json_bytes, events;
  uint64_t proto_bytes; /* of json_bytes, those of Perfetto protobuf traces */
  unsigned threads;
  /* The census measured, as the job set it. */
  size_t chunk_bytes; /* the default resolved */
  int no_metrics, whole_urls;
  uint32_t value_sites;
  tc_census_scope scope;
  const char *simd_kernel; /* static */
  int rss_reset;           /* the peak could be reset before each run */
  char cpu_model[128];
  char cpu_flags[256];
  /* The heap's pages: the kernel's transparent huge page mode (static) and
   * glibc.malloc.hugetlb as this process started with it ("" unset). */
  const char *thp_mode;
  char malloc_hugetlb[16];
  char tmpdir[256];        /* where the runs wrote (removed) */
  /* A job that failed: the stage, and why (tc_census_outcome's why). */
  tc_census_stage failed_stage;
  char why[512];
  /* Baseline: decompressed bytes each walk and the decompression read (equal
   * to json_bytes unless a stream failed), what each walk counted, and the
   * first file it could not walk. */
  struct {
    uint64_t bytes, events, values;
    tc_err err;
    char err_path[256];
  } walks[TC_BENCH_NWALKS];
  uint64_t decompress_bytes;
} tc_bench_result;

/* Runs the bench over the census JOB (its outdir is ignored, and its
 * run.time_stages set here). Fails on memory, a temporary folder that
 * cannot be made, or a job that fails (failed_stage and why say where).
 * Free OUT with tc_bench_result_free whatever it returns. */
tc_err tc_bench_run(const tc_census_opts *job, const tc_bench_opts *opts, tc_bench_result *out);

void tc_bench_result_free(tc_bench_result *r);

/* The seconds a sample holds for one line of the table. */
typedef enum {
  TC_BENCH_STAGE,
  TC_BENCH_WALL,
  TC_BENCH_WALK,
  TC_BENCH_DECOMPRESS,
  TC_BENCH_CPU,
  TC_BENCH_WALK_CPU,
  TC_BENCH_DECOMPRESS_CPU
} tc_bench_series;

/* STAGE is a tc_clock_stage for TC_BENCH_STAGE, the tc_bench_walk_kind for
 * the walks, ignored otherwise. */
double tc_bench_seconds(const tc_bench_sample *s, tc_bench_series which, int stage);

/* Median, minimum and maximum of N values (NaN values left out; all NaN
 * when none is left). */
typedef struct {
  double median, min, max;
} tc_bench_stat;

tc_bench_stat tc_bench_stats(const double *v, unsigned n);

/* One line of the bench's table: the statistics of its seconds over the
 * runs, the same as MB/s of JSON (bytes over each statistic, so the fastest
 * run is the max), and, for a stage, the median share of the stages'
 * summed time. */
typedef struct {
  tc_bench_stat seconds, mb_per_s;
  double share; /* NaN for lines that are not stages */
} tc_bench_line;

/* What the tables print, derived from the samples in one place. A ratio is
 * the median over the runs of the baseline's seconds over the pipeline's
 * (each pair ran back to back, under the same load): above 1, tracecensus
 * does its whole census faster than the baseline reads the same bytes.
 * NaN without the baseline, or when the walk failed on a file. The CPU
 * ratios compare CPU seconds the same way (at one thread, the ratio of
 * per-core efficiency, which the machine's load barely moves). */
typedef struct {
  tc_bench_line stage[TC_CLOCK_COUNT];
  tc_bench_line whole; /* wall time, writers included */
  tc_bench_stat events_per_s;
  tc_bench_stat peak_rss_kib;
  tc_bench_line walk[TC_BENCH_NWALKS], decompress;
  double ratio_walk[TC_BENCH_NWALKS], ratio_decompress;
  /* The same from CPU seconds: MB/s per CPU-second, and their ratios. */
  tc_bench_line cpu, walk_cpu[TC_BENCH_NWALKS], decompress_cpu;
  double ratio_walk_cpu[TC_BENCH_NWALKS], ratio_decompress_cpu;
  /* Medians over the runs of the workers' sleep over threads x the run
   * stage's wall time, and of the main thread's wait over that wall time. */
  double worker_idle_share, fold_wait_share;
} tc_bench_summary;

void tc_bench_summarize(const tc_bench_result *r, tc_bench_summary *out);

#endif
