#include "pipeline/tc_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "census/tc_census.h"
#include "census/tc_pairing.h"
#include "pipeline/tc_route.h"
#include "pipeline/tc_seq.h"
#include "json/tc_parser.h"
#include "pool/tc_pool.h"

#define TC_DEFAULT_CHUNK (1u << 20)
#define TC_READ_BYTES (1u << 20)
#define TC_MAX_EVENT ((size_t)512 << 20)

typedef struct {
  tc_parser *parser;
  tc_census_worker *census;
} worker_ctx;

/* One worker's stage times, on a cache line of its own. */
typedef struct {
  _Alignas(64) uint64_t ns[TC_CLOCK_COUNT];
} worker_clock;

typedef struct {
  const tc_corpus *corpus;
  tc_run_opts opts;
  tc_pool *pool;
  worker_ctx *workers;
  unsigned nw;
  tc_trace_status *status;
  tc_metrics_set *metrics; /* thread-safe adds */
  worker_clock *clocks;    /* by worker; NULL unless time_stages */
} run_ctx;

typedef struct {
  tc_seq seq;
  int ready; /* parsed, waiting to be folded */
} slot;

typedef struct {
  run_ctx *run;
  uint32_t idx;
  pthread_mutex_t mu;   /* guards everything below, and status[idx] */
  pthread_cond_t cv;    /* signalled when a chunk is folded */
  uint64_t spawned;     /* chunks handed to the pool */
  uint64_t folded;      /* chunks folded, in order */
  int reading_done, folding, finished;
  slot *ring;           /* chunk seq % inflight */
  unsigned inflight;
  tc_pairing *pairing;  /* touched only by the folding worker */
  tc_kernels *kernels;  /* likewise; NULL with no_metrics */
} trace_job;

typedef struct {
  trace_job *t;
  tc_chunk *chunk;
} chunk_job;

