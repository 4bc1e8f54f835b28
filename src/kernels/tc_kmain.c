/* Step 1: the page's main thread(s).
 *
 * Lighthouse's TraceProcessor rule, so the oracle test can agree exactly:
 * the main frame comes from the earliest TracingStartedInBrowser (the frame
 * with no parent), else TracingStartedInPage, else a navigationStart loading
 * the main frame. The frame's renderers are the processIds of the commits
 * that name it (a cross-process navigation gives several), else the pid the
 * frame was first seen in; each renderer's thread named CrRendererMain (or
 * CrBrowserMain under --single-process) is a main thread. With no main-frame
 * evidence at all, a trace with exactly one CrRendererMain uses it. */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

static int pid_cmp(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* The main thread of process PID: its CrRendererMain, else CrBrowserMain;
 * the lowest tid when a name repeats, so the choice never depends on order. */
static tc_kthread *main_thread_of(tc_kernels *k, int64_t pid) {
  tc_kthread *best = NULL;
  for (size_t i = 0; i < k->threads.n; i++) {
    tc_kthread *t = &k->threads.v[i];
    if (t->pid != pid || t->role == TC_KROLE_OTHER)
      continue;
    if (!best || t->role < best->role || (t->role == best->role && t->tid < best->tid))
      best = t;
  }
  return best;
}

static tc_err choose_from_frame(tc_kernels *k, tc_kctx *c, const tc_kframe_ref *start) {
  size_t n = 0;
  int64_t *pids = malloc((k->commits.n + 1) * sizeof *pids);
  if (!pids)
    return TC_E_NOMEM;
  for (size_t i = 0; i < k->commits.n; i++)
    if (strcmp(k->commits.v[i].frame, start->frame) == 0)
      pids[n++] = k->commits.v[i].pid;
  if (n == 0)
    pids[n++] = start->pid;
  tc_ksort(pids, n, sizeof *pids, pid_cmp);
  c->threads = malloc(n * sizeof *c->threads);
  if (!c->threads) {
    free(pids);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && pids[i] == pids[i - 1])
      continue;
    tc_kthread *t = main_thread_of(k, pids[i]);
    if (t)
      c->threads[c->nthreads++] = t;
  }
  free(pids);
  c->frame = start->frame;
  return TC_OK;
}

static tc_err choose_only_renderer(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_kthread *only = NULL;
  for (size_t i = 0; i < k->threads.n; i++) {
    if (k->threads.v[i].role != TC_KROLE_RENDERER_MAIN)
      continue;
    if (only) {
      m->main_na = TC_NA_MAIN_AMBIGUOUS;
      return TC_OK;
    }
    only = &k->threads.v[i];
  }
  if (!only) {
    m->main_na = TC_NA_NO_MAIN_THREAD;
    return TC_OK;
  }
  c->threads = malloc(sizeof *c->threads);
  if (!c->threads)
    return TC_E_NOMEM;
  c->threads[c->nthreads++] = only;
  m->main_rule = TC_MAIN_ONLY_RENDERER;
  return TC_OK;
}

tc_err tc_kmain_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  const tc_kframe_ref *start = NULL;
  if (k->has_started_in_browser && k->started_in_browser.frame) {
    start = &k->started_in_browser;
    m->main_rule = TC_MAIN_TRACING_STARTED_IN_BROWSER;
  } else if (k->has_started_in_page) {
    start = &k->started_in_page;
    m->main_rule = TC_MAIN_TRACING_STARTED_IN_PAGE;
  } else if (k->has_navigation_start) {
    start = &k->navigation_start;
    m->main_rule = TC_MAIN_NAVIGATION_START;
  }
  tc_err e = start ? choose_from_frame(k, c, start) : choose_only_renderer(k, c, m);
  if (e || m->main_na)
    return e;
  if (c->nthreads == 0) {
    m->main_na = TC_NA_NO_MAIN_THREAD;
    return TC_OK;
  }
  m->main_threads = malloc(c->nthreads * sizeof *m->main_threads);
  if (!m->main_threads)
    return TC_E_NOMEM;
  for (size_t i = 0; i < c->nthreads; i++)
    m->main_threads[i] = (tc_thread_ref){c->threads[i]->pid, c->threads[i]->tid};
  m->nmain = (uint32_t)c->nthreads;
  if (c->frame && !(m->main_frame = strdup(c->frame)))
    return TC_E_NOMEM;
  return TC_OK;
}
