/* The kernels' input side: which events and arguments they need, and the
 * compact copy feed keeps of them (see tc_kstate.h). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_kstate.h"
#include "procs/tc_procmap.h"

/* Argument slots: the process map's (procs/tc_procmap.h: the thread
 * names, the frame a layer tree belongs to) and then the kernels' own, in
 * the order of own_paths below. */
enum {
  ARG_NAME = TC_PM_ARG_NAME,
  ARG_DATA_FRAME = TC_PM_ARG_DATA_FRAME,
  ARG_DATA_LAYER_TREE = TC_PM_NARGS,
  ARG_LAYER_TREE,
  ARG_DATA_NEEDS_BEGIN_FRAME,
  ARG_DATA_HEAP_USED,
  ARG_COUNT_
};

static const char *const own_paths[ARG_COUNT_ - TC_PM_NARGS] = {
    [ARG_DATA_LAYER_TREE - TC_PM_NARGS] = "args.data.layerTreeId",
    [ARG_LAYER_TREE - TC_PM_NARGS] = "args.layerTreeId",
    [ARG_DATA_NEEDS_BEGIN_FRAME - TC_PM_NARGS] = "args.data.needsBeginFrame",
    [ARG_DATA_HEAP_USED - TC_PM_NARGS] = "args.data.jsHeapSizeUsed",
};

static const char *arg_paths[ARG_COUNT_];
static pthread_once_t arg_paths_once = PTHREAD_ONCE_INIT;

static void join_arg_paths(void) {
  size_t n;
  const char *const *pm = tc_procmap_arg_paths(&n);
  for (size_t i = 0; i < n; i++)
    arg_paths[i] = pm[i];
  for (size_t i = TC_PM_NARGS; i < ARG_COUNT_; i++)
    arg_paths[i] = own_paths[i - TC_PM_NARGS];
}

const char *const *tc_kernels_arg_paths(size_t *n) {
  pthread_once(&arg_paths_once, join_arg_paths);
  *n = ARG_COUNT_;
  return arg_paths;
}

typedef enum {
  K_NONE,
  K_TASK,
  K_THREAD_NAME,
  K_SET_LAYER_TREE,
  K_DRAW_FRAME,
  K_NEEDS_BEGIN_FRAME,
  K_COUNTERS,
  K_HIDDEN,
  K_SHOWN,
  K_SUSPEND,
  K_RESUME,
} kind;

typedef struct {
  const char *name;
  size_t len;
  kind k;
  int task; /* which task name, for K_TASK */
} name_kind;

#define NK(s, k, t) {s, sizeof s - 1, k, t}

/* Every name the kernels read, with its length so that most events are
 * turned away by one comparison of lengths per entry.
 *
 * Tasks are the outermost slices of the main thread. The first four are the
 * names Lighthouse's TraceProcessor.isScheduleableTask recognises (RunTask
 * from M71 on, then older names back to M65); MessageLoop::RunTask and the
 * bare "toplevel" slice are what wraps those in pre-M66 traces, and
 * Lighthouse's task tree (its long-tasks audit) takes them as the top-level
 * task there. B/E pairs match on the task's index here.
 *
 * Layout and the script slices travel the same compact way (kinds
 * TC_KKIND_LAYOUT, TC_KKIND_SCRIPT; X or B/E, as Chrome wrote them in
 * different versions): forced layouts need only their times.
 *
 * Page visibility is as the renderer sees it (WidgetBase from M87,
 * RenderWidget before), system suspend as base's power monitor records it. */
