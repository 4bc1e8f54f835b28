/* Unit tests of the page under test and of what the kernels report beside
 * it: the main-frame rule on startup traces (no TracingStartedInBrowser),
 * every renderer with its role, the page-commit window, forced layouts,
 * jitter-tolerant frames, n/a reasons of statistics, and the clamps that
 * keep memory and output bounded by the input whatever its values. Every
 * expected figure is worked out in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kevents.h"
#include "metrics_set.h"
#include "report/tc_metrics_report.h"

#define BROWSER 1 /* the browser process */
#define POPUP 30  /* Chrome's omnibox popup renderer */
#define PAGE 40   /* the page's renderer */
#define IFRAME 50 /* the page's cross-site iframe */

/* A renderer process whose main thread has events from FROM to TO ms. */
static void renderer(tc_kernels *k, int64_t pid, double from_ms, double to_ms) {
  thread_name(k, pid, MAIN, "CrRendererMain");
  span(k, pid, MAIN, from_ms * MS, to_ms * MS);
}

/* CommitLoad in renderer PID: OUTERMOST sets isOutermostMainFrame and
 * isMainFrame, as Chrome writes them for a tab's document. */
static void commit_load(tc_kernels *k, int64_t pid, const char *frame, const char *url,
                        int outermost, double ms) {
  tc_argval a[] = {str_arg("args.data.frame", frame, 0), str_arg("args.data.url", url, 0),
                   bool_arg("args.data.isOutermostMainFrame", outermost, 0),
                   bool_arg("args.data.isMainFrame", outermost, 0)};
  tc_kevent ev = event("CommitLoad", "devtools.timeline", 'X', pid, MAIN, ms * MS);
  ev.dur = 100;
  feed(k, ev, a, 4);
}

static void navigation_start(tc_kernels *k, int64_t pid, const char *frame, const char *url,
                             int outermost, double ms) {
  tc_argval a[] = {str_arg("args.frame", frame, 0), str_arg("args.data.documentLoaderURL", url, 0),
                   bool_arg("args.data.isOutermostMainFrame", outermost, 0),
                   bool_arg("args.data.isLoadingMainFrame", outermost, 0)};
  feed(k, event("navigationStart", "blink.user_timing", 'R', pid, MAIN, ms * MS), a, 4);
}

static void frame_committed(tc_kernels *k, int64_t renderer, const char *frame, const char *url,
                            double ms) {
  tc_argval a[] = {str_arg("args.data.frame", frame, 0), str_arg("args.data.url", url, 0),
                   num_arg("args.data.processId", (double)renderer, 0),
                   bool_arg("args.data.isOutermostMainFrame", 1, 0)};
  feed(k, event("FrameCommittedInBrowser", "devtools.timeline", 'I', BROWSER, MAIN, ms * MS), a,
       4);
}

static void slice(tc_kernels *k, const char *name, int64_t pid, double start_ms, double dur_ms) {
  tc_kevent ev = event(name, "devtools.timeline", 'X', pid, MAIN, start_ms * MS);
  ev.dur = dur_ms * MS;
  feed(k, ev, NULL, 0);
}

static void edge(tc_kernels *k, const char *name, char ph, int64_t pid, double ms) {
  feed(k, event(name, "devtools.timeline", ph, pid, MAIN, ms * MS), NULL, 0);
}

static const tc_renderer_metrics *renderer_of(const tc_trace_metrics *m, int64_t pid) {
  for (uint32_t i = 0; i < m->nrenderers; i++)
    if (m->renderers[i].pid == pid)
      return &m->renderers[i];
  fail_msg("no renderer %lld", (long long)pid);
  return NULL;
}

static const tc_metric_field *field(const char *column) {
  size_t n;
  const tc_metric_field *f = tc_metric_fields(&n);
  for (size_t i = 0; i < n; i++)
    if (strcmp(f[i].column, column) == 0)
      return &f[i];
  fail_msg("no field %s", column);
  return NULL;
}

/* Renderer PAGE, alive 0..1000 ms, committing https://p.example/ at AT ms. */
static tc_kernels *committed_page(double at_ms) {
  tc_kernels *k = kernels();
  renderer(k, PAGE, 0, 1000);
  commit_load(k, PAGE, "PAGE", "https://p.example/", 1, at_ms);
  return k;
}

