/* The site window: which sites run now, and each finished site as one
 * unit into the state folder and the corpus fold.
 *
 * Design. Sites flow through a bounded window in corpus order. The main
 * thread starts a site (its traces handed to the engine, tc_trace_engine.c,
 * or its unit read back from the state folder when it may be reused) while
 * the workers are about to run out of work, and as soon as the oldest
 * site's traces have all settled it takes the site's unit out of the run
 * (take_site), writes it to the state folder, and folds it into the corpus
 * tables (reduce/tc_corpus_fold.h), while the workers go on with later
 * sites. Memory follows the window, not the corpus, and a kill loses only
 * the sites in it. Sites are folded strictly in corpus order, which is
 * what makes the outputs the same bytes at any thread count and the same
 * as a resumed run's and a merge's. Locks: tc_run_ctx.h; the window itself
 * is the main thread's alone. */
#include <stdatomic.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "io/tc_file_id.h"
#include "pipeline/tc_partial.h"
#include "pipeline/tc_run_ctx.h"
#include "pipeline/tc_state.h"
#include "reduce/tc_site_census.h"
#include "util/tc_sysinfo.h"
#include "util/tc_trim.h"

/* Windows' worth of traces folded between two looks at the footprint. */
#define TC_TRIM_WINDOWS 64

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

/* A malloc'd copy of S, which may be NULL; sets *E on failure. */
static char *copy(const char *s, tc_err *e) {
  if (!s)
    return NULL;
  char *c = strdup(s);
  if (!c)
    *e = TC_E_NOMEM;
  return c;
}

/* What the census scope does with process PID of a trace whose process
 * map is MAP: TC_SCOPE_KEEP, or why it is left out. A trace without a map
 * (it could not be read to its end) keeps everything, as does a process
 * the map knows nothing of or does not take for a renderer. */
static int left_why(tc_census_scope scope, const tc_procmap *map, int64_t pid) {
  if (scope == TC_SCOPE_ALL || !map)
    return TC_SCOPE_KEEP;
  const tc_proc *p = tc_procmap_find(map, pid);
  if (!p || !p->renderer || p->role == TC_ROLE_PAGE || p->role == TC_ROLE_IFRAME)
    return TC_SCOPE_KEEP;
  if (p->role == TC_ROLE_BROWSER_UI)
    return TC_LEFT_BROWSER_UI;
  return scope == TC_SCOPE_PAGE ? TC_LEFT_OTHER_RENDERER : TC_SCOPE_KEEP;
}

/* The extraction's scope over one site: the answers, and each trace's
 * processes left out with their records (tc_scope_fn). */
typedef struct {
  const tc__run *r;
  const uint32_t *slots; /* by trace of the site */
  tc_site_unit *u;
  tc_err err;
} site_scope;

/* Names P (of the map) in the left entry E. */
static tc_err describe(tc_left_proc *e, const tc_proc *p) {
  e->kind = (uint8_t)p->kind;
  if (p->name && !(e->name = strdup(p->name)))
    return TC_E_NOMEM;
  for (int k = 0; k < TC_LEFT_URLS && p->urls[k]; k++)
    if (!(e->urls[k] = strdup(p->urls[k])))
      return TC_E_NOMEM;
  return TC_OK;
}

static int scope_of(void *ctx, uint32_t trace, int64_t pid, uint64_t records) {
  site_scope *s = ctx;
  const tc_procmap *map = s->r->tmaps[s->slots[trace]];
  int why = left_why(s->r->opts.scope, map, pid);
  if (why == TC_SCOPE_KEEP || !records || s->err)
    return why;
  tc_left_list *l = &s->u->traces[trace].left;
  uint32_t i = 0;
  while (i < l->n && l->v[i].pid != pid)
    i++;
  if (i == l->n) {
    tc_left_proc *v = realloc(l->v, (l->n + 1) * sizeof *v);
    if (!v) {
      s->err = TC_E_NOMEM;
      return why;
    }
    l->v = v;
    memset(&v[l->n], 0, sizeof *v);
    v[l->n].pid = pid;
    v[l->n].why = (uint8_t)why;
    l->n++;
    s->err = describe(&v[i], tc_procmap_find(map, pid));
  }
  l->v[i].records += records;
  return why;
}

