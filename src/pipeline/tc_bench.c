#include "pipeline/tc_bench.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tc_corpus.h"
#include "io/tc_stream.h"
#include "json/tc_walk.h"
#include "util/tc_hugepages.h"
#include "util/tc_sysinfo.h"
#include "util/tc_valprof.h"

#define TC_BENCH_READ (1u << 20)

static double seconds_since(uint64_t t0) { return (double)(tc_clock_ns() - t0) * 1e-9; }

/* User + system CPU seconds of the process so far. */
static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
         ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

/* What the job's stage hook records of one run. */
typedef struct {
  tc_bench_result *out;
  tc_bench_sample *s;
  uint64_t write0; /* the process's CPU clock when the run stage ended: the
                      writers run on several threads, and nothing else then */
  uint64_t run0;   /* the wall clock when the run stage began */
} run_watch;

static void on_stage(const tc_census_outcome *o, void *user) {
  run_watch *w = user;
  if (o->err)
    return;
  if (o->stage == TC_STAGE_CORPUS || o->stage == TC_STAGE_STATE) {
    w->run0 = tc_clock_ns();
  } else if (o->stage == TC_STAGE_RUN) {
    const tc_run_result *res = &o->run;
    w->s->run_wall = (double)(tc_clock_ns() - w->run0) * 1e-9;
    w->s->fold_wait = (double)res->fold_wait_ns * 1e-9;
    w->s->worker_idle = (double)res->worker_idle_ns * 1e-9;
    for (int k = 0; k < TC_CLOCK_COUNT; k++)
      w->s->stage[k] = (double)res->stage_ns[k] * 1e-9;
    w->out->threads = res->tables.totals.threads;
    w->out->simd_kernel = res->tables.totals.simd_kernel;
    w->out->json_bytes = res->tables.totals.out_bytes;
    w->out->proto_bytes = res->tables.totals.proto_bytes;
    w->out->events = res->tables.totals.events;
    w->write0 = tc_clock_read(CLOCK_PROCESS_CPUTIME_ID);
  } else if (o->stage == TC_STAGE_WRITE) {
    w->s->stage[TC_CLOCK_WRITE] +=
        (double)(tc_clock_read(CLOCK_PROCESS_CPUTIME_ID) - w->write0) * 1e-9;
  }
}

/* One whole census job into the temporary folder. */
static tc_err pipeline_run(const tc_census_opts *job, tc_bench_result *out, tc_bench_sample *s) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/out", out->tmpdir);
  tc_census_opts j = *job;
  j.outdir = dir;
  j.run.time_stages = 1;
  run_watch w = {out, s, 0, 0};
  tc_census_hooks hooks = {NULL, NULL, NULL, on_stage, &w};
  out->rss_reset = tc_peak_rss_reset();
  double c0 = cpu_seconds();
  uint64_t t0 = tc_clock_ns();
  tc_census_outcome o;
  tc_err e = tc_census_job_run(&j, &hooks, &o);
  s->wall = seconds_since(t0);
  s->cpu = cpu_seconds() - c0;
  s->peak_rss_kib = tc_peak_rss_kib();
  if (e) {
    out->failed_stage = o.stage;
    snprintf(out->why, sizeof out->why, "%s", o.why.reason);
  }
  tc_census_outcome_free(&o);
  return e;
}

