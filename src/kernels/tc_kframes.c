/* Step 5a: frame intervals of the page's own compositor.
 *
 * The page's compositor is every (pid, layerTreeId) that a SetLayerTreeId in
 * a main renderer gives the main frame (layerTreeId is a per-process counter
 * and changes across a navigation, so key on both; traces from before frame
 * ids had a sessionId instead, and there any tree of a main renderer
 * counts). DrawFrame instants of those keys are the frames.
 *
 * A static page draws nothing and a long gap there is not a slow frame. So
 * an interval between two consecutive DrawFrames of one key counts only when
 * the updates were continuous: the compositor was asking for BeginFrames
 * (NeedsBeginFrameChanged needsBeginFrame = 1) at the first draw and did not
 * stop asking before the second. Before a key's first NeedsBeginFrameChanged
 * its state is the opposite of that first change; a key that never reports
 * one cannot show continuity. No continuous interval at all: n/a.
 *
 * Vsync intervals jitter by microseconds around the budget (a perfect 60 Hz
 * loop has half its intervals just above 16.667 ms), so a frame is dropped,
 * counted in over_budget, only when its interval exceeds 1.5 budgets, and
 * it missed round(interval / budget) - 1 vsyncs. The raw intervals keep
 * their own distribution (mean, p50, p95, max, and counts by vsyncs). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

#define DROPPED_BUDGETS 1.5

static int ev_cmp(const void *pa, const void *pb) {
  const tc_kframe_ev *a = pa, *b = pb;
  if (a->pid != b->pid)
    return (a->pid > b->pid) - (a->pid < b->pid);
  if (a->layer_tree != b->layer_tree)
    return (a->layer_tree > b->layer_tree) - (a->layer_tree < b->layer_tree);
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return a->value - b->value;
}

static int is_page_tree(const tc_kernels *k, const tc_kctx *c, int64_t pid, int64_t tree) {
  if (!tc__kctx_is_main_pid(c, pid))
    return 0;
  for (size_t i = 0; i < k->layer_trees.n; i++) {
    const tc_klayer_tree *lt = &k->layer_trees.v[i];
    if (lt->pid == pid && lt->layer_tree == tree &&
        (!lt->frame || !c->frame || strcmp(lt->frame, c->frame) == 0))
      return 1;
  }
  return 0;
}

/* The events of key (pid, tree) in the sorted V: [*lo, *hi). */
static void key_range(const tc_kframe_ev *v, size_t n, int64_t pid, int64_t tree, size_t *lo,
                      size_t *hi) {
  size_t i = 0;
  while (i < n && (v[i].pid < pid || (v[i].pid == pid && v[i].layer_tree < tree)))
    i++;
  *lo = i;
  while (i < n && v[i].pid == pid && v[i].layer_tree == tree)
    i++;
  *hi = i;
}

/* Whether the compositor was asking at the draw at T (state after the
 * changes up to and including T), and whether it stopped before U. */
static int continuous(const tc_kframe_ev *nb, size_t n, double t, double u) {
  if (n == 0)
    return 0;
  int asking = !nb[0].value;
  size_t i = 0;
  for (; i < n && nb[i].ts <= t; i++)
    asking = nb[i].value;
  if (!asking)
    return 0;
  for (; i < n && nb[i].ts < u; i++)
    if (!nb[i].value)
      return 0;
  return 1;
}

tc_err tc__kframes_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_frame_metrics *f = &m->frames;
  tc__ksort(k->draws.v, k->draws.n, sizeof *k->draws.v, ev_cmp);
  tc__ksort(k->needs_begin_frame.v, k->needs_begin_frame.n, sizeof *k->needs_begin_frame.v, ev_cmp);
  int any_tree = 0;
  for (size_t i = 0; i < k->layer_trees.n && !any_tree; i++)
    any_tree = is_page_tree(k, c, k->layer_trees.v[i].pid, k->layer_trees.v[i].layer_tree);
  if (!any_tree) {
    f->na = TC_NA_NO_LAYER_TREE;
    return TC_OK;
  }
  double *iv = malloc((k->draws.n + 1) * sizeof *iv);
  if (!iv)
    return TC_E_NOMEM;
  size_t niv = 0, continuous_n = 0;
  for (size_t i = 0; i < k->draws.n;) {
    size_t lo, hi;
    const tc_kframe_ev *d = &k->draws.v[i];
    key_range(k->draws.v, k->draws.n, d->pid, d->layer_tree, &lo, &hi);
    i = hi;
    if (!is_page_tree(k, c, d->pid, d->layer_tree))
      continue;
    size_t nlo, nhi;
    key_range(k->needs_begin_frame.v, k->needs_begin_frame.n, d->pid, d->layer_tree, &nlo, &nhi);
    const tc_kframe_ev *nb = k->needs_begin_frame.v + nlo;
    double prev = 0;
    int have_prev = 0;
    for (size_t j = lo; j < hi; j++) {
      double ts = k->draws.v[j].ts;
      if (ts < c->ws || ts > c->we)
        continue;
      f->draws++;
      if (have_prev && continuous(nb, nhi - nlo, prev, ts)) {
        continuous_n++;
        int r = tc__kvalid_reason(c, prev, ts);
        if (r >= 0)
          m->discarded[TC_SAMPLE_FRAME_INTERVAL][r]++;
        else
          iv[niv++] = (ts - prev) / 1e3;
      }
      prev = ts;
      have_prev = 1;
    }
  }
  if (f->draws == 0)
    f->na = TC_NA_NO_FRAMES;
  else if (continuous_n == 0)
    f->na = TC_NA_NOT_CONTINUOUS;
  else if (niv == 0)
    f->na = TC_NA_ALL_INVALID;
  f->intervals = (uint32_t)niv;
  double budget_ms = 1000.0 / k->refresh_hz;
  double missed = 0;
  for (size_t i = 0; i < niv; i++) {
    f->over_budget += iv[i] > DROPPED_BUDGETS * budget_ms;
    double vsyncs = round(iv[i] / budget_ms);
    if (vsyncs > 1)
      missed += vsyncs - 1;
    f->by_vsyncs[vsyncs < TC_VSYNC_BINS - 1 ? (size_t)vsyncs : TC_VSYNC_BINS - 1]++;
  }
  f->missed_vsyncs = missed < UINT32_MAX ? (uint32_t)missed : UINT32_MAX;
  tc__ksummary(iv, niv, &f->mean_ms, &f->p50_ms, &f->p95_ms, &f->max_ms);
  free(iv);
  return TC_OK;
}