static const name_kind names[] = {
    NK("RunTask", K_TASK, 0),
    NK("ThreadControllerImpl::RunTask", K_TASK, 1),
    NK("ThreadControllerImpl::DoWork", K_TASK, 2),
    NK("TaskQueueManager::ProcessTaskFromWorkQueue", K_TASK, 3),
    NK("MessageLoop::RunTask", K_TASK, 4),
    NK("toplevel", K_TASK, 5),
    NK("Layout", K_TASK, TC_KKIND_LAYOUT),
    NK("FunctionCall", K_TASK, TC_KKIND_SCRIPT),
    NK("EvaluateScript", K_TASK, TC_KKIND_SCRIPT),
    NK("v8.evaluateModule", K_TASK, TC_KKIND_SCRIPT),
    NK("thread_name", K_THREAD_NAME, 0),
    NK("SetLayerTreeId", K_SET_LAYER_TREE, 0),
    NK("DrawFrame", K_DRAW_FRAME, 0),
    NK("NeedsBeginFrameChanged", K_NEEDS_BEGIN_FRAME, 0),
    NK("UpdateCounters", K_COUNTERS, 0),
    NK("WidgetBase::WasHidden", K_HIDDEN, 0),
    NK("RenderWidget::OnWasHidden", K_HIDDEN, 0),
    NK("WidgetBase::WasShown", K_SHOWN, 0),
    NK("RenderWidget::OnWasShown", K_SHOWN, 0),
    NK("PowerMonitor::NotifySuspend", K_SUSPEND, 0),
    NK("PowerMonitor::NotifyResume", K_RESUME, 0),
};

#undef NK

/* Bit L set when some name above is L bytes long: most events of a trace
 * are rejected by one shift, since tc_kernels_wants runs on every event. */
static uint64_t name_lengths(void) {
  uint64_t m = 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    m |= (uint64_t)1 << names[i].len;
  return m;
}

int tc_kernels_name_code(tc_str name) {
  static uint64_t lengths; /* computed once; same value from any thread */
  uint64_t m = __atomic_load_n(&lengths, __ATOMIC_RELAXED);
  if (!m) {
    m = name_lengths();
    __atomic_store_n(&lengths, m, __ATOMIC_RELAXED);
  }
  if (name.len >= 64 || !(m >> name.len & 1))
    return 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const name_kind *nk = &names[i];
    if (name.len == nk->len && memcmp(name.ptr, nk->name, nk->len) == 0)
      return (int)i + 1;
  }
  return 0;
}

int tc_kernels_user_timing_cat(tc_str cat) {
  static const char ut[] = "blink.user_timing";
  const size_t n = sizeof ut - 1;
  for (size_t i = 0; i + n <= cat.len; i++)
    if (cat.ptr[i] == 'b' && cat.ptr[i + 6] == 'u' && memcmp(cat.ptr + i, ut, n) == 0)
      return 1;
  return 0;
}

/* The kind of an event of name entry CODE and phase PH. */
static kind kind_of(int code, char ph, int *task) {
  if (!code)
    return K_NONE;
  const name_kind *nk = &names[code - 1];
  if (nk->k == K_TASK) {
    *task = nk->task;
    return ph == 'X' || ph == 'B' || ph == 'E' ? K_TASK : K_NONE;
  }
  return nk->k == K_THREAD_NAME && ph != 'M' ? K_NONE : nk->k;
}

int tc_kernels_route(int name_code, int user_timing, char ph, int *task) {
  int t = -1;
  kind k = kind_of(name_code, ph, &t);
  if (ph == 'X' && k == K_TASK && !user_timing) {
    *task = t;
    return TC_KROUTE_TASK;
  }
  return k != K_NONE || user_timing ? TC_KROUTE_EVENT : TC_KROUTE_NONE;
}

int tc_kernels_task_kind(tc_str name, tc_str cat, char ph) {
  int task;
  return tc_kernels_route(tc_kernels_name_code(name), tc_kernels_user_timing_cat(cat), ph,
                          &task) == TC_KROUTE_TASK
             ? task
             : -1;
}

int tc_kernels_wants(tc_str name, tc_str cat, char ph) {
  int task;
  return tc_kernels_route(tc_kernels_name_code(name), tc_kernels_user_timing_cat(cat), ph,
                          &task) != TC_KROUTE_NONE;
}

void tc_kernel_opts_default(tc_kernel_opts *o) {
  o->bucket_ms = 200;
  o->refresh_hz = 60;
  o->window_start_mark = NULL;
  o->window_end_mark = NULL;
}

tc_err tc_kernel_opts_check(const tc_kernel_opts *o, char *why, size_t cap) {
  if (!(o->bucket_ms >= TC_KERNELS_MIN_BUCKET_MS) || !isfinite(o->bucket_ms)) {
    snprintf(why, cap, "bucket_ms must be a number of at least %g", TC_KERNELS_MIN_BUCKET_MS);
    return TC_E_USAGE;
  }
  if (!(o->refresh_hz > 0 && o->refresh_hz <= TC_KERNELS_MAX_REFRESH_HZ)) {
    snprintf(why, cap, "refresh_hz must be a number above 0 and at most %g",
             TC_KERNELS_MAX_REFRESH_HZ);
    return TC_E_USAGE;
  }
  return TC_OK;
}

