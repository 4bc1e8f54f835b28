/* Per-trace runtime metrics (the page and its main thread, window, busy
 * rate, long tasks, TBT, lag, frames, JS heap, user timing, forced layouts,
 * every renderer on its own), computed in the census's single pass. Each
 * rule is stated where it is applied and, in words, in every metrics
 * report (report/tc_metrics_rules.c), so none depends on a text outside
 * this repository.
 *
 * Lifecycle, all on one thread at a time per trace:
 *   k = tc_kernels_create(&opts)
 *   tc_kernels_thread_span(...)  any number of times, any order
 *   tc_kernels_feed(k, ev)       for each wanted event, in trace order
 *   tc_kernels_finish(k, map, &ref, &metrics)   map: the trace's finished
 *                                process map (procs/tc_procmap.h)
 *   tc_kernels_free(k)
 *
 * Events arrive in file order, which need not be time order: thread names,
 * frame trees and marks often come after the tasks they describe, so the
 * kernels keep a compact copy of what they need and decide everything in
 * tc_kernels_finish. Memory is proportional to the wanted events (tasks of
 * every thread, frames, counters, marks), never to the whole trace, and
 * never to their values (see tc_kfinish.c's clamps).
 */
#ifndef TC_KERNELS_H
#define TC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "json/tc_event.h"
#include "kernels/tc_metrics.h"
#include "util/tc_error.h"

/* Options from the job file. */
typedef struct {
  double bucket_ms;      /* busy-rate and heap buckets; default 200 */
  double refresh_hz;     /* frame budget = 1000 / refresh_hz ms; default 60 */
  const char *window_start_mark; /* user-timing mark names, or NULL */
  const char *window_end_mark;
} tc_kernel_opts;

void tc_kernel_opts_default(tc_kernel_opts *o);

/* The limits of the options: a bucket shorter than TC_KERNELS_MIN_BUCKET_MS
 * would make busy-rate and heap series longer than any reading needs; a
 * refresh rate must be above 0 and at most TC_KERNELS_MAX_REFRESH_HZ (a
 * frame budget of at least 1 ms). Both finite. */
#define TC_KERNELS_MIN_BUCKET_MS 1.0
#define TC_KERNELS_MAX_REFRESH_HZ 1000.0

/* TC_OK, or TC_E_USAGE with the option out of its limits named in WHY
 * (CAP bytes), in the words of a job file's key. */
tc_err tc_kernel_opts_check(const tc_kernel_opts *o, char *why, size_t cap);

/* Argument paths (census notation, e.g. "args.data.jsHeapSizeUsed",
 * "args.data.frames[].processId") whose values the kernels need. Static. */
const char *const *tc_kernels_arg_paths(size_t *n);

/* Whether the kernels need to see this event. Cheap: called for every
 * event of every trace. */
int tc_kernels_wants(tc_str name, tc_str cat, char ph);

typedef struct tc_kernels tc_kernels;

/* Most wanted events are complete slices that need no strings (RunTask and
 * its older names, Layout, the script slices FunctionCall, EvaluateScript
 * and v8.evaluateModule): the census passes them in this compact form, in
 * trace order with the rest, through tc_kernels_feed_task. */
typedef struct {
  int64_t pid, tid;
  double ts, dur;
  uint64_t index; /* ordinal in the trace, to merge with the other events */
  char ph;
  uint8_t kind;   /* from tc_kernels_task_kind */
} tc_ktask_event;

/* The kind (>= 0) of a complete ('X') slice the kernels take in the compact
 * form, or -1 for every other event (which goes through
 * tc_kernels_wants/feed). */
int tc_kernels_task_kind(tc_str name, tc_str cat, char ph);

/* The same decisions in one pass, in two steps a caller that interns
 * names and categories may cache per distinct string: the name's entry in
 * the kernels' table (0: no event of that name is theirs) and whether a cat
 * string holds the user-timing category; then the route of one event from
 * those two and its phase. TC_KROUTE_TASK sets
 * *task to what tc_kernels_task_kind returns; TC_KROUTE_EVENT is
 * tc_kernels_wants without a task kind. */
enum { TC_KROUTE_NONE, TC_KROUTE_TASK, TC_KROUTE_EVENT };
int tc_kernels_name_code(tc_str name);
int tc_kernels_user_timing_cat(tc_str cat);
int tc_kernels_route(int name_code, int user_timing, char ph, int *task);

/* Copies what it needs from O (mark names included); O NULL means the
 * defaults. NULL when out of memory, or when O is outside the limits of
 * tc_kernel_opts_check: nothing falls back to a default unasked. */
tc_kernels *tc_kernels_create(const tc_kernel_opts *o);

/* What some part of the trace holds of thread (pid, tid): the earliest and
 * latest ts, the latest ts+dur and the number of events. The kernels take
 * the min/max/sum over all calls. Leave metadata events (ph 'M', whose ts is
 * 0) out of the span: the default window runs from the first to the last
 * main-thread event, and the trace's own span (every thread's ts) bounds
 * what a task may claim (see tc_trace_metrics's clamps). */
typedef struct {
  int64_t pid, tid;
  double min_ts, max_ts, max_end;
  uint64_t events;
} tc_kspan_in;

void tc_kernels_thread_span(tc_kernels *k, const tc_kspan_in *span);

/* Out of memory while feeding is remembered and reported by finish. */
void tc_kernels_feed(tc_kernels *k, const tc_kevent *ev);

/* Feeds one event for which tc_kernels_task_kind gave a kind, in its place
 * in trace order; the same as tc_kernels_feed of the whole event. */
void tc_kernels_feed_task(tc_kernels *k, const tc_ktask_event *ev);

/* What the caller knows about the trace as a whole. */
typedef struct {
  const char *site;  /* copied */
  const char *trace; /* path as reported; copied */
  int truncated;        /* the file ended mid-stream: every metric is n/a */
  int had_parse_errors; /* some events were skipped: metrics kept, flagged */
} tc_trace_ref;

/* Computes the metrics, the page and every renderer's role taken from MAP,
 * the trace's finished process map. On TC_OK *out is a new object the
 * caller owns and releases with tc_trace_metrics_free; missing data is n/a
 * inside it, never an error. Fails only with TC_E_NOMEM (during feed or
 * here), *out then NULL. Call once; K is still freed with tc_kernels_free
 * afterwards. */
tc_err tc_kernels_finish(tc_kernels *k, const tc_procmap *map, const tc_trace_ref *ref,
                         tc_trace_metrics **out);

/* The metrics of a trace that could not be read at all (it would not open,
 * is not a trace, has no traceEvents): the run makes them instead of
 * calling tc_kernels_finish for a trace whose status is fatal, so the trace
 * keeps its row in every report. Every group, the main thread and the
 * window are n/a with TC_NA_TRACE_UNREADABLE (that is how readers tell such
 * a trace); every number is NaN or 0, the bucket and frame budget too;
 * `error` is a copy of WHY (e.g. tc_strerror's text; NULL leaves it NULL).
 * REF's site, trace and flags are copied as tc_kernels_finish copies them.
 * On TC_OK *out is a new object the caller owns, as for tc_kernels_finish.
 * Fails only with TC_E_NOMEM, *out then NULL. */
tc_err tc_metrics_unreadable(const tc_trace_ref *ref, const char *why,
                             tc_trace_metrics **out);

/* Accepts NULL. */
void tc_kernels_free(tc_kernels *k);

#endif
