/* Step 4d: lag as a user feels it (the thesis's coordinated-omission point).
 *
 * A count of long tasks weighs a 30 s block like a 50 ms one. Here every
 * moment of the window weighs the same: an input arriving at a uniformly
 * random valid moment t waits w(t) = end of the busy interval holding t,
 * minus t (0 when the thread is idle). The distribution of w over the
 * window is piecewise uniform, so its quantiles and mean are exact, not
 * sampled.
 *
 * Busy intervals are the union of the top-level tasks. An interval that meets
 * an invalid stretch is dropped whole, with the stretch itself: a wait
 * measured across a hidden, suspended or clock-jump stretch shows the
 * browser's policy or the clock, not the page. The valid time is what
 * remains of the window. */
#include <math.h>
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

#define LONG_TASK_US 50000.0

typedef struct {
  double at; /* wait at which this edge is reached */
  int delta; /* +1: an interval's waits start here, -1: they end */
} edge;

static int edge_cmp(const void *pa, const void *pb) {
  const edge *a = pa, *b = pb;
  if (a->at != b->at)
    return a->at < b->at ? -1 : 1;
  return a->delta - b->delta;
}

/* Smallest w with P(wait <= w) >= q, the waits being uniform on [lo, lo+len)
 * for each interval, plus IDLE time at 0, out of TOTAL. */
static double wait_quantile(const edge *edges, size_t nedges, double idle, double total,
                            double q) {
  double target = q * total;
  if (idle >= target)
    return 0;
  double mass = idle, at = 0;
  int active = 0;
  for (size_t i = 0; i < nedges; i++) {
    double next = mass + active * (edges[i].at - at);
    if (active > 0 && next >= target)
      return at + (target - mass) / active;
    mass = next;
    at = edges[i].at;
    active += edges[i].delta;
  }
  return at;
}

tc_err tc__klag_compute(tc_kctx *c, tc_trace_metrics *m) {
  tc_lag_metrics *l = &m->lag;
  if (c->task_events == 0) {
    l->na = TC_NA_NO_TASKS;
    return TC_OK;
  }
  size_t n = c->ntops;
  tc_kspan *u = malloc((n + 1) * sizeof *u);
  tc_kspan *lost = malloc((n + c->ninvalid_all + 1) * sizeof *lost);
  tc_kspan *longs = malloc((n + 1) * sizeof *longs);
  edge *edges = malloc((2 * n + 1) * sizeof *edges);
  if (!u || !lost || !longs || !edges) {
    free(u);
    free(lost);
    free(longs);
    free(edges);
    return TC_E_NOMEM;
  }
  size_t nlong = 0;
  for (size_t i = 0; i < n; i++) {
    const tc_ktop *t = &c->tops[i];
    u[i] = (tc_kspan){t->s, t->e};
    if (t->invalid < 0 && !t->unbounded && t->e - t->s >= LONG_TASK_US)
      longs[nlong++] = u[i];
  }
  size_t nu = tc__kspans_union(u, n);
  nlong = tc__kspans_union(longs, nlong);

  size_t nlost = 0, nedges = 0;
  for (size_t i = 0; i < c->ninvalid_all; i++)
    lost[nlost++] = c->invalid_all[i];
  double busy = 0, sum = 0, max = 0;
  for (size_t i = 0; i < nu; i++) {
    double a = u[i].s > c->ws ? u[i].s : c->ws, b = u[i].e < c->we ? u[i].e : c->we;
    if (!(b > a))
      continue;
    if (tc__kspans_meet(c->invalid_all, c->ninvalid_all, u[i].s, u[i].e)) {
      lost[nlost++] = (tc_kspan){a, b};
      continue;
    }
    /* Arrivals in [a, b) wait from e-a down to e-b. */
    double lo = u[i].e - b, len = b - a;
    edges[nedges++] = (edge){lo, +1};
    edges[nedges++] = (edge){lo + len, -1};
    busy += len;
    sum += len * (lo + len / 2);
    if (lo + len > max)
      max = lo + len;
  }
  nlost = tc__kspans_union(lost, nlost);
  double valid = (c->we - c->ws) - tc__kspans_cover(lost, nlost, c->ws, c->we);
  l->valid_ms = tc__kround(valid / 1e3);
  if (!(valid > 0)) {
    l->na = TC_NA_ALL_INVALID;
  } else {
    tc__ksort(edges, nedges, sizeof *edges, edge_cmp);
    double idle = valid - busy;
    l->p50_ms = tc__kround(wait_quantile(edges, nedges, idle, valid, 0.50) / 1e3);
    l->p90_ms = tc__kround(wait_quantile(edges, nedges, idle, valid, 0.90) / 1e3);
    l->p99_ms = tc__kround(wait_quantile(edges, nedges, idle, valid, 0.99) / 1e3);
    l->mean_ms = tc__kround(sum / valid / 1e3);
    l->max_ms = tc__kround(max / 1e3);
    double in_long = 0;
    for (size_t i = 0; i < nlong; i++) {
      double a = longs[i].s > c->ws ? longs[i].s : c->ws;
      double b = longs[i].e < c->we ? longs[i].e : c->we;
      if (b > a)
        in_long += (b - a) - tc__kspans_cover(lost, nlost, a, b);
    }
    l->long_share_pct = tc__kround(100.0 * in_long / valid);
  }
  free(u);
  free(lost);
  free(longs);
  free(edges);
  return TC_OK;
}
