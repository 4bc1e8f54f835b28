/* The ordered hand-off of a chunk: deep copies that outlive the parser's
 * buffers, compact task slices, per-thread extents against a brute-force
 * min/max/count over random events, and reuse after free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(events_are_deep_copies),
      cmocka_unit_test(tasks_are_kept_in_order),
      cmocka_unit_test(spans_match_brute_force),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