/* Walk K over every trace, one thread. */
static tc_err walk_run(const tc_corpus *corpus, tc_bench_walk_kind k, tc_bench_result *out,
                       tc_bench_sample *s) {
  tc_walk *w = tc_walk_create(k == TC_BENCH_VALUES);
  if (!w)
    return TC_E_NOMEM;
  double c0 = cpu_seconds();
  uint64_t t0 = tc_clock_ns();
  out->walks[k].err = TC_OK;
  for (uint32_t i = 0; i < corpus->ntraces; i++) {
    tc_err e = tc_walk_file(w, corpus->traces[i].path);
    if (e == TC_E_NOMEM) {
      tc_walk_free(w);
      return e;
    }
    if (e && !out->walks[k].err) {
      out->walks[k].err = e;
      snprintf(out->walks[k].err_path, sizeof out->walks[k].err_path, "%s",
               corpus->traces[i].path);
    }
  }
  s->walk[k] = seconds_since(t0);
  s->walk_cpu[k] = cpu_seconds() - c0;
  tc_walk_stats st;
  tc_walk_stats_get(w, &st);
  out->walks[k].bytes = st.json_bytes;
  out->walks[k].events = st.events;
  out->walks[k].values = st.values;
  tc_walk_free(w);
  return TC_OK;
}

/* Decompression alone over every trace, into one buffer, one thread. */
static tc_err decompress_run(const tc_corpus *corpus, tc_bench_result *out, tc_bench_sample *s) {
  char *buf = malloc(TC_BENCH_READ);
  if (!buf)
    return TC_E_NOMEM;
  double c0 = cpu_seconds();
  uint64_t t0 = tc_clock_ns(), bytes = 0;
  for (uint32_t i = 0; i < corpus->ntraces; i++) {
    tc_stream *st;
    if (tc_stream_open_regular(corpus->traces[i].path, &st))
      continue;
    size_t got;
    while (!tc_stream_read(st, buf, TC_BENCH_READ, &got) && got)
      bytes += got;
    tc_stream_close(st);
  }
  s->decompress = seconds_since(t0);
  s->decompress_cpu = cpu_seconds() - c0;
  out->decompress_bytes = bytes;
  free(buf);
  return TC_OK;
}

static tc_err make_tmpdir(tc_bench_result *out) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  int n = snprintf(out->tmpdir, sizeof out->tmpdir, "%s/tracecensus-bench-XXXXXX", base);
  if (n < 0 || (size_t)n >= sizeof out->tmpdir || !mkdtemp(out->tmpdir))
    return TC_E_WRITE;
  return TC_OK;
}

/* Removes DIR's files, then DIR. */
static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
      if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
        unlinkat(dirfd(d), de->d_name, 0);
    closedir(d);
  }
  rmdir(dir);
}

/* Removes what the jobs left in the temporary folder: OUTDIR's files and
 * OUTDIR, the output set's lock beside it, then the folder. */
static void remove_tmpdir(const char *tmpdir) {
  char path[512];
  snprintf(path, sizeof path, "%s/out", tmpdir);
  remove_dir(path);
  remove_dir(tmpdir);
}

tc_err tc_bench_run(const tc_census_opts *job, const tc_bench_opts *opts, tc_bench_result *out) {
  memset(out, 0, sizeof *out);
  out->warmup = opts->warmup;
  out->baseline = opts->baseline;
  const tc_run_opts *ro = &job->run;
  out->chunk_bytes = ro->chunk_bytes ? ro->chunk_bytes : TC_DEFAULT_CHUNK_BYTES;
  out->no_metrics = ro->no_metrics;
  out->whole_urls = (ro->value_flags & TC_VP_WHOLE_URLS) != 0;
  out->value_sites = ro->value_sites;
  out->scope = ro->scope;
  /* The baseline reads the files the census reads. */
  tc_corpus corpus;
  tc_err e = tc_corpus_scan(job->inputs, job->ninputs, job->manifest, &corpus);
  if (e) {
    out->failed_stage = TC_STAGE_CORPUS;
    return e;
  }
  out->sites = corpus.nsites;
  out->traces = corpus.ntraces;
  out->file_bytes = corpus.bytes;
  tc_cpu_model(out->cpu_model, sizeof out->cpu_model);
  tc_cpu_flags(out->cpu_flags, sizeof out->cpu_flags);
  out->thp_mode = tc_thp_mode_name(tc_thp_mode_now());
  tc_hugetlb_setting(getenv("GLIBC_TUNABLES"), out->malloc_hugetlb, sizeof out->malloc_hugetlb);
  out->samples = calloc(opts->runs ? opts->runs : 1, sizeof *out->samples);
  e = out->samples ? make_tmpdir(out) : TC_E_NOMEM;
  /* Warm-ups first, then the measured runs; each run is the pipeline, then
   * (with the baseline) the walks and decompression alone, so all of them
   * meet the same load. */
  for (unsigned i = 0; !e && i < opts->warmup + opts->runs; i++) {
    tc_bench_sample scratch, *s = i < opts->warmup ? &scratch : &out->samples[i - opts->warmup];
    memset(s, 0, sizeof *s);
    s->decompress = s->decompress_cpu = NAN;
    for (int k = 0; k < TC_BENCH_NWALKS; k++)
      s->walk[k] = s->walk_cpu[k] = NAN;
    e = pipeline_run(job, out, s);
    for (int k = 0; !e && opts->baseline && k < TC_BENCH_NWALKS; k++)
      e = walk_run(&corpus, (tc_bench_walk_kind)k, out, s);
    if (!e && opts->baseline)
      e = decompress_run(&corpus, out, s);
    if (!e && i >= opts->warmup)
      out->nsamples++;
  }
  if (out->tmpdir[0])
    remove_tmpdir(out->tmpdir);
  tc_corpus_free(&corpus);
  return e;
}

