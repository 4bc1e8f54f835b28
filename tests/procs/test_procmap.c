/* The process map on traces built here, whose processes are known by
 * construction: a startup trace with Chrome's omnibox popup committing
 * first, the page second, a cross-site iframe third (its CommitLoad names no
 * parent; the page's renderer named its frame as a subframe), a renderer
 * whose only commit (a browser page) comes after 10,000 of its own events,
 * a spare renderer and the browser, GPU and a utility process; a trace
 * whose only renderer shows chrome://version; a DevTools-style trace found
 * by TracingStartedInBrowser; two renderers without any commit; and the
 * main threads by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "procs/tc_procmap.h"

static uint64_t next_index;

static tc_kevent ev(const char *name, char ph, int64_t pid, double ts) {
  return (tc_kevent){.name = tc_str_c(name), .cat = tc_str_c("devtools.timeline"), .ph = ph,
                     .ts = ts, .dur = -1, .pid = pid, .tid = pid, .index = next_index++};
}

/* Feeds EV with ARGS when the map wants it, as the run's fold does. */
static void feed(tc_procmap *m, tc_kevent e, const tc_argval *args, uint32_t n) {
  e.args = args;
  e.nargs = n;
  if (tc_procmap_wants(tc_procmap_name_code(e.name), e.ph))
    tc_procmap_feed(m, &e);
}

static tc_argval str(int slot, const char *s, uint32_t elem) {
  return (tc_argval){.slot = (uint16_t)slot, .type = TC_JT_STRING, .elem = elem, .str = tc_str_c(s)};
}

static tc_argval flag(int slot, int v) {
  return (tc_argval){.slot = (uint16_t)slot, .type = TC_JT_BOOL, .num = v != 0};
}

static tc_argval num(int slot, double v, uint32_t elem) {
  return (tc_argval){.slot = (uint16_t)slot, .type = TC_JT_NUMBER, .elem = elem, .num = v};
}

static void named(tc_procmap *m, int64_t pid, const char *process, const char *thread) {
  tc_argval a = str(TC_PM_ARG_NAME, process, 0);
  feed(m, ev("process_name", 'M', pid, 0), &a, 1);
  tc_argval t = str(TC_PM_ARG_NAME, thread, 0);
  feed(m, ev("thread_name", 'M', pid, 0), &t, 1);
}

static void commit_load(tc_procmap *m, int64_t pid, double ts, const char *frame, const char *url,
                        int main) {
  tc_argval a[] = {str(TC_PM_ARG_DATA_FRAME, frame, 0), str(TC_PM_ARG_DATA_URL, url, 0),
                   flag(TC_PM_ARG_DATA_IS_MAIN, main), flag(TC_PM_ARG_DATA_OUTERMOST_MAIN, main)};
  feed(m, ev("CommitLoad", 'X', pid, ts), a, 4);
}

static const tc_proc *proc(const tc_procmap *m, int64_t pid) {
  const tc_proc *p = tc_procmap_find(m, pid);
  assert_non_null(p);
  return p;
}

static void test_startup_trace(void **state) {
  (void)state;
  tc_procmap *m = tc_procmap_create();
  assert_non_null(m);
  named(m, 1, "Browser", "CrBrowserMain");
  named(m, 2, "GPU Process", "CrGpuMain");
  named(m, 3, "Service: network.mojom.NetworkService", "network.CrUtilityMain");
  for (int64_t pid = 10; pid <= 50; pid += 10)
    named(m, pid, "Renderer", "CrRendererMain");
  commit_load(m, 10, 100, "UI", "chrome://omnibox-popup.top-chrome/", 1);
  commit_load(m, 20, 200, "PAGE", "http://a.test/", 1);
  tc_argval nav[] = {str(TC_PM_ARG_FRAME, "SUB", 0),
                     str(TC_PM_ARG_DATA_LOADER_URL, "http://b.test/", 0),
                     flag(TC_PM_ARG_DATA_OUTERMOST_MAIN, 0)};
  feed(m, ev("navigationStart", 'R', 20, 210), nav, 3);
  commit_load(m, 30, 300, "SUB", "http://b.test/", 0);
  /* pid 40: 10,000 events of its own first (none the map reads), then its
   * only commit, of a browser page */
  for (int i = 0; i < 10000; i++)
    feed(m, ev("FunctionCall", 'X', 40, 400 + i), NULL, 0);
  commit_load(m, 40, 20000, "SETTINGS", "chrome://settings/", 1);
  assert_int_equal(tc_procmap_finish(m), TC_OK);

  const tc_page *page = tc_procmap_page(m);
  assert_int_equal(page->status, TC_PAGE_FOUND);
  assert_int_equal(page->rule, TC_MAIN_COMMIT_LOAD);
  assert_string_equal(page->frame, "PAGE");
  assert_string_equal(page->url, "http://a.test/");
  assert_int_equal(page->npids, 1);
  assert_int_equal(page->pids[0], 20);
  assert_true(page->has_commit);

  assert_int_equal(proc(m, 1)->kind, TC_PROC_BROWSER);
  assert_int_equal(proc(m, 2)->kind, TC_PROC_GPU);
  assert_int_equal(proc(m, 3)->kind, TC_PROC_UTILITY);
  assert_false(proc(m, 1)->renderer);
  assert_int_equal(proc(m, 10)->role, TC_ROLE_BROWSER_UI);
  assert_string_equal(proc(m, 10)->url, "chrome://omnibox-popup.top-chrome/");
  assert_string_equal(proc(m, 10)->urls[0], "chrome://omnibox-popup.top-chrome/");
  assert_int_equal(proc(m, 20)->role, TC_ROLE_PAGE);
  assert_int_equal(proc(m, 30)->role, TC_ROLE_IFRAME);
  assert_string_equal(proc(m, 30)->url, "http://b.test/");
  assert_int_equal(proc(m, 40)->role, TC_ROLE_BROWSER_UI);
  assert_int_equal(proc(m, 50)->role, TC_ROLE_OTHER);
  assert_null(proc(m, 50)->url);
  assert_int_equal(tc_procmap_count(m), 8);
  assert_null(tc_procmap_find(m, 99));
  tc_procmap_free(m);
}