void tc_run_opts_default(tc_run_opts *o) {
  memset(o, 0, sizeof *o);
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

/* Stage timing around whole chunk operations; a branch when not asked. */
static inline uint64_t clock_start(const run_ctx *r) {
  return r->clocks ? tc_clock_cpu_ns() : 0;
}

static inline void clock_stop(run_ctx *r, unsigned worker, tc_clock_stage s, uint64_t t0) {
  if (r->clocks)
    r->clocks[worker].ns[s] += tc_clock_cpu_ns() - t0;
}

/* Keeps the TC_TRACE_MAX_ERRORS errors with the smallest indices, so the
 * report does not depend on which chunk finished first. Caller holds mu. */
static void record_error(tc_trace_status *st, uint64_t index, uint64_t offset, tc_err code) {
  st->bad_events++;
  size_t n = st->nerrors;
  if (n == TC_TRACE_MAX_ERRORS) {
    if (index >= st->errors[n - 1].index)
      return;
    n--;
  }
  size_t at = n;
  while (at > 0 && st->errors[at - 1].index > index) {
    st->errors[at] = st->errors[at - 1];
    at--;
  }
  st->errors[at].index = index;
  st->errors[at].offset = offset;
  st->errors[at].code = code;
  st->nerrors = n + 1;
}

/* The metrics of a finished trace go to the run's set. */
static tc_err finish_kernels(trace_job *t) {
  run_ctx *r = t->run;
  const tc_trace_status *st = &r->status[t->idx];
  /* Any stream error ends the trace early, as does an event cut off. */
  int cut = st->stream_err != TC_OK || st->shape.cut_event;
  tc_trace_ref ref = {r->corpus->sites[r->corpus->traces[t->idx].site].name,
                      r->corpus->traces[t->idx].path, cut, st->bad_events > 0};
  tc_trace_metrics *m;
  tc_err e = st->fatal ? tc_metrics_unreadable(&ref, tc_strerror(st->fatal), &m)
                       : tc_kernels_finish(t->kernels, &ref, &m);
  return e ? e : tc_metrics_set_add(r->metrics, m);
}

static void finalize_trace(trace_job *t, unsigned worker) {
  run_ctx *r = t->run;
  uint64_t t0 = clock_start(r);
  tc_err e = tc_pairing_finish(t->pairing, r->workers[worker].census,
                               r->corpus->traces[t->idx].site);
  if (!e && t->kernels)
    e = finish_kernels(t);
  if (e && !r->status[t->idx].fatal)
    r->status[t->idx].fatal = e;
  clock_stop(r, worker, TC_CLOCK_KERNELS, t0);
  if (r->opts.progress)
    atomic_fetch_add(&r->opts.progress->traces_done, 1);
}

static tc_err fold_seq(trace_job *t, const tc_seq *seq) {
  if (t->kernels)
    for (size_t i = 0; i < seq->nspans; i++) {
      const tc_thread_span *sp = &seq->spans[i];
      tc_kernels_thread_span(t->kernels, &(tc_kspan_in){sp->pid, sp->tid, sp->min_ts, sp->max_ts,
                                                        sp->max_end, sp->events});
    }
  /* Events and compact task slices are each in trace order: merge them. */
  size_t j = 0;
  for (size_t i = 0; i < seq->nevents; i++) {
    const tc_kevent *ev = &seq->events[i];
    for (; j < seq->ntasks && seq->tasks[j].index < ev->index; j++)
      tc_kernels_feed_task(t->kernels, &seq->tasks[j]);
    tc_err e = tc_pairing_feed(t->pairing, ev);
    if (e)
      return e;
    if (t->kernels && ev->for_kernels)
      tc_kernels_feed(t->kernels, ev);
  }
  for (; j < seq->ntasks; j++)
    tc_kernels_feed_task(t->kernels, &seq->tasks[j]);
  return TC_OK;
}

/* Folds every consecutive ready chunk; returns 1 if the trace is complete
 * and this caller must finalize it. Caller holds mu; it is dropped while a
 * chunk is folded, and `folding` keeps a second folder out. */
static int fold_ready(trace_job *t, unsigned worker) {
  if (t->folding)
    return 0;
  t->folding = 1;
  for (;;) {
    slot *s = &t->ring[t->folded % t->inflight];
    if (t->folded == t->spawned || !s->ready)
      break;
    pthread_mutex_unlock(&t->mu);
    uint64_t t0 = clock_start(t->run);
    tc_err e = fold_seq(t, &s->seq);
    tc_seq_free(&s->seq);
    clock_stop(t->run, worker, TC_CLOCK_KERNELS, t0);
    pthread_mutex_lock(&t->mu);
    if (e && !t->run->status[t->idx].fatal)
      t->run->status[t->idx].fatal = e;
    s->ready = 0;
    t->folded++;
    pthread_cond_broadcast(&t->cv);
  }
  t->folding = 0;
  if (t->reading_done && t->folded == t->spawned && !t->finished) {
    t->finished = 1;
    return 1;
  }
  return 0;
}

static void trace_job_free(trace_job *t) {
  for (unsigned i = 0; t->ring && i < t->inflight; i++)
    tc_seq_free(&t->ring[i].seq);
  free(t->ring);
  tc_pairing_free(t->pairing);
  tc_kernels_free(t->kernels);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->cv);
  free(t);
}

static void chunk_task(void *arg, unsigned worker) {
  chunk_job *cj = arg;
  trace_job *t = cj->t;
  run_ctx *r = t->run;
  worker_ctx *w = &r->workers[worker];
  tc_chunk *c = cj->chunk;
  slot *s = &t->ring[c->seq % t->inflight];
  tc_origin o = {r->corpus->traces[t->idx].site, t->idx};
  tc_parsed p;
  uint64_t t0 = clock_start(r);
  tc_err e = tc_parser_parse(w->parser, c, &p);
  clock_stop(r, worker, TC_CLOCK_PARSE, t0);
  uint64_t good = 0, lenient = 0;
  if (!e) {
    t0 = clock_start(r);
    e = tc_census_add_chunk(w->census, o, c, &p);
    if (!e)
      e = tc_route_chunk(c, &p, !r->opts.no_metrics, &s->seq);
    for (size_t i = 0; i < p.nevents; i++) {
      good += p.events[i].err == TC_OK;
      lenient += p.events[i].err == TC_OK && (p.events[i].flags & TC_EV_LENIENT);
    }
    clock_stop(r, worker, TC_CLOCK_CENSUS, t0);
  }
  pthread_mutex_lock(&t->mu);
  tc_trace_status *st = &r->status[t->idx];
  if (e && !st->fatal)
    st->fatal = e;
  if (!e) {
    st->events += good;
    st->lenient_events += lenient;
    for (size_t i = 0; i < p.nevents; i++)
      if (p.events[i].err)
        record_error(st, c->events[i].index, c->events[i].offset, p.events[i].err);
  }
  s->ready = 1;
  int fin = fold_ready(t, worker);
  pthread_mutex_unlock(&t->mu);
  tc_chunk_free(c);
  free(cj);
  if (fin) {
    finalize_trace(t, worker);
    trace_job_free(t);
  }
}

