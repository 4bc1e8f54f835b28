/* Unit tests of the metric kernels: hand-built event lists fed through the
 * public API (every event passes tc_kernels_wants first, as in the census
 * pass), with every expected figure worked out by hand in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/tc_kernels.h"
#include "kevents.h"

#define PAGE 20 /* the page's renderer */

/* ---- building events ---------------------------------------------------- */

static void task(tc_kernels *k, double start_ms, double dur_ms) {
  task_named(k, "RunTask", PAGE, start_ms, dur_ms);
}

static void task_edge(tc_kernels *k, char ph, double ms) {
  feed(k, event("RunTask", "disabled-by-default-devtools.timeline", ph, PAGE, MAIN, ms * MS), NULL,
       0);
}

/* A page whose main thread runs from FROM to TO ms. */
static tc_kernels *page(double from_ms, double to_ms) {
  tc_kernels *k = kernels();
  thread_name(k, PAGE, MAIN, "CrRendererMain");
  span(k, PAGE, MAIN, from_ms * MS, to_ms * MS);
  return k;
}

static void started_in_browser(tc_kernels *k, const char *main_frame, int64_t main_pid,
                               const char *child_frame, int64_t child_pid) {
  /* frames[0] is the child (with a parent), frames[1] the main frame. */
  tc_argval a[] = {
      str_arg("args.data.frames[].frame", child_frame, 1),
      str_arg("args.data.frames[].parent", main_frame, 1),
      num_arg("args.data.frames[].processId", (double)child_pid, 1),
      str_arg("args.data.frames[].frame", main_frame, 2),
      num_arg("args.data.frames[].processId", (double)main_pid, 2),
  };
  feed(k, event("TracingStartedInBrowser", "disabled-by-default-devtools.timeline", 'I', 1, 1, 5),
       a, 5);
}

static void set_layer_tree(tc_kernels *k, int64_t pid, const char *frame, double tree) {
  tc_argval a[] = {str_arg("args.data.frame", frame, 0), num_arg("args.data.layerTreeId", tree, 0)};
  feed(k, event("SetLayerTreeId", "disabled-by-default-devtools.timeline", 'I', pid, MAIN, 1), a, 2);
}

static void draw(tc_kernels *k, int64_t pid, double tree, double ms) {
  tc_argval a = num_arg("args.layerTreeId", tree, 0);
  feed(k, event("DrawFrame", "disabled-by-default-devtools.timeline.frame", 'I', pid, 7, ms * MS),
       &a, 1);
}

static void needs_begin_frame(tc_kernels *k, int64_t pid, double tree, double ms, int on) {
  tc_argval a[] = {num_arg("args.layerTreeId", tree, 0),
                   num_arg("args.data.needsBeginFrame", on, 0)};
  feed(k,
       event("NeedsBeginFrameChanged", "disabled-by-default-devtools.timeline.frame", 'I', pid, 7,
             ms * MS),
       a, 2);
}

static void heap(tc_kernels *k, int64_t pid, double ms, double bytes) {
  tc_argval a = num_arg("args.data.jsHeapSizeUsed", bytes, 0);
  feed(k, event("UpdateCounters", "disabled-by-default-devtools.timeline", 'I', pid, MAIN, ms * MS),
       &a, 1);
}

static void mark(tc_kernels *k, const char *name, double ms) {
  feed(k, event(name, "blink.user_timing", 'R', PAGE, MAIN, ms * MS), NULL, 0);
}

static void measure_edge(tc_kernels *k, const char *name, const char *id, char ph, double ms) {
  tc_kevent ev = event(name, "blink.user_timing", ph, PAGE, MAIN, ms * MS);
  ev.id = tc_str_c(id);
  feed(k, ev, NULL, 0);
}

static void instant(tc_kernels *k, const char *name, int64_t pid, double ms) {
  tc_kevent ev = event(name, "renderer", 'X', pid, MAIN, ms * MS);
  ev.dur = 10;
  feed(k, ev, NULL, 0);
}

