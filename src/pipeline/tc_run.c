#include "pipeline/tc_run.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
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
#include "pipeline/tc_partial.h"
#include "pipeline/tc_state.h"
#include "pool/tc_pool.h"
#include "reduce/tc_census_fold.h"
#include "util/tc_time.h"

#define TC_DEFAULT_CHUNK (1u << 20)
#define TC_READ_BYTES (1u << 20)
#define TC_MAX_EVENT ((size_t)512 << 20)
/* Windows' worth of traces folded between two malloc_trim calls. */
#define TC_TRIM_WINDOWS 64

/* One worker's parser and tables. The worker adds to them under mu, so
 * that the main thread may take a finished site's tables out of them
 * (take_site) while the worker goes on with later sites: the parser's path
 * table and the census's name maps are shared by all the worker's sites. */
typedef struct {
  pthread_mutex_t mu;
  tc_parser *parser;         /* mu */
  tc_census_worker *census;  /* mu */
  tc_router *router;         /* the worker's own: its caches follow the parser's ids */
  char *read_buf;            /* TC_READ_BYTES for the one trace the worker reads
                                at a time (a reader nests only chunk tasks) */
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
  /* Slots of the traces open in the window (started, not yet folded): a
   * trace's status, metrics and value profiles from its start until its
   * site is folded, then the slot goes back to `free_slots`. */
  uint32_t nslots;
  tc_trace_status *status;
  tc_trace_metrics **tmetrics;
  uint32_t *free_slots, nfree;  /* the main thread's */
  /* By slot: TRACE_RUNNING until its task settles it under mu (finalized,
   * or skipped after an interrupt). */
  uint8_t *done;
  uint32_t running;            /* traces started and not yet settled; under mu */
  pthread_mutex_t mu;          /* done, running, and the main thread's waits */
  pthread_cond_t cv;           /* signalled under mu when a trace settles */
  tc_census_fold *fold;
  char *settings;              /* tc_partial_settings, with a state folder */
  /* Value profiles by slot: each trace's table until its site is taken,
   * then the site's (its traces' merged in trace order), folded in site
   * order: the order tc_topk.h asks for. */
  tc_vtab **tvalues;
  worker_clock *clocks;        /* by worker; NULL unless time_stages */
  uint64_t merge_ns;           /* the main thread's, likewise */
  uint64_t wait_ns;            /* the main thread's wall time waiting for a site */
} run_ctx;

enum { TRACE_RUNNING, TRACE_FINALIZED, TRACE_SKIPPED };

/* Marks the trace in SLOT finalized or skipped, for the main thread's wait. */
static void settle(run_ctx *r, uint32_t slot, uint8_t how) {
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
  run_ctx *run;
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
  tc_kernels *kernels;  /* likewise; NULL with no_metrics */
  tc_vtab *values;      /* likewise; to run->tvalues when finalized */
} trace_job;

typedef struct {
  trace_job *t;
  tc_chunk *chunk;
} chunk_job;

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
  const tc_trace_status *st = &r->status[t->slot];
  /* Any stream error ends the trace early, as does an event cut off. */
  int cut = st->stream_err != TC_OK || st->shape.cut_event;
  tc_trace_ref ref = {r->corpus->sites[r->corpus->traces[t->idx].site].name,
                      r->corpus->traces[t->idx].path, cut, st->bad_events > 0};
  tc_trace_metrics *m;
  tc_err e = st->fatal ? tc_metrics_unreadable(&ref, tc_strerror(st->fatal), &m)
                       : tc_kernels_finish(t->kernels, &ref, &m);
  if (!e)
    r->tmetrics[t->slot] = m;
  return e;
}

/* By the worker that owns the finished job (see trace_job): no lock. */
static void finalize_trace(trace_job *t, unsigned worker) {
  run_ctx *r = t->run;
  uint64_t t0 = clock_start(r);
  pthread_mutex_lock(&r->workers[worker].mu);
  tc_err e = tc_pairing_finish(t->pairing, r->workers[worker].census,
                               r->corpus->traces[t->idx].site);
  pthread_mutex_unlock(&r->workers[worker].mu);
  if (!e && t->kernels)
    e = finish_kernels(t);
  if (e && !r->status[t->slot].fatal)
    r->status[t->slot].fatal = e;
  r->tvalues[t->slot] = t->values;
  t->values = NULL;
  clock_stop(r, worker, TC_CLOCK_KERNELS, t0);
  if (r->opts.progress)
    atomic_fetch_add(&r->opts.progress->traces_done, 1);
  settle(r, t->slot, TRACE_FINALIZED);
}