/* Blocks until fewer than `inflight` chunks are unfolded, running other pool
 * work meanwhile. */
static void throttle(trace_job *t, unsigned worker) {
  pthread_mutex_lock(&t->mu);
  while (t->spawned - t->folded >= t->inflight) {
    pthread_mutex_unlock(&t->mu);
    int helped = tc_pool_help(t->run->pool, worker);
    pthread_mutex_lock(&t->mu);
    if (!helped && t->spawned - t->folded >= t->inflight) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += 1000000;
      if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
      }
      pthread_cond_timedwait(&t->cv, &t->mu, &ts);
    }
  }
  pthread_mutex_unlock(&t->mu);
}

static tc_err spawn_chunk(trace_job *t, unsigned worker, tc_chunk *c) {
  throttle(t, worker);
  chunk_job *cj = malloc(sizeof *cj);
  if (!cj) {
    tc_chunk_free(c);
    return TC_E_NOMEM;
  }
  cj->t = t;
  cj->chunk = c;
  pthread_mutex_lock(&t->mu);
  t->spawned++;
  t->run->status[t->idx].chunks++;
  pthread_mutex_unlock(&t->mu);
  tc_err e = tc_pool_spawn(t->run->pool, worker, chunk_task, cj);
  if (e) {
    /* Run it here rather than lose it. */
    chunk_task(cj, worker);
  }
  return TC_OK;
}

static void copy_shape(tc_trace_status *st, const tc_chunker *ch) {
  tc_chunker_shape(ch, &st->shape);
  if (st->shape.metadata.len) {
    st->meta = malloc(st->shape.metadata.len + 1);
    if (st->meta) {
      memcpy(st->meta, st->shape.metadata.ptr, st->shape.metadata.len);
      st->meta[st->shape.metadata.len] = '\0';
    }
  }
  st->shape.metadata.ptr = st->meta;
  if (!st->meta)
    st->shape.metadata.len = 0;
}

/* Reads the whole stream through the chunker, spawning chunks. */
static tc_err read_trace(trace_job *t, unsigned worker, tc_stream *s, tc_chunker *ch, char *buf,
                         tc_trace_status *st) {
  run_ctx *r = t->run;
  tc_progress *prog = r->opts.progress;
  uint64_t in_before = 0;
  tc_err fatal = TC_OK;
  for (;;) {
    size_t got = 0;
    uint64_t t0 = clock_start(r);
    tc_err se = tc_stream_read(s, buf, TC_READ_BYTES, &got);
    clock_stop(r, worker, TC_CLOCK_READ, t0);
    uint64_t in_now = tc_stream_in_bytes(s);
    if (prog)
      atomic_fetch_add(&prog->bytes_done, in_now - in_before);
    in_before = in_now;
    size_t pos = 0;
    while (pos < got) {
      tc_chunk *ready = NULL;
      t0 = clock_start(r);
      tc_err fe = tc_chunker_feed(ch, buf, got, &pos, &ready);
      clock_stop(r, worker, TC_CLOCK_CHUNK, t0);
      if (ready && (fatal = spawn_chunk(t, worker, ready)))
        return fatal;
      if (fe)
        return fe;
    }
    if (se) {
      st->stream_err = se;
      st->stream_offset = tc_stream_out_bytes(s);
      break;
    }
    if (got == 0)
      break;
  }
  tc_chunk *last = NULL;
  uint64_t t0 = clock_start(r);
  tc_err fe = tc_chunker_finish(ch, &last);
  clock_stop(r, worker, TC_CLOCK_CHUNK, t0);
  if (last && (fatal = spawn_chunk(t, worker, last)))
    return fatal;
  /* A stream that failed before its first byte of JSON is not an empty
   * trace: the stream's error is why nothing was read. */
  if (fe == TC_E_EMPTY_TRACE && st->stream_err) {
    fe = st->stream_err;
    st->stream_err = TC_OK;
  }
  return fe;
}