tc_kernels *tc_kernels_create(const tc_kernel_opts *o) {
  tc_kernel_opts def;
  tc_kernel_opts_default(&def);
  if (!o)
    o = &def;
  char why[1];
  if (tc_kernel_opts_check(o, why, sizeof why))
    return NULL;
  tc_kernels *k = calloc(1, sizeof *k);
  if (!k)
    return NULL;
  k->bucket_ms = o->bucket_ms;
  k->refresh_hz = o->refresh_hz;
  int nomem = 0;
  k->start_mark = tc__kdup(o->window_start_mark, &nomem);
  k->end_mark = tc__kdup(o->window_end_mark, &nomem);
  if (nomem) {
    tc_kernels_free(k);
    return NULL;
  }
  return k;
}

/* Frees T's tasks and slices, open ones included, leaving it none. */
static void drop_slices(tc_kthread *t) {
  free(t->tasks.v);
  free(t->open.v);
  free(t->slices.v);
  free(t->slices_open.v);
  memset(&t->tasks, 0, sizeof t->tasks);
  memset(&t->open, 0, sizeof t->open);
  memset(&t->slices, 0, sizeof t->slices);
  memset(&t->slices_open, 0, sizeof t->slices_open);
}

void tc_kernels_free(tc_kernels *k) {
  if (!k)
    return;
  for (size_t i = 0; i < k->threads.n; i++)
    drop_slices(&k->threads.v[i]);
  free(k->threads.v);
  free(k->slots);
  free(k->layer_trees.v);
  free(k->draws.v);
  free(k->needs_begin_frame.v);
  free(k->heap.v);
  free(k->async.v);
  free(k->marks.v);
  free(k->visibility.v);
  free(k->power.v);
  free(k->start_mark);
  free(k->end_mark);
  tc_arena_free(&k->strings);
  free(k);
}

/* ---- the thread table --------------------------------------------------- */

static uint64_t thread_hash(int64_t pid, int64_t tid) {
  int64_t key[2] = {pid, tid};
  return tc_hash_bytes(key, sizeof key, 0);
}

/* Puts thread I of the table, (PID, TID), in the first free slot from its
 * hash on. */
static void place(uint32_t *slots, size_t nslots, int64_t pid, int64_t tid, size_t i) {
  size_t h = thread_hash(pid, tid) & (nslots - 1);
  while (slots[h] != UINT32_MAX)
    h = (h + 1) & (nslots - 1);
  slots[h] = (uint32_t)i;
}

static int rehash(tc_kernels *k, size_t nslots) {
  uint32_t *slots = malloc(nslots * sizeof *slots);
  if (!slots)
    return -1;
  memset(slots, 0xff, nslots * sizeof *slots);
  for (size_t i = 0; i < k->threads.n; i++)
    place(slots, nslots, k->threads.v[i].pid, k->threads.v[i].tid, i);
  free(k->slots);
  k->slots = slots;
  k->nslots = nslots;
  return 0;
}

/* The record of (pid, tid), created on first sight; NULL when out of memory. */
static tc_kthread *thread_of(tc_kernels *k, int64_t pid, int64_t tid) {
  if (k->nslots) {
    size_t h = thread_hash(pid, tid) & (k->nslots - 1);
    for (; k->slots[h] != UINT32_MAX; h = (h + 1) & (k->nslots - 1)) {
      tc_kthread *t = &k->threads.v[k->slots[h]];
      if (t->pid == pid && t->tid == tid)
        return t;
    }
  }
  if ((k->threads.n + 1) * 2 > k->nslots && rehash(k, k->nslots ? k->nslots * 2 : 64))
    return NULL;
  tc_kthread t = {.pid = pid, .tid = tid};
  if (tc__kvec_push(&k->threads, t))
    return NULL;
  place(k->slots, k->nslots, pid, tid, k->threads.n - 1);
  return &k->threads.v[k->threads.n - 1];
}

