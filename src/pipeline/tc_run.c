/* A run: the engine and the window set up over one shared state
 * (tc_run_ctx.h), the window run, and everything torn down again, the
 * corpus fold finished into the result only when all went well. */
#include "pipeline/tc_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/tc_partial.h"
#include "pipeline/tc_run_ctx.h"
#include "util/tc_time.h"

void tc_run_opts_default(tc_run_opts *o) {
  memset(o, 0, sizeof *o);
  o->value_sites = TC_VALUE_SITES_DEFAULT;
  tc_kernel_opts_default(&o->kernels);
}

tc_err tc_run_opts_check(const tc_run_opts *o, char *why, size_t cap) {
  char none[1];
  if (!why) {
    why = none;
    cap = sizeof none;
  }
  if (o->threads > TC_MAX_THREADS) {
    snprintf(why, cap, "threads must be an integer from 0 (all CPUs) to %u", TC_MAX_THREADS);
    return TC_E_USAGE;
  }
  if (o->chunk_bytes && (o->chunk_bytes < TC_MIN_CHUNK_BYTES || o->chunk_bytes > TC_MAX_CHUNK_BYTES)) {
    snprintf(why, cap, "chunk_bytes must be an integer from %zu to %zu", TC_MIN_CHUNK_BYTES,
             TC_MAX_CHUNK_BYTES);
    return TC_E_USAGE;
  }
  if (o->inflight > TC_MAX_INFLIGHT) {
    snprintf(why, cap, "inflight must be an integer from 0 (2 per thread and 2) to %u",
             TC_MAX_INFLIGHT);
    return TC_E_USAGE;
  }
  return tc_kernel_opts_check(&o->kernels, why, cap);
}

/* The run's options with the defaults resolved, and its slots. */
static tc_err setup(tc__run *r, const tc_corpus *corpus, const tc_run_opts *opts) {
  memset(r, 0, sizeof *r);
  r->corpus = corpus;
  r->opts = *opts;
  if (!r->opts.threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    r->opts.threads = n > 0 ? (unsigned)n : 1;
  }
  if (!r->opts.chunk_bytes)
    r->opts.chunk_bytes = TC_DEFAULT_CHUNK_BYTES;
  if (!r->opts.inflight)
    r->opts.inflight = 2 * r->opts.threads + 2;
  r->nw = r->opts.threads;
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  r->nslots = tc__window_slots(corpus, r->nw);
  r->status = calloc(r->nslots, sizeof *r->status);
  r->tmetrics = calloc(r->nslots, sizeof *r->tmetrics);
  r->done = calloc(r->nslots, 1);
  r->tvalues = calloc(r->nslots, sizeof *r->tvalues);
  r->tmaps = calloc(r->nslots, sizeof *r->tmaps);
  r->free_slots = malloc(r->nslots * sizeof *r->free_slots);
  for (uint32_t i = 0; r->free_slots && i < r->nslots; i++)
    r->free_slots[r->nfree++] = r->nslots - 1 - i;
  r->fold = tc_corpus_fold_create(!r->opts.no_metrics);
  if (!r->status || !r->tmetrics || !r->done || !r->tvalues || !r->tmaps || !r->free_slots ||
      !r->fold)
    return TC_E_NOMEM;
  tc_err e = tc__engine_setup(r);
  if (!e && r->opts.state_dir &&
      !(r->settings = tc_partial_settings(!r->opts.no_metrics, &r->opts.kernels, r->opts.scope,
                                          r->opts.value_flags)))
    e = TC_E_NOMEM;
  if (!e && r->opts.time_stages) {
    r->clocks = aligned_alloc(_Alignof(tc__worker_clock), r->nw * sizeof *r->clocks);
    if (!r->clocks)
      return TC_E_NOMEM;
    memset(r->clocks, 0, r->nw * sizeof *r->clocks);
  }
  if (!e && !(r->pool = tc_pool_create(r->nw)))
    e = TC_E_NOMEM;
  return e;
}

/* Everything setup made but the fold; what the slots still hold belongs to
 * sites an error or an interrupt left unfolded. */
static void teardown(tc__run *r, tc_run_result *out) {
  if (r->clocks && r->pool)
    out->worker_idle_ns = tc_pool_idle_ns(r->pool);
  tc_pool_free(r->pool);
  tc__engine_teardown(r);
  for (uint32_t i = 0; r->tvalues && i < r->nslots; i++)
    tc_trace_values_free(r->tvalues[i]);
  for (uint32_t i = 0; r->tmaps && i < r->nslots; i++)
    tc_procmap_free(r->tmaps[i]);
  for (uint32_t i = 0; r->tmetrics && i < r->nslots; i++)
    tc_trace_metrics_free(r->tmetrics[i]);
  for (uint32_t i = 0; r->status && i < r->nslots; i++)
    free(r->status[i].meta);
  if (r->clocks) {
    out->fold_wait_ns = r->wait_ns;
    for (unsigned i = 0; i < r->nw; i++)
      for (int k = 0; k < TC_CLOCK_COUNT; k++)
        out->stage_ns[k] += r->clocks[i].ns[k];
  }
  free(r->clocks);
  free(r->tvalues);
  free(r->tmaps);
  free(r->status);
  free(r->tmetrics);
  free(r->done);
  free(r->free_slots);
  free(r->settings);
  pthread_mutex_destroy(&r->mu);
  pthread_cond_destroy(&r->cv);
}

tc_err tc_run(const tc_corpus *corpus, const tc_run_opts *opts, tc_run_result *out) {
  memset(out, 0, sizeof *out);
  if (tc_run_opts_check(opts, NULL, 0))
    return TC_E_USAGE;
  double t0 = tc_now_seconds();
  tc__run r;
  tc_err e = setup(&r, corpus, opts);
  if (!e)
    e = tc__window_run(&r, out);
  uint64_t fold_ns = r.fold_ns;
  int timed = r.clocks != NULL;
  teardown(&r, out);
  uint64_t fold0 = timed ? tc_clock_cpu_ns() : 0;
  if (!e)
    e = tc_corpus_fold_finish(r.fold, r.opts.scope, r.opts.value_sites, &out->tables);
  else
    tc_corpus_fold_free(r.fold);
  if (timed)
    out->stage_ns[TC_CLOCK_FOLD] = fold_ns + tc_clock_cpu_ns() - fold0;
  out->tables.totals.threads = r.nw;
  out->tables.totals.simd_kernel = tc_parser_kernel();
  out->tables.totals.seconds = tc_now_seconds() - t0;
  if (e) {
    /* Only the counts survive a failed run. */
    tc_corpus_tables_free(&out->tables);
    out->tables.totals.threads = r.nw;
  }
  return e;
}

void tc_run_result_free(tc_run_result *r) {
  if (!r)
    return;
  tc_corpus_tables_free(&r->tables);
  memset(r, 0, sizeof *r);
}
