/* Pairing, fed hand-built event sequences in trace order and read back
 * through the census worker it reports to. B/E pair as a stack per thread
 * (an E closes the innermost open B of its thread, whatever its own name,
 * and the pair is credited to the B's name); flow s/f and async b/e and S/F
 * pair by (id, cat, name) within their own kind. Every name that is not
 * listed in a case's expectations must end with no pair counts at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "census/tc_census.h"
#include "site_tables.h"
#include "census/tc_pairing.h"

#define NSITES 3

static tc_kevent ev(char ph, const char *name, const char *cat, const char *id, int64_t pid,
                    int64_t tid) {
  tc_kevent k;
  memset(&k, 0, sizeof k);
  k.ph = ph;
  k.name = tc_str_c(name);
  k.cat = tc_str_c(cat);
  k.id = tc_str_c(id);
  k.pid = pid;
  k.tid = tid;
  k.dur = -1;
  return k;
}

/* Begin/end on thread (1, TID), no id. */
#define BE(ph, name, tid) ev(ph, name, "blink", "", 1, tid)
/* An id-matched record. */
#define ID(ph, name, cat, id) ev(ph, name, cat, id, 1, 1)

typedef struct {
  const char *name;
  uint64_t p[TC_PAIR_COUNT]; /* BE, BE unmatched, flow, flow unpaired, async, async unpaired */
} want;

typedef struct {
  tc_parser *parser;
  tc_census_worker *w;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f)
    return -1;
  f->parser = tc_parser_create(NULL, 0);
  f->w = f->parser ? tc_census_worker_create(NSITES, f->parser) : NULL;
  if (!f->w) {
    tc_parser_free(f->parser);
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  tc_census_worker_free(f->w);
  tc_parser_free(f->parser);
  free(f);
  return 0;
}

/* One trace: feeds EVS in order and reports the pairs to SITE. */
static void run_trace(tc_census_worker *w, uint32_t site, const tc_kevent *evs, size_t n) {
  tc_pairing *p = tc_pairing_create();
  assert_non_null(p);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(tc_pairing_feed(p, &evs[i]), TC_OK);
  assert_int_equal(tc_pairing_finish(p, w, site, 0), TC_OK);
  tc_pairing_free(p);
}

static const uint64_t zeros[TC_PAIR_COUNT];

static const uint64_t *pairs_of(const tc_census_worker *w, uint32_t site, tc_str name) {
  const tc_site_acc *acc = site_tables(w, site);
  uint32_t id = tc_map_find(tc_census_names(w), name);
  const tc_name_counts *nc = acc && id != UINT32_MAX ? tc_site_name(acc, id) : NULL;
  return nc ? nc->pairs : zeros;
}

static int listed(const want *ws, size_t nw, tc_str name) {
  for (size_t i = 0; i < nw; i++)
    if (tc_str_eqc(name, ws[i].name))
      return 1;
  return 0;
}

/* Checks SITE of W: every listed name has exactly its counts (times
 * TIMES), every other name has none. */
static void check_site(const tc_census_worker *w, uint32_t site, const want *ws, size_t nw,
                       uint64_t times) {
  for (size_t i = 0; i < nw; i++) {
    const uint64_t *got = pairs_of(w, site, tc_str_c(ws[i].name));
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      if (got[k] != ws[i].p[k] * times)
        fail_msg("site %u name '%s' pair kind %d: got %llu, want %llu", site, ws[i].name, k,
                 (unsigned long long)got[k], (unsigned long long)(ws[i].p[k] * times));
  }
  const tc_map *names = tc_census_names(w);
  for (uint32_t id = 0; id < tc_map_count(names); id++) {
    tc_str name = tc_map_key(names, id);
    if (listed(ws, nw, name))
      continue;
    const uint64_t *got = pairs_of(w, site, name);
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      if (got[k])
        fail_msg("site %u name '%.*s' should have no pairs, has %llu of kind %d", site,
                 (int)name.len, name.ptr, (unsigned long long)got[k], k);
  }
}

#define N_OF(a) (sizeof(a) / sizeof *(a))
#define RUN_AND_CHECK(f, evs, ws)                                                              \
  do {                                                                                         \
    run_trace((f)->w, 0, evs, N_OF(evs));                                                      \
    check_site((f)->w, 0, ws, N_OF(ws), 1);                                                    \
  } while (0)

static void test_nested_on_one_thread(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('B', "outer", 1), BE('B', "mid", 1), BE('B', "inner", 1),
                           BE('E', "inner", 1), BE('E', "mid", 1), BE('E', "outer", 1)};
  const want ws[] = {{"outer", {1}}, {"mid", {1}}, {"inner", {1}}};
  RUN_AND_CHECK(f, evs, ws);
}