static tc_err fold_seq(trace_job *t, const tc_seq *seq) {
  tc_err ve = tc_seq_fold_values(seq, t->values);
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

static void vtab_drop(tc_vtab *v) {
  if (v) {
    tc_vtab_free(v);
    free(v);
  }
}

static void trace_job_free(trace_job *t) {
  for (unsigned i = 0; t->ring && i < t->inflight; i++)
    tc_seq_free(&t->ring[i].seq);
  free(t->ring);
  tc_pairing_free(t->pairing);
  tc_kernels_free(t->kernels);
  vtab_drop(t->values);
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
  pthread_mutex_lock(&w->mu);
  tc_err e = tc_parser_parse(w->parser, c, &p);
  clock_stop(r, worker, TC_CLOCK_PARSE, t0);
  uint64_t good = 0, lenient = 0;
  if (!e) {
    t0 = clock_start(r);
    e = tc_census_add_chunk(w->census, o, c, &p);
    if (!e)
      e = tc_route_chunk(w->router, c, &p, !r->opts.no_metrics, &s->seq);
    if (!e)
      e = tc_route_chunk_values(w->router, &p, &s->seq);
    for (size_t i = 0; i < p.nevents; i++) {
      good += p.events[i].err == TC_OK;
      lenient += p.events[i].err == TC_OK && (p.events[i].flags & TC_EV_LENIENT);
    }
    clock_stop(r, worker, TC_CLOCK_CENSUS, t0);
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

/* How the stream ended, for trace_task to store under mu. */
typedef struct {
  tc_err err;      /* the stream ended badly (truncated, corrupt), or TC_OK */
  uint64_t offset; /* decompressed offset where it did */
} stream_end;

/* Reads the whole stream through the chunker, spawning chunks. */
static tc_err read_trace(trace_job *t, unsigned worker, tc_stream *s, tc_chunker *ch, char *buf,
                         stream_end *st) {
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
      st->err = se;
      st->offset = tc_stream_out_bytes(s);
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
  if (fe == TC_E_EMPTY_TRACE && st->err) {
    fe = st->err;
    st->err = TC_OK;
  }
  return fe;
}

static void trace_task(void *arg, unsigned worker) {
  trace_job *t = arg;
  run_ctx *r = t->run;
  const tc_trace *tr = &r->corpus->traces[t->idx];
  if (r->opts.stop && atomic_load(r->opts.stop)) {
    /* Interrupted: the trace is left for the next run. */
    uint32_t slot = t->slot;
    trace_job_free(t);
    settle(r, slot, TRACE_SKIPPED);
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
    copy_shape(st, ch);
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

static trace_job *trace_job_new(run_ctx *r, uint32_t idx, uint32_t slot) {
  trace_job *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->run = r;
  t->idx = idx;
  t->slot = slot;
  t->inflight = r->opts.inflight;
  t->ring = calloc(t->inflight, sizeof *t->ring);
  t->pairing = tc_pairing_create();
  if (!r->opts.no_metrics)
    t->kernels = tc_kernels_create(&r->opts.kernels);
  if ((t->values = malloc(sizeof *t->values))) {
    const char *site = r->corpus->sites[r->corpus->traces[idx].site].name;
    tc_vtab_init(t->values, r->opts.value_flags, tc_vtab_site_tag((tc_str){site, strlen(site)}));
  }
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  if (!t->ring || !t->pairing || !t->values || (!r->opts.no_metrics && !t->kernels)) {
    trace_job_free(t);
    return NULL;
  }
  for (unsigned i = 0; i < t->inflight; i++)
    tc_seq_init(&t->ring[i].seq);
  return t;
}

/* A site's traces largest first, so the long ones start early; ties by index. */
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
        !(r->workers[i].read_buf = malloc(TC_READ_BYTES)))
      return TC_E_NOMEM;
  }
  return TC_OK;
}

static void free_workers(run_ctx *r) {
  for (unsigned i = 0; r->workers && i < r->nw; i++) {
    tc_census_worker_free(r->workers[i].census);
    tc_router_free(r->workers[i].router);
    tc_parser_free(r->workers[i].parser);
    free(r->workers[i].read_buf);
    pthread_mutex_destroy(&r->workers[i].mu);
  }
  free(r->workers);
}

/* The site's unit out of the run: its traces' statuses and metrics out of
 * their SLOTS (owned by the unit, the slots left empty), and its tables
 * out of the workers, which then forget the site. The workers go on with
 * later sites meanwhile; each is held at its lock while the site's tables
 * leave it. */
static tc_err take_site(run_ctx *r, uint32_t site, uint32_t first, const uint32_t *slots,
                        const tc_file_id *ids, tc_partial_site *p) {
  const tc_site *s = &r->corpus->sites[site];
  memset(p, 0, sizeof *p);
  tc_site_census_init(&p->census);
  p->settings = r->settings;
  p->name = s->name;
  p->status = s->status;
  p->reason = s->reason;
  p->in_manifest = s->in_manifest;
  p->from_dir = s->from_dir;
  p->ntraces = s->ntraces;
  p->traces = calloc(s->ntraces ? s->ntraces : 1, sizeof *p->traces);
  if (!p->traces)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < s->ntraces; i++) {
    tc_partial_trace *t = &p->traces[i];
    t->path = r->corpus->traces[first + i].path;
    if (ids)
      t->id = ids[i];
    t->status = r->status[slots[i]];
    memset(&r->status[slots[i]], 0, sizeof r->status[slots[i]]);
    t->metrics = r->tmetrics[slots[i]];
    r->tmetrics[slots[i]] = NULL;
  }
  tc_census_worker **cw = malloc(r->nw * sizeof *cw);
  if (!cw)
    return TC_E_NOMEM;
  for (unsigned i = 0; i < r->nw; i++) {
    pthread_mutex_lock(&r->workers[i].mu);
    cw[i] = r->workers[i].census;
  }
  tc_err e = tc_site_census_extract(cw, r->nw, site, first, &p->census);
  for (unsigned i = 0; i < r->nw; i++) {
    tc_census_site_release(cw[i], site);
    pthread_mutex_unlock(&r->workers[i].mu);
  }
  free(cw);
  /* The site's value profiles: its traces' tables in trace order, moved
   * rather than copied where the site has no entry yet. */
  if (!e && !(p->values = malloc(sizeof *p->values)))
    e = TC_E_NOMEM;
  if (!e) {
    tc_vtab_init(p->values, r->opts.value_flags, 0);
    for (uint32_t i = 0; !e && i < s->ntraces; i++)
      if (r->tvalues[slots[i]])
        e = tc_vtab_absorb(p->values, r->tvalues[slots[i]]);
  }
  for (uint32_t i = 0; i < s->ntraces; i++) {
    vtab_drop(r->tvalues[slots[i]]);
    r->tvalues[slots[i]] = NULL;
  }
  return e;
}

/* Frees what take_site made, not what it borrowed. */
static void drop_taken(tc_partial_site *p) {
  for (uint32_t i = 0; p->traces && i < p->ntraces; i++) {
    tc_trace_metrics_free(p->traces[i].metrics);
    free(p->traces[i].status.meta);
  }
  free(p->traces);
  tc_site_census_free(&p->census);
  vtab_drop(p->values);
  memset(p, 0, sizeof *p);
}

/* One site of the window, from its start to its fold: a reused site's
 * partial read back, or the identity of its traces taken before they ran. */
typedef struct {
  tc_partial_site unit;
  int reused, in_run;
  tc_file_id *ids;
  uint32_t *slots; /* by trace of the site: its slot while it runs */
} site_slot;

/* Sites flow through a window: the main thread starts sites in corpus order
 * while fewer than `traces_max` of their traces are still running and the
 * unfolded sites' traces fit in the slots (one site at least, however many
 * traces it has; see room_for), and as soon as the oldest site's traces are
 * all done takes it out of the workers, writes its partial and folds it,
 * while the workers go on with the later sites. Memory follows the window,
 * not the corpus; a kill loses only the sites in it. */
typedef struct {
  const uint32_t *first;  /* by site: its first trace; [nsites] = ntraces */
  site_slot *slots;       /* site S in slots[S % cap] */
  uint32_t cap;           /* sites in the window at most */
  uint32_t next_start, next_fold;
  uint32_t traces_open;   /* traces started and not yet folded */
  uint32_t traces_max;    /* traces running at most before a site may start */
} window;

/* Starts site S: reads back its partial if it may be reused, else hands
 * its traces to the pool. */
static tc_err start_site(run_ctx *r, window *w, uint32_t s, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  const tc_site *site = &c->sites[s];
  uint32_t first = w->first[s];
  site_slot *sl = &w->slots[s % w->cap];
  memset(sl, 0, sizeof *sl);
  sl->in_run = r->opts.nshards <= 1 ||
               tc_partial_shard_of(site->name, r->opts.nshards) == r->opts.shard;
  if (!sl->in_run)
    return TC_OK;
  out->sites_run++;
  tc_err e = TC_OK;
  if (r->opts.state_dir) {
    e = tc_state_lookup(r->opts.state_dir, c, s, r->settings, &sl->unit, &sl->reused,
                        &out->state_why);
    if (e || sl->reused)
      return e;
    /* The identity of what is about to be read, taken before reading. */
    if (!(sl->ids = calloc(site->ntraces ? site->ntraces : 1, sizeof *sl->ids)))
      return TC_E_NOMEM;
    for (uint32_t i = 0; i < site->ntraces; i++)
      tc_file_id_read(c->traces[first + i].path, NULL, &sl->ids[i], NULL);
  }
  by_size *order = calloc(site->ntraces ? site->ntraces : 1, sizeof *order);
  if (!order)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < site->ntraces; i++)
    order[i] = (by_size){c->traces[first + i].size, first + i};
  qsort(order, site->ntraces, sizeof *order, by_size_desc);
  /* Slots for its traces: the window keeps at most r->nslots open. */
  if (!(sl->slots = malloc((site->ntraces ? site->ntraces : 1) * sizeof *sl->slots))) {
    free(order);
    return TC_E_NOMEM;
  }
  pthread_mutex_lock(&r->mu);
  for (uint32_t i = 0; i < site->ntraces; i++) {
    uint32_t k = sl->slots[i] = r->free_slots[--r->nfree];
    memset(&r->status[k], 0, sizeof r->status[k]);
    r->done[k] = TRACE_RUNNING;
  }
  r->running += site->ntraces;
  pthread_mutex_unlock(&r->mu);
  w->traces_open += site->ntraces;
  uint32_t i = 0;
  for (; i < site->ntraces && !e; i++) {
    uint32_t at = order[i].idx - first;
    trace_job *t = trace_job_new(r, order[i].idx, sl->slots[at]);
    if (!t)
      e = TC_E_NOMEM;
    else if ((e = tc_pool_submit(r->pool, trace_task, t)))
      trace_job_free(t);
  }
  /* A trace that never reached the pool is settled here, so that no one
   * waits for it. */
  for (uint32_t k = e ? i - 1 : i; k < site->ntraces; k++)
    settle(r, sl->slots[order[k].idx - first], TRACE_SKIPPED);
  free(order);
  return e;
}

