/* The map's feed: which events it reads and what it keeps of them, and
 * the names of its answers. The rules that decide are in tc_procrule.c. */
#include <stdlib.h>
#include <string.h>

#include "procs/tc_procmap_impl.h"
#include "util/tc_grow.h"

static const char *const arg_paths[TC_PM_NARGS] = {
    [TC_PM_ARG_NAME] = "args.name",
    [TC_PM_ARG_FRAMES_FRAME] = "args.data.frames[].frame",
    [TC_PM_ARG_FRAMES_PARENT] = "args.data.frames[].parent",
    [TC_PM_ARG_FRAMES_PROCESS] = "args.data.frames[].processId",
    [TC_PM_ARG_FRAMES_URL] = "args.data.frames[].url",
    [TC_PM_ARG_DATA_PAGE] = "args.data.page",
    [TC_PM_ARG_FRAME] = "args.frame",
    [TC_PM_ARG_DATA_LOADING_MAIN] = "args.data.isLoadingMainFrame",
    [TC_PM_ARG_DATA_OUTERMOST_MAIN] = "args.data.isOutermostMainFrame",
    [TC_PM_ARG_DATA_IS_MAIN] = "args.data.isMainFrame",
    [TC_PM_ARG_DATA_LOADER_URL] = "args.data.documentLoaderURL",
    [TC_PM_ARG_DATA_URL] = "args.data.url",
    [TC_PM_ARG_DATA_FRAME] = "args.data.frame",
    [TC_PM_ARG_DATA_PARENT] = "args.data.parent",
    [TC_PM_ARG_DATA_PROCESS] = "args.data.processId",
};

const char *const *tc_procmap_arg_paths(size_t *n) {
  *n = TC_PM_NARGS;
  return arg_paths;
}

/* ---- names ---- */

enum {
  PM_NONE,
  PM_THREAD_NAME,
  PM_PROCESS_NAME,
  PM_STARTED_IN_BROWSER,
  PM_STARTED_IN_PAGE,
  PM_NAVIGATION_START,
  PM_COMMIT_LOAD,
  PM_FRAME_COMMIT,
  PM_PROCESS_READY,
};

static const struct {
  const char *name;
  int code;
} names[] = {
    {"thread_name", PM_THREAD_NAME},
    {"process_name", PM_PROCESS_NAME},
    {"TracingStartedInBrowser", PM_STARTED_IN_BROWSER},
    {"TracingStartedInPage", PM_STARTED_IN_PAGE},
    {"navigationStart", PM_NAVIGATION_START},
    {"CommitLoad", PM_COMMIT_LOAD},
    {"FrameCommittedInBrowser", PM_FRAME_COMMIT},
    {"ProcessReadyInBrowser", PM_PROCESS_READY},
};

int tc_procmap_name_code(tc_str name) {
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (tc_str_eqc(name, names[i].name))
      return names[i].code;
  return PM_NONE;
}

int tc_procmap_wants(int code, char ph) {
  if (code == PM_THREAD_NAME || code == PM_PROCESS_NAME)
    return ph == 'M';
  return code != PM_NONE;
}

const char *tc_proc_kind_code(tc_proc_kind k) {
  switch (k) {
  case TC_PROC_BROWSER: return "browser";
  case TC_PROC_RENDERER: return "renderer";
  case TC_PROC_GPU: return "gpu";
  case TC_PROC_UTILITY: return "utility";
  case TC_PROC_OTHER: return "other";
  case TC_PROC_UNKNOWN:
  case TC_PROC_KIND_COUNT_: break;
  }
  return "unknown";
}

const char *tc_renderer_role_code(tc_renderer_role r) {
  switch (r) {
  case TC_ROLE_PAGE: return "page";
  case TC_ROLE_IFRAME: return "iframe";
  case TC_ROLE_BROWSER_UI: return "browser_ui";
  case TC_ROLE_OTHER: return "other";
  case TC_ROLE_COUNT_: break;
  }
  return "unknown";
}