void tc_kernels_thread_span(tc_kernels *k, const tc_kspan_in *sp) {
  tc_kthread *t = thread_of(k, sp->pid, sp->tid);
  if (!t) {
    k->nomem = 1;
    return;
  }
  if (!t->has_span || sp->min_ts < t->min_ts)
    t->min_ts = sp->min_ts;
  if (!t->has_span || sp->max_end > t->max_end)
    t->max_end = sp->max_end;
  t->has_span = 1;
  if (!k->has_span || sp->min_ts < k->first_ts)
    k->first_ts = sp->min_ts;
  if (!k->has_span || sp->max_ts > k->last_ts)
    k->last_ts = sp->max_ts;
  k->has_span = 1;
  k->events += sp->events;
}

/* ---- feed --------------------------------------------------------------- */

/* Feed returns nothing: a failure is kept for tc_kernels_finish to report. */
static void keep_err(tc_kernels *k, tc_err e) {
  if (e)
    k->nomem = 1;
}

/* A non-empty string argument copied into the arena; NULL when absent. */
static const char *arg_str(tc_kernels *k, const tc_kevent *ev, int slot) {
  const tc_argval *a = tc_kevent_arg(ev, slot);
  if (!a || a->type != TC_JT_STRING || a->str.len == 0)
    return NULL;
  const char *s = tc_arena_copy(&k->strings, a->str);
  if (!s)
    k->nomem = 1;
  return s;
}

/* One task or slice event of a thread into V: an E closes the innermost open
 * B of the same name, as Lighthouse pairs them. */
static void feed_slice(tc_kernels *k, tc_ktask_vec *v, tc_kindex_vec *open,
                       const tc_ktask_event *ev, int name) {
  if (ev->ph == 'E') {
    for (size_t i = open->n; i-- > 0;) {
      tc_ktask *b = &v->v[open->v[i]];
      if (b->name != name)
        continue;
      b->e = ev->ts;
      b->flags &= (uint8_t)~TC_KTASK_OPEN;
      memmove(&open->v[i], &open->v[i + 1], (open->n - i - 1) * sizeof *open->v);
      open->n--;
      return;
    }
    return; /* an end whose begin is not in the trace */
  }
  tc_ktask task = {.s = ev->ts, .e = ev->ts, .name = (uint8_t)name};
  if (ev->ph == 'B')
    task.flags = TC_KTASK_OPEN;
  else if (ev->dur >= 0)
    task.e = ev->ts + ev->dur;
  else
    task.flags = TC_KTASK_UNBOUNDED; /* Chrome writes X without dur for a slice still open */
  if (tc__kvec_push(v, task) || (ev->ph == 'B' && tc__kvec_push(open, (uint32_t)(v->n - 1))))
    k->nomem = 1;
}

static void feed_task(tc_kernels *k, const tc_ktask_event *ev, int name) {
  tc_kthread *t = thread_of(k, ev->pid, ev->tid);
  if (!t) {
    k->nomem = 1;
    return;
  }
  if (t->ignored)
    return;
  if (name >= TC_KKIND_LAYOUT)
    feed_slice(k, &t->slices, &t->slices_open, ev, name);
  else
    feed_slice(k, &t->tasks, &t->open, ev, name);
}

static void feed_thread_name(tc_kernels *k, const tc_kevent *ev) {
  const tc_argval *a = tc_kevent_arg(ev, ARG_NAME);
  if (!a || a->type != TC_JT_STRING)
    return;
  tc_thread_role role = tc_thread_role_of(a->str);
  tc_kthread *t = thread_of(k, ev->pid, ev->tid);
  if (!t) {
    k->nomem = 1;
  } else if (role != TC_THREAD_OTHER) {
    t->role = role;
    t->ignored = 0;
  } else if (t->role == TC_THREAD_OTHER) {
    /* Chrome names most threads before their first task; drop what came
     * before the name otherwise. */
    t->ignored = 1;
    drop_slices(t);
  }
}

static void feed_set_layer_tree(tc_kernels *k, const tc_kevent *ev) {
  double id;
  if (!tc_kevent_num(ev, ARG_DATA_LAYER_TREE, &id))
    return;
  tc_klayer_tree lt = {.pid = ev->pid, .frame = arg_str(k, ev, ARG_DATA_FRAME),
                       .layer_tree = (int64_t)id};
  keep_err(k, tc__kvec_push(&k->layer_trees, lt));
}