/* ---- main thread and window --------------------------------------------- */

/* Two renderers: the iframe's (pid 10) is busier, but TracingStartedInBrowser
 * says the frame with no parent lives in pid 20, so only pid 20 counts. */
static void two_renderers_pick_main_frame(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  thread_name(k, 10, MAIN, "CrRendererMain");
  span(k, 10, MAIN, 0, 1000 * MS);
  task_named(k, "RunTask", 10, 0, 900);
  task(k, 100, 100);
  started_in_browser(k, "MAIN", PAGE, "IFRAME", 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_na, TC_NA_NONE);
  assert_int_equal(m->main_rule, TC_MAIN_TRACING_STARTED_IN_BROWSER);
  assert_int_equal(m->nmain, 1);
  assert_int_equal(m->main_threads[0].pid, PAGE);
  assert_int_equal(m->main_threads[0].tid, MAIN);
  assert_string_equal(m->main_frame, "MAIN");
  NEAR(m->busy.mean_pct, 10.0); /* 100 ms of 1000, not the iframe's 900 */
  tc_trace_metrics_free(m);
}

/* The same two renderers with no event naming the main frame: no guess. */
static void two_renderers_without_frame_are_ambiguous(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  thread_name(k, 10, MAIN, "CrRendererMain");
  task(k, 100, 100);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_na, TC_NA_MAIN_AMBIGUOUS);
  assert_int_equal(m->busy.na, TC_NA_MAIN_AMBIGUOUS);
  assert_int_equal(m->frames.na, TC_NA_MAIN_AMBIGUOUS);
  assert_int_equal(m->heap.na, TC_NA_MAIN_AMBIGUOUS);
  tc_trace_metrics_free(m);
}

static void no_renderer_is_na_everywhere(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  thread_name(k, 1, 1, "CrBrowserMain");
  task_named(k, "RunTask", 1, 0, 100);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_na, TC_NA_NO_MAIN_THREAD);
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    assert_int_equal(tc_metric_group_na(m, (tc_metric_group)g), TC_NA_NO_MAIN_THREAD);
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  for (size_t i = 0; i < nf; i++)
    assert_true(isnan(tc_metric_value(m, &f[i]))); /* never 0 */
  tc_trace_metrics_free(m);
}

/* Window from marks "go" (300 ms) to "stop" (700 ms): 400 ms. A 300 ms task
 * from 100 ms has 100 ms inside; a 50 ms task at 600 ms is inside. Busy =
 * 150 / 400 = 37.5 %. Both are long tasks (whole durations 300 and 50);
 * TBT = (100 - 50) + 0 = 50 ms, the first one clipped. */
static void window_from_marks(void **state) {
  (void)state;
  tc_kernel_opts o;
  tc_kernel_opts_default(&o);
  o.window_start_mark = "go";
  o.window_end_mark = "stop";
  tc_kernels *k = kernels_with(&o);
  thread_name(k, PAGE, MAIN, "CrRendererMain");
  span(k, PAGE, MAIN, 0, 1000 * MS);
  mark(k, "stop", 700);
  mark(k, "go", 300);
  task(k, 100, 300);
  task(k, 600, 50);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->window_rule, TC_WINDOW_MARKS);
  NEAR(m->window_start_us, 300 * MS);
  NEAR(m->window_end_us, 700 * MS);
  NEAR(m->busy.mean_pct, 37.5);
  assert_int_equal(m->long_tasks.count, 2);
  NEAR(m->long_tasks.tbt_ms, 50);
  assert_true(m->long_tasks.tasks[0].clipped);
  NEAR(m->long_tasks.tasks[0].dur_us, 300 * MS);
  assert_false(m->long_tasks.tasks[1].clipped);
  tc_trace_metrics_free(m);
}

