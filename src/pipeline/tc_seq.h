/* The ordered part of a chunk's results: the events that must be seen in
 * trace order (begin/end, flow and async pairing, the metric kernels), copied
 * out of the parser so they outlive it, plus the chunk's per-thread time
 * extents. A tc_seq is filled by one worker and folded later, in chunk
 * order, by whichever worker completes the sequence. */
#ifndef TC_SEQ_H
#define TC_SEQ_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/tc_kernels.h"
#include "json/tc_event.h"
#include "util/tc_arena.h"
#include "util/tc_error.h"

typedef struct {
  int64_t pid, tid;
  double min_ts, max_ts, max_end; /* earliest ts, latest ts, latest ts + dur */
  uint64_t events;
} tc_thread_span;

typedef struct {
  tc_kevent *events; /* strings and args point into the blocks below */
  size_t nevents, events_cap;
  tc_ktask_event *tasks; /* task slices for the kernels, compact; by index too */
  size_t ntasks, tasks_cap;
  tc_thread_span *spans;
  size_t nspans, spans_cap;
  size_t last_span; /* index of the span used last */
  tc_arena arena; /* copied strings and args */
} tc_seq;

void tc_seq_init(tc_seq *s);
void tc_seq_free(tc_seq *s);

/* Appends a deep copy of EV (strings and args). */
tc_err tc_seq_push(tc_seq *s, const tc_kevent *ev);

/* Appends a compact task slice (see tc_kernels_task_kind). */
tc_err tc_seq_push_task(tc_seq *s, const tc_ktask_event *t);

/* Widens the extent of thread (pid, tid) to cover [ts, end] and counts the
 * event. */
tc_err tc_seq_span(tc_seq *s, int64_t pid, int64_t tid, double ts, double end);

#endif