/* ---- the page of a startup trace ----------------------------------------- */

/* A startup trace as headless Chromium writes it: the omnibox popup's
 * renderer first (chrome:// outermost main frames and long tasks of its
 * own), the page's renderer second (its CommitLoad of http://127.0.0.1 at
 * 200 ms), the page's cross-site iframe third (frame IFR, which the page's
 * renderer named in a navigationStart before the frame moved to its own
 * process and committed http://localhost there).
 *
 * The page: pid 40, rule commit_load, window from its commit at 200 ms to
 * its last event at 2000 ms. Its own tasks: 10 ms at 190 (ends at the
 * window start: outside), 30 ms at 300, 40 ms at 1000: no long task. The
 * iframe: three 250 ms tasks, TBT 3 x 200 = 600, reported for pid 50 and
 * in the iframes group, never as the page's. The popup: 60 ms at 150
 * (overlaps the window: counted whole, TBT from its 10 ms inside: 0) and
 * 170 ms at 400 (TBT 120). */
static void startup_trace_picks_the_web_page(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  thread_name(k, BROWSER, MAIN, "CrBrowserMain");
  span(k, BROWSER, MAIN, 0, 2100 * MS);
  renderer(k, POPUP, 100, 2000);
  navigation_start(k, POPUP, "POPUP", "chrome://omnibox-popup.top-chrome/", 1, 90);
  commit_load(k, POPUP, "POPUP", "chrome://omnibox-popup.top-chrome/", 1, 100);
  task_named(k, "RunTask", POPUP, 150, 60);
  task_named(k, "RunTask", POPUP, 400, 170);
  renderer(k, PAGE, 150, 2000);
  navigation_start(k, PAGE, "PAGE", "http://127.0.0.1:8000/site/", 1, 180);
  task_named(k, "RunTask", PAGE, 190, 10);
  commit_load(k, PAGE, "PAGE", "http://127.0.0.1:8000/site/", 1, 200);
  navigation_start(k, PAGE, "IFR", "", 0, 250);
  task_named(k, "RunTask", PAGE, 300, 30);
  task_named(k, "RunTask", PAGE, 1000, 40);
  renderer(k, IFRAME, 250, 2000);
  commit_load(k, IFRAME, "IFR", "http://localhost:8000/site/frame.html", 0, 260);
  for (int i = 0; i < 3; i++)
    task_named(k, "RunTask", IFRAME, 500 + i * 500, 250);
  tc_trace_metrics *m = finish(k);

  assert_int_equal(m->main_na, TC_NA_NONE);
  assert_int_equal(m->main_rule, TC_MAIN_COMMIT_LOAD);
  assert_int_equal(m->nmain, 1);
  assert_int_equal(m->main_threads[0].pid, PAGE);
  assert_string_equal(m->main_frame, "PAGE");
  assert_string_equal(m->main_url, "http://127.0.0.1:8000/site/");
  assert_int_equal(m->window_rule, TC_WINDOW_PAGE_COMMIT);
  NEAR(m->window_start_us, 200 * MS);
  NEAR(m->window_end_us, 2000 * MS);
  assert_int_equal(m->long_tasks.na, TC_NA_NONE);
  assert_int_equal(m->long_tasks.count, 0);
  NEAR(m->long_tasks.tbt_ms, 0);
  NEAR(m->busy.mean_pct, 100.0 * 70 / 1800);

  assert_int_equal(m->nrenderers, 3);
  assert_int_equal(m->renderers[0].role, TC_ROLE_PAGE); /* by role, then pid */
  assert_int_equal(m->renderers[1].role, TC_ROLE_IFRAME);
  assert_int_equal(m->renderers[2].role, TC_ROLE_BROWSER_UI);
  const tc_renderer_metrics *p = renderer_of(m, PAGE), *f = renderer_of(m, IFRAME),
                            *u = renderer_of(m, POPUP);
  assert_int_equal(p->role, TC_ROLE_PAGE);
  assert_int_equal(p->long_count, 0);
  assert_int_equal(f->role, TC_ROLE_IFRAME);
  assert_string_equal(f->url, "http://localhost:8000/site/frame.html");
  assert_int_equal(f->long_count, 3);
  NEAR(f->tbt_ms, 600);
  NEAR(f->long_max_ms, 250);
  for (int i = 0; i < 3; i++)
    NEAR(f->long_tasks[i].dur_us, 250 * MS);
  assert_int_equal(u->role, TC_ROLE_BROWSER_UI);
  assert_string_equal(u->url, "chrome://omnibox-popup.top-chrome/");
  assert_int_equal(u->long_count, 2);
  NEAR(u->tbt_ms, 120);
  assert_true(u->long_tasks[0].clipped);
  assert_int_equal(m->iframes.na, TC_NA_NONE);
  assert_int_equal(m->iframes.renderers, 1);
  assert_int_equal(m->iframes.long_tasks, 3);
  NEAR(m->iframes.tbt_ms, 600);
  tc_trace_metrics_free(m);
}

