/* The trace engine: every trace read, chunked, parsed and folded on the
 * pool.
 *
 * Design. A trace is a task on the work-stealing pool. The task streams
 * its file (io/tc_stream.h), cuts the decompressed bytes into chunks of
 * whole events (json/tc_chunker.h) and spawns one task per chunk, so a
 * huge trace is parsed by every worker at once; it keeps at most
 * `inflight` chunks unfolded, running chunk tasks (never another trace)
 * while it waits, so memory stays bounded however large the trace is. A
 * chunk task parses its chunk with its worker's own simdjson parser and
 * adds the order-free statistics to its worker's census tables, kept per
 * site (census/tc_census.h). What needs trace order (B/E stacks, flow and
 * async pairing, the value profiles, the metric kernels) is copied into the
 * chunk's tc_seq (pipeline/tc_route.h) and folded strictly in chunk order
 * by whichever worker finds the next chunk ready. When the last chunk is
 * folded, that worker finalizes the trace (pair counts into its census
 * tables, the kernels' metrics, the value table into the trace's slot) and
 * settles its slot, which is what the site window (tc_site_window.c) waits
 * for. Locks and their order: tc_run_ctx.h. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_pairing.h"
#include "io/tc_stream.h"
#include "json/tc_chunker.h"
#include "pipeline/tc_run_ctx.h"
#include "pipeline/tc_seq.h"
#include "pipeline/tc_trace_values.h"
#include "util/tc_time.h"

#define TC_MAX_EVENT ((size_t)512 << 20)

void tc__engine_settle(tc__run *r, uint32_t slot, uint8_t how) {
  pthread_mutex_lock(&r->mu);
  r->done[slot] = how;
  r->running--;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

/* One chunk's ordered results, from its parse to its fold.
 *
 * Hand-off: chunk K owns ring[K % inflight]. Its chunk task fills seq
 * without the lock (no one else touches the slot: the reader spawns chunk K
 * only once chunk K - inflight is folded, see throttle), then sets ready
 * under mu. The folder reads ready under mu, folds and frees seq without
 * it, and clears ready and advances `folded` under mu; the lock's
 * release/acquire orders each side's writes of seq before the other's
 * reads. */
typedef struct {
  tc_seq seq;
  int ready; /* parsed, waiting to be folded; under mu */
} slot;

/* One trace being read, parsed and folded.
 *
 * mu guards the counters and flags below and status[slot] while the trace is
 * open: every chunk task and the reader write status[slot] only under it
 * (read_trace hands its stream error back to trace_task, which stores it
 * under mu). pairing and kernels belong to whichever worker is folding
 * (`folding`, taken and released under mu, admits one folder at a time, and
 * the lock orders one folder's work before the next's). Once the last
 * chunk is folded and the reader is done (`finished`, set under mu), the
 * worker that saw it owns the job and status[slot] alone: it finalizes and
 * frees without the lock. */
typedef struct {
  tc__run *run;
  uint32_t idx;
  uint32_t slot; /* its status, metrics and values in the run's slots */
  pthread_mutex_t mu;
  pthread_cond_t cv;    /* signalled when a chunk is folded */
  uint64_t spawned;     /* chunks handed to the pool (only the reader adds) */
  uint64_t folded;      /* chunks folded, in order */
  int reading_done, folding, finished;
  slot *ring;           /* chunk seq % inflight */
  unsigned inflight;
  tc_pairing *pairing;  /* the folder's, see above */
  tc_procmap *procs;    /* likewise; to run->tmaps when finalized */
  tc_kernels *kernels;  /* likewise; NULL with no_metrics */
  tc_trace_values *values; /* likewise; to run->tvalues when finalized */
} trace_job;