/* Gives the slots of a site that left the window back. */
static void free_slots(run_ctx *r, site_slot *sl, uint32_t ntraces) {
  for (uint32_t i = 0; sl->slots && i < ntraces; i++)
    r->free_slots[r->nfree++] = sl->slots[i];
  free(sl->slots);
  sl->slots = NULL;
}

/* Waits until every trace of the site in SL (N of them) has settled; 1 if
 * all were finalized. */
static int wait_site(run_ctx *r, const site_slot *sl, uint32_t n) {
  uint64_t t0 = r->clocks ? tc_clock_ns() : 0;
  int complete = 1;
  pthread_mutex_lock(&r->mu);
  for (uint32_t i = 0; i < n; i++) {
    while (r->done[sl->slots[i]] == TRACE_RUNNING)
      pthread_cond_wait(&r->cv, &r->mu);
    complete &= r->done[sl->slots[i]] == TRACE_FINALIZED;
  }
  pthread_mutex_unlock(&r->mu);
  if (r->clocks)
    r->wait_ns += tc_clock_ns() - t0;
  return complete;
}

/* Folds the oldest site of the window, or after an interrupt (*STOPPED)
 * only saves it when it is complete: the run ends without outputs. */
static tc_err fold_site(run_ctx *r, window *w, uint32_t s, int *stopped, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  site_slot *sl = &w->slots[s % w->cap];
  uint32_t first = w->first[s];
  tc_err e = TC_OK;
  if (sl->in_run && !sl->reused && !wait_site(r, sl, c->sites[s].ntraces)) {
    *stopped = 1;
  } else if (sl->reused) {
    out->sites_reused++;
    out->traces_reused += sl->unit.ntraces;
    if (r->opts.progress) {
      atomic_fetch_add(&r->opts.progress->traces_done, sl->unit.ntraces);
      uint64_t bytes = 0;
      for (uint32_t i = 0; i < sl->unit.ntraces; i++)
        bytes += c->traces[first + i].size;
      atomic_fetch_add(&r->opts.progress->bytes_done, bytes);
    }
    if (!*stopped) {
      uint64_t t0 = clock_start(r);
      e = tc_state_fold(r->fold, out, &c->sites[s], s, &sl->unit);
      if (r->clocks)
        r->merge_ns += tc_clock_cpu_ns() - t0;
    }
  } else if (sl->in_run) {
    uint64_t t0 = clock_start(r);
    e = take_site(r, s, first, sl->slots, sl->ids, &sl->unit);
    free_slots(r, sl, c->sites[s].ntraces);
    if (!e && r->opts.state_dir) {
      char *path = tc_partial_site_path(r->opts.state_dir, c->sites[s].name);
      e = path ? tc_partial_site_write(path, &sl->unit, &out->state_why) : TC_E_NOMEM;
      free(path);
      out->sites_saved += !e;
    }
    if (!e && !*stopped) {
      e = tc_state_fold(r->fold, out, &c->sites[s], s, &sl->unit);
    }
    if (r->clocks)
      r->merge_ns += tc_clock_cpu_ns() - t0;
    w->traces_open -= c->sites[s].ntraces;
  }
  if (sl->reused)
    tc_partial_site_free(&sl->unit);
  else
    drop_taken(&sl->unit);
  free(sl->ids);
  sl->ids = NULL;
  free(sl->slots);
  sl->slots = NULL;
  return e;
}