static const char *const main_codes[TC_MAIN_RULE_COUNT_] = {
    [TC_MAIN_NONE] = "none",
    [TC_MAIN_TRACING_STARTED_IN_BROWSER] = "tracing_started_in_browser",
    [TC_MAIN_TRACING_STARTED_IN_PAGE] = "tracing_started_in_page",
    [TC_MAIN_NAVIGATION_START] = "navigation_start",
    [TC_MAIN_ONLY_RENDERER] = "only_renderer",
    [TC_MAIN_COMMIT_LOAD] = "commit_load",
    [TC_MAIN_FRAME_COMMITTED_IN_BROWSER] = "frame_committed_in_browser",
};

#define WEB_DOCUMENT                                                           \
  "main frame = the outermost main frame (isOutermostMainFrame, else isMainFrame "  \
  "or isLoadingMainFrame) that committed a web document (an http:, https: or file: " \
  "URL; never chrome:, chrome-untrusted:, devtools:, chrome-extension: or about:), the " \
  "earliest such commit by ts (then lowest pid, then frame id); its renderers = every " \
  "process that committed that frame; main thread = each renderer's CrRendererMain; "  \
  "the evidence, in order: "

static const char *const main_texts[TC_MAIN_RULE_COUNT_] = {
    [TC_MAIN_NONE] = "no main thread chosen",
    [TC_MAIN_TRACING_STARTED_IN_BROWSER] =
        "main frame = the frame with no parent in the earliest TracingStartedInBrowser "
        "args.data.frames[]; its renderers = args.data.processId of every "
        "FrameCommittedInBrowser/ProcessReadyInBrowser for that frame, else the frame's "
        "processId; main thread = each renderer's CrRendererMain (CrBrowserMain for "
        "--single-process), as Lighthouse's TraceProcessor does (DevTools and CDP traces)",
    [TC_MAIN_TRACING_STARTED_IN_PAGE] =
        "main frame = args.data.page of the earliest TracingStartedInPage (pre-M62 traces); "
        "renderers and thread as for TracingStartedInBrowser",
    [TC_MAIN_NAVIGATION_START] =
        WEB_DOCUMENT "CommitLoad, FrameCommittedInBrowser, then (this trace) a navigationStart "
        "whose args.data.documentLoaderURL is the web document, in the renderer that wrote it",
    [TC_MAIN_ONLY_RENDERER] =
        "no main-frame event: the trace's only CrRendererMain thread",
    [TC_MAIN_COMMIT_LOAD] =
        WEB_DOCUMENT "(this trace) a CommitLoad of the renderer, args.data.frame and url, "
        "then FrameCommittedInBrowser, then navigationStart (startup traces)",
    [TC_MAIN_FRAME_COMMITTED_IN_BROWSER] =
        WEB_DOCUMENT "CommitLoad, then (this trace) a FrameCommittedInBrowser, its "
        "args.data.processId the renderer, then navigationStart",
};

#undef WEB_DOCUMENT

const char *tc_main_rule_code(tc_main_rule r) {
  return (unsigned)r < TC_MAIN_RULE_COUNT_ ? main_codes[r] : "unknown";
}

