/* Step 3: where in the window a sample cannot be trusted (the lag thesis,
 * claim 2: validate each sample against the page lifecycle and the clock).
 *
 * Hidden: from a renderer's WasHidden to its next WasShown, in the main
 * renderer(s); a WasShown with no WasHidden before it means the page was
 * hidden from the window start. Suspended: from any process's
 * PowerMonitor::NotifySuspend to the next NotifyResume; a resume alone is a
 * clock step at that instant. Clock jump: more than 60 s in which the main
 * thread runs no task at all. A live renderer does not sleep that long while
 * it is being traced, so the stretch is the clock stepping (the thesis
 * counts a forward step of 1 s or more as a suspend) or an event stamped on
 * another clock; at the edges of a window not set by the job's marks it is
 * cut off, since that window's edge is then the stray event itself. A
 * fourth reason, the clock running backwards (an E before its B), is found
 * on the samples themselves. */
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

#define CLOCK_JUMP_US 60e6

static int switch_cmp(const void *pa, const void *pb) {
  const tc_kswitch *a = pa, *b = pb;
  if (a->pid != b->pid)
    return (a->pid > b->pid) - (a->pid < b->pid);
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return (int)a->on - (int)b->on; /* a shown and a hidden at one ts: shown first */
}

/* Stretches of "on" from a list of switches, clipped to the window. With
 * PER_PID (visibility) each process has its own state and an "off" with no
 * "on" before it means "on" since the window start; without (power) an
 * "off" alone is a zero-length step at its instant. */
static tc_err stretches(const tc_kctx *c, tc_kswitch *sw, size_t n, int per_pid,
                        tc_kspan **out, size_t *nout) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (per_pid && !tc__kctx_is_main_pid(c, sw[i].pid))
      continue;
    sw[kept] = sw[i];
    if (!per_pid)
      sw[kept].pid = 0;
    kept++;
  }
  n = kept;
  tc__ksort(sw, n, sizeof *sw, switch_cmp);
  tc_kspan *v = malloc((2 * n + 1) * sizeof *v);
  if (!v)
    return TC_E_NOMEM;
  size_t nv = 0;
  for (size_t i = 0; i < n;) {
    int state = -1; /* unknown until this process's first switch */
    double since = c->ws;
    size_t j = i;
    for (; j < n && sw[j].pid == sw[i].pid; j++) {
      if (sw[j].on) {
        if (state != 1)
          since = sw[j].ts;
        state = 1;
        continue;
      }
      if (state == 1)
        v[nv++] = (tc_kspan){since, sw[j].ts};
      else if (state == -1)
        v[nv++] = (tc_kspan){per_pid ? c->ws : sw[j].ts, sw[j].ts};
      state = 0;
    }
    if (state == 1)
      v[nv++] = (tc_kspan){since, c->we};
    i = j;
  }
  kept = 0;
  for (size_t i = 0; i < nv; i++) {
    tc_kspan s = v[i];
    if (s.e < c->ws || s.s > c->we)
      continue;
    if (s.s < c->ws)
      s.s = c->ws;
    if (s.e > c->we)
      s.e = c->we;
    v[kept++] = s;
  }
  *out = v;
  *nout = tc__kspans_union(v, kept);
  return TC_OK;
}

/* Gaps of over CLOCK_JUMP_US between the main thread's tasks (and the
 * window's edges). With no task at all there is nothing to tell by. */
static tc_err clock_jumps(tc_kctx *c, tc_trace_metrics *m, tc_kspan **out, size_t *nout) {
  size_t n = 0;
  for (size_t i = 0; i < c->nthreads; i++)
    n += c->threads[i]->tasks.n;
  tc_kspan *busy = malloc((n + 1) * sizeof *busy);
  tc_kspan *gaps = malloc((n + 2) * sizeof *gaps);
  if (!busy || !gaps) {
    free(busy);
    free(gaps);
    return TC_E_NOMEM;
  }
  n = 0;
  for (size_t i = 0; i < c->nthreads; i++)
    for (size_t j = 0; j < c->threads[i]->tasks.n; j++) {
      const tc_ktask *t = &c->threads[i]->tasks.v[j];
      busy[n++] = (tc_kspan){t->s, t->e > t->s && !(t->flags & TC_KTASK_OPEN) ? t->e : t->s};
    }
  n = tc__kspans_union(busy, n);
  size_t ngaps = 0;
  double prev = c->ws;
  for (size_t i = 0; i < n; i++) {
    if (busy[i].s - prev > CLOCK_JUMP_US)
      gaps[ngaps++] = (tc_kspan){prev, busy[i].s};
    if (busy[i].e > prev)
      prev = busy[i].e;
  }
  if (n && c->we - prev > CLOCK_JUMP_US)
    gaps[ngaps++] = (tc_kspan){prev, c->we};
  free(busy);
  if (m->window_rule != TC_WINDOW_MARKS && ngaps) {
    size_t first = 0;
    if (gaps[0].s <= c->ws)
      c->ws = gaps[first++].e;
    if (ngaps > first && gaps[ngaps - 1].e >= c->we)
      c->we = gaps[--ngaps].s;
    for (size_t i = first; i < ngaps; i++)
      gaps[i - first] = gaps[i];
    ngaps -= first;
    m->window_start_us = c->ws;
    m->window_end_us = c->we;
  }
  *out = gaps;
  *nout = ngaps;
  return TC_OK;
}

tc_err tc__kvalid_build(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_err e = clock_jumps(c, m, &c->invalid[TC_INVALID_CLOCK_JUMP], &c->ninvalid[TC_INVALID_CLOCK_JUMP]);
  if (e)
    return e;
  if (!(c->we > c->ws)) {
    m->window_na = TC_NA_WINDOW_EMPTY;
    return TC_OK;
  }
  e = stretches(c, k->visibility.v, k->visibility.n, 1, &c->invalid[TC_INVALID_HIDDEN],
                &c->ninvalid[TC_INVALID_HIDDEN]);
  if (!e)
    e = stretches(c, k->power.v, k->power.n, 0, &c->invalid[TC_INVALID_SUSPENDED],
                  &c->ninvalid[TC_INVALID_SUSPENDED]);
  if (e)
    return e;
  size_t total = 0;
  for (int r = 0; r < TC_INVALID_CLOCK_BACKWARDS; r++)
    total += c->ninvalid[r];
  c->invalid_all = malloc((total + 1) * sizeof *c->invalid_all);
  if (!c->invalid_all)
    return TC_E_NOMEM;
  total = 0;
  for (int r = 0; r < TC_INVALID_CLOCK_BACKWARDS; r++)
    for (size_t i = 0; i < c->ninvalid[r]; i++)
      c->invalid_all[total++] = c->invalid[r][i];
  c->ninvalid_all = tc__kspans_union(c->invalid_all, total);
  double *ms[TC_INVALID_CLOCK_BACKWARDS] = {&m->hidden_ms, &m->suspended_ms, &m->clock_jump_ms};
  for (int r = 0; r < TC_INVALID_CLOCK_BACKWARDS; r++)
    *ms[r] = tc__kround(tc__kspans_cover(c->invalid[r], c->ninvalid[r], c->ws, c->we) / 1e3);
  return TC_OK;
}

int tc__kvalid_reason(const tc_kctx *c, double s, double e) {
  for (int r = 0; r < TC_INVALID_CLOCK_BACKWARDS; r++)
    if (tc__kspans_meet(c->invalid[r], c->ninvalid[r], s, e))
      return r;
  return -1;
}