static void missing_mark_or_empty_window_is_na(void **state) {
  (void)state;
  tc_kernel_opts o;
  tc_kernel_opts_default(&o);
  o.window_start_mark = "go";
  o.window_end_mark = "stop";
  tc_kernels *k = kernels_with(&o);
  thread_name(k, PAGE, MAIN, "CrRendererMain");
  span(k, PAGE, MAIN, 0, 1000 * MS);
  mark(k, "go", 300);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->window_na, TC_NA_WINDOW_MARK_MISSING);
  assert_int_equal(m->long_tasks.na, TC_NA_WINDOW_MARK_MISSING);
  tc_trace_metrics_free(m);

  k = page(500, 500); /* one instant: first == last event */
  task(k, 500, 0);
  m = finish(k);
  assert_int_equal(m->window_na, TC_NA_WINDOW_EMPTY);
  assert_int_equal(m->busy.na, TC_NA_WINDOW_EMPTY);
  tc_trace_metrics_free(m);
}

/* ---- busy rate, long tasks, lag ----------------------------------------- */

/* Window 0..1000 ms, 200 ms buckets, one task 150..500 ms. Buckets: 50/200 =
 * 25 %, 100 %, 100/200 = 50 %, 0, 0. Mean 350/1000 = 35 %. Nearest rank over
 * {0, 0, 25, 50, 100}: p50 = 3rd = 25, p95 = 5th = 100. */
static void task_spanning_buckets(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 150, 350);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->busy.na, TC_NA_NONE);
  assert_int_equal(m->busy.nseries, 5);
  const double want[] = {25, 100, 50, 0, 0};
  for (int i = 0; i < 5; i++)
    NEAR(m->busy.series_pct[i], want[i]);
  NEAR(m->busy.mean_pct, 35);
  NEAR(m->busy.p50_pct, 25);
  /* p95 of five buckets would be their maximum: it needs 20 (tc_min_samples). */
  assert_true(isnan(m->busy.p95_pct));
  assert_int_equal(m->busy.buckets, 5);
  NEAR(m->busy.max_pct, 100);
  assert_int_equal(m->long_tasks.count, 1);
  NEAR(m->long_tasks.tbt_ms, 300);
  NEAR(m->long_tasks.tasks[0].start_us, 150 * MS);
  tc_trace_metrics_free(m);
}

/* Tasks 100..300 and 250..450 ms overlap (Chrome can write such RunTasks):
 * busy is their union, 350 ms, not 400. Buckets 100/200 = 50 %, 100 %,
 * 50/200 = 25 %. Both are long tasks. A task nested in 600..700 ms is not
 * top-level. */
static void overlapping_tasks_are_merged(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 100, 200);
  task(k, 250, 200);
  task(k, 600, 100);
  task(k, 610, 60); /* nested: a child, not a second long task */
  tc_trace_metrics *m = finish(k);
  NEAR(m->busy.series_pct[0], 50);
  NEAR(m->busy.series_pct[1], 100);
  NEAR(m->busy.series_pct[2], 25);
  NEAR(m->busy.series_pct[3], 50);
  NEAR(m->busy.mean_pct, 45); /* (350 + 100) / 1000 */
  assert_int_equal(m->busy.tasks, 3);
  assert_int_equal(m->long_tasks.count, 3);
  NEAR(m->long_tasks.tbt_ms, 150 + 150 + 50);
  tc_trace_metrics_free(m);
}

/* 50.0 ms is long with no blocking time; 49.999 ms is not long. */
static void fifty_ms_task_is_long_with_zero_tbt(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 100, 50.0);
  task(k, 300, 49.999);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->long_tasks.na, TC_NA_NONE);
  assert_int_equal(m->long_tasks.count, 1);
  NEAR(m->long_tasks.tbt_ms, 0);
  NEAR(m->long_tasks.max_ms, 50);
  NEAR(m->long_tasks.tasks[0].dur_us, 50 * MS);
  tc_trace_metrics_free(m);
}

/* B/E: a 120 ms pair with a nested pair inside; a B never closed runs to the
 * thread's last event (1000 ms): busy, but not a long task. An E before its B
 * is the clock going back: discarded. */
