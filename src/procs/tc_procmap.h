/* The processes of one trace and what each is to the page under test.
 *
 * A trace is a census of a browser, not of a site: beside the page it
 * holds the browser, the GPU and utility processes, renderers of other tabs
 * or spare ones, and renderers of Chrome's own pages (headless Chromium
 * loads its WebUI omnibox popup, chrome://omnibox-popup.top-chrome/, into a
 * renderer of its own at startup). One map per trace says which is which;
 * the census scopes its counts by it (reduce/tc_site_census.h) and the
 * metric kernels take the page, its main threads and every renderer's role
 * from it (kernels/tc_kmain.c, tc_krenderers.c), so both agree.
 *
 * The map is built in the ordered fold from the few events that tell
 * (tc_procmap_wants): thread and process names, and the documents frames
 * committed. It decides only when the trace has ended (tc_procmap_finish):
 * a renderer's role is known once its commits are read, which can be late,
 * and names often come last. Memory follows those events, never the trace.
 *
 * The page. Where the trace has TracingStartedInBrowser (DevTools and
 * CDP/Puppeteer recordings), Lighthouse's TraceProcessor rule: the main
 * frame is the frame with no parent in the earliest TracingStartedInBrowser,
 * else (pre-M62) TracingStartedInPage's page; its renderers are the
 * processIds of the FrameCommittedInBrowser / ProcessReadyInBrowser that
 * name it, else the pid the frame was first seen in. A startup trace
 * (--trace-startup) has neither; there the page is the outermost main frame
 * that committed a web document (http:, https:, file:), from the strongest
 * evidence the trace has: CommitLoad in the renderer, else
 * FrameCommittedInBrowser, else navigationStart with its documentLoaderURL.
 * Several qualify (tabs, navigations): the earliest by ts, then the lowest
 * pid, then the frame id bytewise. Its renderers are every process that
 * committed that frame. With no main-frame evidence at all, a trace with
 * exactly one renderer main thread (CrRendererMain) uses its process: a
 * user tracing chrome://version on purpose keeps that page.
 *
 * The renderers. Each process with a renderer main thread, or that
 * committed a document, gets a role: page (it hosts the page's main frame),
 * iframe (it committed a frame of the page's frame tree other than the main
 * frame: an out-of-process iframe), browser UI (every outermost main frame
 * it committed is a browser page such as chrome://omnibox-popup.top-chrome/),
 * or other (another tab, a spare renderer, nothing committed). A frame
 * belongs to the page's tree when its parent chain (the parent named by
 * CommitLoad, FrameCommittedInBrowser or TracingStartedInBrowser) reaches
 * the main frame, or when a page renderer itself named it as a subframe (a
 * startup trace's CommitLoad of an out-of-process iframe names no parent,
 * but the page's renderer wrote the navigationStart that created the
 * frame). Every answer is the same whatever the order of the file. */
#ifndef TC_PROCMAP_H
#define TC_PROCMAP_H

#include <stddef.h>
#include <stdint.h>

#include "json/tc_event.h"
#include "util/tc_error.h"

/* What a process is, from its process_name (Browser, Renderer, GPU
 * Process, Service: ... / Utility) or else its main thread's name. */
typedef enum {
  TC_PROC_UNKNOWN, /* named nowhere in the trace */
  TC_PROC_BROWSER,
  TC_PROC_RENDERER,
  TC_PROC_GPU,
  TC_PROC_UTILITY, /* network, storage, tracing and other services */
  TC_PROC_OTHER,   /* named, but none of the above */
  TC_PROC_KIND_COUNT_
} tc_proc_kind;

const char *tc_proc_kind_code(tc_proc_kind k); /* "browser", ...; static */

/* What a renderer process is to the page under test. */
typedef enum {
  TC_ROLE_PAGE,       /* hosts the page's main frame */
  TC_ROLE_IFRAME,     /* hosts a frame of the page's frame tree, not its main frame */
  TC_ROLE_BROWSER_UI, /* committed only browser pages (chrome://, devtools://, ...) */
  TC_ROLE_OTHER,      /* anything else: another page, a spare renderer, nothing committed */
  TC_ROLE_COUNT_
} tc_renderer_role;

const char *tc_renderer_role_code(tc_renderer_role r); /* "page", ...; static */

/* How the page was found, named by the evidence that decided;
 * tc_main_rule_text says it in words. */
typedef enum {
  TC_MAIN_NONE,
  TC_MAIN_TRACING_STARTED_IN_BROWSER,
  TC_MAIN_TRACING_STARTED_IN_PAGE,
  TC_MAIN_NAVIGATION_START,
  TC_MAIN_ONLY_RENDERER,
  TC_MAIN_COMMIT_LOAD,
  TC_MAIN_FRAME_COMMITTED_IN_BROWSER,
  TC_MAIN_RULE_COUNT_
} tc_main_rule;