/* Lighthouse's rule comes first where TracingStartedInBrowser exists: its
 * frame with no parent (pid 20) wins over an earlier web CommitLoad in
 * another renderer, and the window is the main thread's span. */
static void tracing_started_in_browser_comes_first(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  renderer(k, 20, 0, 1000);
  renderer(k, PAGE, 0, 1000);
  commit_load(k, PAGE, "OTHER", "https://example.com/", 1, 10);
  tc_argval a[] = {str_arg("args.data.frames[].frame", "MAIN", 1),
                   num_arg("args.data.frames[].processId", 20, 1),
                   str_arg("args.data.frames[].url", "https://devtools.example/", 1)};
  feed(k, event("TracingStartedInBrowser", "disabled-by-default-devtools.timeline", 'I', BROWSER,
                MAIN, 5 * MS),
       a, 3);
  task_named(k, "RunTask", 20, 100, 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_rule, TC_MAIN_TRACING_STARTED_IN_BROWSER);
  assert_int_equal(m->main_threads[0].pid, 20);
  assert_int_equal(m->window_rule, TC_WINDOW_MAIN_THREAD_SPAN);
  NEAR(m->window_start_us, 0);
  assert_string_equal(m->main_url, "https://devtools.example/");
  assert_int_equal(renderer_of(m, PAGE)->role, TC_ROLE_OTHER);
  tc_trace_metrics_free(m);
}

/* Two tabs: the earliest web commit is the page; at one ts, the lowest pid.
 * chrome:, about: and an empty URL never qualify, nor does a subframe. */
static void earliest_web_document_breaks_ties(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  renderer(k, 60, 0, 1000);
  renderer(k, 70, 0, 1000);
  renderer(k, 80, 0, 1000);
  commit_load(k, 80, "NEWTAB", "chrome://newtab/", 1, 50);
  commit_load(k, 80, "BLANK", "about:blank", 1, 60);
  commit_load(k, 80, "EMPTY", "", 1, 70);
  commit_load(k, 80, "SUB", "https://ads.example/", 0, 80);
  commit_load(k, 60, "A", "https://a.example/", 1, 300);
  commit_load(k, 70, "B", "file:///tmp/b.html", 1, 200);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_rule, TC_MAIN_COMMIT_LOAD);
  assert_int_equal(m->main_threads[0].pid, 70);
  assert_string_equal(m->main_frame, "B");
  NEAR(m->window_start_us, 200 * MS);
  tc_trace_metrics_free(m);

  k = kernels();
  renderer(k, 60, 0, 1000);
  renderer(k, 70, 0, 1000);
  commit_load(k, 70, "B", "https://b.example/", 1, 200);
  commit_load(k, 60, "A", "https://a.example/", 1, 200);
  m = finish(k);
  assert_int_equal(m->main_threads[0].pid, 60);
  tc_trace_metrics_free(m);
}

/* Without CommitLoad, the browser's FrameCommittedInBrowser decides (its
 * processId is the renderer), and without that a navigationStart in the
 * renderer with its documentLoaderURL; main_rule names which. */