static int left_cmp(const void *a, const void *b) {
  int64_t x = ((const tc_left_proc *)a)->pid, y = ((const tc_left_proc *)b)->pid;
  return (x > y) - (x < y);
}

/* The site's value profiles: each trace's tables in trace order, and in a
 * trace its processes' in the order of their first values, those the scope
 * keeps; moved rather than copied where the site has no entry yet. */
static tc_err take_values(tc__run *r, const tc_site *s, const uint32_t *slots, tc_site_unit *u) {
  if (!(u->values = tc_vtab_new(r->opts.value_flags, 0)))
    return TC_E_NOMEM;
  tc_err e = TC_OK;
  for (uint32_t i = 0; !e && i < s->ntraces; i++) {
    const tc_trace_values *tv = r->tvalues[slots[i]];
    for (size_t k = 0; !e && tv && k < tv->n; k++)
      if (left_why(r->opts.scope, r->tmaps[slots[i]], tv->pids[k]) == TC_SCOPE_KEEP)
        e = tc_vtab_absorb(u->values, tv->tabs[k]);
  }
  return e;
}

/* Site SITE's unit out of the run, into U (empty): its traces' statuses
 * and metrics out of their SLOTS (the slots left empty), its census tables
 * out of the workers (the processes the scope keeps; the records of the
 * others counted per event and listed per trace), which then forget the
 * site, and its value profiles likewise. The workers go on with later
 * sites meanwhile: each is held at its lock, all of them at once in worker
 * order, only while the site's tables leave them (tc_run_ctx.h). */
static tc_err take_site(tc__run *r, uint32_t site, uint32_t first, const uint32_t *slots,
                        const tc_file_id *ids, tc_site_unit *u) {
  const tc_site *s = &r->corpus->sites[site];
  tc_err e = TC_OK;
  u->name = copy(s->name, &e);
  u->status = copy(s->status, &e);
  u->reason = copy(s->reason, &e);
  u->chrome_version = copy(s->chrome_version, &e);
  u->in_manifest = s->in_manifest;
  u->from_dir = s->from_dir;
  u->traces = calloc(s->ntraces ? s->ntraces : 1, sizeof *u->traces);
  if (e || !u->traces)
    return TC_E_NOMEM;
  u->ntraces = s->ntraces;
  for (uint32_t i = 0; i < s->ntraces; i++) {
    tc_unit_trace *t = &u->traces[i];
    t->path = copy(r->corpus->traces[first + i].path, &e);
    if (ids)
      t->id = ids[i];
    t->status = r->status[slots[i]];
    memset(&r->status[slots[i]], 0, sizeof r->status[slots[i]]);
    t->metrics = r->tmetrics[slots[i]];
    r->tmetrics[slots[i]] = NULL;
  }
  tc_census_worker **cw = malloc(r->nw * sizeof *cw);
  if (e || !cw) {
    free(cw);
    return TC_E_NOMEM;
  }
  site_scope sc = {r, slots, u, TC_OK};
  for (unsigned i = 0; i < r->nw; i++) {
    pthread_mutex_lock(&r->workers[i].mu);
    cw[i] = r->workers[i].census;
  }
  e = tc_site_census_extract(cw, r->nw, site, first, scope_of, &sc, &u->census);
  for (unsigned i = 0; i < r->nw; i++) {
    tc_census_site_release(cw[i], site);
    pthread_mutex_unlock(&r->workers[i].mu);
  }
  free(cw);
  if (!e)
    e = sc.err;
  for (uint32_t i = 0; i < s->ntraces; i++)
    if (u->traces[i].left.n > 1)
      qsort(u->traces[i].left.v, u->traces[i].left.n, sizeof *u->traces[i].left.v, left_cmp);
  if (!e)
    e = take_values(r, s, slots, u);
  for (uint32_t i = 0; i < s->ntraces; i++) {
    tc_trace_values_free(r->tvalues[slots[i]]);
    r->tvalues[slots[i]] = NULL;
    tc_procmap_free(r->tmaps[slots[i]]);
    r->tmaps[slots[i]] = NULL;
  }
  return e;
}