typedef struct {
  trace_job *t;
  tc_chunk *chunk;
} chunk_job;

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
  tc__run *r = t->run;
  const tc_trace_status *st = &r->status[t->slot];
  /* Any stream error ends the trace early, as does an event cut off. */
  int cut = st->stream_err != TC_OK || st->shape.cut_event;
  tc_trace_ref ref = {r->corpus->sites[r->corpus->traces[t->idx].site].name,
                      r->corpus->traces[t->idx].path, cut, st->bad_events > 0};
  tc_trace_metrics *m;
  tc_err e = st->fatal ? tc_metrics_unreadable(&ref, tc_strerror(st->fatal), &m)
                       : tc_kernels_finish(t->kernels, t->procs, &ref, &m);
  if (!e)
    r->tmetrics[t->slot] = m;
  return e;
}

/* By the worker that owns the finished job (see trace_job): no lock. */
static void finalize_trace(trace_job *t, unsigned worker) {
  tc__run *r = t->run;
  uint64_t t0 = tc__clock_start(r);
  pthread_mutex_lock(&r->workers[worker].mu);
  tc_err e = tc_pairing_finish(t->pairing, r->workers[worker].census,
                               r->corpus->traces[t->idx].site, t->idx);
  pthread_mutex_unlock(&r->workers[worker].mu);
  if (!e)
    e = tc_procmap_finish(t->procs);
  if (!e && t->kernels)
    e = finish_kernels(t);
  if (!e) {
    r->tmaps[t->slot] = t->procs;
    t->procs = NULL;
  }
  if (e && !r->status[t->slot].fatal)
    r->status[t->slot].fatal = e;
  r->tvalues[t->slot] = t->values;
  t->values = NULL;
  tc__clock_stop(r, worker, TC_CLOCK_KERNELS, t0);
  if (r->opts.progress)
    atomic_fetch_add(&r->opts.progress->traces_done, 1);
  tc__engine_settle(r, t->slot, TC__TRACE_FINALIZED);
}

static tc_err fold_seq(trace_job *t, const tc_seq *seq) {
  tc_err ve = tc_seq_fold_values(seq, tc_trace_values_of, t->values);
  if (ve)
    return ve;
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
    if (ev->for_procs)
      tc_procmap_feed(t->procs, ev);
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
    uint64_t t0 = tc__clock_start(t->run);
    tc_err e = fold_seq(t, &s->seq);
    tc_seq_free(&s->seq);
    tc__clock_stop(t->run, worker, TC_CLOCK_KERNELS, t0);
    pthread_mutex_lock(&t->mu);
    if (e && !t->run->status[t->slot].fatal)
      t->run->status[t->slot].fatal = e;
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
  tc_procmap_free(t->procs);
  tc_kernels_free(t->kernels);
  tc_trace_values_free(t->values);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->cv);
  free(t);
}

