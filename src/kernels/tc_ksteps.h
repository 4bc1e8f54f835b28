/* Internal to src/kernels (hence tc__): the steps of tc_kernels_finish and what they pass
 * each other. Each step fills its own part of the tc_trace_metrics and
 * returns TC_E_NOMEM or TC_OK; n/a is never an error. */
#ifndef TC_KSTEPS_H
#define TC_KSTEPS_H

#include "kernels/tc_kstate.h"

/* A top-level task of the main thread(s). */
typedef struct {
  double s, e;
  uint8_t unbounded;
  int8_t invalid; /* tc_invalid_reason, or -1 */
} tc_ktop;

typedef struct {
  /* Main thread(s), chosen by tc__kmain_choose. */
  const char *frame;      /* main frame id (arena), or NULL */
  tc_kthread **threads;   /* by pid */
  size_t nthreads;
  int has_commit;         /* the page's own commit, for TC_WINDOW_PAGE_COMMIT */
  double commit_ts;

  /* Window, trace clock, ws < we. */
  double ws, we;

  /* The longest a task may be (the trace's span, at least CLAMP_FLOOR_US),
   * and the bucket used for series (the job's, raised when the window would
   * hold more buckets than max_buckets). */
  double max_task_us;
  double bucket_us;
  size_t max_buckets;

  /* Invalid stretches in the window, per reason and all together; each list
   * sorted and merged. */
  tc_kspan *invalid[TC_INVALID_CLOCK_BACKWARDS];
  size_t ninvalid[TC_INVALID_CLOCK_BACKWARDS];
  tc_kspan *invalid_all;
  size_t ninvalid_all;

  /* Top-level tasks overlapping the window, by start; task_events counts the
   * main thread's task events wherever they lie (0: nothing to measure). */
  tc_ktop *tops;
  size_t ntops;
  size_t task_events;
} tc_kctx;

int tc__kctx_is_main_pid(const tc_kctx *c, int64_t pid);

/* The reason [s,e] is invalid, or -1. */
int tc__kvalid_reason(const tc_kctx *c, double s, double e);

/* Number of buckets of the window (c->bucket_us each) and the bounds of
 * bucket I. */
size_t tc__kbuckets(const tc_kctx *c);
void tc__kbucket(const tc_kctx *c, size_t i, double *s, double *e);

/* The top-level tasks of thread T overlapping the window, by start, into a
 * new array *OUT (the caller frees). Tasks longer than c->max_task_us are
 * clipped (counted in *CLAMPED); when DISCARDED is given, invalid ones are
 * counted there by reason (they stay in the list, marked). */
tc_err tc__ktasks_of(const tc_kctx *c, const tc_kthread *t, tc_ktop **out, size_t *n,
                    uint32_t *clamped, uint32_t discarded[TC_INVALID_COUNT_]);

/* Long tasks among TOPS (bounded, valid, >= 50 ms), counted whole, their
 * blocking time from the part inside the window. On TC_OK *tasks is a new
 * array of *count (the caller frees; NULL allowed for none wanted) and, when
 * DURS is given, *durs their durations in ms. */
tc_err tc__klong_of(const tc_kctx *c, const tc_ktop *tops, size_t n, uint32_t *count,
                   double *tbt_ms, uint32_t *unbounded, tc_long_task **tasks, double **durs);

/* The main thread of process PID (its CrRendererMain, else CrBrowserMain, the
 * lowest tid when a name repeats), or NULL. */
tc_kthread *tc__kmain_thread_of(tc_kernels *k, int64_t pid);

tc_err tc__kmain_choose(tc_kernels *k, const tc_procmap *map, tc_kctx *c, tc_trace_metrics *m);
void tc__kwindow_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__kvalid_build(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__ktasks_collect(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__klong_compute(tc_kctx *c, tc_trace_metrics *m);
tc_err tc__kbusy_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__klag_compute(tc_kctx *c, tc_trace_metrics *m);
tc_err tc__kframes_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__kheap_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__kut_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__klayout_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc__krenderers_compute(tc_kernels *k, const tc_procmap *map, tc_kctx *c,
                              tc_trace_metrics *m);

#endif