void tc_bench_result_free(tc_bench_result *r) {
  free(r->samples);
  r->samples = NULL;
  r->nsamples = 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

tc_bench_stat tc_bench_stats(const double *v, unsigned n) {
  tc_bench_stat st = {NAN, NAN, NAN};
  double *s = malloc((n ? n : 1) * sizeof *s);
  if (!s)
    return st;
  unsigned m = 0;
  for (unsigned i = 0; i < n; i++)
    if (!isnan(v[i]))
      s[m++] = v[i];
  if (m) {
    qsort(s, m, sizeof *s, cmp_double);
    /* An even count takes the mean of the middle two, as hyperfine does. */
    st.median = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
    st.min = s[0];
    st.max = s[m - 1];
  }
  free(s);
  return st;
}

double tc_bench_seconds(const tc_bench_sample *s, tc_bench_series which, int stage) {
  switch (which) {
  case TC_BENCH_STAGE:
    return s->stage[stage];
  case TC_BENCH_WALL:
    return s->wall;
  case TC_BENCH_WALK:
    return s->walk[stage];
  case TC_BENCH_DECOMPRESS:
    return s->decompress;
  case TC_BENCH_CPU:
    return s->cpu;
  case TC_BENCH_WALK_CPU:
    return s->walk_cpu[stage];
  case TC_BENCH_DECOMPRESS_CPU:
    return s->decompress_cpu;
  }
  return NAN;
}

/* The statistics of one series over the runs. */
static tc_bench_stat stat_of(const tc_bench_result *r, tc_bench_series which, int stage) {
  double v[r->nsamples ? r->nsamples : 1];
  for (unsigned i = 0; i < r->nsamples; i++)
    v[i] = tc_bench_seconds(&r->samples[i], which, stage);
  return tc_bench_stats(v, r->nsamples);
}

/* Medians of the per-run peak and of the per-run share of stage K. */
static tc_bench_stat rss_stat(const tc_bench_result *r) {
  double v[r->nsamples ? r->nsamples : 1];
  for (unsigned i = 0; i < r->nsamples; i++)
    v[i] = (double)r->samples[i].peak_rss_kib;
  return tc_bench_stats(v, r->nsamples);
}

/* The median over the runs of the workers' sleep over threads x the run's
 * wall time (WORKERS), or of the main thread's wait over that wall time. */
static double idle_median(const tc_bench_result *r, int workers) {
  double v[r->nsamples ? r->nsamples : 1];
  for (unsigned i = 0; i < r->nsamples; i++) {
    const tc_bench_sample *s = &r->samples[i];
    double whole = s->run_wall * (workers ? (r->threads ? r->threads : 1) : 1);
    v[i] = whole > 0 ? (workers ? s->worker_idle : s->fold_wait) / whole : NAN;
  }
  return tc_bench_stats(v, r->nsamples).median;
}

static double share_median(const tc_bench_result *r, int k) {
  double v[r->nsamples ? r->nsamples : 1];
  for (unsigned i = 0; i < r->nsamples; i++) {
    const tc_bench_sample *s = &r->samples[i];
    double sum = 0;
    for (int j = 0; j < TC_CLOCK_COUNT; j++)
      sum += s->stage[j];
    v[i] = sum > 0 ? s->stage[k] / sum : NAN;
  }
  return tc_bench_stats(v, r->nsamples).median;
}

/* Seconds to AMOUNT per second: the reciprocal keeps the median and swaps
 * min and max. */
static tc_bench_stat rate_of(tc_bench_stat sec, double amount) {
  tc_bench_stat r = {amount / sec.median, amount / sec.max, amount / sec.min};
  return r;
}

/* The median of the per-run ratios of the baseline's seconds (walk K) to
 * the run's. */
static double ratio_of(const tc_bench_result *r, tc_bench_series base, int k, tc_bench_series run) {
  double v[r->nsamples ? r->nsamples : 1];
  for (unsigned i = 0; i < r->nsamples; i++)
    v[i] = tc_bench_seconds(&r->samples[i], base, k) / tc_bench_seconds(&r->samples[i], run, 0);
  return tc_bench_stats(v, r->nsamples).median;
}

static tc_bench_line line_of(tc_bench_stat sec, uint64_t bytes) {
  tc_bench_line l = {sec, rate_of(sec, (double)bytes / 1e6), NAN};
  return l;
}

void tc_bench_summarize(const tc_bench_result *r, tc_bench_summary *out) {
  for (int k = 0; k < TC_CLOCK_COUNT; k++) {
    out->stage[k] = line_of(stat_of(r, TC_BENCH_STAGE, k), r->json_bytes);
    out->stage[k].share = share_median(r, k);
  }
  out->whole = line_of(stat_of(r, TC_BENCH_WALL, 0), r->json_bytes);
  out->events_per_s = rate_of(out->whole.seconds, (double)r->events);
  out->peak_rss_kib = rss_stat(r);
  for (int k = 0; k < TC_BENCH_NWALKS; k++) {
    int ok = r->baseline && !r->walks[k].err;
    out->walk[k] = line_of(stat_of(r, TC_BENCH_WALK, k), r->walks[k].bytes);
    out->walk_cpu[k] = line_of(stat_of(r, TC_BENCH_WALK_CPU, k), r->walks[k].bytes);
    out->ratio_walk[k] = ok ? ratio_of(r, TC_BENCH_WALK, k, TC_BENCH_WALL) : NAN;
    out->ratio_walk_cpu[k] = ok ? ratio_of(r, TC_BENCH_WALK_CPU, k, TC_BENCH_CPU) : NAN;
  }
  out->decompress = line_of(stat_of(r, TC_BENCH_DECOMPRESS, 0), r->decompress_bytes);
  out->ratio_decompress = r->baseline ? ratio_of(r, TC_BENCH_DECOMPRESS, 0, TC_BENCH_WALL) : NAN;
  out->cpu = line_of(stat_of(r, TC_BENCH_CPU, 0), r->json_bytes);
  out->decompress_cpu = line_of(stat_of(r, TC_BENCH_DECOMPRESS_CPU, 0), r->decompress_bytes);
  out->ratio_decompress_cpu =
      r->baseline ? ratio_of(r, TC_BENCH_DECOMPRESS_CPU, 0, TC_BENCH_CPU) : NAN;
  out->worker_idle_share = idle_median(r, 1);
  out->fold_wait_share = idle_median(r, 0);
}
