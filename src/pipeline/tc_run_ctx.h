/* Internal to src/pipeline (hence tc__): the state one run's two halves
 * share, the trace engine (tc_trace_engine.c: read, chunk, parse, the
 * per-trace fold) and the site window (tc_site_window.c: which sites run,
 * their units out of the engine, state writes, the corpus fold). tc_run.c
 * sets it up and tears it down. Not for use outside this folder.
 *
 * Threads. The main thread runs the window; the pool's workers run the
 * engine's trace and chunk tasks. They meet at three kinds of lock:
 *   worker.mu  one per worker: its parser and census tables. The worker
 *              holds it while it adds a chunk; the main thread holds every
 *              worker's at once, taken in worker order, while a finished
 *              site's tables leave them (the window's take_site).
 *   trace mu   one per trace being read (tc_trace_engine.c's trace_job):
 *              its chunk ring and counters, and its slot's status while the
 *              trace is open.
 *   run.mu     the slots' settled flags and the count of running traces,
 *              and the main thread's waits on them (run.cv).
 * Lock order: worker locks in worker order, and nothing else is held
 * while any of them is taken; a trace's mu and run.mu are leaves: no other
 * lock is taken while one of them is held. */
#ifndef TC_RUN_CTX_H
#define TC_RUN_CTX_H

#include <pthread.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "census/tc_vtab.h"
#include "json/tc_parser.h"
#include "pipeline/tc_route.h"
#include "pipeline/tc_run.h"
#include "pipeline/tc_trace_values.h"
#include "pool/tc_pool.h"
#include "procs/tc_procmap.h"
#include "reduce/tc_corpus_fold.h"

/* One worker's parser and tables (lock: mu, see above). The parser's path
 * table and the census's name maps are shared by all the worker's sites,
 * so a site's tables are taken out under the lock while the worker goes
 * on with later sites. */
typedef struct {
  pthread_mutex_t mu;
  tc_parser *parser;         /* mu */
  tc_census_worker *census;  /* mu */
  tc_router *router;         /* the worker's own: its caches follow the parser's ids */
  char *read_buf;            /* TC__READ_BYTES for the one trace the worker reads
                                at a time (a reader nests only chunk tasks) */
} tc__worker;

#define TC__READ_BYTES (1u << 20)

/* One worker's stage times, on a cache line of its own. */
typedef struct {
  _Alignas(64) uint64_t ns[TC_CLOCK_COUNT];
} tc__worker_clock;

/* A slot's state in run.done. */
enum { TC__TRACE_RUNNING, TC__TRACE_FINALIZED, TC__TRACE_SKIPPED };

typedef struct {
  const tc_corpus *corpus;
  tc_run_opts opts;             /* threads, chunk_bytes and inflight resolved */
  tc_pool *pool;
  tc__worker *workers;
  unsigned nw;
  /* Slots of the traces open in the window (started, not yet folded): a
   * trace's status, metrics and value profiles from its start until its
   * site is taken, then the slot goes back to `free_slots`. A slot's
   * entries are its trace's while it runs (status[slot] under the trace's
   * mu) and the main thread's once it has settled. */
  uint32_t nslots;
  tc_trace_status *status;
  tc_trace_metrics **tmetrics;
  tc_trace_values **tvalues;    /* each trace's tables until its site is taken */
  tc_procmap **tmaps;           /* each trace's finished process map, likewise */
  uint32_t *free_slots, nfree;  /* the main thread's */
  uint8_t *done;                /* by slot: TC__TRACE_*; under mu */
  uint32_t running;             /* traces started and not yet settled; under mu */
  pthread_mutex_t mu;
  pthread_cond_t cv;            /* signalled under mu when a trace settles */
  tc_corpus_fold *fold;         /* the main thread's */
  char *settings;               /* tc_partial_settings, with a state folder */
  tc__worker_clock *clocks;     /* by worker; NULL unless time_stages */
  uint64_t fold_ns;             /* the main thread's CPU taking and folding sites */
  uint64_t wait_ns;             /* its wall time waiting for a site */
} tc__run;

/* ---- the engine (tc_trace_engine.c) ---- */

/* Every worker's parser, tables and buffer; TC_E_NOMEM. */
tc_err tc__engine_setup(tc__run *r);
void tc__engine_teardown(tc__run *r);

/* Hands trace IDX of the corpus to the pool, its results to go to SLOT
 * (marked running by the caller). On failure nothing was submitted. */
tc_err tc__engine_start(tc__run *r, uint32_t idx, uint32_t slot);

/* Marks the trace in SLOT settled (TC__TRACE_FINALIZED or _SKIPPED) and
 * wakes the main thread. */
void tc__engine_settle(tc__run *r, uint32_t slot, uint8_t how);

/* Stage timing around whole operations; a branch when not asked. */
static inline uint64_t tc__clock_start(const tc__run *r) {
  return r->clocks ? tc_clock_cpu_ns() : 0;
}

static inline void tc__clock_stop(tc__run *r, unsigned worker, tc_clock_stage s, uint64_t t0) {
  if (r->clocks)
    r->clocks[worker].ns[s] += tc_clock_cpu_ns() - t0;
}

/* ---- the window (tc_site_window.c) ---- */

/* Traces the window keeps open at most: the run's slots. */
uint32_t tc__window_slots(const tc_corpus *c, unsigned nw);

/* Runs every site of the corpus (of the shard) through the window into
 * r->fold; counts what it did in OUT (sites_run, ... , state_why). */
tc_err tc__window_run(tc__run *r, tc_run_result *out);

#endif
