/* Step 5d: layouts forced by script.
 *
 * DevTools' forced reflow is a Layout that runs inside JavaScript: script
 * read a geometry (offsetHeight, getBoundingClientRect, ...) while layout
 * was dirty, and the engine had to lay out before returning. Here: a
 * Layout slice of a main thread (complete, or a B/E pair), starting in the
 * window, whose start lies inside a FunctionCall, EvaluateScript or
 * v8.evaluateModule slice of the same thread. Like the heap, layouts are
 * work done, so they are not discarded for validity. No Layout at all on
 * the main thread(s) in the window (a trace without devtools.timeline): n/a. */
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

/* Whether T lies in one of the N sorted, merged spans V. */
static int inside(const tc_kspan *v, size_t n, double t) {
  size_t i = tc__kspans_first_ending(v, n, t);
  return i < n && v[i].s <= t;
}

static int closed(const tc_ktask *t, int kind) {
  return t->name == kind && !(t->flags & (TC_KTASK_OPEN | TC_KTASK_UNBOUNDED)) && t->e >= t->s;
}

tc_err tc__klayout_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  (void)k;
  tc_layout_metrics *l = &m->layout;
  double forced_us = 0;
  for (size_t i = 0; i < c->nthreads; i++) {
    const tc_kthread *t = c->threads[i];
    tc_kspan *scripts = malloc((t->slices.n + 1) * sizeof *scripts);
    if (!scripts)
      return TC_E_NOMEM;
    size_t ns = 0;
    for (size_t j = 0; j < t->slices.n; j++)
      if (closed(&t->slices.v[j], TC_KKIND_SCRIPT))
        scripts[ns++] = (tc_kspan){t->slices.v[j].s, t->slices.v[j].e};
    ns = tc__kspans_union(scripts, ns);
    for (size_t j = 0; j < t->slices.n; j++) {
      const tc_ktask *lay = &t->slices.v[j];
      if (!closed(lay, TC_KKIND_LAYOUT) || lay->s < c->ws || lay->s > c->we)
        continue;
      l->layouts++;
      if (inside(scripts, ns, lay->s)) {
        double d = lay->e - lay->s;
        l->forced++;
        forced_us += d < c->max_task_us ? d : c->max_task_us;
      }
    }
    free(scripts);
  }
  if (l->layouts == 0)
    l->na = TC_NA_NO_LAYOUT;
  l->forced_ms = tc__kround(forced_us / 1e3);
  return TC_OK;
}
