/* Step 6: every renderer on its own, so that work in another process is
 * never the page's.
 *
 * Each renderer process with a CrRendererMain thread gets a role: page (it
 * hosts the page's main frame), iframe (it committed a frame of the page's
 * frame tree other than the main frame: an out-of-process iframe), browser
 * UI (every outermost main frame it committed is a browser page such as
 * chrome://omnibox-popup.top-chrome/), or other (another tab, a spare
 * renderer, nothing committed). A frame belongs to the page's tree when its
 * parent chain (the parent named by CommitLoad, FrameCommittedInBrowser or
 * TracingStartedInBrowser) reaches the main frame, or when a main renderer
 * itself named it as a subframe (a startup trace's CommitLoad of an
 * out-of-process iframe names no parent, but the page's renderer wrote the
 * navigationStart that created the frame). Over the page's window, each
 * renderer's main thread has its own top-level tasks, long tasks and TBT,
 * by the page's rules; the iframes' are summed in the iframes group. */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

/* How far a parent chain is followed: frame trees are shallow, and a cycle
 * in a hostile trace must end. */
#define MAX_DEPTH 64

typedef struct {
  const char *frame;
  const char *parent;   /* the first named, in (frame, ts, pid) order */
  uint8_t sub_in_main;  /* a main renderer named it as a subframe */
} frame_info;

static int frame_cmp(const void *pa, const void *pb) {
  return strcmp(((const frame_info *)pa)->frame, ((const frame_info *)pb)->frame);
}

static const frame_info *find(const frame_info *v, size_t n, const char *frame) {
  frame_info key = {.frame = frame};
  return frame ? bsearch(&key, v, n, sizeof *v, frame_cmp) : NULL;
}

/* Earlier first, then by pid and URL, so the answers never depend on file
 * order. */
static int doc_cmp(const void *pa, const void *pb) {
  const tc_kdoc *a = *(const tc_kdoc *const *)pa, *b = *(const tc_kdoc *const *)pb;
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
static tc_err frame_table(const tc_kernels *k, const tc_kctx *c, frame_info **out, size_t *nout) {
  const tc_kdoc **d = malloc((k->docs.n + 1) * sizeof *d);
  frame_info *v = malloc((k->docs.n + 1) * sizeof *v);
  if (!d || !v) {
    free(d);
    free(v);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < k->docs.n; i++)
    d[i] = &k->docs.v[i];
  tc__ksort(d, k->docs.n, sizeof *d, doc_cmp);
  size_t n = 0;
  for (size_t i = 0; i < k->docs.n; i++) {
    if (!n || strcmp(v[n - 1].frame, d[i]->frame) != 0)
      v[n++] = (frame_info){d[i]->frame, NULL, 0};
    frame_info *f = &v[n - 1];
    if (!f->parent)
      f->parent = d[i]->parent;
    if (d[i]->main == 0 && tc__kctx_is_main_pid(c, d[i]->pid))
      f->sub_in_main = 1;
  }
  free(d);
  *out = v;
  *nout = n;
  return TC_OK;
}

static int of_page(const tc_kctx *c, const frame_info *v, size_t n, const char *frame) {
  for (int depth = 0; frame && depth < MAX_DEPTH; depth++) {
    if (c->frame && strcmp(frame, c->frame) == 0)
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

/* The role of renderer PID, and the document that gave it (NULL when none). */
static tc_renderer_role role_of(const tc_kernels *k, const tc_kctx *c, const frame_info *v,
                                size_t n, int64_t pid, const tc_kdoc **why) {
  const tc_kdoc *frame = NULL, *top = NULL, *any = NULL;
  int all_browser = 1;
  for (size_t i = 0; i < k->docs.n; i++) {
    const tc_kdoc *d = &k->docs.v[i];
    if (d->pid != pid)
      continue;
    if (d->url && *d->url && (!any || tc__kdoc_before(d, any)))
      any = d;
    if (d->main == 0 && !(c->frame && strcmp(d->frame, c->frame) == 0) &&
        of_page(c, v, n, d->frame) && (!frame || tc__kdoc_before(d, frame)))
      frame = d;
    if (d->main == 1 && d->url && *d->url) {
      all_browser &= tc__kurl_is_browser(d->url);
      if (!top || tc__kdoc_before(d, top))
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

tc_err tc__krenderers_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  size_t n = 0;
  for (size_t i = 0; i < k->threads.n; i++)
    n += k->threads.v[i].role == TC_KROLE_RENDERER_MAIN;
  m->renderers = calloc(n + 1, sizeof *m->renderers);
  frame_info *frames = NULL;
  size_t nframes = 0;
  tc_err e = m->renderers ? frame_table(k, c, &frames, &nframes) : TC_E_NOMEM;
  for (size_t i = 0; !e && i < k->threads.n; i++) {
    const tc_kthread *t = &k->threads.v[i];
    /* One per process: its main thread, whichever CrRendererMain that is. */
    if (t->role != TC_KROLE_RENDERER_MAIN || tc__kmain_thread_of(k, t->pid) != t)
      continue;
    tc_renderer_metrics *r = &m->renderers[m->nrenderers++];
    r->pid = t->pid;
    r->tid = t->tid;
    const tc_kdoc *why = NULL;
    const char *url;
    if (tc__kctx_is_main_pid(c, t->pid)) {
      r->role = TC_ROLE_PAGE;
      url = m->main_url;
    } else {
      r->role = role_of(k, c, frames, nframes, t->pid, &why);
      url = why ? why->url : NULL;
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
  free(frames);
  if (!e)
    tc__ksort(m->renderers, m->nrenderers, sizeof *m->renderers, renderer_cmp);
  return e;
}
