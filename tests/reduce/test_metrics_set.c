/* The set of traces' metrics and its reduction: per-site medians, order,
 * concurrent adds, and traces that could not be read or sites without one,
 * each in any order of the adds. Records are built through the kernels
 * (tests/kernels/kevents.h); the reports compared are the writers' own
 * files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kevents.h"
#include "metrics_set.h"
#include "reduce/tc_metrics_reduction.h"
#include "metrics_rows.h"

/* Every metrics file of R1 and R2 is byte-identical. */
static void same_reports(const tc_metrics_reduction *r1, const tc_metrics_reduction *r2) {
  metrics_writer writers[] = {tc_write_metrics_csv, tc_write_metrics_json, tc_write_metrics_md};
  for (int w = 0; w < 3; w++) {
    char *a = report_of(r1, writers[w]), *b = report_of(r2, writers[w]);
    assert_string_equal(a, b);
    free(a);
    free(b);
  }
}

/* Site b.com has TBTs 0, 100, 300 -> median (rank 2 of 3) 100; a.com one
 * trace. Added in two different orders, the reductions and every report are
 * identical, sorted by site then path. */
static void reduction_median_and_order(void **state) {
  (void)state;
  tc_metrics_set *s1 = tc_metrics_set_create(), *s2 = tc_metrics_set_create();
  const char *sites[] = {"b.com", "a.com", "b.com", "b.com"};
  const char *paths[] = {"b/2.json", "a/1.json", "b/1.json", "b/3.json"};
  const double lengths[] = {150, 80, 40, 350};
  for (int i = 0; i < 4; i++)
    assert_int_equal(tc_metrics_set_add(s1, trace_with(sites[i], paths[i], lengths[i])), TC_OK);
  for (int i = 3; i >= 0; i--)
    assert_int_equal(tc_metrics_set_add(s2, trace_with(sites[i], paths[i], lengths[i])), TC_OK);
  tc_metrics_reduction *r1, *r2;
  assert_int_equal(tc_metrics_reduce(s1, &r1), TC_OK);
  assert_int_equal(tc_metrics_reduce(s2, &r2), TC_OK);
  assert_int_equal(r1->nsites, 2);
  assert_string_equal(reduced_site(r1, 0)->site, "a.com");
  assert_string_equal(reduced_site(r1, 1)->site, "b.com");
  assert_int_equal(reduced_site(r1, 1)->ntraces, 3);
  assert_string_equal(reduced_trace(r1, 1)->trace, "b/1.json");
  assert_string_equal(reduced_trace(r1, 3)->trace, "b/3.json");
  size_t tbt = 0;
  while (strcmp(r1->fields[tbt].column, "tbt_ms") != 0)
    tbt++;
  NEAR(reduced_site(r1, 1)->values[tbt], 100);
  NEAR(reduced_site(r1, 0)->values[tbt], 30);
  assert_int_equal(r1->corpus[tbt].n, 2);
  same_reports(r1, r2);
  char *csv = report_of(r1, tc_write_metrics_csv);
  assert_non_null(strstr(csv, "site,trace,"));
  assert_non_null(strstr(csv, ",busy_mean_pct,"));
  assert_non_null(strstr(csv, ",long_tasks,tbt_ms,"));
  assert_non_null(strstr(csv, ",busy_na,"));
  assert_non_null(strstr(csv, "\nb.com,b/1.json,"));
  free(csv);
  tc_metrics_reduction_free(r1);
  tc_metrics_reduction_free(r2);
  tc_metrics_set_free(s1);
  tc_metrics_set_free(s2);
}

/* A bare record: the set's collection does not care what was measured. */
static tc_trace_metrics *bare(int i) {
  tc_trace_metrics *m = calloc(1, sizeof *m);
  char buf[32];
  snprintf(buf, sizeof buf, "site%d", i % 7);
  m->site = strdup(buf);
  snprintf(buf, sizeof buf, "t%03d.json", i);
  m->trace = strdup(buf);
  m->busy.na = m->long_tasks.na = m->lag.na = TC_NA_NO_MAIN_THREAD;
  m->frames.na = m->heap.na = m->user_timing.na = TC_NA_NO_MAIN_THREAD;
  return m;
}

enum { ADDERS = 4, PER_ADDER = 50 };

typedef struct {
  tc_metrics_set *set;
  int from;
} adder_job;

static void *add_range(void *arg) {
  adder_job *j = arg;
  for (int i = j->from; i < j->from + PER_ADDER; i++)
    if (tc_metrics_set_add(j->set, bare(i)) != TC_OK)
      return arg;
  return NULL;
}

/* Four threads adding at once lose nothing, and the reports equal those of
 * the same traces added serially in reverse. */
