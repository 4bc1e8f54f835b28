/* Step 4a: the main thread's top-level tasks, and the long tasks among them.
 *
 * A task is one of the task names of tc_kernels.c, complete (X) or a B/E
 * pair matched on its thread. It is top-level unless it starts inside an
 * earlier one and ends at most 1 ms after it: Lighthouse's task tree lets a
 * child overrun its parent by that much. A task with no end in the trace (a
 * B never closed, an X without dur) runs to its thread's last event and is
 * "unbounded". A task longer than the trace can hold (c->max_task_us) is
 * clipped to that length and counted as clamped. The same rules serve
 * every renderer's main thread (tc_krenderers.c). */
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

tc_err tc__ktasks_of(const tc_kctx *c, const tc_kthread *t, tc_ktop **out, size_t *nout,
                    uint32_t *clamped, uint32_t discarded[TC_INVALID_COUNT_]) {
  *nout = 0;
  tc_ktop *v = *out = malloc((t->tasks.n + 1) * sizeof *v);
  if (!v)
    return TC_E_NOMEM;
  size_t n = 0;
  for (size_t i = 0; i < t->tasks.n; i++) {
    const tc_ktask *k = &t->tasks.v[i];
    tc_ktop top = {.s = k->s, .e = k->e, .invalid = -1};
    if (k->flags & (TC_KTASK_OPEN | TC_KTASK_UNBOUNDED)) {
      top.unbounded = 1;
      top.e = t->has_span && t->max_end > k->s ? t->max_end : k->s;
    } else if (k->e < k->s) {
      if (discarded)
        discarded[TC_INVALID_CLOCK_BACKWARDS]++;
      continue;
    }
    if (top.e - top.s > c->max_task_us) {
      top.e = top.s + c->max_task_us;
      (*clamped)++;
    }
    v[n++] = top;
  }
  tc__ksort(v, n, sizeof *v, top_cmp);
  double end = -INFINITY;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    tc_ktop top = v[i];
    if (top.s < end && top.e <= end + NEST_SLACK_US)
      continue;
    end = top.e;
    int inside = top.e > top.s ? top.s < c->we && top.e > c->ws : top.s >= c->ws && top.s < c->we;
    if (!inside)
      continue;
    top.invalid = (int8_t)tc__kvalid_reason(c, top.s, top.e);
    if (top.invalid >= 0 && discarded)
      discarded[top.invalid]++;
    v[kept++] = top;
  }
  *nout = kept;
  return TC_OK;
}

tc_err tc__ktasks_collect(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  (void)k;
  size_t total = 0;
  for (size_t i = 0; i < c->nthreads; i++)
    total += c->threads[i]->tasks.n;
  c->task_events = total;
  c->tops = malloc((total + 1) * sizeof *c->tops);
  if (!c->tops)
    return TC_E_NOMEM;
  for (size_t i = 0; i < c->nthreads; i++) {
    tc_ktop *tops;
    size_t n;
    tc_err e = tc__ktasks_of(c, c->threads[i], &tops, &n, &m->clamped_tasks,
                            m->discarded[TC_SAMPLE_TASK]);
    if (e)
      return e;
    for (size_t j = 0; j < n; j++)
      c->tops[c->ntops++] = tops[j];
    free(tops);
  }
  tc__ksort(c->tops, c->ntops, sizeof *c->tops, top_cmp);
  return TC_OK;
}

tc_err tc__klong_of(const tc_kctx *c, const tc_ktop *tops, size_t ntops, uint32_t *count,
                   double *tbt_ms, uint32_t *unbounded, tc_long_task **tasks, double **durs) {
  size_t n = 0;
  for (size_t i = 0; i < ntops; i++) {
    if (tops[i].invalid >= 0)
      continue;
    if (tops[i].unbounded)
      (*unbounded)++;
    else if (tops[i].e - tops[i].s >= LONG_TASK_US)
      n++;
  }
  tc_long_task *lt = *tasks = malloc((n + 1) * sizeof *lt);
  double *dur = malloc((n + 1) * sizeof *dur);
  if (!lt || !dur) {
    free(dur);
    return TC_E_NOMEM;
  }
  double tbt_us = 0;
  *count = 0;
  for (size_t i = 0; i < ntops; i++) {
    const tc_ktop *t = &tops[i];
    if (t->invalid >= 0 || t->unbounded || t->e - t->s < LONG_TASK_US)
      continue;
    double cs = t->s > c->ws ? t->s : c->ws, ce = t->e < c->we ? t->e : c->we;
    if (ce - cs > LONG_TASK_US)
      tbt_us += ce - cs - LONG_TASK_US;
    dur[*count] = (t->e - t->s) / 1e3;
    lt[(*count)++] =
        (tc_long_task){.start_us = t->s, .dur_us = t->e - t->s, .clipped = t->s < c->ws || t->e > c->we};
  }
  *tbt_ms = tc__kround(tbt_us / 1e3);
  if (durs)
    *durs = dur;
  else
    free(dur);
  return TC_OK;
}

/* Step 4c. Each long task counts whole; its blocking time is taken from the
 * part inside the window, as Lighthouse's TBT clips to its range. */
tc_err tc__klong_compute(tc_kctx *c, tc_trace_metrics *m) {
  tc_long_metrics *l = &m->long_tasks;
  if (c->task_events == 0) {
    l->na = TC_NA_NO_TASKS;
    return TC_OK;
  }
  double *dur;
  tc_err e = tc__klong_of(c, c->tops, c->ntops, &l->count, &l->tbt_ms, &l->unbounded, &l->tasks,
                         &dur);
  if (e)
    return e;
  tc__ksummary(dur, l->count, &l->mean_ms, &l->p50_ms, &l->p95_ms, &l->max_ms);
  free(dur);
  return TC_OK;
}