/* Chrome often writes E records without a name: each closes its own
 * thread's innermost B. */
static void test_interleaved_threads(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('B', "a", 1), BE('B', "b", 2), BE('B', "c", 1), BE('B', "d", 2),
                           BE('E', "", 2),  BE('E', "", 1),  BE('B', "e", 2), BE('E', "", 1),
                           BE('E', "", 2),  BE('E', "", 2)};
  const want ws[] = {{"a", {1}}, {"b", {1}}, {"c", {1}}, {"d", {1}}, {"e", {1}}};
  RUN_AND_CHECK(f, evs, ws);
}

static void test_e_without_b(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('E', "orphan", 1), BE('B', "ok", 1), BE('E', "ok", 1),
                           BE('E', "orphan", 1)};
  const want ws[] = {{"orphan", {0, 2}}, {"ok", {1}}};
  RUN_AND_CHECK(f, evs, ws);
}

static void test_b_without_e(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('B', "open", 1), BE('B', "closed", 1), BE('E', "closed", 1),
                           BE('B', "open2", 2)};
  const want ws[] = {{"open", {0, 1}}, {"closed", {1}}, {"open2", {0, 1}}};
  RUN_AND_CHECK(f, evs, ws);
}

/* The E's own name gets nothing: the pair belongs to the B it closed. */
static void test_e_closes_b_of_other_name(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('B', "begun", 1), BE('E', "ended", 1)};
  const want ws[] = {{"begun", {1}}};
  RUN_AND_CHECK(f, evs, ws);
}

/* Same tid in another process is another thread. */
static void test_threads_told_apart_by_pid(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {ev('B', "p1", "x", "", 1, 7), ev('E', "p2end", "x", "", 2, 7)};
  const want ws[] = {{"p1", {0, 1}}, {"p2end", {0, 1}}};
  RUN_AND_CHECK(f, evs, ws);
}

static void test_flow_pairs(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {
      ID('s', "flow", "c", "1"),       ID('f', "flow", "c", "1"),       /* a pair */
      ID('s', "lonely", "c", "2"),                                      /* unpaired s */
      ID('s', "g", "c", "3"),          ID('f', "h", "c", "3"),          /* same id, names differ */
      ID('s', "catdiff", "c1", "4"),   ID('f', "catdiff", "c2", "4"),   /* same id, cats differ */
      ID('s', "twice", "c", "0x5"),    ID('s', "twice", "c", "0x5"),
      ID('f', "twice", "c", "0x5"),                                     /* 1 pair + 1 left */
      ID('s', "flow", "c", "6"),       ID('f', "flow", "c", "6"),       /* another pair */
  };
  const want ws[] = {
      {"flow", {0, 0, 2, 0}},    {"lonely", {0, 0, 0, 1}}, {"g", {0, 0, 0, 1}},
      {"h", {0, 0, 0, 1}},       {"catdiff", {0, 0, 0, 2}}, {"twice", {0, 0, 1, 1}},
  };
  RUN_AND_CHECK(f, evs, ws);
}

/* Nestable (b/e) and legacy (S/F) async spans pair within their own kind;
 * a flow record never pairs with an async one. */
static void test_async_pairs(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {
      ID('b', "nest", "c", "1"),  ID('e', "nest", "c", "1"),
      ID('S', "legacy", "c", "1"), ID('F', "legacy", "c", "1"),
      ID('b', "mixed", "c", "2"), ID('F', "mixed", "c", "2"),  /* b with F: no pair */
      ID('S', "open", "c", "3"),
      ID('e', "other", "c", "4"), ID('e', "other", "c", "5"),
      ID('s', "kinds", "c", "6"), ID('e', "kinds", "c", "6"),  /* flow start, async end */
      ID('b', "nest", "c", "7"),  ID('e', "nest", "c", "7"),
  };
  const want ws[] = {
      {"nest", {0, 0, 0, 0, 2, 0}},  {"legacy", {0, 0, 0, 0, 1, 0}},
      {"mixed", {0, 0, 0, 0, 0, 2}}, {"open", {0, 0, 0, 0, 0, 1}},
      {"other", {0, 0, 0, 0, 0, 2}}, {"kinds", {0, 0, 0, 1, 0, 1}},
  };
  RUN_AND_CHECK(f, evs, ws);
}

/* Only B/E, s/f, b/e and S/F take part. */
static void test_other_phases_ignored(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {ID('X', "slice", "c", "1"), ID('i', "instant", "c", "1"),
                           ID('M', "meta", "c", ""),   ID('t', "step", "c", "1"),
                           ID('n', "ainst", "c", "1"), ID('\0', "none", "c", ""),
                           BE('B', "x", 1),            BE('X', "x", 1),
                           BE('E', "x", 1)};
  const want ws[] = {{"x", {1}}};
  RUN_AND_CHECK(f, evs, ws);
}

