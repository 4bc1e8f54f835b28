/* Step 6: every renderer on its own, so that work in another process is
 * never the page's.
 *
 * Each renderer process with a CrRendererMain thread is reported with the
 * role the trace's process map gives it (procs/tc_procmap.h: page, iframe,
 * browser UI, other). Over the page's window, each renderer's main thread
 * has its own top-level tasks, long tasks and TBT, by the page's rules; the
 * iframes' are summed in the iframes group. */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

static int renderer_cmp(const void *pa, const void *pb) {
  const tc_renderer_metrics *a = pa, *b = pb;
  if (a->role != b->role)
    return a->role < b->role ? -1 : 1;
  return (a->pid > b->pid) - (a->pid < b->pid);
}

/* Tasks, long tasks and TBT of one renderer's main thread in the window. */
static tc_err measure(const tc_kctx *c, const tc_kthread *t, tc_renderer_metrics *r) {
  if (t->tasks.n == 0) {
    r->na = TC_NA_NO_TASKS;
    return TC_OK;
  }
  tc_ktop *tops;
  size_t n;
  uint32_t clamped = 0, unbounded = 0; /* the page's own are counted once, in its metrics */
  tc_err e = tc__ktasks_of(c, t, &tops, &n, &clamped, NULL);
  if (e)
    return e;
  for (size_t i = 0; i < n; i++)
    r->tasks += tops[i].invalid < 0;
  double *durs;
  e = tc__klong_of(c, tops, n, &r->long_count, &r->tbt_ms, &unbounded, &r->long_tasks, &durs);
  free(tops);
  if (e)
    return e;
  for (uint32_t i = 0; i < r->long_count; i++)
    if (durs[i] > r->long_max_ms)
      r->long_max_ms = durs[i];
  r->long_max_ms = r->long_count ? tc__kround(r->long_max_ms) : 0;
  free(durs);
  return TC_OK;
}

tc_err tc__krenderers_compute(tc_kernels *k, const tc_procmap *map, tc_kctx *c,
                              tc_trace_metrics *m) {
  size_t n = 0;
  for (size_t i = 0; i < k->threads.n; i++)
    n += k->threads.v[i].role == TC_THREAD_RENDERER_MAIN;
  m->renderers = calloc(n + 1, sizeof *m->renderers);
  tc_err e = m->renderers ? TC_OK : TC_E_NOMEM;
  for (size_t i = 0; !e && i < k->threads.n; i++) {
    const tc_kthread *t = &k->threads.v[i];
    /* One per process: its main thread, whichever CrRendererMain that is. */
    if (t->role != TC_THREAD_RENDERER_MAIN || tc__kmain_thread_of(k, t->pid) != t)
      continue;
    tc_renderer_metrics *r = &m->renderers[m->nrenderers++];
    r->pid = t->pid;
    r->tid = t->tid;
    const tc_proc *p = tc_procmap_find(map, t->pid);
    const char *url;
    if (tc__kctx_is_main_pid(c, t->pid)) {
      r->role = TC_ROLE_PAGE;
      url = m->main_url;
    } else {
      r->role = p && p->renderer ? p->role : TC_ROLE_OTHER;
      url = p && p->renderer ? p->url : NULL;
    }
    if (url && !(r->url = strdup(url)))
      e = TC_E_NOMEM;
    if (!e)
      e = measure(c, t, r);
    if (!e && r->role == TC_ROLE_IFRAME) {
      m->iframes.renderers++;
      m->iframes.long_tasks += r->long_count;
      m->iframes.tbt_ms = tc__kround(m->iframes.tbt_ms + r->tbt_ms);
    }
  }
  if (!e)
    tc__ksort(m->renderers, m->nrenderers, sizeof *m->renderers, renderer_cmp);
  return e;
}
