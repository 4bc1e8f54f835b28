/* Step 1: the page under test and its main thread(s).
 *
 * Where the trace has TracingStartedInBrowser (DevTools and CDP/Puppeteer
 * recordings), Lighthouse's TraceProcessor rule, so the oracle test agrees
 * exactly: the main frame is the frame with no parent in the earliest
 * TracingStartedInBrowser, else (pre-M62) TracingStartedInPage's page; its
 * renderers are the processIds of the FrameCommittedInBrowser /
 * ProcessReadyInBrowser that name it, else the pid the frame was first seen
 * in.
 *
 * A startup trace (--trace-startup, as corpus/record makes) has neither, and
 * holds renderers of the browser's own pages too (the omnibox popup commits
 * chrome:// outermost main frames before the page does). There the page is
 * the outermost main frame that committed a web document (http:, https:,
 * file:), from the strongest evidence the trace has: CommitLoad in the
 * renderer, else FrameCommittedInBrowser, else navigationStart with its
 * documentLoaderURL. Several qualify (tabs, navigations): the earliest by
 * ts, then the lowest pid, then the frame id bytewise. Its renderers are
 * every process that committed that frame.
 *
 * Each renderer's thread named CrRendererMain (CrBrowserMain under
 * --single-process) is a main thread. With no main-frame evidence at all, a
 * trace with exactly one CrRendererMain uses it. */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

static int pid_cmp(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

static int has_scheme(const char *url, const char *const *schemes) {
  if (!url)
    return 0;
  for (; *schemes; schemes++) {
    size_t n = strlen(*schemes);
    if (strncmp(url, *schemes, n) == 0)
      return 1;
  }
  return 0;
}

int tc__kurl_is_web(const char *url) {
  static const char *const web[] = {"http:", "https:", "file:", NULL};
  return has_scheme(url, web);
}

int tc__kurl_is_browser(const char *url) {
  static const char *const ui[] = {"chrome:", "chrome-untrusted:", "devtools:",
                                   "chrome-extension:", "chrome-search:", NULL};
  return has_scheme(url, ui);
}

tc_kthread *tc__kmain_thread_of(tc_kernels *k, int64_t pid) {
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

/* The renderers of FRAME: every process a commit of the frame names (for
 * Lighthouse's rule only the browser's view), else FALLBACK. */
static tc_err choose_renderers(tc_kernels *k, tc_kctx *c, const char *frame, int browser_only,
                               int64_t fallback) {
  size_t n = 0;
  int64_t *pids = malloc((k->docs.n + 1) * sizeof *pids);
  if (!pids)
    return TC_E_NOMEM;
  for (size_t i = 0; i < k->docs.n; i++) {
    const tc_kdoc *d = &k->docs.v[i];
    int commit = d->kind == TC_KDOC_FRAME_COMMITTED || d->kind == TC_KDOC_PROCESS_READY ||
                 (!browser_only && d->kind == TC_KDOC_COMMIT_LOAD);
    if (commit && strcmp(d->frame, frame) == 0)
      pids[n++] = d->pid;
  }
  if (n == 0)
    pids[n++] = fallback;
  tc__ksort(pids, n, sizeof *pids, pid_cmp);
  c->threads = malloc(n * sizeof *c->threads);
  if (!c->threads) {
    free(pids);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && pids[i] == pids[i - 1])
      continue;
    tc_kthread *t = tc__kmain_thread_of(k, pids[i]);
    if (t)
      c->threads[c->nthreads++] = t;
  }
  free(pids);
  c->frame = frame;
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

int tc__kdoc_before(const tc_kdoc *a, const tc_kdoc *b) {
  if (a->ts != b->ts)
    return a->ts < b->ts;
  if (a->pid != b->pid)
    return a->pid < b->pid;
  return strcmp(a->frame, b->frame) < 0;
}

/* The earliest web document committed in an outermost main frame, by the
 * strongest kind of evidence that has one; NULL when none does. */
static const tc_kdoc *web_document(const tc_kernels *k) {
  static const uint8_t order[] = {TC_KDOC_COMMIT_LOAD, TC_KDOC_FRAME_COMMITTED,
                                  TC_KDOC_NAVIGATION_START};
  for (size_t o = 0; o < sizeof order; o++) {
    const tc_kdoc *best = NULL;
    for (size_t i = 0; i < k->docs.n; i++) {
      const tc_kdoc *d = &k->docs.v[i];
      if (d->kind == order[o] && d->main == 1 && tc__kurl_is_web(d->url) &&
          (!best || tc__kdoc_before(d, best)))
        best = d;
    }
    if (best)
      return best;
  }
  return NULL;
}

/* The URL of the main frame's document: its earliest web document, else its
 * earliest committed one, else the earliest URL any event gives the frame
 * (a DevTools recording lists the frame as it was when recording began). */
static const char *main_url(const tc_kernels *k, const char *frame) {
  const tc_kdoc *web = NULL, *commit = NULL, *any = NULL;
  for (size_t i = 0; i < k->docs.n; i++) {
    const tc_kdoc *d = &k->docs.v[i];
    if (!d->url || strcmp(d->frame, frame) != 0)
      continue;
    if (tc__kurl_is_web(d->url) && (!web || tc__kdoc_before(d, web)))
      web = d;
    if ((d->kind == TC_KDOC_COMMIT_LOAD || d->kind == TC_KDOC_FRAME_COMMITTED) &&
        (!commit || tc__kdoc_before(d, commit)))
      commit = d;
    if (!any || tc__kdoc_before(d, any))
      any = d;
  }
  return web ? web->url : commit ? commit->url : any ? any->url : NULL;
}

tc_err tc__kmain_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_err e;
  const tc_kdoc *doc;
  if (k->has_started_in_browser && k->started_in_browser.frame) {
    m->main_rule = TC_MAIN_TRACING_STARTED_IN_BROWSER;
    e = choose_renderers(k, c, k->started_in_browser.frame, 1, k->started_in_browser.pid);
  } else if (k->has_started_in_page) {
    m->main_rule = TC_MAIN_TRACING_STARTED_IN_PAGE;
    e = choose_renderers(k, c, k->started_in_page.frame, 1, k->started_in_page.pid);
  } else if ((doc = web_document(k))) {
    m->main_rule = doc->kind == TC_KDOC_COMMIT_LOAD       ? TC_MAIN_COMMIT_LOAD
                   : doc->kind == TC_KDOC_FRAME_COMMITTED ? TC_MAIN_FRAME_COMMITTED_IN_BROWSER
                                                          : TC_MAIN_NAVIGATION_START;
    c->has_commit = 1;
    c->commit_ts = doc->ts;
    e = choose_renderers(k, c, doc->frame, 0, doc->pid);
  } else {
    e = choose_only_renderer(k, c, m);
  }
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
  const char *url = c->frame ? main_url(k, c->frame) : NULL;
  m->main_url_na = url ? TC_NA_NONE : TC_NA_NO_URL;
  if (url && !(m->main_url = strdup(url)))
    return TC_E_NOMEM;
  return TC_OK;
}
