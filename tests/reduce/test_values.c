/* The corpus's value profiles (reduce/tc_values.h): traces' tables merged
 * in the caller's order whatever order they are offered in, so the top
 * values come out byte-identical even when more distinct values arrive than
 * the sketch keeps; and each arg path gets its profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_vtab.h"
#include "reduce/tc_values.h"

#define NTRACES 6

static tc_str S(const char *s) { return (tc_str){s, strlen(s)}; }

/* Trace I's table: site I / 2, strings of args.p drawn so that the union
 * holds many more than TC_TOPK_K distinct values, some frequent, and a
 * number at args.n. */
static tc_vtab *trace_table(int i) {
  char site[16];
  snprintf(site, sizeof site, "site%d", i / 2);
  tc_vtab *t = malloc(sizeof *t);
  assert_non_null(t);
  tc_vtab_init(t, 0, tc_vtab_site_tag(S(site)));
  uint32_t kp, kn;
  assert_int_equal(tc_vtab_key(t, S("N"), S("args.p"), &kp), TC_OK);
  assert_int_equal(tc_vtab_key(t, S("N"), S("args.n"), &kn), TC_OK);
  for (int k = 0; k < 200; k++) {
    char v[32];
    /* every trace: a frequent value of its own and of all; a long tail */
    int which = k % 4 == 0 ? 1000 + i : k % 4 == 1 ? 2000 : i * 1000 + k;
    snprintf(v, sizeof v, "v%d", which);
    assert_int_equal(tc_vtab_add(t, kp, TC_JT_STRING, 0, S(v)), TC_OK);
    assert_int_equal(tc_vtab_add(t, kn, TC_JT_NUMBER, k * (i + 1), (tc_str){0}), TC_OK);
  }
  return t;
}

/* Offers the traces in ORDER (a permutation of merge numbers) and returns
 * the encoded profiles of args.p and args.n. */
static void merged(const int *order, tc_bin_buf *out) {
  tc_vcorpus *vc = tc_vcorpus_create(NTRACES, 0);
  assert_non_null(vc);
  for (int k = 0; k < NTRACES; k++)
    assert_int_equal(tc_vcorpus_offer(vc, (uint32_t)order[k], trace_table(order[k])), TC_OK);
  tc_res_arg args[3] = {{.path = S("args.n")}, {.path = S("args.p")}, {.path = S("args.q")}};
  tc_res_event ev = {.name = S("N"), .args = args, .nargs = 3};
  tc_census_result r = {.events = &ev, .nevents = 1};
  assert_int_equal(tc_census_take_values(&r, vc), TC_OK);
  assert_non_null(args[0].values);
  assert_non_null(args[1].values);
  assert_null(args[2].values);
  assert_int_equal(args[1].values->n, NTRACES * 200);
  /* Past the sketch's room: the case where only the order keeps it stable. */
  assert_true(args[1].values->top.floor > 0);
  tc_valprof_encode(args[0].values, out);
  tc_valprof_encode(args[1].values, out);
  tc_vtab_free(r.values);
  free(r.values);
}

static void test_any_offer_order(void **state) {
  (void)state;
  static const int orders[][NTRACES] = {
      {0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {3, 0, 5, 1, 4, 2}, {1, 0, 3, 2, 5, 4}};
  tc_bin_buf want;
  tc_bin_buf_init(&want);
  merged(orders[0], &want);
  for (size_t o = 1; o < sizeof orders / sizeof orders[0]; o++) {
    tc_bin_buf got;
    tc_bin_buf_init(&got);
    merged(orders[o], &got);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.ptr, want.ptr, want.len);
    tc_bin_buf_free(&got);
  }
  tc_bin_buf_free(&want);
}

/* The value every trace shares is counted exactly, on all three sites: a
 * site's two traces are adjacent in the order, so its tag counts once. */
static void test_sites_of_a_shared_value(void **state) {
  (void)state;
  static const int order[NTRACES] = {2, 0, 4, 1, 5, 3};
  tc_vcorpus *vc = tc_vcorpus_create(NTRACES, 0);
  for (int k = 0; k < NTRACES; k++)
    assert_int_equal(tc_vcorpus_offer(vc, (uint32_t)order[k], trace_table(order[k])), TC_OK);
  tc_res_arg arg = {.path = S("args.p")};
  tc_res_event ev = {.name = S("N"), .args = &arg, .nargs = 1};
  tc_census_result r = {.events = &ev, .nevents = 1};
  assert_int_equal(tc_census_take_values(&r, vc), TC_OK);
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&arg.values->top, items);
  assert_true(n > 0);
  assert_true(tc_str_eqc(items[0].value, "v2000"));
  assert_int_equal(items[0].count, NTRACES * 50);
  assert_int_equal(items[0].err, 0);
  assert_int_equal(items[0].sites, 3);
  tc_vtab_free(r.values);
  free(r.values);
}

/* A trace never offered: the merge is incomplete and says so. */
static void test_missing_trace(void **state) {
  (void)state;
  tc_vcorpus *vc = tc_vcorpus_create(2, 0);
  assert_int_equal(tc_vcorpus_offer(vc, 1, trace_table(1)), TC_OK);
  tc_census_result r = {0};
  assert_int_equal(tc_census_take_values(&r, vc), TC_E_USAGE);
  assert_null(r.values);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_any_offer_order),
      cmocka_unit_test(test_sites_of_a_shared_value),
      cmocka_unit_test(test_missing_trace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
