/* Builders for the kernel unit tests (see kevents.h). */
#include "kevents.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

void near(double got, double want, double eps, const char *what) {
  if (!(fabs(got - want) <= eps)) {
    print_error("%s: got %.9g, want %.9g\n", what, got, want);
    fail();
  }
}

/* Each kernels object's process map, fed alongside as the run's fold feeds
 * both (pipeline/tc_trace_engine.c); a test has a few kernels at a time. */
static struct {
  tc_kernels *k;
  tc_procmap *map;
} maps[16];

static tc_procmap **map_of(tc_kernels *k) {
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    if (maps[i].k == k)
      return &maps[i].map;
  fail_msg("no process map for these kernels");
  return NULL;
}

tc_kernels *kernels(void) {
  tc_kernel_opts o;
  tc_kernel_opts_default(&o);
  return kernels_with(&o);
}

tc_kernels *kernels_with(const tc_kernel_opts *o) {
  tc_kernels *k = tc_kernels_create(o);
  assert_non_null(k);
  size_t i = 0;
  while (i < sizeof maps / sizeof *maps && maps[i].k)
    i++;
  assert_true(i < sizeof maps / sizeof *maps);
  maps[i].k = k;
  maps[i].map = tc_procmap_create();
  assert_non_null(maps[i].map);
  return k;
}

static uint64_t next_index;

void feed(tc_kernels *k, tc_kevent ev, const tc_argval *args, uint32_t nargs) {
  int procs = tc_procmap_wants(tc_procmap_name_code(ev.name), ev.ph);
  int kern = tc_kernels_wants(ev.name, ev.cat, ev.ph);
  assert_true(procs || kern);
  ev.args = args;
  ev.nargs = nargs;
  ev.index = next_index++;
  if (procs)
    tc_procmap_feed(*map_of(k), &ev);
  if (kern)
    tc_kernels_feed(k, &ev);
}

/* The slot of an arg path in tc_kernels_arg_paths(). */
static uint16_t slot(const char *path) {
  size_t n;
  const char *const *p = tc_kernels_arg_paths(&n);
  for (size_t i = 0; i < n; i++)
    if (strcmp(p[i], path) == 0)
      return (uint16_t)i;
  fail_msg("no arg path %s", path);
  return 0;
}

tc_argval str_arg(const char *path, const char *s, uint32_t elem) {
  return (tc_argval){.slot = slot(path), .type = TC_JT_STRING, .elem = elem, .str = tc_str_c(s)};
}

tc_argval num_arg(const char *path, double v, uint32_t elem) {
  return (tc_argval){.slot = slot(path), .type = TC_JT_NUMBER, .elem = elem, .num = v};
}

tc_argval bool_arg(const char *path, int v, uint32_t elem) {
  return (tc_argval){.slot = slot(path), .type = TC_JT_BOOL, .elem = elem, .num = v != 0};
}

tc_kevent event(const char *name, const char *cat, char ph, int64_t pid, int64_t tid, double ts) {
  return (tc_kevent){.name = tc_str_c(name),
                     .cat = tc_str_c(cat),
                     .ph = ph,
                     .ts = ts,
                     .dur = -1,
                     .pid = pid,
                     .tid = tid};
}

void thread_name(tc_kernels *k, int64_t pid, int64_t tid, const char *name) {
  tc_argval a = str_arg("args.name", name, 0);
  feed(k, event("thread_name", "__metadata", 'M', pid, tid, 0), &a, 1);
}

void task_named(tc_kernels *k, const char *name, int64_t pid, double start_ms, double dur_ms) {
  tc_kevent ev =
      event(name, "disabled-by-default-devtools.timeline", 'X', pid, MAIN, start_ms * MS);
  ev.dur = dur_ms * MS;
  feed(k, ev, NULL, 0);
}

/* Thread (PID, TID) has events from FROM to TO (microseconds). */
void span(tc_kernels *k, int64_t pid, int64_t tid, double from, double to) {
  tc_kspan_in sp = {pid, tid, from, to, to, 2};
  tc_kernels_thread_span(k, &sp);
}

tc_trace_metrics *finish_ref(tc_kernels *k, const char *site, const char *trace, int truncated) {
  tc_trace_ref ref = {.site = site, .trace = trace, .truncated = truncated};
  tc_trace_metrics *m = NULL;
  tc_procmap **map = map_of(k);
  assert_int_equal(tc_procmap_finish(*map), TC_OK);
  assert_int_equal(tc_kernels_finish(k, *map, &ref, &m), TC_OK);
  tc_procmap_free(*map);
  *map = NULL;
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    if (maps[i].k == k)
      maps[i].k = NULL;
  tc_kernels_free(k);
  assert_non_null(m);
  return m;
}

tc_trace_metrics *finish(tc_kernels *k) { return finish_ref(k, "example.com", "example.json", 0); }

char *report_of(const tc_metrics_reduction *r, metrics_writer fn) {
  char dir[] = "/tmp/tc-metrics-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(fn(r, dir, NULL), TC_OK);
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *de;
  char path[256] = "";
  while ((de = readdir(d)))
    if (de->d_name[0] != '.') {
      assert_string_equal(path, ""); /* exactly one file */
      snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    }
  closedir(d);
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  fseek(fp, 0, SEEK_END);
  long len = ftell(fp);
  rewind(fp);
  char *buf = malloc((size_t)len + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
  buf[len] = '\0';
  fclose(fp);
  unlink(path);
  rmdir(dir);
  return buf;
}

/* A page whose main thread runs 1 s with one task of LONG_MS at 0 (none
 * when LONG_MS < 0), finished as trace PATH of SITE. */
tc_trace_metrics *trace_with(const char *site, const char *path, double long_ms) {
  enum { PID = 20 };
  tc_kernels *k = kernels();
  thread_name(k, PID, MAIN, "CrRendererMain");
  span(k, PID, MAIN, 0, 1000 * MS);
  if (long_ms >= 0)
    task_named(k, "RunTask", PID, 0, long_ms);
  return finish_ref(k, site, path, 0);
}

tc_trace_metrics *unreadable_trace(const char *site, const char *path, tc_err why) {
  tc_trace_ref ref = {.site = site, .trace = path};
  tc_trace_metrics *m = NULL;
  assert_int_equal(tc_metrics_unreadable(&ref, tc_strerror(why), &m), TC_OK);
  assert_non_null(m);
  return m;
}

size_t field_index(const tc_metrics_reduction *r, const char *column) {
  for (size_t f = 0; f < r->nfields; f++)
    if (strcmp(r->fields[f].column, column) == 0)
      return f;
  fail_msg("no column %s", column);
  return 0;
}