/* Whether site S may start now: the window is empty, or it has slots for
 * S's traces and the workers are about to run out of work (fewer than
 * `traces_max` traces still running). Counting running traces rather than
 * unfolded ones lets the next site start while the oldest one finishes its
 * last traces, so a site larger than the window does not leave the workers
 * idle at its end and during its fold. Caller holds r->mu. */
static int room_for(const run_ctx *r, const window *w, uint32_t s) {
  if (w->next_start - w->next_fold >= w->cap)
    return 0;
  return w->traces_open == 0 || (w->traces_open + r->corpus->sites[s].ntraces <= r->nslots &&
                                 r->running < w->traces_max);
}

static int may_start(run_ctx *r, const window *w) {
  if (w->next_start >= r->corpus->nsites)
    return 0;
  pthread_mutex_lock(&r->mu);
  int ok = room_for(r, w, w->next_start);
  pthread_mutex_unlock(&r->mu);
  return ok;
}

/* Whether the site in SL (N traces) has settled. Caller holds r->mu. */
static int site_settled(const run_ctx *r, const site_slot *sl, uint32_t n) {
  if (!sl->in_run || sl->reused)
    return 1;
  for (uint32_t i = 0; i < n; i++)
    if (r->done[sl->slots[i]] == TRACE_RUNNING)
      return 0;
  return 1;
}