/* One site of the window, from its start to its fold: a reused site's
 * unit read back, or the identity of its traces taken before they ran and
 * then the unit taken out of the run. */
typedef struct {
  tc_site_unit unit;
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
static tc_err start_site(tc__run *r, window *w, uint32_t s, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  const tc_site *site = &c->sites[s];
  uint32_t first = w->first[s];
  site_slot *sl = &w->slots[s % w->cap];
  memset(sl, 0, sizeof *sl);
  tc_site_unit_init(&sl->unit);
  sl->in_run = r->opts.nshards <= 1 ||
               tc_partial_shard_of(site->name, r->opts.nshards) == r->opts.shard;
  if (!sl->in_run)
    return TC_OK;
  out->sites_run++;
  tc_err e = TC_OK;
  if (r->opts.state_dir) {
    char differ[sizeof out->settings_differ];
    e = tc_state_lookup(r->opts.state_dir, c, s, r->settings, &sl->unit, &sl->reused, differ,
                        sizeof differ, &out->state_why);
    if (differ[0] && !out->sites_resettled++)
      memcpy(out->settings_differ, differ, sizeof differ);
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
    r->done[k] = TC__TRACE_RUNNING;
  }
  r->running += site->ntraces;
  pthread_mutex_unlock(&r->mu);
  w->traces_open += site->ntraces;
  uint32_t i = 0;
  for (; i < site->ntraces && !e; i++)
    e = tc__engine_start(r, order[i].idx, sl->slots[order[i].idx - first]);
  /* A trace that never reached the pool is settled here, so that no one
   * waits for it. */
  for (uint32_t k = e ? i - 1 : i; k < site->ntraces; k++)
    tc__engine_settle(r, sl->slots[order[k].idx - first], TC__TRACE_SKIPPED);
  free(order);
  return e;
}

/* Frees what SL holds: its unit, trace identities and slot numbers. */
static void release(site_slot *sl) {
  tc_site_unit_free(&sl->unit);
  free(sl->ids);
  free(sl->slots);
  sl->ids = NULL;
  sl->slots = NULL;
}

/* Gives the slots of a site that left the window back. */
static void free_slots(tc__run *r, site_slot *sl, uint32_t ntraces) {
  for (uint32_t i = 0; sl->slots && i < ntraces; i++)
    r->free_slots[r->nfree++] = sl->slots[i];
  free(sl->slots);
  sl->slots = NULL;
}

/* Waits until every trace of the site in SL (N of them) has settled; 1 if
 * all were finalized. */
static int wait_site(tc__run *r, const site_slot *sl, uint32_t n) {
  uint64_t t0 = r->clocks ? tc_clock_ns() : 0;
  int complete = 1;
  pthread_mutex_lock(&r->mu);
  for (uint32_t i = 0; i < n; i++) {
    while (r->done[sl->slots[i]] == TC__TRACE_RUNNING)
      pthread_cond_wait(&r->cv, &r->mu);
    complete &= r->done[sl->slots[i]] == TC__TRACE_FINALIZED;
  }
  pthread_mutex_unlock(&r->mu);
  if (r->clocks)
    r->wait_ns += tc_clock_ns() - t0;
  return complete;
}

/* Folds the oldest site of the window, or after an interrupt (*STOPPED)
 * only saves it when it is complete: the run ends without outputs. */
static tc_err fold_site(tc__run *r, window *w, uint32_t s, int *stopped, tc_run_result *out) {
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
      uint64_t t0 = tc__clock_start(r);
      e = tc_corpus_fold_add(r->fold, s, first, &sl->unit);
      if (r->clocks)
        r->fold_ns += tc_clock_cpu_ns() - t0;
    }
  } else if (sl->in_run) {
    uint64_t t0 = tc__clock_start(r);
    e = take_site(r, s, first, sl->slots, sl->ids, &sl->unit);
    free_slots(r, sl, c->sites[s].ntraces);
    if (!e && r->opts.state_dir) {
      char *path = tc_partial_site_path(r->opts.state_dir, c->sites[s].name);
      e = path ? tc_partial_site_write(path, r->settings, &sl->unit, &out->state_why)
               : TC_E_NOMEM;
      free(path);
      out->sites_saved += !e;
    }
    if (!e && !*stopped)
      e = tc_corpus_fold_add(r->fold, s, first, &sl->unit);
    if (r->clocks)
      r->fold_ns += tc_clock_cpu_ns() - t0;
    w->traces_open -= c->sites[s].ntraces;
  }
  release(sl);
  return e;
}