static void weaker_evidence_names_itself(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  renderer(k, 60, 0, 1000);
  renderer(k, 70, 0, 1000);
  frame_committed(k, 70, "F", "https://f.example/", 100);
  navigation_start(k, 60, "N", "https://n.example/", 1, 50);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->main_rule, TC_MAIN_FRAME_COMMITTED_IN_BROWSER);
  assert_int_equal(m->main_threads[0].pid, 70);
  tc_trace_metrics_free(m);

  k = kernels();
  renderer(k, 60, 0, 1000);
  renderer(k, 70, 0, 1000);
  navigation_start(k, 70, "U", "chrome://omnibox-popup.top-chrome/", 1, 10);
  navigation_start(k, 70, "U", "", 1, 20);
  navigation_start(k, 60, "N", "https://n.example/", 1, 50);
  m = finish(k);
  assert_int_equal(m->main_rule, TC_MAIN_NAVIGATION_START);
  assert_int_equal(m->main_threads[0].pid, 60);
  NEAR(m->window_start_us, 50 * MS);
  assert_int_equal(renderer_of(m, 70)->role, TC_ROLE_BROWSER_UI);
  tc_trace_metrics_free(m);

  /* Nothing but browser pages: no page, and no guess among the renderers. */
  k = kernels();
  renderer(k, 60, 0, 1000);
  renderer(k, 70, 0, 1000);
  commit_load(k, 70, "U", "chrome://omnibox-popup.top-chrome/", 1, 10);
  m = finish(k);
  assert_int_equal(m->main_na, TC_NA_MAIN_AMBIGUOUS);
  assert_int_equal(m->main_url_na, TC_NA_MAIN_AMBIGUOUS);
  tc_trace_metrics_free(m);
}

/* ---- forced layouts ------------------------------------------------------ */

/* Layouts at 100 and 110 ms start inside the FunctionCall 100..150 (forced,
 * 2 + 3 ms); the B/E Layout at 320 inside the B/E EvaluateScript 300..400
 * (forced, 5 ms); the one at 500 inside no script (not forced); the one at
 * 5 ms before the window, and the other renderer's, do not count. */
static void layouts_inside_script_are_forced(void **state) {
  (void)state;
  tc_kernels *k = committed_page(10);
  slice(k, "Layout", PAGE, 5, 1);
  slice(k, "FunctionCall", PAGE, 100, 50);
  slice(k, "Layout", PAGE, 100, 2);
  slice(k, "Layout", PAGE, 110, 3);
  edge(k, "EvaluateScript", 'B', PAGE, 300);
  edge(k, "Layout", 'B', PAGE, 320);
  edge(k, "Layout", 'E', PAGE, 325);
  edge(k, "EvaluateScript", 'E', PAGE, 400);
  slice(k, "Layout", PAGE, 500, 4);
  renderer(k, 60, 0, 1000);
  slice(k, "FunctionCall", 60, 100, 50);
  slice(k, "Layout", 60, 110, 3);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->layout.na, TC_NA_NONE);
  assert_int_equal(m->layout.layouts, 4);
  assert_int_equal(m->layout.forced, 3);
  NEAR(m->layout.forced_ms, 10);
  tc_trace_metrics_free(m);

  k = committed_page(10);
  slice(k, "FunctionCall", PAGE, 100, 50);
  m = finish(k);
  assert_int_equal(m->layout.na, TC_NA_NO_LAYOUT);
  assert_true(isnan(tc_metric_value(m, field("forced_layouts"))));
  tc_trace_metrics_free(m);
}

/* ---- frames -------------------------------------------------------------- */

static void draw_at(tc_kernels *k, double us) {
  tc_argval a = num_arg("args.layerTreeId", 1, 0);
  feed(k, event("DrawFrame", "disabled-by-default-devtools.timeline.frame", 'I', PAGE, 7, us), &a,
       1);
}

/* A page whose layer tree 1 asks for frames from 50 ms on. */
static tc_kernels *animated_page(void) {
  tc_kernels *k = kernels();
  renderer(k, PAGE, 0, 2000);
  commit_load(k, PAGE, "PAGE", "https://p.example/", 1, 1);
  tc_argval lt[] = {str_arg("args.data.frame", "PAGE", 0), num_arg("args.data.layerTreeId", 1, 0)};
  feed(k, event("SetLayerTreeId", "disabled-by-default-devtools.timeline", 'I', PAGE, MAIN, 1 * MS),
       lt, 2);
  tc_argval nb[] = {num_arg("args.layerTreeId", 1, 0), num_arg("args.data.needsBeginFrame", 1, 0)};
  feed(k,
       event("NeedsBeginFrameChanged", "disabled-by-default-devtools.timeline.frame", 'I', PAGE, 7,
             50 * MS),
       nb, 2);
  return k;
}