static void begin_end_tasks(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task_edge(k, 'B', 100);
  task_edge(k, 'B', 110);
  task_edge(k, 'E', 150);
  task_edge(k, 'E', 220);
  tc_kevent back = event("ThreadControllerImpl::RunTask", "toplevel", 'B', PAGE, MAIN, 500 * MS);
  feed(k, back, NULL, 0);
  back.ph = 'E';
  back.ts = 400 * MS;
  feed(k, back, NULL, 0);
  task_edge(k, 'B', 900);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->long_tasks.count, 1);
  NEAR(m->long_tasks.tasks[0].start_us, 100 * MS);
  NEAR(m->long_tasks.tasks[0].dur_us, 120 * MS);
  NEAR(m->long_tasks.tbt_ms, 70);
  assert_int_equal(m->long_tasks.unbounded, 1);
  NEAR(m->busy.mean_pct, 22); /* 120 + 100 of 1000 */
  assert_int_equal(m->discarded[TC_SAMPLE_TASK][TC_INVALID_CLOCK_BACKWARDS], 1);
  tc_trace_metrics_free(m);
}

/* Window 0..1000 ms, tasks 0..100 and 200..500. Idle 600 ms waits 0. For w
 * up to 100 both tasks add waits: P(wait <= w) = (600 + 2w) / 1000, 800 at
 * w = 100; then (700 + w) / 1000. p50 = 0, p90: 700 + w = 900 -> 200 ms,
 * p99: 990 -> 290 ms. Mean = (100*50 + 300*150) / 1000 = 50 ms, max 300.
 * Count-weighted, the same page has 2 long tasks of mean 200 ms. */
static void lag_distribution(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 0, 100);
  task(k, 200, 300);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->lag.na, TC_NA_NONE);
  NEAR(m->lag.p50_ms, 0);
  NEAR(m->lag.p90_ms, 200);
  NEAR(m->lag.p99_ms, 290);
  NEAR(m->lag.mean_ms, 50);
  NEAR(m->lag.max_ms, 300);
  NEAR(m->lag.long_share_pct, 40);
  NEAR(m->long_tasks.mean_ms, 200);
  tc_trace_metrics_free(m);
}

/* A task running past the window end keeps its whole wait: window 0..1000
 * (end mark), task 900..1300. Arrivals 900..1000 wait 400 down to 300, so
 * P(wait <= w) = (900 + w - 300) / 1000 for w in 300..400: p99 = 390.
 * Mean = 100 * 350 / 1000 = 35. */
static void lag_counts_the_wait_beyond_the_window(void **state) {
  (void)state;
  tc_kernel_opts o;
  tc_kernel_opts_default(&o);
  o.window_end_mark = "stop";
  tc_kernels *k = kernels_with(&o);
  thread_name(k, PAGE, MAIN, "CrRendererMain");
  span(k, PAGE, MAIN, 0, 1300 * MS);
  task(k, 900, 400);
  mark(k, "stop", 1000);
  tc_trace_metrics *m = finish(k);
  NEAR(m->lag.mean_ms, 35);
  NEAR(m->lag.max_ms, 400);
  NEAR(m->lag.p99_ms, 390);
  tc_trace_metrics_free(m);
}

static void no_task_events_is_na_not_zero(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->busy.na, TC_NA_NO_TASKS);
  assert_int_equal(m->long_tasks.na, TC_NA_NO_TASKS);
  assert_int_equal(m->lag.na, TC_NA_NO_TASKS);
  tc_trace_metrics_free(m);
}

/* ---- validity ----------------------------------------------------------- */

/* Hidden 400..600 ms: bucket 2 is discarded, and so is the task 450..560
 * that overlaps it. The busy mean is over the 800 valid ms: 100 ms (task
 * 100..200) -> 12.5 %. A suspend 800..850 drops bucket 4 too. */
