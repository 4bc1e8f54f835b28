/* Internal to src/kernels: the steps of tc_kernels_finish and what they pass
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
  /* Main thread(s), chosen by tc_kmain_choose. */
  const char *frame;      /* main frame id (arena), or NULL */
  tc_kthread **threads;   /* by pid */
  size_t nthreads;

  /* Window, trace clock, ws < we. */
  double ws, we;

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

int tc_kctx_is_main_pid(const tc_kctx *c, int64_t pid);

/* The reason [s,e] is invalid, or -1. */
int tc_kvalid_reason(const tc_kctx *c, double s, double e);

/* Number of buckets of the window and the bounds of bucket I. */
size_t tc_kbuckets(const tc_kctx *c, double bucket_us);
void tc_kbucket(const tc_kctx *c, double bucket_us, size_t i, double *s, double *e);

tc_err tc_kmain_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
void tc_kwindow_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_kvalid_build(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_ktasks_collect(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_klong_compute(tc_kctx *c, tc_trace_metrics *m);
tc_err tc_kbusy_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_klag_compute(tc_kctx *c, tc_trace_metrics *m);
tc_err tc_kframes_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_kheap_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);
tc_err tc_kut_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m);

#endif