/* Waits until the oldest site has settled or, unless STOPPED, the next
 * site may start; returns 1 for the first. */
static int wait_oldest_or_room(run_ctx *r, const window *w, int stopped) {
  const site_slot *sl = &w->slots[w->next_fold % w->cap];
  uint32_t n = r->corpus->sites[w->next_fold].ntraces;
  int more = !stopped && w->next_start < r->corpus->nsites;
  uint64_t t0 = r->clocks ? tc_clock_ns() : 0;
  pthread_mutex_lock(&r->mu);
  int settled;
  while (!(settled = site_settled(r, sl, n)) && !(more && room_for(r, w, w->next_start)))
    pthread_cond_wait(&r->cv, &r->mu);
  pthread_mutex_unlock(&r->mu);
  if (r->clocks)
    r->wait_ns += tc_clock_ns() - t0;
  return settled;
}

static tc_err flow(run_ctx *r, window *w, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  tc_err e = TC_OK;
  int stopped = 0;
  uint32_t since_trim = 0;
  while (!e && w->next_fold < c->nsites) {
    while (!e && !stopped && may_start(r, w)) {
      if (r->opts.stop && atomic_load(r->opts.stop))
        stopped = 1;
      else
        e = start_site(r, w, w->next_start++, out);
    }
    if (e || w->next_fold == w->next_start)
      break;
    if (!wait_oldest_or_room(r, w, stopped))
      continue;
    uint32_t s = w->next_fold++;
    e = fold_site(r, w, s, &stopped, out);
#ifdef __GLIBC__
    /* The folded sites' tables were freed by every worker's arena: hand the
     * pages back now and then, so the peak follows the window, not the
     * fragments of many sites. Not after every window's worth: the pages
     * handed back are faulted in again by the next sites, and a fault is
     * dear on these machines (each trim per window cost the bundled crawl
     * 3x the page faults and 10 % of its time for 26 MB less peak). */
    if ((since_trim += c->sites[s].ntraces) >= TC_TRIM_WINDOWS * w->traces_max) {
      malloc_trim(0);
      since_trim = 0;
    }
#endif
  }
  /* After an error the window's traces still run: wait for them, then drop
   * what their sites had. */
  tc_pool_wait(r->pool);
  for (; w->next_fold < w->next_start; w->next_fold++) {
    site_slot *sl = &w->slots[w->next_fold % w->cap];
    if (sl->reused)
      tc_partial_site_free(&sl->unit);
    free(sl->ids);
    free(sl->slots);
    sl->ids = NULL;
    sl->slots = NULL;
  }
  if (!e && stopped)
    e = TC_E_INTERRUPTED;
  return e;
}