/* DrawFrame as an instant; trace_engine ignores the async pairs of very old
 * builds, and so do we. */
static void feed_frame_event(tc_kernels *k, const tc_kevent *ev, int draw) {
  double id, needs = 0;
  if (!tc_kevent_num(ev, ARG_LAYER_TREE, &id))
    return;
  if (draw && ev->ph != 'I' && ev->ph != 'i')
    return;
  if (!draw && !tc_kevent_num(ev, ARG_DATA_NEEDS_BEGIN_FRAME, &needs))
    return;
  tc_kframe_ev f = {.pid = ev->pid, .layer_tree = (int64_t)id, .ts = ev->ts, .value = needs != 0};
  keep_err(k, draw ? tc__kvec_push(&k->draws, f) : tc__kvec_push(&k->needs_begin_frame, f));
}

static void feed_counters(tc_kernels *k, const tc_kevent *ev) {
  double used;
  if (!tc_kevent_num(ev, ARG_DATA_HEAP_USED, &used))
    return;
  tc_ksample s = {.pid = ev->pid, .ts = ev->ts, .value = used};
  keep_err(k, tc__kvec_push(&k->heap, s));
}

static void feed_switch(tc_kernels *k, const tc_kevent *ev, int power, int on) {
  tc_kswitch s = {.pid = ev->pid, .ts = ev->ts, .on = (uint8_t)on};
  keep_err(k, power ? tc__kvec_push(&k->power, s) : tc__kvec_push(&k->visibility, s));
}

/* Marks are instants ('R', 'I', 'i', 'n'); measures are async pairs, 'b'/'e'
 * since M63 and 'S'/'F' before. */
static void feed_user_timing(tc_kernels *k, const tc_kevent *ev) {
  const char *name = tc_arena_copy(&k->strings, ev->name);
  if (!name) {
    k->nomem = 1;
    return;
  }
  if (ev->ph == 'R' || ev->ph == 'I' || ev->ph == 'i' || ev->ph == 'n') {
    tc_kmark m = {.pid = ev->pid, .name = name, .ts = ev->ts};
    keep_err(k, tc__kvec_push(&k->marks, m));
    return;
  }
  int begin = ev->ph == 'b' || ev->ph == 'S';
  if (!begin && ev->ph != 'e' && ev->ph != 'F')
    return;
  const char *id = tc_arena_copy(&k->strings, ev->id);
  if (!id) {
    k->nomem = 1;
    return;
  }
  tc_kasync a = {.pid = ev->pid, .name = name, .id = id, .ts = ev->ts,
                 .index = ev->index, .begin = (uint8_t)begin};
  keep_err(k, tc__kvec_push(&k->async, a));
}

void tc_kernels_feed(tc_kernels *k, const tc_kevent *ev) {
  int task = 0;
  switch (kind_of(tc_kernels_name_code(ev->name), ev->ph, &task)) {
  case K_TASK: {
    tc_ktask_event te = {ev->pid, ev->tid, ev->ts, ev->dur, ev->index, ev->ph, (uint8_t)task};
    feed_task(k, &te, task);
    break;
  }
  case K_THREAD_NAME: feed_thread_name(k, ev); break;
  case K_SET_LAYER_TREE: feed_set_layer_tree(k, ev); break;
  case K_DRAW_FRAME: feed_frame_event(k, ev, 1); break;
  case K_NEEDS_BEGIN_FRAME: feed_frame_event(k, ev, 0); break;
  case K_COUNTERS: feed_counters(k, ev); break;
  case K_HIDDEN: feed_switch(k, ev, 0, 1); break;
  case K_SHOWN: feed_switch(k, ev, 0, 0); break;
  case K_SUSPEND: feed_switch(k, ev, 1, 1); break;
  case K_RESUME: feed_switch(k, ev, 1, 0); break;
  case K_NONE: break;
  }
  if (tc_kernels_user_timing_cat(ev->cat))
    feed_user_timing(k, ev);
}

void tc_kernels_feed_task(tc_kernels *k, const tc_ktask_event *ev) {
  feed_task(k, ev, ev->kind);
}