/* A perfect 60 Hz loop: 40 intervals of 16.667 ms, every other one 3 us
 * longer, as vsync jitter makes them. None is a dropped frame, none missed
 * a vsync; then one interval of 40 ms (2.4 budgets: dropped, 1 missed vsync)
 * and one of 24 ms (1.44 budgets: not dropped, round(1.44) - 1 = 0 missed). */
static void jitter_is_not_a_dropped_frame(void **state) {
  (void)state;
  tc_kernels *k = animated_page();
  double t = 100 * MS;
  draw_at(k, t);
  for (int i = 0; i < 40; i++) {
    t += 16666.667 + (i % 2 ? 3 : 0);
    draw_at(k, t);
  }
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->frames.na, TC_NA_NONE);
  assert_int_equal(m->frames.intervals, 40);
  assert_int_equal(m->frames.over_budget, 0);
  assert_int_equal(m->frames.missed_vsyncs, 0);
  assert_int_equal(m->frames.by_vsyncs[1], 40);
  near(m->frames.p50_ms, 16.666667, 1e-6, "p50");
  near(m->frames.p95_ms, 16.669667, 1e-6, "p95");
  tc_trace_metrics_free(m);

  k = animated_page();
  draw_at(k, 100 * MS);
  draw_at(k, 140 * MS);
  draw_at(k, 164 * MS);
  m = finish(k);
  assert_int_equal(m->frames.intervals, 2);
  assert_int_equal(m->frames.over_budget, 1);
  assert_int_equal(m->frames.missed_vsyncs, 1);
  assert_int_equal(m->frames.by_vsyncs[1], 1);
  assert_int_equal(m->frames.by_vsyncs[2], 1);
  tc_trace_metrics_free(m);
}

/* ---- n/a reasons of statistics ------------------------------------------- */

/* No long task: their durations cannot be summarised (no_long_tasks), while
 * the count is a measured 0. One long task: its mean and max are that
 * task, but a median needs 2 and p95 20 (too_few_samples). */