static void trace_task(void *arg, unsigned worker) {
  trace_job *t = arg;
  run_ctx *r = t->run;
  const tc_trace *tr = &r->corpus->traces[t->idx];
  tc_stream *s = NULL;
  tc_chunker *ch = NULL;
  char *buf = NULL;
  /* The corpus listed a regular file; it may have become a FIFO since. */
  tc_err e = tc_stream_open_regular(tr->path, &s);
  tc_err fatal = e;
  if (!e) {
    ch = tc_chunker_create(r->opts.chunk_bytes, TC_MAX_EVENT);
    buf = malloc(TC_READ_BYTES);
    fatal = ch && buf ? read_trace(t, worker, s, ch, buf, &r->status[t->idx]) : TC_E_NOMEM;
  }
  pthread_mutex_lock(&t->mu);
  tc_trace_status *st = &r->status[t->idx];
  if (fatal && !st->fatal)
    st->fatal = fatal;
  if (s) {
    st->format = tc_stream_format(s);
    st->in_bytes = tc_stream_in_bytes(s);
    st->out_bytes = tc_stream_out_bytes(s);
  }
  if (ch) {
    uint64_t count;
    size_t kept;
    const tc_chunk_error *errs = tc_chunker_errors(ch, &count, &kept);
    for (size_t i = 0; i < kept; i++)
      record_error(st, errs[i].index, errs[i].offset, errs[i].code);
    st->bad_events += count - kept;
    st->elements = tc_chunker_elements(ch);
    copy_shape(st, ch);
  }
  t->reading_done = 1;
  int fin = fold_ready(t, worker);
  pthread_mutex_unlock(&t->mu);
  tc_chunker_free(ch);
  tc_stream_close(s);
  free(buf);
  if (fin) {
    finalize_trace(t, worker);
    trace_job_free(t);
  }
}