static void hidden_and_suspended_samples_are_discarded(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 100, 100);
  task(k, 450, 110);
  instant(k, "WidgetBase::WasHidden", PAGE, 400);
  instant(k, "WidgetBase::WasShown", PAGE, 600);
  instant(k, "PowerMonitor::NotifySuspend", 1, 800);
  instant(k, "PowerMonitor::NotifyResume", 1, 850);
  tc_trace_metrics *m = finish(k);
  NEAR(m->hidden_ms, 200);
  NEAR(m->suspended_ms, 50);
  assert_true(isnan(m->busy.series_pct[2]));
  assert_true(isnan(m->busy.series_pct[4]));
  assert_int_equal(m->discarded[TC_SAMPLE_BUCKET][TC_INVALID_HIDDEN], 1);
  assert_int_equal(m->discarded[TC_SAMPLE_BUCKET][TC_INVALID_SUSPENDED], 1);
  assert_int_equal(m->discarded[TC_SAMPLE_TASK][TC_INVALID_HIDDEN], 1);
  NEAR(m->busy.mean_pct, 100.0 * 100 / 600);
  assert_int_equal(m->long_tasks.count, 1); /* the hidden one is not counted */
  /* Lag over 1000 - 200 hidden - 50 suspended = 750 valid ms. */
  NEAR(m->lag.valid_ms, 750);
  tc_trace_metrics_free(m);
}

/* A stray event on another clock 150 s before the page's tasks (as in
 * Lighthouse's perflog fixture): over 60 s without a task is a clock jump,
 * and at the edge of the default window it is cut off. Window 150000..150300
 * ms, busy 200 of 300 ms. */
static void clock_jump_at_the_edge_trims_the_window(void **state) {
  (void)state;
  tc_kernels *k = page(0, 150300);
  task(k, 150000, 100);
  task(k, 150200, 100);
  tc_trace_metrics *m = finish(k);
  NEAR(m->window_start_us, 150000 * MS);
  NEAR(m->window_end_us, 150300 * MS);
  NEAR(m->busy.mean_pct, 100.0 * 200 / 300);
  NEAR(m->clock_jump_ms, 0);
  tc_trace_metrics_free(m);
}

/* Tasks 0..100 and 100000..100100 ms: the 99.9 s between them is a jump
 * inside the window. Buckets 0..499 meet it and are discarded; the last,
 * 100000..100100, is 100 % busy. The tasks only touch the stretch, so both
 * stay long tasks; lag is over the 200 valid ms, all busy. */
static void clock_jump_inside_the_window(void **state) {
  (void)state;
  tc_kernels *k = page(0, 100100);
  task(k, 0, 100);
  task(k, 100000, 100);
  tc_trace_metrics *m = finish(k);
  NEAR(m->clock_jump_ms, 99900);
  assert_int_equal(m->discarded[TC_SAMPLE_BUCKET][TC_INVALID_CLOCK_JUMP], 500);
  NEAR(m->busy.mean_pct, 100);
  assert_int_equal(m->long_tasks.count, 2);
  NEAR(m->lag.valid_ms, 200);
  NEAR(m->lag.p50_ms, 50); /* waits uniform on 0..100 */
  tc_trace_metrics_free(m);
}

static void truncated_trace_is_na(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 100, 300);
  tc_trace_metrics *m = finish_ref(k, "s", "t", 1);
  assert_true(m->flags & TC_TRACE_TRUNCATED);
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    assert_int_equal(tc_metric_group_na(m, (tc_metric_group)g), TC_NA_TRUNCATED);
  tc_trace_metrics_free(m);
}

/* ---- frames ------------------------------------------------------------- */

/* A static page: its layer tree is known, it never draws. n/a, not 0 fps. */
static void static_page_has_no_frames(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  started_in_browser(k, "MAIN", PAGE, "IFRAME", 10);
  set_layer_tree(k, PAGE, "MAIN", 1);
  task(k, 0, 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->frames.na, TC_NA_NO_FRAMES);
  tc_trace_metrics_free(m);
}

/* Two draws 500 ms apart while the compositor was not asking for frames: a
 * page that changed twice, not a 2 fps animation. */
