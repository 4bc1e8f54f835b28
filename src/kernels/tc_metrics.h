/* The runtime metrics of one trace, as tc_kernels_finish hands them out.
 *
 * A plain value object the reduction and the report writers read directly.
 * Every pointer in it is owned by the object and released by
 * tc_trace_metrics_free; nothing in it points into the kernels or the trace.
 *
 * Units are in the field names: *_us are timestamps on the trace's clock (or
 * durations in microseconds where the oracle compares them), *_ms
 * milliseconds, *_pct percent, *_bytes bytes. A metric group whose `na` is
 * not TC_NA_NONE was not measured: its numbers are NaN or 0 and mean
 * nothing, and the reason says why. Percentiles are nearest-rank (the value
 * of rank ceil(q*n) in sorted order), like tc_sketch. */
#ifndef TC_METRICS_H
#define TC_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "procs/tc_procmap.h"

/* Why a metric is n/a: code (CSV/JSON, stable) and sentence (metrics.md). */
#define TC_NA_MAP(X)                                                           \
  X(NONE, "", "measured")                                                      \
  X(TRUNCATED, "trace_truncated", "the trace file ends mid-stream")            \
  X(NO_MAIN_THREAD, "main_thread_not_found",                                   \
    "no renderer main thread for the page's main frame")                      \
  X(MAIN_AMBIGUOUS, "main_thread_ambiguous",                                   \
    "several renderer main threads and no main-frame event to choose one")    \
  X(WINDOW_MARK_MISSING, "window_mark_not_found",                              \
    "a window mark named in the job is not in the trace")                     \
  X(WINDOW_EMPTY, "window_empty",                                             \
    "the window is empty, ends before it starts or is not finite")            \
  X(NO_TASKS, "no_task_events", "no top-level task events on the main thread") \
  X(ALL_INVALID, "all_samples_invalid",                                        \
    "every sample overlaps a hidden, suspended or clock-jump stretch")        \
  X(NO_LAYER_TREE, "layer_tree_not_found",                                     \
    "no SetLayerTreeId names the main frame's layer tree")                    \
  X(NO_FRAMES, "no_frames", "no DrawFrame of the main frame's compositor in the window") \
  X(NOT_CONTINUOUS, "no_continuous_updates",                                   \
    "no two DrawFrames while the compositor was asking for frames")           \
  X(NO_HEAP, "no_heap_samples", "no UpdateCounters jsHeapSizeUsed sample")     \
  X(NO_MEASURES, "no_user_timing", "no closed blink.user_timing measure")      \
  X(TRACE_UNREADABLE, "trace_unreadable",                                      \
    "the trace could not be read (its error says why)")                       \
  X(NO_TRACE, "no_trace", "the crawl left no trace for the site") /* sites only */ \
  X(NO_LONG_TASKS, "no_long_tasks",                                            \
    "no long task, so no long-task duration to summarise")                    \
  X(TOO_FEW_SAMPLES, "too_few_samples",                                        \
    "fewer samples than the statistic needs: a nearest-rank percentile q needs " \
    "at least 1/(1-q) of them (2 for the median, 20 for p95), a mean or a "   \
    "maximum one")                                                             \
  X(NO_LAYOUT, "no_layout_events", "no Layout event on the main thread in the window") \
  X(NO_URL, "no_url", "no event of the trace names the document's URL")

typedef enum {
#define TC_NA_ENUM(name, code, text) TC_NA_##name,
  TC_NA_MAP(TC_NA_ENUM)
#undef TC_NA_ENUM
  TC_NA_COUNT_
} tc_na;

const char *tc_na_code(tc_na na); /* static; "" for TC_NA_NONE */
const char *tc_na_text(tc_na na); /* static */


/* TC_WINDOW_PAGE_COMMIT: a trace whose page was found by the document it
 * committed (a startup trace) starts at that commit, not with the browser. */
typedef enum {
  TC_WINDOW_NONE,
  TC_WINDOW_MARKS,
  TC_WINDOW_MAIN_THREAD_SPAN,
  TC_WINDOW_PAGE_COMMIT
} tc_window_rule;

const char *tc_window_rule_code(tc_window_rule r); /* static */

/* The fewest samples a statistic over them needs: 1 for a mean or maximum
 * (Q = 0 or 1), ceil(1 / (1 - Q)) for the nearest-rank Q-quantile, so that
 * p95 of a handful of values is not simply their maximum. */
uint32_t tc_min_samples(double q);

