/* The ordered hand-off of a chunk: deep copies that outlive the parser's
 * buffers, compact task slices, per-thread extents against a brute-force
 * min/max/count over random events, reuse after free, and values counted
 * again in a row folding into the bytes of one add each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_vtab.h"
#include "pipeline/tc_seq.h"
#include "tc_rng.h"

static void events_are_deep_copies(void **state) {
  (void)state;
  tc_seq s;
  tc_seq_init(&s);
  char name[] = "ParseHTML", cat[] = "devtools.timeline", id[] = "0x1f", url[] = "https://a/";
  tc_argval args[2] = {{.slot = 3, .type = 8, .elem = 0, .num = 0, .str = {url, 10}},
                       {.slot = 5, .type = 4, .elem = 2, .num = 42.5, .str = {NULL, 0}}};
  tc_kevent ev = {.name = {name, 9}, .cat = {cat, 17}, .ph = 'X', .ts = 10, .dur = 5,
                  .pid = 1, .tid = 2, .id = {id, 4}, .index = 7, .for_kernels = 1,
                  .args = args, .nargs = 2};
  for (int i = 0; i < 1000; i++) { /* enough to need several arena blocks */
    ev.index = (uint64_t)i;
    assert_int_equal(tc_seq_push(&s, &ev), TC_OK);
  }
  tc_kevent bare = {.name = {"E", 1}, .ph = 'E', .dur = -1, .pid = TC_NO_ID, .tid = TC_NO_ID};
  assert_int_equal(tc_seq_push(&s, &bare), TC_OK);
  /* the parser's buffers are reused for the next chunk */
  memset(name, '?', sizeof name - 1);
  memset(url, '?', sizeof url - 1);
  memset(args, 0, sizeof args);
  assert_int_equal(s.nevents, 1001);
  for (size_t i = 0; i < 1000; i++) {
    const tc_kevent *k = &s.events[i];
    assert_true(tc_str_eqc(k->name, "ParseHTML"));
    assert_true(tc_str_eqc(k->cat, "devtools.timeline"));
    assert_true(tc_str_eqc(k->id, "0x1f"));
    assert_int_equal(k->index, i);
    assert_int_equal(k->nargs, 2);
    assert_true(tc_str_eqc(k->args[0].str, "https://a/"));
    assert_int_equal(k->args[0].slot, 3);
    assert_true(k->args[1].num == 42.5);
    assert_int_equal(k->args[1].elem, 2);
  }
  assert_null(s.events[1000].args);
  assert_int_equal(s.events[1000].pid, TC_NO_ID);
  tc_seq_free(&s);
  /* empty and usable again */
  assert_int_equal(s.nevents, 0);
  assert_int_equal(tc_seq_push(&s, &bare), TC_OK);
  tc_seq_free(&s);
}

static void tasks_are_kept_in_order(void **state) {
  (void)state;
  tc_seq s;
  tc_seq_init(&s);
  for (uint64_t i = 0; i < 300; i++) {
    tc_ktask_event t = {1, 2, (double)i, 1.5, i * 3, 'X', (uint8_t)(i % 4)};
    assert_int_equal(tc_seq_push_task(&s, &t), TC_OK);
  }
  assert_int_equal(s.ntasks, 300);
  for (uint64_t i = 0; i < 300; i++) {
    assert_int_equal(s.tasks[i].index, i * 3);
    assert_int_equal(s.tasks[i].kind, i % 4);
  }
  tc_seq_free(&s);
}

/* Random events over a few threads, against a brute-force extent. */
static void spans_match_brute_force(void **state) {
  (void)state;
  enum { NTHREADS = 5, NEVENTS = 5000 };
  struct {
    double min_ts, max_ts, max_end;
    uint64_t n;
  } want[NTHREADS] = {{0}};
  tc_rng rng = {13};
  tc_seq s;
  tc_seq_init(&s);
  int th = 0;
  for (int i = 0; i < NEVENTS; i++) {
    /* runs of one thread, as chunks hold, so the last-span shortcut is taken */
    if (tc_rng_below(&rng, 100) >= 80)
      th = (int)tc_rng_below(&rng, NTHREADS);
    double ts = (double)tc_rng_below(&rng, 1000000) / 7;
    double end = ts + (double)tc_rng_below(&rng, 500);
    assert_int_equal(tc_seq_span(&s, 100 + th / 2, th, ts, end), TC_OK);
    if (!want[th].n || ts < want[th].min_ts)
      want[th].min_ts = ts;
    if (!want[th].n || ts > want[th].max_ts)
      want[th].max_ts = ts;
    if (!want[th].n || end > want[th].max_end)
      want[th].max_end = end;
    want[th].n++;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < s.nspans; i++) {
    const tc_thread_span *sp = &s.spans[i];
    int th = (int)sp->tid;
    assert_int_equal(sp->pid, 100 + th / 2);
    assert_true(sp->min_ts == want[th].min_ts);
    assert_true(sp->max_ts == want[th].max_ts);
    assert_true(sp->max_end == want[th].max_end);
    assert_int_equal(sp->events, want[th].n);
    total += sp->events;
    for (size_t j = 0; j < i; j++) /* one span per thread */
      assert_false(s.spans[j].tid == sp->tid);
  }
  assert_int_equal(total, NEVENTS);
  tc_seq_free(&s);
}

/* One table for every process, or one per process, as the scopes ask. */
typedef struct {
  tc_vtab tabs[2];
  int per_process;
} tables;

static tc_vtab *table_of(void *ctx, int64_t pid) {
  tables *t = ctx;
  return &t->tabs[t->per_process && pid == 2];
}

static void tables_encode(tables *t, tc_bin_buf *b) {
  tc_bin_buf_init(b);
  for (int i = 0; i < 2; i++)
    tc_vtab_encode(&t->tabs[i], b);
}