static void idle_draws_are_not_continuous(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  started_in_browser(k, "MAIN", PAGE, "IFRAME", 10);
  set_layer_tree(k, PAGE, "MAIN", 1);
  needs_begin_frame(k, PAGE, 1, 90, 1);
  draw(k, PAGE, 1, 100);
  needs_begin_frame(k, PAGE, 1, 110, 0);
  draw(k, PAGE, 1, 600);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->frames.na, TC_NA_NOT_CONTINUOUS);
  assert_int_equal(m->frames.draws, 2);
  tc_trace_metrics_free(m);
}

/* Continuous draws of the main frame's tree (pid 20, tree 2): 100, 116, 132,
 * 182, 198 ms -> intervals 16, 16, 50, 16; budget 16.67 ms at 60 Hz. The
 * iframe renderer (pid 10) also uses tree 2 and the page's own tree 1 is
 * about:blank's: neither counts. Mean 24.5, p50 16, p95 n/a (4 of the 20
 * samples it needs). The 50 ms interval is over 1.5 budgets (25 ms): one
 * dropped frame, round(50 / 16.67) - 1 = 2 missed vsyncs. */
static void frames_of_the_page_compositor(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  started_in_browser(k, "MAIN", PAGE, "IFRAME", 10);
  set_layer_tree(k, PAGE, "BLANK", 1);
  set_layer_tree(k, PAGE, "MAIN", 2);
  set_layer_tree(k, 10, "IFRAME", 2);
  needs_begin_frame(k, PAGE, 2, 50, 1);
  const double at[] = {100, 116, 132, 182, 198};
  for (int i = 0; i < 5; i++) {
    draw(k, PAGE, 2, at[i]);
    draw(k, 10, 2, at[i] + 3);
    draw(k, PAGE, 1, at[i] + 5);
  }
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->frames.na, TC_NA_NONE);
  assert_int_equal(m->frames.draws, 5);
  assert_int_equal(m->frames.intervals, 4);
  NEAR(m->frames.mean_ms, 24.5);
  NEAR(m->frames.p50_ms, 16);
  assert_true(isnan(m->frames.p95_ms));
  NEAR(m->frames.max_ms, 50);
  assert_int_equal(m->frames.over_budget, 1);
  assert_int_equal(m->frames.missed_vsyncs, 2);
  assert_int_equal(m->frames.by_vsyncs[1], 3);
  assert_int_equal(m->frames.by_vsyncs[3], 1);
  NEAR(m->frames.budget_ms, 16.666667);
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  for (size_t i = 0; i < nf; i++)
    if (strcmp(f[i].column, "frame_p95_ms") == 0)
      assert_int_equal(tc_metric_field_na(m, &f[i]), TC_NA_TOO_FEW_SAMPLES);
  tc_trace_metrics_free(m);
}

/* ---- heap --------------------------------------------------------------- */

/* Samples at 100 ms (10 MB), 550 (12 MB), 560 (11 MB); another renderer's
 * 99 MB is ignored. Forward-filled to each 200 ms bucket end: 10, 10, 11, 11,
 * 11. Start 10, end 11, growth 1, max 12. */
static void heap_is_forward_filled(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  heap(k, PAGE, 550, 12e6);
  heap(k, PAGE, 100, 10e6);
  heap(k, PAGE, 560, 11e6);
  heap(k, 99, 300, 99e6);
  task(k, 0, 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->heap.na, TC_NA_NONE);
  assert_int_equal(m->heap.samples, 3);
  const double want[] = {10e6, 10e6, 11e6, 11e6, 11e6};
  assert_int_equal(m->heap.nseries, 5);
  for (int i = 0; i < 5; i++)
    NEAR(m->heap.series_bytes[i], want[i]);
  NEAR(m->heap.start_bytes, 10e6);
  NEAR(m->heap.end_bytes, 11e6);
  NEAR(m->heap.growth_bytes, 1e6);
  NEAR(m->heap.max_bytes, 12e6);
  tc_trace_metrics_free(m);

  k = page(0, 1000);
  task(k, 0, 10);
  m = finish(k);
  assert_int_equal(m->heap.na, TC_NA_NO_HEAP);
  tc_trace_metrics_free(m);
}