const char *tc_main_rule_text(tc_main_rule r) {
  return (unsigned)r < TC_MAIN_RULE_COUNT_ ? main_texts[r] : "unknown";
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

int tc_url_is_web(const char *url) {
  static const char *const web[] = {"http:", "https:", "file:", NULL};
  return has_scheme(url, web);
}

int tc_url_is_browser(const char *url) {
  static const char *const ui[] = {"chrome:", "chrome-untrusted:", "devtools:",
                                   "chrome-extension:", "chrome-search:", NULL};
  return has_scheme(url, ui);
}

tc_thread_role tc_thread_role_of(tc_str n) {
  return tc_str_eqc(n, "CrRendererMain")  ? TC_THREAD_RENDERER_MAIN
         : tc_str_eqc(n, "CrBrowserMain") ? TC_THREAD_BROWSER_MAIN
                                          : TC_THREAD_OTHER;
}

/* ---- the map ---- */

tc_procmap *tc_procmap_create(void) { return calloc(1, sizeof(tc_procmap)); }

void tc_procmap_free(tc_procmap *m) {
  if (!m)
    return;
  free(m->docs);
  free(m->threads);
  free(m->procs);
  free(m->page_pids);
  free(m->main_pids);
  tc_arena_free(&m->strings);
  free(m);
}

tc__pproc *tc__proc_of(tc_procmap *m, int64_t pid) {
  for (size_t i = m->nprocs; i-- > 0;)
    if (m->procs[i].p.pid == pid)
      return &m->procs[i];
  if (TC_GROW(m->procs, m->procs_cap, m->nprocs + 1)) {
    m->nomem = 1;
    return NULL;
  }
  tc__pproc *p = &m->procs[m->nprocs++];
  memset(p, 0, sizeof *p);
  p->p.pid = pid;
  return p;
}

/* ---- feed ---- */

/* A copy of S in the arena; NULL (and nomem) when memory fails. */
static const char *keep(tc_procmap *m, tc_str s) {
  const char *c = tc_arena_copy(&m->strings, s);
  if (!c)
    m->nomem = 1;
  return c;
}

/* A non-empty string argument copied into the arena; NULL when absent. */
static const char *arg_str(tc_procmap *m, const tc_kevent *ev, int slot) {
  const tc_argval *a = tc_kevent_arg(ev, slot);
  return a && a->type == TC_JT_STRING && a->str.len ? keep(m, a->str) : NULL;
}

/* A boolean argument: 1, 0, or -1 when absent (or not a boolean). */
static int arg_flag(const tc_kevent *ev, int slot) {
  const tc_argval *a = tc_kevent_arg(ev, slot);
  return a && a->type == TC_JT_BOOL ? a->num != 0 : -1;
}

/* A string argument of array element ELEM copied into the arena; NULL when
 * absent or empty. */
static const char *elem_str(tc_procmap *m, const tc_kevent *ev, int slot, uint32_t elem) {
  for (uint32_t i = 0; i < ev->nargs; i++) {
    const tc_argval *a = &ev->args[i];
    if (a->slot == slot && a->elem == elem && a->type == TC_JT_STRING && a->str.len)
      return keep(m, a->str);
  }
  return NULL;
}

static void push_doc(tc_procmap *m, tc__pdoc d) {
  if (!d.frame)
    return;
  if (TC_GROW(m->docs, m->docs_cap, m->ndocs + 1)) {
    m->nomem = 1;
    return;
  }
  m->docs[m->ndocs++] = d;
}

/* The kind a name gives a process: its process_name, or a thread's. */
static tc_proc_kind kind_of_process_name(tc_str n) {
  if (tc_str_eqc(n, "Browser"))
    return TC_PROC_BROWSER;
  if (tc_str_eqc(n, "Renderer"))
    return TC_PROC_RENDERER;
  if (tc_str_eqc(n, "GPU Process"))
    return TC_PROC_GPU;
  static const char svc[] = "Service:", util[] = "Utility";
  if ((n.len >= sizeof svc - 1 && memcmp(n.ptr, svc, sizeof svc - 1) == 0) ||
      (n.len >= sizeof util - 1 && memcmp(n.ptr, util, sizeof util - 1) == 0))
    return TC_PROC_UTILITY;
  return TC_PROC_OTHER;
}

static tc_proc_kind kind_of_thread_name(tc_str n) {
  static const char util[] = "CrUtilityMain";
  if (tc_str_eqc(n, "CrBrowserMain"))
    return TC_PROC_BROWSER;
  if (tc_str_eqc(n, "CrRendererMain"))
    return TC_PROC_RENDERER;
  if (tc_str_eqc(n, "CrGpuMain"))
    return TC_PROC_GPU;
  if (n.len >= sizeof util - 1 && memcmp(n.ptr + n.len - (sizeof util - 1), util, sizeof util - 1) == 0)
    return TC_PROC_UTILITY;
  return TC_PROC_UNKNOWN;
}

static void feed_thread_name(tc_procmap *m, const tc_kevent *ev) {
  const tc_argval *a = tc_kevent_arg(ev, TC_PM_ARG_NAME);
  if (!a || a->type != TC_JT_STRING)
    return;
  tc_thread_role main = tc_thread_role_of(a->str);
  tc__pthread *t = NULL;
  for (size_t i = 0; i < m->nthreads && !t; i++)
    if (m->threads[i].pid == ev->pid && m->threads[i].tid == ev->tid)
      t = &m->threads[i];
  if (!t) {
    if (TC_GROW(m->threads, m->threads_cap, m->nthreads + 1)) {
      m->nomem = 1;
      return;
    }
    t = &m->threads[m->nthreads++];
    *t = (tc__pthread){ev->pid, ev->tid, TC_THREAD_OTHER};
  }
  /* A main thread keeps its role, as the kernels keep it: a later other
   * name of the same thread does not undo it. */
  if (main != TC_THREAD_OTHER)
    t->main = main;
  tc__pproc *p = tc__proc_of(m, ev->pid);
  tc_proc_kind k = kind_of_thread_name(a->str);
  if (p && k != TC_PROC_UNKNOWN && (p->by_thread == TC_PROC_UNKNOWN || k == TC_PROC_BROWSER))
    p->by_thread = k;
}

static void feed_process_name(tc_procmap *m, const tc_kevent *ev) {
  const tc_argval *a = tc_kevent_arg(ev, TC_PM_ARG_NAME);
  tc__pproc *p = a && a->type == TC_JT_STRING ? tc__proc_of(m, ev->pid) : NULL;
  if (!p || p->p.name)
    return;
  p->p.name = keep(m, a->str);
  p->p.kind = kind_of_process_name(a->str);
}

/* Lighthouse's findMainFrameIds reads the earliest TracingStartedInBrowser
 * only: its first frame with no parent, with that frame's processId. Every
 * frame it lists is also evidence of which renderer hosts which frame. */
static void feed_started_in_browser(tc_procmap *m, const tc_kevent *ev) {
  int earliest = !m->has_started_in_browser || ev->ts < m->started_in_browser_ts;
  if (earliest) {
    m->has_started_in_browser = 1;
    m->started_in_browser_ts = ev->ts;
    m->started_in_browser = (tc__pframe_ref){.frame = NULL, .pid = 0, .ts = ev->ts};
  }
  uint32_t best = UINT32_MAX;
  for (uint32_t i = 0; i < ev->nargs; i++) {
    const tc_argval *a = &ev->args[i];
    if (a->slot != TC_PM_ARG_FRAMES_FRAME || a->type != TC_JT_STRING || a->str.len == 0)
      continue;
    int has_parent = 0, has_pid = 0;
    double pid = 0;
    for (uint32_t j = 0; j < ev->nargs; j++) {
      const tc_argval *b = &ev->args[j];
      if (b->elem != a->elem)
        continue;
      if (b->slot == TC_PM_ARG_FRAMES_PARENT && b->type == TC_JT_STRING && b->str.len)
        has_parent = 1;
      if (b->slot == TC_PM_ARG_FRAMES_PROCESS && b->type == TC_JT_NUMBER) {
        has_pid = 1;
        pid = b->num;
      }
    }
    const char *frame = keep(m, a->str);
    if (!frame)
      return;
    if (has_pid && pid != 0)
      push_doc(m, (tc__pdoc){frame, elem_str(m, ev, TC_PM_ARG_FRAMES_URL, a->elem),
                             elem_str(m, ev, TC_PM_ARG_FRAMES_PARENT, a->elem), (int64_t)pid,
                             ev->ts, TC_PDOC_TRACING_STARTED, (int8_t)!has_parent});
    if (!earliest || has_parent || a->elem >= best)
      continue;
    best = a->elem;
    m->started_in_browser.frame = NULL;
    m->started_in_browser.pid = 0;
    if (has_pid && pid != 0) {
      m->started_in_browser.frame = frame;
      m->started_in_browser.pid = (int64_t)pid;
    }
  }
}

static void feed_started_in_page(tc_procmap *m, const tc_kevent *ev) {
  if (m->has_started_in_page && ev->ts >= m->started_in_page.ts)
    return;
  const char *frame = arg_str(m, ev, TC_PM_ARG_DATA_PAGE);
  if (!frame)
    return;
  m->has_started_in_page = 1;
  m->started_in_page = (tc__pframe_ref){.frame = frame, .pid = ev->pid, .ts = ev->ts};
}

/* The first of two flags that is present (isOutermostMainFrame, then the
 * older field), or FALLBACK. */
static int8_t main_flag(const tc_kevent *ev, int slot, int fallback) {
  int v = arg_flag(ev, TC_PM_ARG_DATA_OUTERMOST_MAIN);
  if (v < 0)
    v = arg_flag(ev, slot);
  return (int8_t)(v < 0 ? fallback : v);
}

/* A document loading in the renderer that wrote the event. */
static void feed_navigation_start(tc_procmap *m, const tc_kevent *ev) {
  push_doc(m, (tc__pdoc){arg_str(m, ev, TC_PM_ARG_FRAME), arg_str(m, ev, TC_PM_ARG_DATA_LOADER_URL),
                         NULL, ev->pid, ev->ts, TC_PDOC_NAVIGATION_START,
                         main_flag(ev, TC_PM_ARG_DATA_LOADING_MAIN, -1)});
}

static void feed_commit_load(tc_procmap *m, const tc_kevent *ev) {
  push_doc(m, (tc__pdoc){arg_str(m, ev, TC_PM_ARG_DATA_FRAME), arg_str(m, ev, TC_PM_ARG_DATA_URL),
                         arg_str(m, ev, TC_PM_ARG_DATA_PARENT), ev->pid, ev->ts,
                         TC_PDOC_COMMIT_LOAD, main_flag(ev, TC_PM_ARG_DATA_IS_MAIN, -1)});
}

/* The browser's view: args.data.processId is the renderer. */
static void feed_frame_commit(tc_procmap *m, const tc_kevent *ev, int ready) {
  double pid;
  if (!tc_kevent_num(ev, TC_PM_ARG_DATA_PROCESS, &pid) || pid == 0)
    return;
  const char *parent = arg_str(m, ev, TC_PM_ARG_DATA_PARENT);
  push_doc(m, (tc__pdoc){arg_str(m, ev, TC_PM_ARG_DATA_FRAME),
                         ready ? NULL : arg_str(m, ev, TC_PM_ARG_DATA_URL), parent, (int64_t)pid,
                         ev->ts, ready ? TC_PDOC_PROCESS_READY : TC_PDOC_FRAME_COMMITTED,
                         main_flag(ev, TC_PM_ARG_DATA_IS_MAIN, !parent)});
}

void tc_procmap_feed(tc_procmap *m, const tc_kevent *ev) {
  switch (tc_procmap_name_code(ev->name)) {
  case PM_THREAD_NAME: feed_thread_name(m, ev); break;
  case PM_PROCESS_NAME: feed_process_name(m, ev); break;
  case PM_STARTED_IN_BROWSER: feed_started_in_browser(m, ev); break;
  case PM_STARTED_IN_PAGE: feed_started_in_page(m, ev); break;
  case PM_NAVIGATION_START: feed_navigation_start(m, ev); break;
  case PM_COMMIT_LOAD: feed_commit_load(m, ev); break;
  case PM_FRAME_COMMIT: feed_frame_commit(m, ev, 0); break;
  case PM_PROCESS_READY: feed_frame_commit(m, ev, 1); break;
  default: break;
  }
}

/* ---- answers ---- */

static int pproc_cmp(const void *a, const void *b) {
  int64_t x = ((const tc__pproc *)a)->p.pid, y = ((const tc__pproc *)b)->p.pid;
  return (x > y) - (x < y);
}

tc_err tc_procmap_finish(tc_procmap *m) {
  if (m->nomem)
    return TC_E_NOMEM;
  m->finished = 1;
  /* Every process a document names, so each renderer has its record. */
  for (size_t i = 0; i < m->ndocs; i++)
    if (!tc__proc_of(m, m->docs[i].pid))
      return TC_E_NOMEM;
  if (m->nprocs > 1)
    qsort(m->procs, m->nprocs, sizeof *m->procs, pproc_cmp);
  return tc__procmap_decide(m);
}

const tc_page *tc_procmap_page(const tc_procmap *m) { return &m->page; }

size_t tc_procmap_count(const tc_procmap *m) { return m->nprocs; }

const tc_proc *tc_procmap_at(const tc_procmap *m, size_t i) { return &m->procs[i].p; }

const tc_proc *tc_procmap_find(const tc_procmap *m, int64_t pid) {
  size_t lo = 0, hi = m->nprocs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->procs[mid].p.pid < pid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->nprocs && m->procs[lo].p.pid == pid ? &m->procs[lo].p : NULL;
}

int tc_procmap_is_page_pid(const tc_procmap *m, int64_t pid) {
  for (size_t i = 0; i < m->nmain; i++)
    if (m->main_pids[i] == pid)
      return 1;
  return 0;
}
