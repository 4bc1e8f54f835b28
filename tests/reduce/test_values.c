/* The corpus's value profiles (census/tc_vtab.h):
 * traces' tables merged in corpus order, live or through their encoding to
 * the same bytes, sites counted once, and each arg path given its profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_vtab.h"
#include "reduce/tc_census_result.h"

#define NTRACES 6

static tc_str S(const char *s) { return (tc_str){s, strlen(s)}; }

/* Trace I's table: site I / 2, strings of args.p drawn so that the union
 * holds many more than TC_TOPK_K distinct values, some frequent, a number
 * at args.n, and a path only some traces have (args.o<I % 3>). */
static tc_vtab *trace_table(int i) {
  char site[16];
  snprintf(site, sizeof site, "site%d", i / 2);
  tc_vtab *t = tc_vtab_new(0, tc_vtab_site_tag(S(site)));
  assert_non_null(t);
  uint32_t kp, kn;
  assert_int_equal(tc_vtab_key(t, S("N"), S("args.p"), &kp), TC_OK);
  assert_int_equal(tc_vtab_key(t, S("N"), S("args.n"), &kn), TC_OK);
  for (int k = 0; k < 200; k++) {
    char v[32];
    /* every trace: a frequent value of its own and of all; a long tail */
    int which = k % 4 == 0 ? 1000 + i : k % 4 == 1 ? 2000 : i * 1000 + k;
    snprintf(v, sizeof v, "v%d", which);
    assert_int_equal(tc_vtab_add(t, kp, TC_JT_STRING, 0, S(v), 1), TC_OK);
    assert_int_equal(tc_vtab_add(t, kn, TC_JT_NUMBER, k * (i + 1), (tc_str){0}, 1), TC_OK);
  }
  char only[16];
  snprintf(only, sizeof only, "args.o%d", i % 3);
  uint32_t ko;
  assert_int_equal(tc_vtab_key(t, S("N"), S(only), &ko), TC_OK);
  assert_int_equal(tc_vtab_add(t, ko, TC_JT_NUMBER, i, (tc_str){0}, 1), TC_OK);
  return t;
}

enum { LIVE, ENCODED, ABSORBED };

/* The corpus table: the traces' tables merged in order 0 .. NTRACES-1,
 * each live, through its encoding (as a table that waits is) or absorbed. */
static tc_vtab *corpus(int how) {
  tc_vtab *all = tc_vtab_new(0, 0);
  assert_non_null(all);
  for (int i = 0; i < NTRACES; i++) {
    tc_vtab *t = trace_table(i);
    if (how == ABSORBED) {
      assert_int_equal(tc_vtab_absorb(all, t), TC_OK);
      assert_int_equal(tc_vtab_count(t), 0);
    } else if (how == ENCODED) {
      tc_bin_buf b;
      tc_bin_buf_init(&b);
      tc_vtab_encode(t, &b);
      assert_int_equal(b.err, TC_OK);
      assert_int_equal(tc_vtab_merge_encoded(all, b.ptr, b.len), TC_OK);
      tc_bin_buf_free(&b);
    } else {
      assert_int_equal(tc_vtab_merge(all, t), TC_OK);
    }
    tc_vtab_destroy(t);
  }
  return all;
}

/* The encoded profiles of args.n and args.p in R (one event N). */
static void encoded(tc_census_result *r, tc_bin_buf *out) {
  tc_valprof_encode(r->events[0].args[0].values, out);
  tc_valprof_encode(r->events[0].args[1].values, out);
}

/* Through the encoding a table merges to the same bytes as live, past the
 * top-value sketch's room; each arg path gets its profile, one without
 * values none. */
static void test_encoded_merges_as_live(void **state) {
  (void)state;
  tc_bin_buf want, got;
  tc_bin_buf_init(&want);
  tc_bin_buf_init(&got);
  for (int enc = 0; enc < 2; enc++) {
    tc_res_arg args[3] = {{.path = S("args.n")}, {.path = S("args.p")}, {.path = S("args.q")}};
    tc_res_event ev = {.name = S("N"), .args = args, .nargs = 3};
    tc_census_result r = {.events = &ev, .nevents = 1};
    r.values = corpus(enc);
    for (int a = 0; a < 3; a++)
      args[a].values = tc_vtab_find(r.values, ev.name, args[a].path);
    assert_non_null(args[0].values);
    assert_non_null(args[1].values);
    assert_null(args[2].values);
    assert_int_equal(args[1].values->n, NTRACES * 200);
    assert_true(args[1].values->str->top.floor > 0);
    encoded(&r, enc ? &got : &want);
    tc_vtab_destroy(r.values);
  }
  assert_int_equal(got.len, want.len);
  assert_memory_equal(got.ptr, want.ptr, want.len);
  tc_bin_buf_free(&want);
  tc_bin_buf_free(&got);
}

/* The value every trace shares is counted exactly, on all three sites: a
 * site's two traces are adjacent in corpus order, so its tag counts once. */
static void test_sites_of_a_shared_value(void **state) {
  (void)state;
  tc_vtab *all = corpus(0);
  const tc_valprof *p = tc_vtab_find(all, S("N"), S("args.p"));
  assert_non_null(p);
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&p->str->top, items);
  assert_true(n > 0);
  assert_true(tc_str_eqc(items[0].value, "v2000"));
  assert_int_equal(items[0].count, NTRACES * 50);
  assert_int_equal(items[0].err, 0);
  assert_int_equal(items[0].sites, 3);
  tc_vtab_destroy(all);
}

/* Absorbing (moving what the corpus lacks, merging the rest) gives the
 * bytes merging does, the key order included; flags must agree. */
static void test_absorb_as_merge(void **state) {
  (void)state;
  tc_bin_buf want, got;
  tc_bin_buf_init(&want);
  tc_bin_buf_init(&got);
  for (int how = LIVE; how <= ABSORBED; how += ABSORBED - LIVE) {
    tc_vtab *all = corpus(how);
    assert_int_equal(tc_vtab_count(all), 5);
    tc_vtab_encode(all, how == LIVE ? &want : &got);
    tc_vtab_destroy(all);
  }
  assert_int_equal(got.len, want.len);
  assert_memory_equal(got.ptr, want.ptr, want.len);
  tc_bin_buf_free(&want);
  tc_bin_buf_free(&got);
  tc_vtab a, *t = trace_table(0);
  tc_vtab_init(&a, TC_VP_WHOLE_URLS, 0);
  assert_int_equal(tc_vtab_absorb(&a, t), TC_E_USAGE);
  tc_vtab_free(&a);
  tc_vtab_destroy(t);
}

/* Bytes that are not an encoded table are refused. */
static void test_bad_encoding(void **state) {
  (void)state;
  tc_vtab all;
  tc_vtab_init(&all, 0, 0);
  static const unsigned char junk[] = {3, 1, 'N', 6, 'a', 'r', 'g', 's', '.', 'p', 9, 9, 9};
  assert_int_equal(tc_vtab_merge_encoded(&all, junk, sizeof junk), TC_E_BAD_BINARY);
  tc_vtab_free(&all);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_encoded_merges_as_live),
      cmocka_unit_test(test_sites_of_a_shared_value),
      cmocka_unit_test(test_absorb_as_merge),
      cmocka_unit_test(test_bad_encoding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