static void statistics_say_why_they_are_missing(void **state) {
  (void)state;
  tc_kernels *k = committed_page(1);
  task_named(k, "RunTask", PAGE, 100, 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(tc_metric_field_na(m, field("long_tasks")), TC_NA_NONE);
  NEAR(tc_metric_value(m, field("long_tasks")), 0);
  assert_int_equal(tc_metric_field_na(m, field("long_task_mean_ms")), TC_NA_NO_LONG_TASKS);
  assert_true(isnan(tc_metric_value(m, field("long_task_mean_ms"))));
  tc_trace_metrics_free(m);

  k = committed_page(1);
  task_named(k, "RunTask", PAGE, 100, 80);
  m = finish(k);
  NEAR(tc_metric_value(m, field("long_task_mean_ms")), 80);
  NEAR(tc_metric_value(m, field("long_task_max_ms")), 80);
  assert_int_equal(tc_metric_field_na(m, field("long_task_p50_ms")), TC_NA_TOO_FEW_SAMPLES);
  assert_int_equal(tc_metric_field_na(m, field("long_task_p95_ms")), TC_NA_TOO_FEW_SAMPLES);
  assert_true(isnan(m->long_tasks.p50_ms));
  tc_trace_metrics_free(m);

  assert_int_equal(tc_min_samples(0), 1);
  assert_int_equal(tc_min_samples(0.5), 2);
  assert_int_equal(tc_min_samples(0.9), 10);
  assert_int_equal(tc_min_samples(0.95), 20);
  assert_int_equal(tc_min_samples(0.99), 100);
}

/* ---- clamps: bounded by the input, not its values ------------------------ */

/* A 5 s trace whose main thread has one RunTask of dur D: a task cannot be
 * longer than the trace's span (at least 60 s), so it is clipped to 60 s,
 * the window ends 60 s after the last timestamp, and the series has
 * (5 + 60) s / 200 ms = 325 buckets, whatever D is. */
static void absurd_durations_are_clipped(void **state) {
  (void)state;
  const double durs[] = {1e13, 1e15, 1e300};
  for (size_t i = 0; i < sizeof durs / sizeof *durs; i++) {
    tc_kernels *k = kernels();
    thread_name(k, PAGE, MAIN, "CrRendererMain");
    tc_kspan_in sp = {PAGE, MAIN, 0, 5000 * MS, 1000 * MS + durs[i], 100};
    tc_kernels_thread_span(k, &sp);
    commit_load(k, PAGE, "PAGE", "https://p.example/", 1, 0);
    tc_kevent ev = event("RunTask", "toplevel", 'X', PAGE, MAIN, 1000 * MS);
    ev.dur = durs[i];
    feed(k, ev, NULL, 0);
    tc_trace_metrics *m = finish(k);
    assert_int_equal(m->clamped_tasks, 1);
    assert_true(m->window_end_clamped);
    NEAR(m->trace_span_ms, 5000);
    NEAR(m->window_end_us, 65000 * MS);
    assert_int_equal(m->busy.nseries, 325);
    assert_int_equal(m->long_tasks.count, 1);
    NEAR(m->long_tasks.tasks[0].dur_us, 60e6);
    NEAR(m->busy.bucket_ms, 200);
    tc_trace_metrics_free(m);
  }
}

/* Events at 0..5 s and one main-thread task at 1e15 us: the window holds a
 * clock-jump stretch and would hold 5e9 buckets. It may hold at most 4096 +
 * 2 x events: the bucket is raised to a multiple of 200 ms instead. */
static void absurd_timestamps_raise_the_bucket(void **state) {
  (void)state;
  tc_kernels *k = kernels();
  thread_name(k, PAGE, MAIN, "CrRendererMain");
  tc_kspan_in sp = {PAGE, MAIN, 0, 1e15, 1e15 + 10 * MS, 50};
  tc_kernels_thread_span(k, &sp);
  commit_load(k, PAGE, "PAGE", "https://p.example/", 1, 0);
  task_named(k, "RunTask", PAGE, 100, 10);
  task_named(k, "RunTask", PAGE, 1e12 - 100, 10); /* 1e15 us, written in ms */
  task_named(k, "RunTask", PAGE, 1e12, 10);
  tc_trace_metrics *m = finish(k);
  assert_int_equal(m->window_na, TC_NA_NONE);
  assert_true(m->busy.nseries <= 4096 + 2 * 50);
  assert_true(m->busy.bucket_ms > 200);
  double steps = m->busy.bucket_ms / 200;
  NEAR(steps, round(steps));
  NEAR(m->busy.bucket_ms_requested, 200);
  assert_true(m->heap.nseries <= 4096 + 2 * 50);
  tc_trace_metrics_free(m);
}

/* ---- reports -------------------------------------------------------------- */

static char *csv_of(tc_metrics_set *s) {
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  char *buf = report_of(r, tc_write_metrics_csv);
  tc_metrics_reduction_free(r);
  return buf;
}

/* A site name that is not UTF-8 is written with U+FFFD in metrics.csv, as
 * the JSON writer does, in trace rows and traceless rows alike. */
static void csv_writes_invalid_utf8_as_replacement(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  tc_kernels *k = kernels();
  renderer(k, PAGE, 0, 1000);
  assert_int_equal(tc_metrics_set_add(s, finish_ref(k, "caf\xe9", "caf\xe9/t.json", 0)), TC_OK);
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "na\xefve", "HTTP 404"), TC_OK);
  char *csv = csv_of(s);
  assert_non_null(strstr(csv, "\ncaf\xef\xbf\xbd,caf\xef\xbf\xbd/t.json,"));
  assert_non_null(strstr(csv, "\nna\xef\xbf\xbd" "ve,,,no_trace,"));
  assert_null(strstr(csv, "caf\xe9"));
  free(csv);
  tc_metrics_set_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(startup_trace_picks_the_web_page),
      cmocka_unit_test(tracing_started_in_browser_comes_first),
      cmocka_unit_test(earliest_web_document_breaks_ties),
      cmocka_unit_test(weaker_evidence_names_itself),
      cmocka_unit_test(layouts_inside_script_are_forced),
      cmocka_unit_test(jitter_is_not_a_dropped_frame),
      cmocka_unit_test(statistics_say_why_they_are_missing),
      cmocka_unit_test(absurd_durations_are_clipped),
      cmocka_unit_test(absurd_timestamps_raise_the_bucket),
      cmocka_unit_test(csv_writes_invalid_utf8_as_replacement),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