/* The router's rule (tc_route.c): a value is counted again only as the
 * last value of its key, of the same process and bits. Folded, the runs
 * give the tables' bytes that every value appended alone gives, in both
 * table layouts, and they did merge values. */
static void values_in_a_row_fold_as_each_alone(void **state) {
  (void)state;
  static const char *const strs[] = {"a", "a", "https://x.example/p?q=1", ""};
  static const double nums[] = {0, -0.0, 1, 1, 2.5, 1e300};
  tc_rng r = {7};
  for (int per_process = 0; per_process < 2; per_process++) {
    tc_seq runs, each;
    tc_seq_init(&runs);
    tc_seq_init(&each);
    uint32_t keys[3], last[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (uint32_t k = 0; k < 3; k++) {
      char path[16];
      snprintf(path, sizeof path, "args.k%u", k);
      assert_int_equal(tc_seq_vkey_add(&runs, tc_str_c("Ev"), tc_str_c(path), &keys[k]), TC_OK);
      assert_int_equal(tc_seq_vkey_add(&each, tc_str_c("Ev"), tc_str_c(path), &keys[k]), TC_OK);
    }
    /* Each key's previous value, repeated half the time. */
    struct {
      int64_t pid;
      unsigned type;
      double num;
      tc_str str;
    } prev[3] = {{1, TC_JT_NULL, 0, {0}}, {1, TC_JT_NULL, 0, {0}}, {1, TC_JT_NULL, 0, {0}}};
    for (int i = 0; i < 5000; i++) {
      uint32_t k = (uint32_t)tc_rng_below(&r, 3);
      if (tc_rng_below(&r, 2)) {
        prev[k].pid = 1 + (int64_t)(tc_rng_below(&r, 6) == 0);
        prev[k].type = tc_rng_below(&r, 2) ? TC_JT_NUMBER : TC_JT_STRING;
        prev[k].num = prev[k].type == TC_JT_NUMBER ? nums[tc_rng_below(&r, 6)] : 0;
        prev[k].str = prev[k].type == TC_JT_STRING ? tc_str_c(strs[tc_rng_below(&r, 4)])
                                                   : (tc_str){0};
      }
      int64_t pid = prev[k].pid;
      unsigned type = prev[k].type;
      double num = prev[k].num;
      tc_str str = prev[k].str;
      assert_int_equal(tc_seq_val_add(&each, keys[k], pid, type, num, str), TC_OK);
      if (last[k] != UINT32_MAX && tc_seq_val_again(&runs, last[k], pid, type, num, str))
        continue;
      assert_int_equal(tc_seq_val_add(&runs, keys[k], pid, type, num, str), TC_OK);
      last[k] = (uint32_t)(runs.nvals - 1);
    }
    assert_true(runs.nvals < each.nvals / 2);
    tables a = {.per_process = per_process}, b = {.per_process = per_process};
    for (int i = 0; i < 2; i++) {
      tc_vtab_init(&a.tabs[i], 0, 9);
      tc_vtab_init(&b.tabs[i], 0, 9);
    }
    assert_int_equal(tc_seq_fold_values(&runs, table_of, &a), TC_OK);
    assert_int_equal(tc_seq_fold_values(&each, table_of, &b), TC_OK);
    tc_bin_buf ea, eb;
    tables_encode(&a, &ea);
    tables_encode(&b, &eb);
    assert_int_equal(ea.len, eb.len);
    assert_memory_equal(ea.ptr, eb.ptr, ea.len);
    tc_bin_buf_free(&ea);
    tc_bin_buf_free(&eb);
    for (int i = 0; i < 2; i++) {
      tc_vtab_free(&a.tabs[i]);
      tc_vtab_free(&b.tabs[i]);
    }
    tc_seq_free(&runs);
    tc_seq_free(&each);
  }
}

/* Only the same process, type and bits count again. */
static void again_only_when_equal(void **state) {
  (void)state;
  tc_seq s;
  tc_seq_init(&s);
  uint32_t key;
  assert_int_equal(tc_seq_vkey_add(&s, tc_str_c("Ev"), tc_str_c("args.x"), &key), TC_OK);
  assert_int_equal(tc_seq_val_add(&s, key, 1, TC_JT_NUMBER, 0, (tc_str){0}), TC_OK);
  assert_false(tc_seq_val_again(&s, 0, 1, TC_JT_NUMBER, -0.0, (tc_str){0}));
  assert_false(tc_seq_val_again(&s, 0, 2, TC_JT_NUMBER, 0, (tc_str){0}));
  assert_false(tc_seq_val_again(&s, 0, 1, TC_JT_BOOL, 0, (tc_str){0}));
  assert_true(tc_seq_val_again(&s, 0, 1, TC_JT_NUMBER, 0, (tc_str){0}));
  assert_int_equal(tc_seq_val_add(&s, key, 1, TC_JT_STRING, 0, tc_str_c("ab")), TC_OK);
  assert_false(tc_seq_val_again(&s, 1, 1, TC_JT_STRING, 0, tc_str_c("ac")));
  assert_false(tc_seq_val_again(&s, 1, 1, TC_JT_STRING, 0, tc_str_c("abc")));
  assert_true(tc_seq_val_again(&s, 1, 1, TC_JT_STRING, 0, tc_str_c("ab")));
  assert_int_equal(s.vals[0].count, 2);
  assert_int_equal(s.vals[1].count, 2);
  tc_seq_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(events_are_deep_copies),
      cmocka_unit_test(tasks_are_kept_in_order),
      cmocka_unit_test(spans_match_brute_force),
      cmocka_unit_test(values_in_a_row_fold_as_each_alone),
      cmocka_unit_test(again_only_when_equal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
