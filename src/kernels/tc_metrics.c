#include "kernels/tc_metrics.h"

#include <math.h>
#include <stdlib.h>

static const char *const na_codes[] = {
#define TC_NA_CODE(name, code, text) code,
    TC_NA_MAP(TC_NA_CODE)
#undef TC_NA_CODE
};

static const char *const na_texts[] = {
#define TC_NA_TEXT(name, code, text) text,
    TC_NA_MAP(TC_NA_TEXT)
#undef TC_NA_TEXT
};

const char *tc_na_code(tc_na na) {
  return (unsigned)na < TC_NA_COUNT_ ? na_codes[na] : "unknown";
}

const char *tc_na_text(tc_na na) {
  return (unsigned)na < TC_NA_COUNT_ ? na_texts[na] : "unknown";
}

const char *tc_window_rule_code(tc_window_rule r) {
  switch (r) {
  case TC_WINDOW_MARKS: return "marks";
  case TC_WINDOW_MAIN_THREAD_SPAN: return "main_thread_span";
  case TC_WINDOW_PAGE_COMMIT: return "page_commit";
  case TC_WINDOW_NONE: break;
  }
  return "none";
}

uint32_t tc_min_samples(double q) {
  if (!(q > 0) || q >= 1)
    return 1;
  return (uint32_t)ceil(1.0 / (1.0 - q) - 1e-9);
}

const char *tc_invalid_reason_code(tc_invalid_reason r) {
  switch (r) {
  case TC_INVALID_HIDDEN: return "hidden";
  case TC_INVALID_SUSPENDED: return "suspended";
  case TC_INVALID_CLOCK_JUMP: return "clock_jump";
  case TC_INVALID_CLOCK_BACKWARDS: return "clock_backwards";
  case TC_INVALID_COUNT_: break;
  }
  return "unknown";
}

const char *tc_sample_kind_code(tc_sample_kind k) {
  switch (k) {
  case TC_SAMPLE_BUCKET: return "busy_buckets";
  case TC_SAMPLE_TASK: return "tasks";
  case TC_SAMPLE_FRAME_INTERVAL: return "frame_intervals";
  case TC_SAMPLE_MEASURE: return "measures";
  case TC_SAMPLE_COUNT_: break;
  }
  return "unknown";
}

void tc_trace_metrics_free(tc_trace_metrics *m) {
  if (!m)
    return;
  free(m->site);
  free(m->trace);
  free(m->error);
  free(m->main_frame);
  free(m->main_url);
  free(m->main_threads);
  for (uint32_t i = 0; i < m->nrenderers; i++) {
    free(m->renderers[i].url);
    free(m->renderers[i].long_tasks);
  }
  free(m->renderers);
  free(m->busy.series_pct);
  free(m->long_tasks.tasks);
  free(m->heap.series_bytes);
  for (uint32_t i = 0; i < m->user_timing.nmeasures; i++)
    free(m->user_timing.measures[i].name);
  free(m->user_timing.measures);
  for (uint32_t i = 0; i < m->user_timing.nunclosed; i++)
    free(m->user_timing.unclosed[i].name);
  free(m->user_timing.unclosed);
  free(m);
}

const char *tc_metric_group_code(tc_metric_group g) {
  switch (g) {
  case TC_GROUP_BUSY: return "busy";
  case TC_GROUP_LONG_TASKS: return "long_tasks";
  case TC_GROUP_LAG: return "lag";
  case TC_GROUP_FRAMES: return "frames";
  case TC_GROUP_HEAP: return "heap";
  case TC_GROUP_USER_TIMING: return "user_timing";
  case TC_GROUP_LAYOUT: return "layout";
  case TC_GROUP_IFRAMES: return "iframes";
  case TC_GROUP_COUNT_: break;
  }
  return "unknown";
}

tc_na tc_metric_group_na(const tc_trace_metrics *m, tc_metric_group g) {
  switch (g) {
  case TC_GROUP_BUSY: return m->busy.na;
  case TC_GROUP_LONG_TASKS: return m->long_tasks.na;
  case TC_GROUP_LAG: return m->lag.na;
  case TC_GROUP_FRAMES: return m->frames.na;
  case TC_GROUP_HEAP: return m->heap.na;
  case TC_GROUP_USER_TIMING: return m->user_timing.na;
  case TC_GROUP_LAYOUT: return m->layout.na;
  case TC_GROUP_IFRAMES: return m->iframes.na;
  case TC_GROUP_COUNT_: break;
  }
  return TC_NA_NONE;
}

#define OFF(field) offsetof(tc_trace_metrics, field)
#define F(col, key, grp, field) {col, key, grp, OFF(field), 0, 0, 0, 0, TC_NA_NONE}
#define C(col, key, grp, field) {col, key, grp, OFF(field), 1, 0, 0, 0, TC_NA_NONE}
#define S(col, key, grp, field) {col, key, grp, OFF(field), 0, 1, 0, 0, TC_NA_NONE}
/* A statistic: quantile Q over the samples counted by the uint32_t N. */
#define Q(col, key, grp, field, q, n, empty) {col, key, grp, OFF(field), 0, 0, q, OFF(n), empty}

