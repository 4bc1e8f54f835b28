/* Step 1: the page under test and its main thread(s).
 *
 * The trace's process map (procs/tc_procmap.h) says which frame is the
 * page and which processes host it, by the rules stated there (Lighthouse's
 * for DevTools and CDP traces, the earliest web document's commit for
 * startup traces, the only renderer otherwise). Each of those processes'
 * thread named CrRendererMain (CrBrowserMain under --single-process) is a
 * main thread. */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

tc_kthread *tc__kmain_thread_of(tc_kernels *k, int64_t pid) {
  tc_kthread *best = NULL;
  for (size_t i = 0; i < k->threads.n; i++) {
    tc_kthread *t = &k->threads.v[i];
    if (t->pid != pid || t->role == TC_THREAD_OTHER)
      continue;
    if (!best || t->role < best->role || (t->role == best->role && t->tid < best->tid))
      best = t;
  }
  return best;
}

tc_err tc__kmain_choose(tc_kernels *k, const tc_procmap *map, tc_kctx *c, tc_trace_metrics *m) {
  const tc_page *page = tc_procmap_page(map);
  if (page->status != TC_PAGE_FOUND) {
    m->main_na = page->status == TC_PAGE_AMBIGUOUS ? TC_NA_MAIN_AMBIGUOUS : TC_NA_NO_MAIN_THREAD;
    return TC_OK;
  }
  m->main_rule = page->rule;
  c->frame = page->frame;
  c->has_commit = page->has_commit;
  c->commit_ts = page->commit_ts;
  c->threads = malloc((page->npids + 1) * sizeof *c->threads);
  if (!c->threads)
    return TC_E_NOMEM;
  for (size_t i = 0; i < page->npids; i++) {
    tc_kthread *t = tc__kmain_thread_of(k, page->pids[i]);
    if (t)
      c->threads[c->nthreads++] = t;
  }
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
  m->main_url_na = page->url ? TC_NA_NONE : TC_NA_NO_URL;
  if (page->url && !(m->main_url = strdup(page->url)))
    return TC_E_NOMEM;
  return TC_OK;
}
