/* The map's rules (tc_procmap.h states them): the page under test, then
 * what every process is to it. */
#include <stdlib.h>
#include <string.h>

#include "procs/tc_procmap_impl.h"

/* How far a parent chain is followed: frame trees are shallow, and a cycle
 * in a hostile trace must end. */
#define MAX_DEPTH 64

int tc__pdoc_before(const tc__pdoc *a, const tc__pdoc *b) {
  if (a->ts != b->ts)
    return a->ts < b->ts;
  if (a->pid != b->pid)
    return a->pid < b->pid;
  return strcmp(a->frame, b->frame) < 0;
}

static int pid_cmp(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

static void sort_pids(int64_t *v, size_t n) {
  if (n > 1)
    qsort(v, n, sizeof *v, pid_cmp);
}

/* Whether PID has a renderer or browser main thread (the kernels' main
 * thread of a process is one of those). */
static int has_main_thread(const tc_procmap *m, int64_t pid) {
  for (size_t i = 0; i < m->nthreads; i++)
    if (m->threads[i].pid == pid && m->threads[i].main != TC_THREAD_OTHER)
      return 1;
  return 0;
}

/* The page's processes: every process a commit of FRAME names (for
 * Lighthouse's rule only the browser's view), else FALLBACK; ascending,
 * each once, and of them those with a main thread. */
static tc_err page_pids(tc_procmap *m, const char *frame, int browser_only, int64_t fallback) {
  int64_t *pids = malloc((m->ndocs + 1) * sizeof *pids);
  if (!pids)
    return TC_E_NOMEM;
  size_t n = 0;
  for (size_t i = 0; i < m->ndocs; i++) {
    const tc__pdoc *d = &m->docs[i];
    int commit = d->kind == TC_PDOC_FRAME_COMMITTED || d->kind == TC_PDOC_PROCESS_READY ||
                 (!browser_only && d->kind == TC_PDOC_COMMIT_LOAD);
    if (commit && strcmp(d->frame, frame) == 0)
      pids[n++] = d->pid;
  }
  if (n == 0)
    pids[n++] = fallback;
  sort_pids(pids, n);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!k || pids[i] != pids[k - 1])
      pids[k++] = pids[i];
  m->page_pids = pids;
  m->page.pids = pids;
  m->page.npids = k;
  m->page.frame = frame;
  return TC_OK;
}

/* The only process with a renderer main thread; ambiguous when two threads
 * are named so, none when no thread is. */
static tc_err only_renderer(tc_procmap *m) {
  const tc__pthread *only = NULL;
  for (size_t i = 0; i < m->nthreads; i++) {
    if (m->threads[i].main != TC_THREAD_RENDERER_MAIN)
      continue;
    if (only) {
      m->page.status = TC_PAGE_AMBIGUOUS;
      return TC_OK;
    }
    only = &m->threads[i];
  }
  if (!only) {
    m->page.status = TC_PAGE_NO_RENDERER;
    return TC_OK;
  }
  if (!(m->page_pids = malloc(sizeof *m->page_pids)))
    return TC_E_NOMEM;
  m->page_pids[0] = only->pid;
  m->page.pids = m->page_pids;
  m->page.npids = 1;
  m->page.rule = TC_MAIN_ONLY_RENDERER;
  return TC_OK;
}

/* The earliest web document committed in an outermost main frame, by the
 * strongest kind of evidence that has one; NULL when none does. */