static trace_job *trace_job_new(run_ctx *r, uint32_t idx) {
  trace_job *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->run = r;
  t->idx = idx;
  t->inflight = r->opts.inflight;
  t->ring = calloc(t->inflight, sizeof *t->ring);
  t->pairing = tc_pairing_create();
  if (!r->opts.no_metrics)
    t->kernels = tc_kernels_create(&r->opts.kernels);
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  if (!t->ring || !t->pairing || (!r->opts.no_metrics && !t->kernels)) {
    trace_job_free(t);
    return NULL;
  }
  for (unsigned i = 0; i < t->inflight; i++)
    tc_seq_init(&t->ring[i].seq);
  return t;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Largest traces first, so the long ones start early; ties by index. */
typedef struct {
  uint64_t size;
  uint32_t idx;
} by_size;

static int by_size_desc(const void *a, const void *b) {
  const by_size *x = a, *y = b;
  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

static tc_err setup_workers(run_ctx *r) {
  r->workers = calloc(r->nw, sizeof *r->workers);
  if (!r->workers)
    return TC_E_NOMEM;
  size_t nwanted;
  const char *const *wanted = tc_kernels_arg_paths(&nwanted);
  for (unsigned i = 0; i < r->nw; i++) {
    r->workers[i].parser = tc_parser_create(wanted, nwanted);
    if (!r->workers[i].parser)
      return TC_E_NOMEM;
    r->workers[i].census =
        tc_census_worker_create(r->corpus->nsites, r->workers[i].parser);
    if (!r->workers[i].census)
      return TC_E_NOMEM;
  }
  return TC_OK;
}

static void free_workers(run_ctx *r) {
  for (unsigned i = 0; r->workers && i < r->nw; i++) {
    tc_census_worker_free(r->workers[i].census);
    tc_parser_free(r->workers[i].parser);
  }
  free(r->workers);
}

tc_err tc_run(const tc_corpus *corpus, const tc_run_opts *opts, tc_run_result *out) {
  memset(out, 0, sizeof *out);
  if (tc_run_opts_check(opts, NULL, 0))
    return TC_E_USAGE;
  double t0 = now_seconds();
  run_ctx r;
  memset(&r, 0, sizeof r);
  r.corpus = corpus;
  r.opts = *opts;
  if (!r.opts.threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    r.opts.threads = n > 0 ? (unsigned)n : 1;
  }
  if (!r.opts.chunk_bytes)
    r.opts.chunk_bytes = TC_DEFAULT_CHUNK;
  if (!r.opts.inflight)
    r.opts.inflight = 2 * r.opts.threads + 2;
  r.nw = r.opts.threads;
  r.status = calloc(corpus->ntraces ? corpus->ntraces : 1, sizeof *r.status);
  if (r.opts.time_stages)
    r.clocks = aligned_alloc(_Alignof(worker_clock), r.nw * sizeof *r.clocks);
  if (r.clocks)
    memset(r.clocks, 0, r.nw * sizeof *r.clocks);
  by_size *order = calloc(corpus->ntraces ? corpus->ntraces : 1, sizeof *order);
  tc_err e = r.status && order && (r.clocks || !r.opts.time_stages) ? setup_workers(&r)
                                                                     : TC_E_NOMEM;
  if (!e && !r.opts.no_metrics && !(r.metrics = tc_metrics_set_create()))
    e = TC_E_NOMEM;
  if (!e && !(r.pool = tc_pool_create(r.nw)))
    e = TC_E_NOMEM;
  if (!e) {
    for (uint32_t i = 0; i < corpus->ntraces; i++)
      order[i] = (by_size){corpus->traces[i].size, i};
    qsort(order, corpus->ntraces, sizeof *order, by_size_desc);
    for (uint32_t i = 0; i < corpus->ntraces && !e; i++) {
      trace_job *t = trace_job_new(&r, order[i].idx);
      if (!t)
        e = TC_E_NOMEM;
      else if ((e = tc_pool_submit(r.pool, trace_task, t)))
        trace_job_free(t);
    }
    tc_pool_wait(r.pool);
  }
  /* Sites of the crawl that left no trace are n/a in the metrics, not absent. */
  for (uint32_t i = 0; !e && r.metrics && i < corpus->nsites; i++) {
    const tc_site *site = &corpus->sites[i];
    if (!site->ntraces)
      e = tc_metrics_set_add_site_without_trace(
          r.metrics, site->name, site->reason ? site->reason : "no trace file in the corpus");
  }
  tc_pool_free(r.pool);
  uint64_t merge0 = clock_start(&r);
  if (!e) {
    tc_census_worker **cw = malloc(r.nw * sizeof *cw);
    if (!cw)
      e = TC_E_NOMEM;
    for (unsigned i = 0; cw && i < r.nw; i++)
      cw[i] = r.workers[i].census;
    if (!e)
      e = tc_census_merge(cw, r.nw, corpus->nsites, &out->census);
    free(cw);
  }
  if (r.clocks) {
    out->stage_ns[TC_CLOCK_MERGE] = tc_clock_cpu_ns() - merge0;
    for (unsigned i = 0; i < r.nw; i++)
      for (int k = 0; k < TC_CLOCK_COUNT; k++)
        out->stage_ns[k] += r.clocks[i].ns[k];
    free(r.clocks);
  }
  free_workers(&r);
  free(order);
  out->traces = r.status;
  out->metrics = r.metrics;
  out->totals.threads = r.nw;
  out->totals.simd_kernel = tc_parser_kernel();
  for (uint32_t i = 0; r.status && i < corpus->ntraces; i++) {
    const tc_trace_status *st = &r.status[i];
    out->totals.in_bytes += st->in_bytes;
    out->totals.out_bytes += st->out_bytes;
    out->totals.events += st->events;
    out->totals.bad_events += st->bad_events;
    out->totals.traces_with_errors += st->fatal || st->stream_err || st->bad_events ||
                               st->shape.trailing_bytes;
  }
  out->totals.seconds = now_seconds() - t0;
  if (e) {
    tc_run_result_free(out, corpus->ntraces);
  }
  return e;
}

void tc_run_result_free(tc_run_result *r, uint32_t ntraces) {
  for (uint32_t i = 0; r->traces && i < ntraces; i++)
    free(r->traces[i].meta);
  free(r->traces);
  tc_metrics_set_free(r->metrics);
  tc_census_result_free(&r->census);
  memset(r, 0, sizeof *r);
}