/* Traces the window keeps open at most, their slots: 2 per worker running
 * beside the largest site's traces waiting for its fold, twice over, so
 * that the next site fits beside the oldest one however large they are. */
static uint32_t window_traces(const tc_corpus *c, unsigned nw) {
  uint32_t most = 0;
  for (uint32_t s = 0; s < c->nsites; s++)
    most = c->sites[s].ntraces > most ? c->sites[s].ntraces : most;
  return 2 * (2 * nw + most);
}

static tc_err run_sites(run_ctx *r, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  window w;
  memset(&w, 0, sizeof w);
  w.traces_max = 2 * r->nw;
  w.cap = 2 * w.traces_max + 2;
  uint32_t *first = calloc((size_t)c->nsites + 1, sizeof *first);
  w.slots = calloc(w.cap, sizeof *w.slots);
  w.first = first;
  tc_err e = first && w.slots ? TC_OK : TC_E_NOMEM;
  for (uint32_t i = 0; !e && i < c->ntraces; i++)
    first[c->traces[i].site + 1]++;
  for (uint32_t s = 0; !e && s < c->nsites; s++)
    first[s + 1] += first[s];
  if (!e)
    e = flow(r, &w, out);
  free(first);
  free(w.slots);
  return e;
}

tc_err tc_run(const tc_corpus *corpus, const tc_run_opts *opts, tc_run_result *out) {
  memset(out, 0, sizeof *out);
  if (tc_run_opts_check(opts, NULL, 0))
    return TC_E_USAGE;
  double t0 = tc_now_seconds();
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
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv, NULL);
  r.nslots = window_traces(corpus, r.nw);
  r.status = calloc(r.nslots, sizeof *r.status);
  r.tmetrics = calloc(r.nslots, sizeof *r.tmetrics);
  r.done = calloc(r.nslots, 1);
  r.fold = tc_census_fold_create();
  r.tvalues = calloc(r.nslots, sizeof *r.tvalues);
  r.free_slots = malloc(r.nslots * sizeof *r.free_slots);
  for (uint32_t i = 0; r.free_slots && i < r.nslots; i++)
    r.free_slots[r.nfree++] = r.nslots - 1 - i;
  tc_err e = r.status && r.tmetrics && r.done && r.fold && r.tvalues && r.free_slots
                 ? setup_workers(&r)
                 : TC_E_NOMEM;
  if (!e && r.opts.state_dir && !(r.settings = tc_partial_settings(&r.opts)))
    e = TC_E_NOMEM;
  if (r.opts.time_stages)
    r.clocks = aligned_alloc(_Alignof(worker_clock), r.nw * sizeof *r.clocks);
  if (r.clocks)
    memset(r.clocks, 0, r.nw * sizeof *r.clocks);
  else if (!e && r.opts.time_stages)
    e = TC_E_NOMEM;
  /* tc_state_fold adds each site to the result's reduction. */
  if (!e && !r.opts.no_metrics && !(out->metrics = tc_metrics_reduction_create()))
    e = TC_E_NOMEM;
  if (!e && !(r.pool = tc_pool_create(r.nw)))
    e = TC_E_NOMEM;
  if (!e)
    e = run_sites(&r, out);
  if (r.clocks && r.pool)
    out->worker_idle_ns = tc_pool_idle_ns(r.pool);
  tc_pool_free(r.pool);
  free_workers(&r);
  uint64_t merge0 = clock_start(&r);
  if (!e)
    e = tc_census_fold_finish(r.fold, &out->census);
  else
    tc_census_fold_free(r.fold);
  out->census.value_sites = r.opts.value_sites;
  /* What the slots still hold belongs to sites an error or an interrupt
   * left unfolded. */
  for (uint32_t i = 0; r.tvalues && i < r.nslots; i++)
    vtab_drop(r.tvalues[i]);
  free(r.tvalues);
  if (r.clocks) {
    out->stage_ns[TC_CLOCK_MERGE] = r.merge_ns + tc_clock_cpu_ns() - merge0;
    out->fold_wait_ns = r.wait_ns;
    for (unsigned i = 0; i < r.nw; i++)
      for (int k = 0; k < TC_CLOCK_COUNT; k++)
        out->stage_ns[k] += r.clocks[i].ns[k];
    free(r.clocks);
  }
  for (uint32_t i = 0; r.tmetrics && i < r.nslots; i++)
    tc_trace_metrics_free(r.tmetrics[i]);
  for (uint32_t i = 0; r.status && i < r.nslots; i++)
    free(r.status[i].meta);
  free(r.status);
  free(r.tmetrics);
  free(r.done);
  free(r.free_slots);
  pthread_mutex_destroy(&r.mu);
  pthread_cond_destroy(&r.cv);
  free(r.settings);
  if (!e && out->metrics)
    e = tc_metrics_reduction_seal(out->metrics);
  if (!e)
    e = tc_trace_rows_seal(&out->traces);
  out->totals.threads = r.nw;
  out->totals.simd_kernel = tc_parser_kernel();
  out->totals.seconds = tc_now_seconds() - t0;
  if (e) {
    tc_run_result kept = *out;
    tc_run_result_free(out, corpus->ntraces);
    out->sites_run = kept.sites_run;
    out->sites_reused = kept.sites_reused;
    out->traces_reused = kept.traces_reused;
    out->sites_saved = kept.sites_saved;
    out->state_why = kept.state_why;
  }
  return e;
}

void tc_run_count_trace(tc_run_totals *t, const tc_trace_status *st) {
  t->in_bytes += st->in_bytes;
  t->out_bytes += st->out_bytes;
  t->events += st->events;
  t->bad_events += st->bad_events;
  t->traces_with_errors += st->fatal || st->stream_err || st->bad_events ||
                           st->shape.trailing_bytes;
  t->traces_failed += st->fatal != TC_OK;
}

void tc_run_result_free(tc_run_result *r, uint32_t ntraces) {
  (void)ntraces; /* the rows hold every status */
  tc_trace_rows_free(&r->traces);
  tc_metrics_reduction_free(r->metrics);
  tc_census_result_free(&r->census);
  memset(r, 0, sizeof *r);
}
