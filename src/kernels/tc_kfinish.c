/* tc_kernels_finish: from the collected events to one trace's metrics.
 *
 * The order matters and each step narrows what the next may use:
 *   1. the page and its main thread(s) (tc_kmain.c); without them nothing
 *      else is attributable to the page, so every group is n/a;
 *   2. the window: job marks, else the page's own commit (startup traces)
 *      or the first main-thread event, to the last main-thread event;
 *   3. the stretches where samples are invalid (hidden, suspended, clock
 *      jumps; a jump at an edge of the default window trims it);
 *   4. the top-level tasks, then from them busy rate, long tasks and lag;
 *   5. frames, heap, user timing and forced layouts, each on its own
 *      events; then every renderer on its own (iframes, browser UI).
 * A truncated trace is n/a throughout: its window end, its last tasks and
 * its survivors are unknown (the tasks still running when a trace stops are
 * the long ones: keeping what was seen would bias every figure short). A trace
 * that could not be read at all gets its n/a object from
 * tc_metrics_unreadable, so it is counted rather than lost.
 *
 * Memory and output follow the input's size, never its values: a task may
 * not claim more than the trace's own span (at least CLAMP_FLOOR_US), the
 * window ends at most that much after the trace's last timestamp, and the
 * bucket grows when a window would hold more buckets than the trace has
 * events (plus MIN_BUCKETS). Each clamp is counted in the metrics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

/* A real main-thread task stays within the trace's span; 60 s (the clock
 * jump limit of tc_kvalid.c) keeps a trace of a few events, whose span says
 * little, from having its tasks cut. */
#define CLAMP_FLOOR_US 60e6
#define MIN_BUCKETS 4096

static void all_na(tc_trace_metrics *m, tc_na na) {
  m->busy.na = m->long_tasks.na = m->lag.na = na;
  m->frames.na = m->heap.na = m->user_timing.na = na;
  m->layout.na = m->iframes.na = na;
}

static void ctx_free(tc_kctx *c) {
  free(c->threads);
  for (int r = 0; r < TC_INVALID_CLOCK_BACKWARDS; r++)
    free(c->invalid[r]);
  free(c->invalid_all);
  free(c->tops);
}

static tc_err compute(tc_kernels *k, const tc_procmap *map, tc_kctx *c, tc_trace_metrics *m) {
  tc_err e = tc__kmain_choose(k, map, c, m);
  if (e || m->main_na) {
    all_na(m, m->main_na);
    m->main_url_na = m->main_na;
    return e;
  }
  tc__kwindow_choose(k, c, m);
  if (m->window_na) {
    all_na(m, m->window_na);
    return TC_OK;
  }
  if ((e = tc__kvalid_build(k, c, m)))
    return e;
  if (m->window_na) {
    all_na(m, m->window_na);
    return TC_OK;
  }
  /* The series grid: the job's bucket, raised to a multiple of it when the
   * window would hold more buckets than the input could justify. */
  double need = ceil((c->we - c->ws) / c->bucket_us);
  if (need > (double)c->max_buckets)
    c->bucket_us *= ceil(need / (double)c->max_buckets);
  m->busy.bucket_ms = c->bucket_us / 1e3;
  if ((e = tc__ktasks_collect(k, c, m)) ||
      (e = tc__kbusy_compute(k, c, m)) || (e = tc__klong_compute(c, m)) ||
      (e = tc__klag_compute(c, m)) || (e = tc__kframes_compute(k, c, m)) ||
      (e = tc__kheap_compute(k, c, m)) || (e = tc__kut_compute(k, c, m)) ||
      (e = tc__klayout_compute(k, c, m)) || (e = tc__krenderers_compute(k, map, c, m)))
    return e;
  return TC_OK;
}

/* A metrics object naming REF's trace, nothing measured yet; NULL when
 * out of memory. WHY is copied into `error`. */
static tc_trace_metrics *metrics_new(const tc_trace_ref *ref, const char *why) {
  tc_trace_metrics *m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  int nomem = 0;
  m->site = tc__kdup(ref ? ref->site : NULL, &nomem);
  m->trace = tc__kdup(ref ? ref->trace : NULL, &nomem);
  m->error = tc__kdup(why, &nomem);
  if (nomem) {
    tc_trace_metrics_free(m);
    return NULL;
  }
  m->flags = (ref && ref->truncated ? TC_TRACE_TRUNCATED : 0) |
             (ref && ref->had_parse_errors ? TC_TRACE_PARSE_ERRORS : 0);
  m->window_start_us = m->window_end_us = NAN;
  return m;
}

tc_err tc_metrics_unreadable(const tc_trace_ref *ref, const char *why,
                             tc_trace_metrics **out) {
  *out = metrics_new(ref, why);
  if (!*out)
    return TC_E_NOMEM;
  tc_trace_metrics *m = *out;
  /* No job options reach here, so even the bucket and the budget are
   * unknown rather than defaults. */
  m->busy.bucket_ms = m->busy.bucket_ms_requested = m->frames.budget_ms = NAN;
  m->trace_span_ms = NAN;
  m->main_na = m->window_na = m->main_url_na = TC_NA_TRACE_UNREADABLE;
  all_na(m, TC_NA_TRACE_UNREADABLE);
  return TC_OK;
}

tc_err tc_kernels_finish(tc_kernels *k, const tc_procmap *map, const tc_trace_ref *ref,
                         tc_trace_metrics **out) {
  *out = NULL;
  if (k->nomem)
    return TC_E_NOMEM;
  tc_trace_metrics *m = metrics_new(ref, NULL);
  if (!m)
    return TC_E_NOMEM;
  m->busy.bucket_ms = m->busy.bucket_ms_requested = k->bucket_ms;
  m->frames.budget_ms = tc__kround(1000.0 / k->refresh_hz);
  double span_us = k->has_span ? k->last_ts - k->first_ts : 0;
  m->trace_span_ms = tc__kround(span_us / 1e3);

  tc_kctx c = {0};
  c.max_task_us = span_us > CLAMP_FLOOR_US ? span_us : CLAMP_FLOOR_US;
  c.bucket_us = k->bucket_ms * 1e3;
  c.max_buckets = MIN_BUCKETS + (k->events < SIZE_MAX / 4 ? (size_t)k->events * 2 : SIZE_MAX / 2);
  tc_err e = compute(k, map, &c, m);
  ctx_free(&c);
  if (e) {
    tc_trace_metrics_free(m);
    return e;
  }
  if (m->flags & TC_TRACE_TRUNCATED)
    all_na(m, TC_NA_TRUNCATED);
  *out = m;
  return TC_OK;
}