/* Validity (the lag thesis, claim 2): what made a sample invalid... */
typedef enum {
  TC_INVALID_HIDDEN,          /* page hidden (WasHidden .. WasShown) */
  TC_INVALID_SUSPENDED,       /* system suspend (NotifySuspend .. NotifyResume) */
  TC_INVALID_CLOCK_JUMP,      /* over 60 s with no main-thread task */
  TC_INVALID_CLOCK_BACKWARDS, /* an end before its start on one thread */
  TC_INVALID_COUNT_
} tc_invalid_reason;

/* ...and which kind of sample was discarded. */
typedef enum {
  TC_SAMPLE_BUCKET,         /* busy-rate bucket */
  TC_SAMPLE_TASK,           /* top-level task (busy, long tasks, lag) */
  TC_SAMPLE_FRAME_INTERVAL, /* interval between two DrawFrames */
  TC_SAMPLE_MEASURE,        /* user-timing measure */
  TC_SAMPLE_COUNT_
} tc_sample_kind;

const char *tc_invalid_reason_code(tc_invalid_reason r); /* static */
const char *tc_sample_kind_code(tc_sample_kind k);       /* static */

/* Bits of tc_trace_metrics.flags, copied from the tc_trace_ref. */
enum { TC_TRACE_TRUNCATED = 1u << 0, TC_TRACE_PARSE_ERRORS = 1u << 1 };

typedef struct {
  int64_t pid, tid;
} tc_thread_ref;

typedef struct {
  double start_us; /* trace clock */
  double dur_us;   /* whole task, even where the window clips it */
  uint8_t clipped; /* the task crosses a window edge */
} tc_long_task;

typedef struct {
  char *name;
  uint32_t count;
  double mean_ms, p50_ms, p95_ms, max_ms;
} tc_ut_measure;

typedef struct {
  char *name;
  uint32_t count;
} tc_ut_unclosed;

typedef struct {
  tc_na na;
  double bucket_ms;           /* the bucket used: the job's, unless raised (below) */
  double bucket_ms_requested; /* the job's */
  double mean_pct; /* union busy time / valid window time */
  double p50_pct, p95_pct, max_pct; /* over valid buckets, see rules */
  uint32_t buckets; /* valid buckets the percentiles are over */
  uint32_t tasks;  /* top-level tasks overlapping the window, valid ones */
  uint32_t nseries;
  double *series_pct; /* per bucket; NaN where the bucket was discarded */
} tc_busy_metrics;

typedef struct {
  tc_na na;
  uint32_t count;
  double tbt_ms; /* sum of max(0, clipped duration - 50 ms) */
  double mean_ms, p50_ms, p95_ms, max_ms; /* NaN when count == 0 */
  uint32_t unbounded; /* tasks with no end in the trace, left out */
  tc_long_task *tasks; /* count of them, by start */
} tc_long_metrics;

typedef struct {
  tc_na na;
  /* Wait an input arriving at a uniformly random valid moment of the window
   * would see before the main thread is free (time-weighted). */
  double p50_ms, p90_ms, p99_ms, mean_ms, max_ms;
  double long_share_pct; /* valid window time inside long tasks */
  double valid_ms;       /* the time the distribution is over */
} tc_lag_metrics;

/* Frame intervals by vsyncs: bin k counts intervals with
 * round(interval / budget) = k, the last bin k or more. */
#define TC_VSYNC_BINS 9

typedef struct {
  tc_na na;
  double budget_ms;    /* 1000 / refresh_hz */
  uint32_t draws;      /* DrawFrames of the page's compositor in the window */
  uint32_t intervals;  /* continuous, valid intervals measured */
  double mean_ms, p50_ms, p95_ms, max_ms; /* of the raw intervals */
  uint32_t over_budget; /* dropped: intervals > 1.5 x budget_ms */
  uint32_t missed_vsyncs; /* sum of round(interval / budget) - 1 over the intervals */
  uint32_t by_vsyncs[TC_VSYNC_BINS];
} tc_frame_metrics;

/* Layout forced by script (DevTools' forced reflow): a Layout slice of the
 * main thread that starts inside a script slice (FunctionCall,
 * EvaluateScript, v8.evaluateModule) of the same thread. */
typedef struct {
  tc_na na;
  uint32_t layouts;  /* Layout slices of the main thread(s) starting in the window */
  uint32_t forced;   /* of them, inside script */
  double forced_ms;  /* their summed duration */
} tc_layout_metrics;


/* One renderer process's main thread over the page's window: never merged
 * into the page's figures, so an out-of-process iframe's work is its own. */
typedef struct {
  int64_t pid, tid;
  tc_renderer_role role;
  char *url;      /* the document that gave it its role, or NULL when none is named */
  tc_na na;       /* NO_TASKS when its main thread has no task event */
  uint32_t tasks; /* top-level tasks overlapping the window, valid ones */
  uint32_t long_count;
  double tbt_ms, long_max_ms;
  tc_long_task *long_tasks; /* long_count of them, by start */
} tc_renderer_metrics;