static const tc__pdoc *web_document(const tc_procmap *m) {
  static const uint8_t order[] = {TC_PDOC_COMMIT_LOAD, TC_PDOC_FRAME_COMMITTED,
                                  TC_PDOC_NAVIGATION_START};
  for (size_t o = 0; o < sizeof order; o++) {
    const tc__pdoc *best = NULL;
    for (size_t i = 0; i < m->ndocs; i++) {
      const tc__pdoc *d = &m->docs[i];
      if (d->kind == order[o] && d->main == 1 && tc_url_is_web(d->url) &&
          (!best || tc__pdoc_before(d, best)))
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
static const char *main_url(const tc_procmap *m, const char *frame) {
  const tc__pdoc *web = NULL, *commit = NULL, *any = NULL;
  for (size_t i = 0; i < m->ndocs; i++) {
    const tc__pdoc *d = &m->docs[i];
    if (!d->url || strcmp(d->frame, frame) != 0)
      continue;
    if (tc_url_is_web(d->url) && (!web || tc__pdoc_before(d, web)))
      web = d;
    if ((d->kind == TC_PDOC_COMMIT_LOAD || d->kind == TC_PDOC_FRAME_COMMITTED) &&
        (!commit || tc__pdoc_before(d, commit)))
      commit = d;
    if (!any || tc__pdoc_before(d, any))
      any = d;
  }
  return web ? web->url : commit ? commit->url : any ? any->url : NULL;
}

static tc_err choose_page(tc_procmap *m) {
  tc_err e;
  const tc__pdoc *doc;
  m->page.status = TC_PAGE_FOUND;
  if (m->has_started_in_browser && m->started_in_browser.frame) {
    m->page.rule = TC_MAIN_TRACING_STARTED_IN_BROWSER;
    e = page_pids(m, m->started_in_browser.frame, 1, m->started_in_browser.pid);
  } else if (m->has_started_in_page) {
    m->page.rule = TC_MAIN_TRACING_STARTED_IN_PAGE;
    e = page_pids(m, m->started_in_page.frame, 1, m->started_in_page.pid);
  } else if ((doc = web_document(m))) {
    m->page.rule = doc->kind == TC_PDOC_COMMIT_LOAD       ? TC_MAIN_COMMIT_LOAD
                   : doc->kind == TC_PDOC_FRAME_COMMITTED ? TC_MAIN_FRAME_COMMITTED_IN_BROWSER
                                                          : TC_MAIN_NAVIGATION_START;
    m->page.has_commit = 1;
    m->page.commit_ts = doc->ts;
    e = page_pids(m, doc->frame, 0, doc->pid);
  } else {
    e = only_renderer(m);
  }
  if (e || m->page.status != TC_PAGE_FOUND)
    return e;
  if (!(m->main_pids = malloc((m->page.npids + 1) * sizeof *m->main_pids)))
    return TC_E_NOMEM;
  for (size_t i = 0; i < m->page.npids; i++)
    if (has_main_thread(m, m->page.pids[i]))
      m->main_pids[m->nmain++] = m->page.pids[i];
  m->page.url = m->page.frame ? main_url(m, m->page.frame) : NULL;
  return TC_OK;
}

/* ---- the frame tree and every renderer's role ---- */

typedef struct {
  const char *frame;
  const char *parent;  /* the first named, in (frame, ts, pid) order */
  uint8_t sub_in_main; /* a page renderer named it as a subframe */
} frame_info;

static int frame_cmp(const void *pa, const void *pb) {
  return strcmp(((const frame_info *)pa)->frame, ((const frame_info *)pb)->frame);
}

static const frame_info *find(const frame_info *v, size_t n, const char *frame) {
  frame_info key = {.frame = frame};
  return frame && n ? bsearch(&key, v, n, sizeof *v, frame_cmp) : NULL;
}

/* Earlier first, then by pid and URL, so the answers never depend on file
 * order. */
static int doc_cmp(const void *pa, const void *pb) {
  const tc__pdoc *a = *(const tc__pdoc *const *)pa, *b = *(const tc__pdoc *const *)pb;
  int r = strcmp(a->frame, b->frame);
  if (r)
    return r;
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  if (a->pid != b->pid)
    return a->pid < b->pid ? -1 : 1;
  return strcmp(a->url ? a->url : "", b->url ? b->url : "");
}

/* One entry per frame named by any document event. */
static tc_err frame_table(const tc_procmap *m, frame_info **out, size_t *nout) {
  const tc__pdoc **d = malloc((m->ndocs + 1) * sizeof *d);
  frame_info *v = malloc((m->ndocs + 1) * sizeof *v);
  if (!d || !v) {
    free(d);
    free(v);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < m->ndocs; i++)
    d[i] = &m->docs[i];
  if (m->ndocs > 1)
    qsort(d, m->ndocs, sizeof *d, doc_cmp);
  size_t n = 0;
  for (size_t i = 0; i < m->ndocs; i++) {
    if (!n || strcmp(v[n - 1].frame, d[i]->frame) != 0)
      v[n++] = (frame_info){d[i]->frame, NULL, 0};
    frame_info *f = &v[n - 1];
    if (!f->parent)
      f->parent = d[i]->parent;
    if (d[i]->main == 0 && tc_procmap_is_page_pid(m, d[i]->pid))
      f->sub_in_main = 1;
  }
  free(d);
  *out = v;
  *nout = n;
  return TC_OK;
}

static int of_page(const tc_procmap *m, const frame_info *v, size_t n, const char *frame) {
  const char *main = m->page.frame;
  for (int depth = 0; frame && depth < MAX_DEPTH; depth++) {
    if (main && strcmp(frame, main) == 0)
      return 1;
    const frame_info *f = find(v, n, frame);
    if (!f)
      return 0;
    if (f->sub_in_main)
      return 1;
    frame = f->parent;
  }
  return 0;
}

/* The role of a renderer PID that does not host the page, and the document
 * that gave it (NULL when none). */
static tc_renderer_role role_of(const tc_procmap *m, const frame_info *v, size_t n, int64_t pid,
                                const tc__pdoc **why) {
  const tc__pdoc *frame = NULL, *top = NULL, *any = NULL;
  const char *main = m->page.frame;
  int all_browser = 1;
  for (size_t i = 0; i < m->ndocs; i++) {
    const tc__pdoc *d = &m->docs[i];
    if (d->pid != pid)
      continue;
    if (d->url && *d->url && (!any || tc__pdoc_before(d, any)))
      any = d;
    if (d->main == 0 && !(main && strcmp(d->frame, main) == 0) && of_page(m, v, n, d->frame) &&
        (!frame || tc__pdoc_before(d, frame)))
      frame = d;
    if (d->main == 1 && d->url && *d->url) {
      all_browser &= tc_url_is_browser(d->url);
      if (!top || tc__pdoc_before(d, top))
        top = d;
    }
  }
  if (frame) {
    *why = frame;
    return TC_ROLE_IFRAME;
  }
  *why = top && all_browser ? top : any;
  return top && all_browser ? TC_ROLE_BROWSER_UI : TC_ROLE_OTHER;
}

/* P's first outermost documents by time, for run.json. */
static void first_urls(const tc_procmap *m, tc__pproc *p) {
  size_t cap = sizeof p->p.urls / sizeof *p->p.urls;
  for (size_t k = 0; k < cap; k++) {
    const tc__pdoc *next = NULL;
    for (size_t i = 0; i < m->ndocs; i++) {
      const tc__pdoc *d = &m->docs[i];
      if (d->pid != p->p.pid || d->main != 1 || !d->url || !*d->url)
        continue;
      int seen = 0;
      for (size_t j = 0; j < k && !seen; j++)
        seen = strcmp(p->p.urls[j], d->url) == 0;
      if (!seen && (!next || tc__pdoc_before(d, next)))
        next = d;
    }
    if (!next)
      return;
    p->p.urls[k] = next->url;
    p->urls = (uint32_t)k + 1;
  }
}

static int is_page(const tc_procmap *m, int64_t pid) {
  for (size_t i = 0; i < m->page.npids; i++)
    if (m->page.pids[i] == pid)
      return 1;
  return 0;
}

tc_err tc__procmap_decide(tc_procmap *m) {
  tc_err e = choose_page(m);
  frame_info *frames = NULL;
  size_t nframes = 0;
  if (!e)
    e = frame_table(m, &frames, &nframes);
  for (size_t i = 0; !e && i < m->nprocs; i++) {
    tc__pproc *p = &m->procs[i];
    if (p->p.kind == TC_PROC_UNKNOWN)
      p->p.kind = p->by_thread;
    int renderer_thread = 0, docs = 0;
    for (size_t t = 0; t < m->nthreads && !renderer_thread; t++)
      renderer_thread = m->threads[t].pid == p->p.pid && m->threads[t].main == TC_THREAD_RENDERER_MAIN;
    for (size_t d = 0; d < m->ndocs && !docs; d++)
      docs = m->docs[d].pid == p->p.pid;
    p->p.renderer = p->p.kind == TC_PROC_RENDERER || renderer_thread || docs;
    first_urls(m, p);
    if (!p->p.renderer)
      continue;
    if (m->page.status == TC_PAGE_FOUND && is_page(m, p->p.pid)) {
      p->p.role = TC_ROLE_PAGE;
      p->p.url = m->page.url;
    } else {
      const tc__pdoc *why = NULL;
      p->p.role = role_of(m, frames, nframes, p->p.pid, &why);
      p->p.url = why ? why->url : NULL;
    }
  }
  free(frames);
  return e;
}