static const tc_metric_field fields[] = {
    F("busy_mean_pct", "mean_pct", TC_GROUP_BUSY, busy.mean_pct),
    Q("busy_p50_pct", "p50_pct", TC_GROUP_BUSY, busy.p50_pct, 0.5, busy.buckets, TC_NA_ALL_INVALID),
    Q("busy_p95_pct", "p95_pct", TC_GROUP_BUSY, busy.p95_pct, 0.95, busy.buckets, TC_NA_ALL_INVALID),
    Q("busy_max_pct", "max_pct", TC_GROUP_BUSY, busy.max_pct, 0, busy.buckets, TC_NA_ALL_INVALID),
    C("long_tasks", "count", TC_GROUP_LONG_TASKS, long_tasks.count),
    F("tbt_ms", "tbt_ms", TC_GROUP_LONG_TASKS, long_tasks.tbt_ms),
    Q("long_task_mean_ms", "mean_ms", TC_GROUP_LONG_TASKS, long_tasks.mean_ms, 0, long_tasks.count,
      TC_NA_NO_LONG_TASKS),
    Q("long_task_p50_ms", "p50_ms", TC_GROUP_LONG_TASKS, long_tasks.p50_ms, 0.5, long_tasks.count,
      TC_NA_NO_LONG_TASKS),
    Q("long_task_p95_ms", "p95_ms", TC_GROUP_LONG_TASKS, long_tasks.p95_ms, 0.95, long_tasks.count,
      TC_NA_NO_LONG_TASKS),
    Q("long_task_max_ms", "max_ms", TC_GROUP_LONG_TASKS, long_tasks.max_ms, 0, long_tasks.count,
      TC_NA_NO_LONG_TASKS),
    F("lag_p50_ms", "p50_ms", TC_GROUP_LAG, lag.p50_ms),
    F("lag_p90_ms", "p90_ms", TC_GROUP_LAG, lag.p90_ms),
    F("lag_p99_ms", "p99_ms", TC_GROUP_LAG, lag.p99_ms),
    F("lag_mean_ms", "mean_ms", TC_GROUP_LAG, lag.mean_ms),
    F("lag_max_ms", "max_ms", TC_GROUP_LAG, lag.max_ms),
    F("long_task_share_pct", "long_task_share_pct", TC_GROUP_LAG, lag.long_share_pct),
    C("frame_intervals", "intervals", TC_GROUP_FRAMES, frames.intervals),
    Q("frame_mean_ms", "mean_ms", TC_GROUP_FRAMES, frames.mean_ms, 0, frames.intervals, TC_NA_ALL_INVALID),
    Q("frame_p50_ms", "p50_ms", TC_GROUP_FRAMES, frames.p50_ms, 0.5, frames.intervals, TC_NA_ALL_INVALID),
    Q("frame_p95_ms", "p95_ms", TC_GROUP_FRAMES, frames.p95_ms, 0.95, frames.intervals, TC_NA_ALL_INVALID),
    Q("frame_max_ms", "max_ms", TC_GROUP_FRAMES, frames.max_ms, 0, frames.intervals, TC_NA_ALL_INVALID),
    C("frames_over_budget", "over_budget", TC_GROUP_FRAMES, frames.over_budget),
    C("missed_vsyncs", "missed_vsyncs", TC_GROUP_FRAMES, frames.missed_vsyncs),
    F("heap_start_bytes", "start_bytes", TC_GROUP_HEAP, heap.start_bytes),
    F("heap_end_bytes", "end_bytes", TC_GROUP_HEAP, heap.end_bytes),
    S("heap_growth_bytes", "growth_bytes", TC_GROUP_HEAP, heap.growth_bytes),
    F("heap_max_bytes", "max_bytes", TC_GROUP_HEAP, heap.max_bytes),
    C("user_timing_measures", "measures", TC_GROUP_USER_TIMING, user_timing.count),
    C("user_timing_measure_names", "measure_names", TC_GROUP_USER_TIMING, user_timing.nmeasures),
    C("layouts", "layouts", TC_GROUP_LAYOUT, layout.layouts),
    C("forced_layouts", "forced", TC_GROUP_LAYOUT, layout.forced),
    F("forced_layout_ms", "forced_ms", TC_GROUP_LAYOUT, layout.forced_ms),
    C("iframe_renderers", "renderers", TC_GROUP_IFRAMES, iframes.renderers),
    C("iframe_long_tasks", "long_tasks", TC_GROUP_IFRAMES, iframes.long_tasks),
    F("iframe_tbt_ms", "tbt_ms", TC_GROUP_IFRAMES, iframes.tbt_ms),
};

#undef OFF
#undef F
#undef C
#undef S
#undef Q

const tc_metric_field *tc_metric_fields(size_t *n) {
  *n = sizeof fields / sizeof *fields;
  return fields;
}

tc_na tc_metric_field_na(const tc_trace_metrics *m, const tc_metric_field *f) {
  tc_na na = tc_metric_group_na(m, f->group);
  if (na || !f->stat_n)
    return na;
  uint32_t n = *(const uint32_t *)((const char *)m + f->stat_n);
  if (n == 0)
    return f->stat_empty;
  return n < tc_min_samples(f->stat_q) ? TC_NA_TOO_FEW_SAMPLES : TC_NA_NONE;
}

double tc_metric_value(const tc_trace_metrics *m, const tc_metric_field *f) {
  if (tc_metric_field_na(m, f) != TC_NA_NONE)
    return NAN;
  const char *base = (const char *)m + f->offset;
  if (f->is_count)
    return (double)*(const uint32_t *)base;
  return *(const double *)base;
}