/* A user tracing chrome://version on purpose: its only renderer is the
 * page, never Chrome's own UI. */
static void test_only_renderer_is_the_page(void **state) {
  (void)state;
  tc_procmap *m = tc_procmap_create();
  named(m, 1, "Browser", "CrBrowserMain");
  named(m, 7, "Renderer", "CrRendererMain");
  commit_load(m, 7, 100, "V", "chrome://version/", 1);
  assert_int_equal(tc_procmap_finish(m), TC_OK);
  const tc_page *page = tc_procmap_page(m);
  assert_int_equal(page->status, TC_PAGE_FOUND);
  assert_int_equal(page->rule, TC_MAIN_ONLY_RENDERER);
  assert_int_equal(page->pids[0], 7);
  assert_int_equal(proc(m, 7)->role, TC_ROLE_PAGE);
  tc_procmap_free(m);
}

/* A DevTools recording: the frame with no parent in the earliest
 * TracingStartedInBrowser, its renderer named by processId. */
static void test_tracing_started_in_browser(void **state) {
  (void)state;
  tc_procmap *m = tc_procmap_create();
  named(m, 5, "Renderer", "CrRendererMain");
  named(m, 6, "Renderer", "CrRendererMain");
  tc_argval a[] = {str(TC_PM_ARG_FRAMES_FRAME, "TOP", 1), num(TC_PM_ARG_FRAMES_PROCESS, 6, 1),
                   str(TC_PM_ARG_FRAMES_URL, "https://c.test/", 1),
                   str(TC_PM_ARG_FRAMES_FRAME, "KID", 2), num(TC_PM_ARG_FRAMES_PROCESS, 5, 2),
                   str(TC_PM_ARG_FRAMES_PARENT, "TOP", 2),
                   str(TC_PM_ARG_FRAMES_URL, "https://d.test/", 2)};
  feed(m, ev("TracingStartedInBrowser", 'I', 1, 10), a, 7);
  assert_int_equal(tc_procmap_finish(m), TC_OK);
  const tc_page *page = tc_procmap_page(m);
  assert_int_equal(page->rule, TC_MAIN_TRACING_STARTED_IN_BROWSER);
  assert_string_equal(page->frame, "TOP");
  assert_int_equal(page->pids[0], 6);
  assert_int_equal(proc(m, 6)->role, TC_ROLE_PAGE);
  assert_int_equal(proc(m, 5)->role, TC_ROLE_IFRAME);
  assert_false(page->has_commit);
  tc_procmap_free(m);
}

/* No commit and two renderer main threads: no page, and neither is
 * Chrome's own UI. */
static void test_two_renderers_without_commit(void **state) {
  (void)state;
  tc_procmap *m = tc_procmap_create();
  named(m, 5, "Renderer", "CrRendererMain");
  named(m, 6, "Renderer", "CrRendererMain");
  assert_int_equal(tc_procmap_finish(m), TC_OK);
  assert_int_equal(tc_procmap_page(m)->status, TC_PAGE_AMBIGUOUS);
  assert_int_equal(proc(m, 5)->role, TC_ROLE_OTHER);
  assert_int_equal(proc(m, 6)->role, TC_ROLE_OTHER);
  tc_procmap_free(m);
}

/* The main threads by name, which the metric kernels take from here too:
 * the whole name, case and all, or nothing. */
static void test_thread_roles(void **state) {
  (void)state;
  assert_int_equal(tc_thread_role_of(tc_str_c("CrRendererMain")), TC_THREAD_RENDERER_MAIN);
  assert_int_equal(tc_thread_role_of(tc_str_c("CrBrowserMain")), TC_THREAD_BROWSER_MAIN);
  const char *others[] = {"CrGpuMain", "CrUtilityMain", "crrenderermain", "CrRendererMain2",
                          "CrRenderer", ""};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    assert_int_equal(tc_thread_role_of(tc_str_c(others[i])), TC_THREAD_OTHER);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_startup_trace),
      cmocka_unit_test(test_only_renderer_is_the_page),
      cmocka_unit_test(test_tracing_started_in_browser),
      cmocka_unit_test(test_two_renderers_without_commit),
      cmocka_unit_test(test_thread_roles),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