const char *tc_main_rule_code(tc_main_rule r); /* static */
const char *tc_main_rule_text(tc_main_rule r); /* static */

/* Whether URL is a web document (http:, https:, file:) or a browser page
 * (chrome:, chrome-untrusted:, devtools:, chrome-extension:,
 * chrome-search:). */
int tc_url_is_web(const char *url);
int tc_url_is_browser(const char *url);

/* Which main thread a thread_name's name makes a thread, if any. The map
 * and the metric kernels both keep a main thread's role against a later
 * other name of the same thread, so the two agree on the main threads. */
typedef enum { TC_THREAD_OTHER, TC_THREAD_RENDERER_MAIN, TC_THREAD_BROWSER_MAIN } tc_thread_role;

tc_thread_role tc_thread_role_of(tc_str thread_name);

/* The argument values the map reads, as indices into the parser's wanted
 * paths: the first TC_PM_NARGS of them are tc_procmap_arg_paths(), in this
 * order (the kernels append theirs after). */
enum {
  TC_PM_ARG_NAME,
  TC_PM_ARG_FRAMES_FRAME,
  TC_PM_ARG_FRAMES_PARENT,
  TC_PM_ARG_FRAMES_PROCESS,
  TC_PM_ARG_FRAMES_URL,
  TC_PM_ARG_DATA_PAGE,
  TC_PM_ARG_FRAME,
  TC_PM_ARG_DATA_LOADING_MAIN,
  TC_PM_ARG_DATA_OUTERMOST_MAIN,
  TC_PM_ARG_DATA_IS_MAIN,
  TC_PM_ARG_DATA_LOADER_URL,
  TC_PM_ARG_DATA_URL,
  TC_PM_ARG_DATA_FRAME,
  TC_PM_ARG_DATA_PARENT,
  TC_PM_ARG_DATA_PROCESS,
  TC_PM_NARGS
};

/* Static; *N = TC_PM_NARGS. */
const char *const *tc_procmap_arg_paths(size_t *n);

/* The map's code of an event name (0: not one it reads), for a caller that
 * interns names to ask once per name; and whether an event of that code
 * and phase PH goes to tc_procmap_feed. */
int tc_procmap_name_code(tc_str name);
int tc_procmap_wants(int code, char ph);

typedef struct tc_procmap tc_procmap;

tc_procmap *tc_procmap_create(void); /* NULL when out of memory */
void tc_procmap_free(tc_procmap *m);  /* accepts NULL */

/* An event tc_procmap_wants, in trace order. Out of memory is remembered
 * and reported by finish. */
void tc_procmap_feed(tc_procmap *m, const tc_kevent *ev);

/* Decides the page and every process's kind and role. TC_E_NOMEM (also
 * for a failure during feed). Call once, before any query. */
tc_err tc_procmap_finish(tc_procmap *m);

/* The page under test. Every pointer is the map's, valid while it lives. */
typedef enum {
  TC_PAGE_NO_RENDERER, /* no main-frame evidence and no renderer main thread */
  TC_PAGE_AMBIGUOUS,   /* no main-frame evidence and several renderer main threads */
  TC_PAGE_FOUND
} tc_page_status;

typedef struct {
  tc_page_status status;
  tc_main_rule rule;
  const char *frame;   /* the page's main frame id, or NULL (only_renderer) */
  const char *url;     /* its document's URL, or NULL when no event names it */
  const int64_t *pids; /* the processes that host it, ascending, each once */
  size_t npids;
  int has_commit;      /* found by its own commit (a startup trace): */
  double commit_ts;    /* the commit's ts, where its window starts */
} tc_page;

const tc_page *tc_procmap_page(const tc_procmap *m);

/* One process of the trace. */
typedef struct {
  int64_t pid;
  tc_proc_kind kind;
  const char *name;      /* its process_name, or NULL */
  int renderer;          /* a renderer: kind RENDERER, a renderer main thread,
                            or a document committed in it */
  tc_renderer_role role; /* renderers only */
  const char *url;       /* the document that gave it its role, or NULL */
  const char *urls[4];   /* the first outermost documents it committed, by
                            time, NULL-padded: what run.json names */
} tc_proc;

/* Every process the map heard of, by pid; and one by pid (NULL: unknown). */
size_t tc_procmap_count(const tc_procmap *m);
const tc_proc *tc_procmap_at(const tc_procmap *m, size_t i);
const tc_proc *tc_procmap_find(const tc_procmap *m, int64_t pid);

/* Whether PID hosts the page and has a main thread the map heard named
 * (the page's main threads are in these processes). */
int tc_procmap_is_page_pid(const tc_procmap *m, int64_t pid);

#endif
