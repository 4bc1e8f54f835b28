/* Internal to src/procs (hence tc__): the map's state, shared by its feed
 * (tc_procmap.c) and its rules (tc_procrule.c). Not for use outside this
 * folder. */
#ifndef TC_PROCMAP_IMPL_H
#define TC_PROCMAP_IMPL_H

#include "procs/tc_procmap.h"
#include "util/tc_arena.h"

/* Evidence of a document in a frame, in the order the page rule trusts it. */
enum {
  TC_PDOC_COMMIT_LOAD,      /* the renderer committed it (CommitLoad) */
  TC_PDOC_FRAME_COMMITTED,  /* the browser saw it commit (FrameCommittedInBrowser) */
  TC_PDOC_NAVIGATION_START, /* the renderer started loading it (navigationStart) */
  TC_PDOC_PROCESS_READY,    /* the frame's renderer is ready (ProcessReadyInBrowser), no URL */
  TC_PDOC_TRACING_STARTED,  /* a frame listed by TracingStartedInBrowser */
};

typedef struct {
  const char *frame;  /* arena */
  const char *url;    /* arena; NULL when the event named none */
  const char *parent; /* arena; NULL when none was named */
  int64_t pid;        /* the renderer: the event's pid, or its processId */
  double ts;
  uint8_t kind;       /* TC_PDOC_* */
  int8_t main;        /* the outermost main frame: 1, a subframe: 0, unknown: -1 */
} tc__pdoc;

typedef struct {
  const char *frame; /* NULL when the event named none */
  int64_t pid;
  double ts;
} tc__pframe_ref;

/* A named thread: which main thread it is, if any. */
typedef struct {
  int64_t pid, tid;
  uint8_t main; /* tc_thread_role: the last name given wins, as in Chrome */
} tc__pthread;

/* What the feed learnt of a process before the rules decide. */
typedef struct {
  tc_proc p;
  tc_proc_kind by_thread; /* from its threads' names, the strongest seen */
  uint32_t urls;          /* of p.urls filled */
} tc__pproc;

struct tc_procmap {
  int nomem, finished;
  tc_arena strings;
  tc__pdoc *docs;          /* every frame-document event, in feed order */
  size_t ndocs, docs_cap;
  tc__pthread *threads;    /* named threads, in first-named order */
  size_t nthreads, threads_cap;
  tc__pproc *procs;        /* by first sight; sorted by pid by finish */
  size_t nprocs, procs_cap;
  /* Main-frame evidence, earliest by ts of each kind (Lighthouse's order). */
  tc__pframe_ref started_in_browser; /* root frame and its processId */
  int has_started_in_browser;
  double started_in_browser_ts;
  tc__pframe_ref started_in_page;
  int has_started_in_page;
  tc_page page;
  int64_t *page_pids;      /* page.pids */
  int64_t *main_pids;      /* of them, those with a main thread, ascending */
  size_t nmain;
};

/* The process record of PID, made on first sight; NULL when out of memory
 * (m->nomem set). */
tc__pproc *tc__proc_of(tc_procmap *m, int64_t pid);

/* Whether document A comes before B: earlier ts, then lower pid, then frame
 * id, so that file order never decides. */
int tc__pdoc_before(const tc__pdoc *a, const tc__pdoc *b);

/* The rules (tc_procrule.c): the page, then every process's role. */
tc_err tc__procmap_decide(tc_procmap *m);

#endif
