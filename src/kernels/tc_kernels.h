/* Per-trace runtime metrics (main thread, window, busy rate, long tasks,
 * TBT, lag, frames, JS heap, user timing), computed in the census's single
 * pass. See ../shared/seeds/puppeteer-trace-harness.txt sections 3-8.
 *
 * Lifecycle, all on one thread at a time per trace:
 *   k = tc_kernels_create(&opts)
 *   tc_kernels_thread_span(...)  any number of times, any order
 *   tc_kernels_feed(k, ev)       for each wanted event, in trace order
 *   tc_kernels_finish(k, trace_status, &metrics)
 *   tc_kernels_free(k)
 */
#ifndef TC_KERNELS_H
#define TC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/tc_kevent.h"
#include "util/tc_error.h"

/* Options from the job file. */
typedef struct {
  double bucket_ms;      /* busy-rate and heap buckets; default 200 */
  double refresh_hz;     /* frame budget = 1000 / refresh_hz ms; default 60 */
  const char *window_start_mark; /* user-timing mark names, or NULL */
  const char *window_end_mark;
} tc_kernel_opts;

void tc_kernel_opts_default(tc_kernel_opts *o);

/* Argument paths (census notation, e.g. "args.data.jsHeapSizeUsed",
 * "args.data.frames[].processId") whose values the kernels need. Static. */
const char *const *tc_kernels_arg_paths(size_t *n);

/* Whether the kernels need to see this event. Cheap: called for every
 * event of every trace. */
int tc_kernels_wants(tc_str name, tc_str cat, char ph);

typedef struct tc_kernels tc_kernels;

tc_kernels *tc_kernels_create(const tc_kernel_opts *o);

/* Earliest ts and latest ts+dur seen on thread (pid, tid) in some part of the
 * trace; the kernels take the min/max over all calls. */
void tc_kernels_thread_span(tc_kernels *k, int64_t pid, int64_t tid,
                            double min_ts, double max_end);

void tc_kernels_feed(tc_kernels *k, const tc_kevent *ev);

void tc_kernels_free(tc_kernels *k);

#endif