/* Records with no name, cat or id ({NULL, 0} strings, as a zeroed tc_kevent
 * has) still pair, under the empty name. */
static void test_empty_fields(void **state) {
  fixture *f = *state;
  tc_kevent evs[3];
  memset(evs, 0, sizeof evs);
  evs[0].ph = 's';
  evs[1].ph = 'f';
  evs[2].ph = 'b';
  const want ws[] = {{"", {0, 0, 1, 0, 0, 1}}};
  RUN_AND_CHECK(f, evs, ws);
}

/* Pairs go to the site given to finish, and traces of a site add up. */
static void test_sites_and_sums(void **state) {
  fixture *f = *state;
  const tc_kevent evs[] = {BE('B', "a", 1), BE('E', "a", 1), ID('s', "fl", "c", "9"),
                           ID('f', "fl", "c", "9"), BE('B', "left", 3)};
  const want ws[] = {{"a", {1}}, {"fl", {0, 0, 1}}, {"left", {0, 1}}};
  run_trace(f->w, 2, evs, N_OF(evs));
  run_trace(f->w, 2, evs, N_OF(evs));
  run_trace(f->w, 2, evs, N_OF(evs));
  check_site(f->w, 2, ws, N_OF(ws), 3);
  assert_null(site_tables(f->w, 0));
  assert_null(site_tables(f->w, 1));
  assert_null(site_tables(f->w, NSITES));
}

/* Threads are keyed by the (pid, tid) pair itself: two threads whose mixed
 * hash would collide still have a B/E stack each. A string pid or tid
 * becomes a 63-bit hash in the parser, which is where such values come from. */
static void test_thread_key_collision(void **state) {
  fixture *f = *state;
  const int64_t k = (int64_t)0x9E3779B97F4A7C15ULL;
  const tc_kevent evs[] = {ev('B', "t0", "x", "", 0, k), ev('E', "t1end", "x", "", 1, 0)};
  run_trace(f->w, 1, evs, N_OF(evs));
  /* pairs_of's answer lives until its next call: read each before the next. */
  const uint64_t *t0 = pairs_of(f->w, 1, tc_str_c("t0"));
  assert_int_equal(t0[TC_PAIR_BEGIN_END], 0);
  assert_int_equal(t0[TC_PAIR_BE_UNMATCHED], 1);
  const uint64_t *t1 = pairs_of(f->w, 1, tc_str_c("t1end"));
  assert_int_equal(t1[TC_PAIR_BE_UNMATCHED], 1);
}

/* Many flows with unique ids: counts stay exact across the compactions of
 * the key table (balanced keys are dropped as the trace goes). */
static void test_many_unique_flows(void **state) {
  fixture *f = *state;
  enum { N = 20000 };
  tc_pairing *p = tc_pairing_create();
  assert_non_null(p);
  char id[32];
  for (int i = 0; i < N; i++) {
    snprintf(id, sizeof id, "0x%x", i);
    tc_kevent s = ev('s', "flow", "c", id, 1, 1), e = ev('f', "flow", "c", id, 1, 2);
    assert_int_equal(tc_pairing_feed(p, &s), TC_OK);
    /* Every tenth flow never ends; the others end at once. */
    if (i % 10)
      assert_int_equal(tc_pairing_feed(p, &e), TC_OK);
  }
  /* An end that comes before its start still pairs. */
  tc_kevent late_end = ev('f', "flow", "c", "late", 1, 1), late_start = ev('s', "flow", "c", "late", 1, 1);
  assert_int_equal(tc_pairing_feed(p, &late_end), TC_OK);
  assert_int_equal(tc_pairing_feed(p, &late_start), TC_OK);
  assert_int_equal(tc_pairing_finish(p, f->w, 1, 0), TC_OK);
  tc_pairing_free(p);
  const uint64_t *got = pairs_of(f->w, 1, tc_str_c("flow"));
  assert_int_equal(got[TC_PAIR_FLOW], N - N / 10 + 1);
  assert_int_equal(got[TC_PAIR_FLOW_UNPAIRED], N / 10);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_nested_on_one_thread),  T(test_interleaved_threads),
      T(test_e_without_b),           T(test_b_without_e),
      T(test_e_closes_b_of_other_name), T(test_threads_told_apart_by_pid),
      T(test_flow_pairs),            T(test_many_unique_flows),            T(test_async_pairs),
      T(test_other_phases_ignored),  T(test_empty_fields),
      T(test_sites_and_sums),
      T(test_thread_key_collision),
  };
#undef T
  return cmocka_run_group_tests_name("pairing", tests, NULL, NULL);
}