/* The out-of-process iframes of the page, summed over their renderers. */
typedef struct {
  tc_na na;
  uint32_t renderers, long_tasks;
  double tbt_ms;
} tc_iframe_metrics;

typedef struct {
  tc_na na;
  uint32_t samples; /* in the window */
  double start_bytes, end_bytes, growth_bytes, max_bytes, mean_bytes;
  uint32_t nseries;
  double *series_bytes; /* forward-filled per bucket; NaN before the first sample */
} tc_heap_metrics;

typedef struct {
  tc_na na;
  uint32_t count;          /* measures: every closed one in the window */
  uint32_t nmeasures;      /* their distinct names */
  tc_ut_measure *measures; /* by name, bytewise */
  uint32_t nunclosed;
  tc_ut_unclosed *unclosed; /* by name: measures begun and never ended, and
                               "<x>:start" marks with no "<x>:end" */
} tc_ut_metrics;

typedef struct {
  char *site;
  char *trace;
  unsigned flags; /* TC_TRACE_* */
  char *error;    /* why the trace could not be read (tc_metrics_unreadable),
                     else NULL */

  tc_na main_na;
  tc_main_rule main_rule;
  char *main_frame;            /* frame id, or NULL when no frame told */
  char *main_url;              /* the main frame's document, or NULL (main_url_na says why) */
  tc_na main_url_na;
  uint32_t nmain;
  tc_thread_ref *main_threads; /* by pid; several after a cross-process navigation */

  tc_na window_na;
  tc_window_rule window_rule;
  double window_start_us, window_end_us;

  /* Clamps (values no trace can hold, cut so memory and output follow the
   * input's size): the trace's own span from its first to its last
   * timestamp; tasks longer than it were clipped to it, and the window end
   * kept within one span after the last timestamp. */
  double trace_span_ms;
  uint32_t clamped_tasks;
  uint8_t window_end_clamped;

  double hidden_ms, suspended_ms, clock_jump_ms; /* inside the window */
  uint32_t discarded[TC_SAMPLE_COUNT_][TC_INVALID_COUNT_];

  tc_busy_metrics busy;
  tc_long_metrics long_tasks;
  tc_lag_metrics lag;
  tc_frame_metrics frames;
  tc_heap_metrics heap;
  tc_ut_metrics user_timing;
  tc_layout_metrics layout;
  tc_iframe_metrics iframes;

  uint32_t nrenderers;
  tc_renderer_metrics *renderers; /* every renderer main thread, by role then pid */
} tc_trace_metrics;

/* Accepts NULL. */
void tc_trace_metrics_free(tc_trace_metrics *m);

/* The scalar metrics every table reports, in column order. One list drives
 * the CSV columns, the per-site medians and the corpus distributions. */
typedef enum {
  TC_GROUP_BUSY,
  TC_GROUP_LONG_TASKS,
  TC_GROUP_LAG,
  TC_GROUP_FRAMES,
  TC_GROUP_HEAP,
  TC_GROUP_USER_TIMING,
  TC_GROUP_LAYOUT,
  TC_GROUP_IFRAMES,
  TC_GROUP_COUNT_
} tc_metric_group;

const char *tc_metric_group_code(tc_metric_group g); /* "busy" -> column busy_na */
tc_na tc_metric_group_na(const tc_trace_metrics *m, tc_metric_group g);

typedef struct {
  const char *column;    /* CSV column and JSON key; the unit is its suffix */
  const char *key;       /* its key inside the group's object in metrics.json */
  tc_metric_group group;
  size_t offset;         /* of the value in tc_trace_metrics */
  uint8_t is_count;      /* a uint32_t count, else a double */
  uint8_t can_be_negative; /* kept out of the corpus sketches (values >= 0) */
  /* A statistic over samples: its quantile (0 for a mean or maximum), the
   * offset of the uint32_t sample count, and the reason when there are none.
   * stat_n == 0: a plain value, n/a only with its group. */
  double stat_q;
  size_t stat_n;
  tc_na stat_empty;
} tc_metric_field;

const tc_metric_field *tc_metric_fields(size_t *n); /* static */

/* Why the field is n/a: its group's reason, else too few samples for the
 * statistic (tc_min_samples); TC_NA_NONE when it has a value. */
tc_na tc_metric_field_na(const tc_trace_metrics *m, const tc_metric_field *f);

/* The field's value, NaN exactly when tc_metric_field_na is not NONE. */
double tc_metric_value(const tc_trace_metrics *m, const tc_metric_field *f);

#endif
