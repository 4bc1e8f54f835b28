#include "pipeline/tc_seq.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"

static int seq_str(tc_seq *s, tc_str *dst) {
  if (!dst->len) {
    dst->ptr = "";
    return 1;
  }
  char *p = tc_arena_alloc(&s->arena, dst->len);
  if (!p)
    return 0;
  memcpy(p, dst->ptr, dst->len);
  dst->ptr = p;
  return 1;
}

void tc_seq_init(tc_seq *s) {
  memset(s, 0, sizeof *s);
  s->arena.block_size = 64 * 1024; /* under malloc's mmap threshold: reused, no page faults */
}

void tc_seq_free(tc_seq *s) {
  tc_arena_free(&s->arena);
  free(s->events);
  free(s->tasks);
  free(s->spans);
  tc_seq_init(s);
}

tc_err tc_seq_push(tc_seq *s, const tc_kevent *ev) {
  tc_err e = TC_GROW(s->events, s->events_cap, s->nevents + 1);
  if (e)
    return e;
  tc_kevent k = *ev;
  if (!seq_str(s, &k.name) || !seq_str(s, &k.cat) || !seq_str(s, &k.id))
    return TC_E_NOMEM;
  if (k.nargs) {
    tc_argval *a = tc_arena_alloc(&s->arena, k.nargs * sizeof *a);
    if (!a)
      return TC_E_NOMEM;
    memcpy(a, ev->args, k.nargs * sizeof *a);
    for (uint32_t i = 0; i < k.nargs; i++)
      if (!seq_str(s, &a[i].str))
        return TC_E_NOMEM;
    k.args = a;
  } else {
    k.args = NULL;
  }
  s->events[s->nevents++] = k;
  return TC_OK;
}

tc_err tc_seq_push_task(tc_seq *s, const tc_ktask_event *t) {
  tc_err e = TC_GROW(s->tasks, s->tasks_cap, s->ntasks + 1);
  if (!e)
    s->tasks[s->ntasks++] = *t;
  return e;
}

tc_err tc_seq_span(tc_seq *s, int64_t pid, int64_t tid, double ts, double end) {
  /* A chunk touches a handful of threads, and runs of events share one:
   * look at the thread of the previous event first. */
  for (size_t k = 0; k <= s->nspans; k++) {
    size_t i = k == 0 ? s->last_span : k - 1;
    if (i >= s->nspans)
      continue;
    tc_thread_span *t = &s->spans[i];
    if (t->pid == pid && t->tid == tid) {
      if (ts < t->min_ts)
        t->min_ts = ts;
      if (ts > t->max_ts)
        t->max_ts = ts;
      if (end > t->max_end)
        t->max_end = end;
      t->events++;
      s->last_span = i;
      return TC_OK;
    }
  }
  tc_err e = TC_GROW(s->spans, s->spans_cap, s->nspans + 1);
  if (e)
    return e;
  s->last_span = s->nspans;
  tc_thread_span *t = &s->spans[s->nspans++];
  t->pid = pid;
  t->tid = tid;
  t->min_ts = t->max_ts = ts;
  t->max_end = end;
  t->events = 1;
  return TC_OK;
}
