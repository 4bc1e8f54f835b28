/* The window of one trace's metrics (step 2 of tc_kernels_finish) and
 * what every later step asks of it: which pids are the page's main
 * process, and the bucket grid over the window. Apart from tc_kfinish.c so
 * the steps that use the grid (busy rate, heap, frames, renderers) and the
 * step that calls them include no circle. */
#include <math.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

int tc__kctx_is_main_pid(const tc_kctx *c, int64_t pid) {
  for (size_t i = 0; i < c->nthreads; i++)
    if (c->threads[i]->pid == pid)
      return 1;
  return 0;
}

size_t tc__kbuckets(const tc_kctx *c) {
  double n = ceil((c->we - c->ws) / c->bucket_us);
  if (!(n >= 1))
    return 0;
  return n > (double)c->max_buckets ? c->max_buckets : (size_t)n;
}

void tc__kbucket(const tc_kctx *c, size_t i, double *s, double *e) {
  *s = c->ws + (double)i * c->bucket_us;
  *e = c->ws + (double)(i + 1) * c->bucket_us;
  if (*e > c->we || i + 1 == tc__kbuckets(c))
    *e = c->we;
}

/* Step 2. One mark name may be given without the other: that side then
 * stays at the main thread's first or last event. */
static int mark_ts(const tc_kernels *k, const tc_kctx *c, const char *name, double after,
                   double *ts) {
  int found = 0;
  for (size_t i = 0; i < k->marks.n; i++) {
    const tc_kmark *mk = &k->marks.v[i];
    if (strcmp(mk->name, name) != 0 || !tc__kctx_is_main_pid(c, mk->pid) || mk->ts < after)
      continue;
    if (!found || mk->ts < *ts)
      *ts = mk->ts;
    found = 1;
  }
  return found;
}

void tc__kwindow_choose(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  int spans = 0;
  double ws = 0, we = 0;
  for (size_t i = 0; i < c->nthreads; i++) {
    const tc_kthread *t = c->threads[i];
    if (!t->has_span)
      continue;
    if (!spans || t->min_ts < ws)
      ws = t->min_ts;
    if (!spans || t->max_end > we)
      we = t->max_end;
    spans = 1;
  }
  m->window_rule = TC_WINDOW_MAIN_THREAD_SPAN;
  if (c->has_commit) {
    m->window_rule = TC_WINDOW_PAGE_COMMIT;
    if (c->commit_ts > ws)
      ws = c->commit_ts;
  }
  /* An end past the trace's last timestamp by more than a task may last is
   * a value no trace holds (a dur of 1e13). */
  double end_limit = k->last_ts + c->max_task_us;
  if (spans && k->has_span && we > end_limit) {
    we = end_limit;
    m->window_end_clamped = 1;
  }
  if (k->start_mark || k->end_mark) {
    m->window_rule = TC_WINDOW_MARKS;
    if ((k->start_mark && !mark_ts(k, c, k->start_mark, -INFINITY, &ws)) ||
        (k->end_mark && !mark_ts(k, c, k->end_mark, k->start_mark ? ws : -INFINITY, &we))) {
      m->window_na = TC_NA_WINDOW_MARK_MISSING;
      return;
    }
    if ((!k->start_mark || !k->end_mark) && !spans) {
      m->window_na = TC_NA_WINDOW_EMPTY;
      return;
    }
  } else if (!spans) {
    m->window_na = TC_NA_WINDOW_EMPTY;
    return;
  }
  m->window_start_us = ws;
  m->window_end_us = we;
  if (!(we > ws) || !isfinite(we - ws)) {
    m->window_na = TC_NA_WINDOW_EMPTY;
    return;
  }
  c->ws = ws;
  c->we = we;
}
