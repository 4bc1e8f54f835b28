/* Step 4a: the main thread's top-level tasks, and the long tasks among them.
 *
 * A task is one of the task names of tc_kernels.c, complete (X) or a B/E
 * pair matched on its thread. It is top-level unless it starts inside an
 * earlier one and ends at most 1 ms after it: Lighthouse's task tree lets a
 * child overrun its parent by that much. A task with no end in the trace (a B never closed, an X
 * without dur) runs to its thread's last event and is "unbounded". */
#include <math.h>
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

#define NEST_SLACK_US 1000.0
#define LONG_TASK_US 50000.0

static int top_cmp(const void *pa, const void *pb) {
  const tc_ktop *a = pa, *b = pb;
  if (a->s != b->s)
    return a->s < b->s ? -1 : 1;
  if (a->e != b->e)
    return a->e > b->e ? -1 : 1; /* the enclosing task first */
  return (int)a->unbounded - (int)b->unbounded;
}

/* Appends T's top-level tasks that overlap the window to C->tops. */
static void thread_tops(tc_kctx *c, const tc_kthread *t, tc_ktop *scratch, tc_trace_metrics *m) {
  size_t n = 0;
  for (size_t i = 0; i < t->tasks.n; i++) {
    const tc_ktask *k = &t->tasks.v[i];
    tc_ktop top = {.s = k->s, .e = k->e, .invalid = -1};
    if (k->flags & (TC_KTASK_OPEN | TC_KTASK_UNBOUNDED)) {
      top.unbounded = 1;
      top.e = t->has_span && t->max_end > k->s ? t->max_end : k->s;
    } else if (k->e < k->s) {
      m->discarded[TC_SAMPLE_TASK][TC_INVALID_CLOCK_BACKWARDS]++;
      continue;
    }
    scratch[n++] = top;
  }
  tc_ksort(scratch, n, sizeof *scratch, top_cmp);
  double end = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    tc_ktop top = scratch[i];
    if (top.s < end && top.e <= end + NEST_SLACK_US)
      continue;
    end = top.e;
    int inside = top.e > top.s ? top.s < c->we && top.e > c->ws : top.s >= c->ws && top.s < c->we;
    if (!inside)
      continue;
    top.invalid = (int8_t)tc_kvalid_reason(c, top.s, top.e);
    if (top.invalid >= 0)
      m->discarded[TC_SAMPLE_TASK][top.invalid]++;
    c->tops[c->ntops++] = top;
  }
}

tc_err tc_ktasks_collect(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  (void)k;
  size_t total = 0, most = 0;
  for (size_t i = 0; i < c->nthreads; i++) {
    total += c->threads[i]->tasks.n;
    if (c->threads[i]->tasks.n > most)
      most = c->threads[i]->tasks.n;
  }
  c->task_events = total;
  c->tops = malloc((total + 1) * sizeof *c->tops);
  tc_ktop *scratch = malloc((most + 1) * sizeof *scratch);
  if (!c->tops || !scratch) {
    free(scratch);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < c->nthreads; i++)
    thread_tops(c, c->threads[i], scratch, m);
  free(scratch);
  tc_ksort(c->tops, c->ntops, sizeof *c->tops, top_cmp);
  return TC_OK;
}

/* Step 4c. Each long task counts whole; its blocking time is taken from the
 * part inside the window, as Lighthouse's TBT clips to its range. */
tc_err tc_klong_compute(tc_kctx *c, tc_trace_metrics *m) {
  tc_long_metrics *l = &m->long_tasks;
  if (c->task_events == 0) {
    l->na = TC_NA_NO_TASKS;
    return TC_OK;
  }
  size_t n = 0;
  for (size_t i = 0; i < c->ntops; i++) {
    if (c->tops[i].invalid >= 0)
      continue;
    if (c->tops[i].unbounded)
      l->unbounded++;
    else if (c->tops[i].e - c->tops[i].s >= LONG_TASK_US)
      n++;
  }
  l->tasks = malloc((n + 1) * sizeof *l->tasks);
  double *dur = malloc((n + 1) * sizeof *dur);
  if (!l->tasks || !dur) {
    free(dur);
    return TC_E_NOMEM;
  }
  double tbt_us = 0;
  for (size_t i = 0; i < c->ntops; i++) {
    const tc_ktop *t = &c->tops[i];
    if (t->invalid >= 0 || t->unbounded || t->e - t->s < LONG_TASK_US)
      continue;
    double cs = t->s > c->ws ? t->s : c->ws, ce = t->e < c->we ? t->e : c->we;
    if (ce - cs > LONG_TASK_US)
      tbt_us += ce - cs - LONG_TASK_US;
    dur[l->count] = (t->e - t->s) / 1e3;
    l->tasks[l->count++] =
        (tc_long_task){.start_us = t->s, .dur_us = t->e - t->s, .clipped = t->s < c->ws || t->e > c->we};
  }
  l->tbt_ms = tc_kround(tbt_us / 1e3);
  tc_ksummary(dur, l->count, &l->mean_ms, &l->p50_ms, &l->p95_ms, &l->max_ms);
  free(dur);
  return TC_OK;
}