/* ---- user timing -------------------------------------------------------- */

/* Two "load" measures (20 and 40 ms), one "save" begun and never ended, and
 * a "op:1:start" mark with no "op:1:end". */
static void user_timing_measures(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 0, 10);
  measure_edge(k, "load", "0x1", 'b', 100);
  measure_edge(k, "load", "0x2", 'b', 110);
  measure_edge(k, "load", "0x1", 'e', 120);
  measure_edge(k, "load", "0x2", 'e', 150);
  measure_edge(k, "save", "0x3", 'b', 200);
  mark(k, "op:1:start", 300);
  mark(k, "op:2:start", 310);
  mark(k, "op:2:end", 320);
  tc_trace_metrics *m = finish(k);
  const tc_ut_metrics *u = &m->user_timing;
  assert_int_equal(u->na, TC_NA_NONE);
  assert_int_equal(u->nmeasures, 1);
  assert_string_equal(u->measures[0].name, "load");
  assert_int_equal(u->measures[0].count, 2);
  NEAR(u->measures[0].mean_ms, 30);
  NEAR(u->measures[0].p50_ms, 20);
  NEAR(u->measures[0].max_ms, 40);
  assert_int_equal(u->nunclosed, 2);
  assert_string_equal(u->unclosed[0].name, "op:1:start");
  assert_string_equal(u->unclosed[1].name, "save");
  tc_trace_metrics_free(m);
}

/* One name measured four times: four measures of one name, in the
 * columns a reader takes them for. */
static void one_name_measured_four_times(void **state) {
  (void)state;
  tc_kernels *k = page(0, 1000);
  task(k, 0, 10);
  const char *ids[] = {"0x1", "0x2", "0x3", "0x4"};
  for (int i = 0; i < 4; i++) {
    measure_edge(k, "work", ids[i], 'b', 100 + 100 * i);
    measure_edge(k, "work", ids[i], 'e', 150 + 100 * i);
  }
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->user_timing.count, 4);
  assert_int_equal(m->user_timing.nmeasures, 1);
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  int seen = 0;
  for (size_t i = 0; i < nf; i++) {
    if (!strcmp(f[i].column, "user_timing_measures"))
      seen += tc_metric_value(m, &f[i]) == 4;
    if (!strcmp(f[i].column, "user_timing_measure_names"))
      seen += tc_metric_value(m, &f[i]) == 1;
  }
  assert_int_equal(seen, 2);
  tc_trace_metrics_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_name_measured_four_times),
      cmocka_unit_test(two_renderers_pick_main_frame),
      cmocka_unit_test(two_renderers_without_frame_are_ambiguous),
      cmocka_unit_test(no_renderer_is_na_everywhere),
      cmocka_unit_test(window_from_marks),
      cmocka_unit_test(missing_mark_or_empty_window_is_na),
      cmocka_unit_test(task_spanning_buckets),
      cmocka_unit_test(overlapping_tasks_are_merged),
      cmocka_unit_test(fifty_ms_task_is_long_with_zero_tbt),
      cmocka_unit_test(begin_end_tasks),
      cmocka_unit_test(lag_distribution),
      cmocka_unit_test(lag_counts_the_wait_beyond_the_window),
      cmocka_unit_test(no_task_events_is_na_not_zero),
      cmocka_unit_test(hidden_and_suspended_samples_are_discarded),
      cmocka_unit_test(clock_jump_at_the_edge_trims_the_window),
      cmocka_unit_test(clock_jump_inside_the_window),
      cmocka_unit_test(truncated_trace_is_na),
      cmocka_unit_test(static_page_has_no_frames),
      cmocka_unit_test(idle_draws_are_not_continuous),
      cmocka_unit_test(frames_of_the_page_compositor),
      cmocka_unit_test(heap_is_forward_filled),
      cmocka_unit_test(user_timing_measures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