static void concurrent_adds_lose_nothing(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  pthread_t th[ADDERS];
  adder_job jobs[ADDERS];
  for (int t = 0; t < ADDERS; t++) {
    jobs[t] = (adder_job){s, t * PER_ADDER};
    assert_int_equal(pthread_create(&th[t], NULL, add_range, &jobs[t]), 0);
  }
  for (int t = 0; t < ADDERS; t++) {
    void *failed;
    pthread_join(th[t], &failed);
    assert_null(failed);
  }
  assert_int_equal(tc_metrics_set_count(s), ADDERS * PER_ADDER);
  tc_metrics_set *a = tc_metrics_set_create();
  for (int i = ADDERS * PER_ADDER - 1; i >= 0; i--)
    assert_int_equal(tc_metrics_set_add(a, bare(i)), TC_OK);
  tc_metrics_reduction *r1, *r2;
  assert_int_equal(tc_metrics_reduce(s, &r1), TC_OK);
  assert_int_equal(tc_metrics_reduce(a, &r2), TC_OK);
  assert_int_equal(r1->nsites, 7);
  assert_int_equal(r1->na_traces[TC_GROUP_BUSY][TC_NA_NO_MAIN_THREAD], ADDERS * PER_ADDER);
  char *x = report_of(r1, tc_write_metrics_json), *y = report_of(r2, tc_write_metrics_json);
  assert_string_equal(x, y);
  free(x);
  free(y);
  tc_metrics_reduction_free(r1);
  tc_metrics_reduction_free(r2);
  tc_metrics_set_free(s);
  tc_metrics_set_free(a);
}

/* What goes into a set: good, unreadable and missing, with duplicates. */
enum { ITEMS = 9 };

static void add_item(tc_metrics_set *s, int i) {
  switch (i) {
  case 0: assert_int_equal(tc_metrics_set_add(s, trace_with("a.com", "a/1.json", 150)), 0); break;
  case 1: assert_int_equal(tc_metrics_set_add(s, trace_with("a.com", "a/2.json", 90)), 0); break;
  case 2:
    assert_int_equal(tc_metrics_set_add(s, unreadable_trace("a.com", "a/3.json", TC_E_OPEN)), 0);
    break;
  case 3:
    assert_int_equal(tc_metrics_set_add(s, unreadable_trace("b.com", "b/1.json", TC_E_NOT_TRACE)),
                     0);
    break;
  case 4: /* the same path twice, failing two ways */
    assert_int_equal(tc_metrics_set_add(s, unreadable_trace("b.com", "b/1.json", TC_E_NO_EVENTS)),
                     0);
    break;
  case 5: assert_int_equal(tc_metrics_set_add_site_without_trace(s, "c.com", "timeout"), 0); break;
  case 6: assert_int_equal(tc_metrics_set_add_site_without_trace(s, "c.com", "crash"), 0); break;
  case 7: assert_int_equal(tc_metrics_set_add_site_without_trace(s, "0.com", NULL), 0); break;
  case 8: assert_int_equal(tc_metrics_set_add_site_without_trace(s, "a.com", "late"), 0); break;
  }
}

/* Every report is byte-identical whatever the order of the adds, and
 * whether the set was built in one piece or merged from shards. */
static void missing_data_reports_do_not_depend_on_order(void **state) {
  (void)state;
  tc_metrics_set *fwd = tc_metrics_set_create(), *rev = tc_metrics_set_create();
  for (int i = 0; i < ITEMS; i++)
    add_item(fwd, i);
  for (int i = ITEMS - 1; i >= 0; i--)
    add_item(rev, i);
  tc_metrics_reduction *r1, *r2;
  assert_int_equal(tc_metrics_reduce(fwd, &r1), TC_OK);
  assert_int_equal(tc_metrics_reduce(rev, &r2), TC_OK);
  assert_int_equal(r1->nsites, 4); /* 0.com, a.com, b.com, c.com */
  assert_int_equal(r1->nsites_without_trace, 2);
  assert_int_equal(r1->ntraces_unreadable, 3);
  assert_string_equal(reduced_site(r1, 3)->no_trace_reason, "crash");
  assert_null(reduced_site(r1, 0)->no_trace_reason);
  assert_int_equal(reduced_site(r1, 0)->na[TC_GROUP_BUSY], TC_NA_NO_TRACE);
  same_reports(r1, r2);
  tc_metrics_reduction_free(r1);
  tc_metrics_reduction_free(r2);
  tc_metrics_set_free(fwd);
  tc_metrics_set_free(rev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reduction_median_and_order),
      cmocka_unit_test(concurrent_adds_lose_nothing),
      cmocka_unit_test(missing_data_reports_do_not_depend_on_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