static void chunk_task(void *arg, unsigned worker) {
  chunk_job *cj = arg;
  trace_job *t = cj->t;
  tc__run *r = t->run;
  tc__worker *w = &r->workers[worker];
  tc_chunk *c = cj->chunk;
  slot *s = &t->ring[c->seq % t->inflight];
  tc_origin o = {r->corpus->traces[t->idx].site, t->idx};
  tc_parsed p;
  uint64_t t0 = tc__clock_start(r);
  pthread_mutex_lock(&w->mu);
  tc_err e = tc_parser_parse(w->parser, c, &p);
  tc__clock_stop(r, worker, TC_CLOCK_PARSE, t0);
  uint64_t good = 0, lenient = 0;
  if (!e) {
    t0 = tc__clock_start(r);
    e = tc_census_add_chunk(w->census, o, c, &p);
    if (!e)
      e = tc_route_chunk(w->router, c, &p, !r->opts.no_metrics, &s->seq);
    if (!e)
      e = tc_route_chunk_values(w->router, &p, &s->seq);
    for (size_t i = 0; i < p.nevents; i++) {
      good += p.events[i].err == TC_OK;
      lenient += p.events[i].err == TC_OK && (p.events[i].flags & TC_EV_LENIENT);
    }
    tc__clock_stop(r, worker, TC_CLOCK_CENSUS, t0);
  }
  pthread_mutex_unlock(&w->mu);
  pthread_mutex_lock(&t->mu);
  tc_trace_status *st = &r->status[t->slot];
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

/* Blocks until fewer than `inflight` chunks are unfolded, running chunk
 * tasks (of any trace) meanwhile. Only spawned tasks, never a submitted
 * trace task: a trace nested here would keep this trace's stream, chunker
 * and buffers open while it reads the whole of its own file, and could nest
 * again, one level per trace. A chunk task never waits, so the nesting is
 * one task deep. The reader is the only spawner of its trace, so what it
 * sees here still holds when spawn_chunk counts the chunk. */
static void throttle(trace_job *t, unsigned worker) {
  pthread_mutex_lock(&t->mu);
  while (t->spawned - t->folded >= t->inflight) {
    pthread_mutex_unlock(&t->mu);
    int helped = tc_pool_help_spawned(t->run->pool, worker);
    pthread_mutex_lock(&t->mu);
    if (!helped && t->spawned - t->folded >= t->inflight) {
      struct timespec ts = tc_deadline_ms(1);
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
  t->run->status[t->slot].chunks++;
  pthread_mutex_unlock(&t->mu);
  tc_err e = tc_pool_spawn(t->run->pool, worker, chunk_task, cj);
  if (e) {
    /* Run it here rather than lose it. */
    chunk_task(cj, worker);
  }
  return TC_OK;
}

static void take_shape(tc_trace_status *st, tc_chunker *ch) {
  tc_chunker_shape(ch, &st->shape);
  st->meta = tc_chunker_take_metadata(ch);
  st->shape.metadata.ptr = st->meta;
  if (!st->meta)
    st->shape.metadata.len = 0;
}

/* How the stream ended, for trace_task to store under mu. */
typedef struct {
  tc_err err;      /* the stream ended badly (truncated, corrupt), or TC_OK */
  uint64_t offset; /* decompressed offset where it did */
} stream_end;

/* Reads the whole stream through the chunker, spawning chunks. */
static tc_err read_trace(trace_job *t, unsigned worker, tc_stream *s, tc_chunker *ch, char *buf,
                         stream_end *st) {
  tc__run *r = t->run;
  tc_progress *prog = r->opts.progress;
  uint64_t in_before = 0;
  tc_err fatal = TC_OK;
  for (;;) {
    size_t got = 0;
    uint64_t t0 = tc__clock_start(r);
    tc_err se = tc_stream_read(s, buf, TC__READ_BYTES, &got);
    tc__clock_stop(r, worker, TC_CLOCK_READ, t0);
    uint64_t in_now = tc_stream_in_bytes(s);
    if (prog)
      atomic_fetch_add(&prog->bytes_done, in_now - in_before);
    in_before = in_now;
    size_t pos = 0;
    while (pos < got) {
      tc_chunk *ready = NULL;
      t0 = tc__clock_start(r);
      tc_err fe = tc_chunker_feed(ch, buf, got, &pos, &ready);
      tc__clock_stop(r, worker, TC_CLOCK_CHUNK, t0);
      if (ready && (fatal = spawn_chunk(t, worker, ready)))
        return fatal;
      if (fe)
        return fe;
    }
    if (se) {
      st->err = se;
      st->offset = tc_stream_out_bytes(s);
      break;
    }
    if (got == 0)
      break;
  }
  tc_chunk *last = NULL;
  uint64_t t0 = tc__clock_start(r);
  tc_err fe = tc_chunker_finish(ch, &last);
  tc__clock_stop(r, worker, TC_CLOCK_CHUNK, t0);
  if (last && (fatal = spawn_chunk(t, worker, last)))
    return fatal;
  /* A stream that failed before its first byte of JSON is not an empty
   * trace: the stream's error is why nothing was read. */
  if (fe == TC_E_EMPTY_TRACE && st->err) {
    fe = st->err;
    st->err = TC_OK;
  }
  return fe;
}

static void trace_task(void *arg, unsigned worker) {
  trace_job *t = arg;
  tc__run *r = t->run;
  const tc_trace *tr = &r->corpus->traces[t->idx];
  if (r->opts.stop && atomic_load(r->opts.stop)) {
    /* Interrupted: the trace is left for the next run. */
    uint32_t slot = t->slot;
    trace_job_free(t);
    tc__engine_settle(r, slot, TC__TRACE_SKIPPED);
    return;
  }
  tc_stream *s = NULL;
  tc_chunker *ch = NULL;
  char *buf = NULL;
  stream_end end = {TC_OK, 0};
  /* The corpus listed a regular file; it may have become a FIFO since. */
  tc_err e = tc_stream_open_regular(tr->path, &s);
  tc_err fatal = e;
  if (!e) {
    ch = tc_chunker_create(r->opts.chunk_bytes, TC_MAX_EVENT);
    buf = r->workers[worker].read_buf;
    fatal = ch ? read_trace(t, worker, s, ch, buf, &end) : TC_E_NOMEM;
  }
  pthread_mutex_lock(&t->mu);
  tc_trace_status *st = &r->status[t->slot];
  if (fatal && !st->fatal)
    st->fatal = fatal;
  st->stream_err = end.err;
  st->stream_offset = end.offset;
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
    take_shape(st, ch);
  }
  t->reading_done = 1;
  int fin = fold_ready(t, worker);
  pthread_mutex_unlock(&t->mu);
  tc_chunker_free(ch);
  tc_stream_close(s);
  if (fin) {
    finalize_trace(t, worker);
    trace_job_free(t);
  }
}

static trace_job *trace_job_new(tc__run *r, uint32_t idx, uint32_t slot) {
  trace_job *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->run = r;
  t->idx = idx;
  t->slot = slot;
  t->inflight = r->opts.inflight;
  t->ring = calloc(t->inflight, sizeof *t->ring);
  t->pairing = tc_pairing_create();
  t->procs = tc_procmap_create();
  if (!r->opts.no_metrics)
    t->kernels = tc_kernels_create(&r->opts.kernels);
  const char *site = r->corpus->sites[r->corpus->traces[idx].site].name;
  t->values = tc_trace_values_new(r->opts.value_flags, tc_vtab_site_tag((tc_str){site, strlen(site)}));
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  if (!t->ring || !t->pairing || !t->procs || !t->values ||
      (!r->opts.no_metrics && !t->kernels)) {
    trace_job_free(t);
    return NULL;
  }
  for (unsigned i = 0; i < t->inflight; i++)
    tc_seq_init(&t->ring[i].seq);
  return t;
}

tc_err tc__engine_setup(tc__run *r) {
  r->workers = calloc(r->nw, sizeof *r->workers);
  if (!r->workers)
    return TC_E_NOMEM;
  size_t nwanted;
  const char *const *wanted = tc_kernels_arg_paths(&nwanted);
  for (unsigned i = 0; i < r->nw; i++)
    pthread_mutex_init(&r->workers[i].mu, NULL);
  for (unsigned i = 0; i < r->nw; i++) {
    r->workers[i].parser = tc_parser_create(wanted, nwanted);
    if (!r->workers[i].parser)
      return TC_E_NOMEM;
    r->workers[i].census =
        tc_census_worker_create(r->corpus->nsites, r->workers[i].parser);
    if (!r->workers[i].census)
      return TC_E_NOMEM;
    if (!(r->workers[i].router = tc_router_create(r->workers[i].parser)) ||
        !(r->workers[i].read_buf = malloc(TC__READ_BYTES)))
      return TC_E_NOMEM;
  }
  return TC_OK;
}

void tc__engine_teardown(tc__run *r) {
  for (unsigned i = 0; r->workers && i < r->nw; i++) {
    tc_census_worker_free(r->workers[i].census);
    tc_router_free(r->workers[i].router);
    tc_parser_free(r->workers[i].parser);
    free(r->workers[i].read_buf);
    pthread_mutex_destroy(&r->workers[i].mu);
  }
  free(r->workers);
}


tc_err tc__engine_start(tc__run *r, uint32_t idx, uint32_t slot) {
  trace_job *t = trace_job_new(r, idx, slot);
  if (!t)
    return TC_E_NOMEM;
  tc_err e = tc_pool_submit(r->pool, trace_task, t);
  if (e)
    trace_job_free(t);
  return e;
}