/* Whether site S may start now: the window is empty, or it has slots for
 * S's traces and the workers are about to run out of work (fewer than
 * `traces_max` traces still running). Counting running traces rather than
 * unfolded ones lets the next site start while the oldest one finishes its
 * last traces, so a site larger than the window does not leave the workers
 * idle at its end and during its fold. Caller holds r->mu. */
static int room_for(const tc__run *r, const window *w, uint32_t s) {
  if (w->next_start - w->next_fold >= w->cap)
    return 0;
  return w->traces_open == 0 || (w->traces_open + r->corpus->sites[s].ntraces <= r->nslots &&
                                 r->running < w->traces_max);
}

static int may_start(tc__run *r, const window *w) {
  if (w->next_start >= r->corpus->nsites)
    return 0;
  pthread_mutex_lock(&r->mu);
  int ok = room_for(r, w, w->next_start);
  pthread_mutex_unlock(&r->mu);
  return ok;
}

/* Whether the site in SL (N traces) has settled. Caller holds r->mu. */
static int site_settled(const tc__run *r, const site_slot *sl, uint32_t n) {
  if (!sl->in_run || sl->reused)
    return 1;
  for (uint32_t i = 0; i < n; i++)
    if (r->done[sl->slots[i]] == TC__TRACE_RUNNING)
      return 0;
  return 1;
}

/* Waits until the oldest site has settled or, unless STOPPED, the next
 * site may start; returns 1 for the first. */
static int wait_oldest_or_room(tc__run *r, const window *w, int stopped) {
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

static tc_err flow(tc__run *r, window *w, tc_run_result *out) {
  const tc_corpus *c = r->corpus;
  tc_err e = TC_OK;
  int stopped = 0;
  uint32_t since_trim = 0;
  tc_trim_pacer trim = {0};
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
     * pages back when the fragments grow (util/tc_trim.h), so the peak
     * follows the window, not the fragments of many sites. Looked at only
     * now and then: a trim's pages are faulted in again by the next sites
     * (a trim per window cost the bundled crawl 3x the page faults and
     * 10 % of its time for 26 MB less peak). */
    if ((since_trim += c->sites[s].ntraces) >= TC_TRIM_WINDOWS * w->traces_max) {
      if (tc_trim_due(&trim, tc_rss_kib()))
        malloc_trim(0);
      since_trim = 0;
    }
#endif
  }
  /* After an error the window's traces still run: wait for them, then drop
   * what their sites had. */
  tc_pool_wait(r->pool);
  for (; w->next_fold < w->next_start; w->next_fold++)
    release(&w->slots[w->next_fold % w->cap]);
  if (!e && stopped)
    e = TC_E_INTERRUPTED;
  return e;
}

/* 2 per worker running beside the largest site's traces waiting for its
 * fold, twice over, so that the next site fits beside the oldest one
 * however large they are. */
uint32_t tc__window_slots(const tc_corpus *c, unsigned nw) {
  uint32_t most = 0;
  for (uint32_t s = 0; s < c->nsites; s++)
    most = c->sites[s].ntraces > most ? c->sites[s].ntraces : most;
  return 2 * (2 * nw + most);
}

tc_err tc__window_run(tc__run *r, tc_run_result *out) {
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

