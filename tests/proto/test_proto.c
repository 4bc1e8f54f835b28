/* The Perfetto reader against traces made byte by byte here
 * (tests/common/pb_build.h, field numbers from Perfetto's protos): every
 * event it writes is compared as text, every problem by code and byte
 * offset, and every trace is also fed one byte at a time, which must give
 * the same events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_build.h"
#include "proto/tc_proto.h"
#include "proto/tc_proto_impl.h" /* the caps */

/* ---- what the reader handed out ---- */

typedef struct {
  char **ev;
  uint64_t *ev_off;
  size_t nev, cap;
  tc_err skip_code[64];
  uint64_t skip_off[64];
  size_t nskip;
  tc_err feed_rc, finish_rc;
  char *meta;
  int cut, broken;
  uint64_t broken_at;
} got;

static tc_err on_event(void *ctx, const char *json, size_t len, uint64_t offset) {
  got *g = ctx;
  if (g->nev == g->cap) { /* doubling: the flow cap's test hands out 2^17 events */
    g->cap = g->cap ? 2 * g->cap : 64;
    g->ev = realloc(g->ev, g->cap * sizeof *g->ev);
    g->ev_off = realloc(g->ev_off, g->cap * sizeof *g->ev_off);
    assert_non_null(g->ev);
    assert_non_null(g->ev_off);
  }
  g->ev[g->nev] = strndup(json, len);
  g->ev_off[g->nev++] = offset;
  return TC_OK;
}

static void on_skip(void *ctx, uint64_t offset, tc_err code) {
  got *g = ctx;
  assert_true(g->nskip < 64);
  g->skip_code[g->nskip] = code;
  g->skip_off[g->nskip++] = offset;
}

/* Feeds T in pieces of STEP bytes (0: whole). */
static void run(got *g, const pb *t, size_t step) {
  memset(g, 0, sizeof *g);
  tc_proto_sink sink = {on_event, on_skip, g};
  tc_proto *r = tc_proto_create(&sink);
  assert_non_null(r);
  size_t done = 0;
  while (done < t->len && !g->feed_rc) {
    size_t n = step && step < t->len - done ? step : t->len - done;
    /* A copy of exactly the piece, so ASan sees a read past it. */
    unsigned char *piece = malloc(n);
    memcpy(piece, t->p + done, n);
    size_t pos = 0;
    while (pos < n && !g->feed_rc)
      g->feed_rc = tc_proto_feed(r, piece, n, &pos);
    free(piece);
    done += n;
  }
  g->finish_rc = tc_proto_finish(r);
  int cut;
  tc_str m = tc_proto_metadata(r, &cut);
  g->meta = strndup(m.ptr ? m.ptr : "", m.len);
  g->cut = tc_proto_cut(r);
  tc_err code;
  g->broken = tc_proto_broken(r, &g->broken_at, &code);
  if (!g->feed_rc)
    assert_int_equal(tc_proto_offset(r), done);
  tc_proto_free(r);
}

static void got_free(got *g) {
  for (size_t i = 0; i < g->nev; i++)
    free(g->ev[i]);
  free(g->ev);
  free(g->ev_off);
  free(g->meta);
}

/* Runs T whole and byte by byte; both must give the same; the whole run
 * is kept in G. */
static void run_both(got *g, const pb *t) {
  got b;
  run(&b, t, 1);
  run(g, t, 0);
  assert_int_equal(b.nev, g->nev);
  for (size_t i = 0; i < g->nev; i++) {
    assert_string_equal(b.ev[i], g->ev[i]);
    assert_int_equal(b.ev_off[i], g->ev_off[i]);
  }
  assert_int_equal(b.nskip, g->nskip);
  for (size_t i = 0; i < g->nskip; i++) {
    assert_int_equal(b.skip_code[i], g->skip_code[i]);
    assert_int_equal(b.skip_off[i], g->skip_off[i]);
  }
  assert_string_equal(b.meta, g->meta);
  got_free(&b);
}

/* ---- making traces ---- */

/* Field numbers, from Perfetto's protos/perfetto/trace/. */
enum {
  P_TIMESTAMP = 8, P_CLOCK_ID = 58, P_TRACK_EVENT = 11, P_TRACK_DESCRIPTOR = 60,
  P_CLOCK_SNAPSHOT = 6, P_CHROME_EVENTS = 5, P_SEQ_ID = 10, P_INTERNED = 12, P_SEQ_FLAGS = 13,
  P_DEFAULTS = 59,
  E_CATEGORY_IIDS = 3, E_CATEGORIES = 22, E_NAME_IID = 10, E_NAME = 23, E_TYPE = 9,
  E_TRACK_UUID = 11, E_COUNTER_VALUE = 30, E_FLOW_IDS = 47, E_TERMINATING_FLOW_IDS = 48,
  E_DEBUG = 4, E_TASK = 5, E_LEGACY = 6,
  I_CATEGORIES = 1, I_NAMES = 2, I_ANNOT_NAMES = 3, I_SOURCE_LOCATIONS = 4, I_STRING_VALUES = 29,
  D_NAME_IID = 1, D_NAME = 10, D_BOOL = 2, D_UINT = 3, D_INT = 4, D_DOUBLE = 5, D_STRING = 6,
  D_POINTER = 7, D_NESTED = 8, D_LEGACY_JSON = 9, D_DICT = 11, D_ARRAY = 12, D_STRING_IID = 17,
  T_UUID = 1, T_PARENT = 5, T_NAME = 2, T_PROCESS = 3, T_THREAD = 4, T_COUNTER = 8,
};
enum { BEGIN = 1, END = 2, INSTANT = 3, COUNTER = 4 };

static void packet(pb *trace, pb *p) { pb_msg(trace, 1, p); }

static void interned(pb *p, unsigned kind, uint64_t iid, const char *name) {
  pb d = {0}, e = {0};
  pb_u(&e, 1, iid);
  pb_str(&e, 2, name);
  pb_msg(&d, kind, &e);
  pb_msg(p, P_INTERNED, &d);
}

static void process_track(pb *trace, uint64_t uuid, int pid, const char *name) {
  pb p = {0}, t = {0}, d = {0};
  pb_u(&t, T_UUID, uuid);
  pb_i(&d, 1, pid);
  if (name)
    pb_str(&d, 6, name);
  pb_msg(&t, T_PROCESS, &d);
  pb_msg(&p, P_TRACK_DESCRIPTOR, &t);
  packet(trace, &p);
}

static void thread_track(pb *trace, uint64_t uuid, uint64_t parent, int pid, int tid,
                         const char *name) {
  pb p = {0}, t = {0}, d = {0};
  pb_u(&t, T_UUID, uuid);
  pb_u(&t, T_PARENT, parent);
  pb_i(&d, 1, pid);
  pb_i(&d, 2, tid);
  if (name)
    pb_str(&d, 5, name);
  pb_msg(&t, T_THREAD, &d);
  pb_msg(&p, P_TRACK_DESCRIPTOR, &t);
  packet(trace, &p);
}

static void child_track(pb *trace, uint64_t uuid, uint64_t parent) {
  pb p = {0}, t = {0};
  pb_u(&t, T_UUID, uuid);
  pb_u(&t, T_PARENT, parent);
  pb_msg(&p, P_TRACK_DESCRIPTOR, &t);
  packet(trace, &p);
}

/* A TrackEvent packet on sequence 1 at TS ns; E is its event (consumed). */
static void event(pb *trace, uint64_t ts, pb *e) {
  pb p = {0};
  pb_u(&p, P_TIMESTAMP, ts);
  pb_u(&p, P_SEQ_ID, 1);
  pb_msg(&p, P_TRACK_EVENT, e);
  packet(trace, &p);
}

static void simple(pb *trace, uint64_t ts, int type, uint64_t track, const char *name) {
  pb e = {0};
  pb_u(&e, E_TYPE, (uint64_t)type);
  pb_u(&e, E_TRACK_UUID, track);
  if (name)
    pb_str(&e, E_NAME, name);
  event(trace, ts, &e);
}

/* A process 7 ("Renderer") with thread 8 ("CrRendererMain") on uuid 2. */
static void renderer(pb *t) {
  process_track(t, 1, 7, "Renderer");
  thread_track(t, 2, 1, 7, 8, "CrRendererMain");
}

/* ---- tests ---- */

static void test_names_and_slices(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  /* Interned name and categories, on sequence 1, with the reset flag. */
  pb p = {0}, e = {0};
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&p, P_SEQ_FLAGS, 1);
  interned(&p, I_NAMES, 5, "ParseHTML");
  interned(&p, I_CATEGORIES, 1, "devtools.timeline");
  interned(&p, I_CATEGORIES, 2, "blink");
  pb_u(&p, P_TIMESTAMP, 1000500);
  pb_u(&e, E_TYPE, BEGIN);
  pb_u(&e, E_TRACK_UUID, 2);
  pb_u(&e, E_NAME_IID, 5);
  pb_u(&e, E_CATEGORY_IIDS, 1);
  pb_u(&e, E_CATEGORY_IIDS, 2);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  simple(&t, 1200000, BEGIN, 2, "inner");
  simple(&t, 1200000, END, 2, NULL);  /* 0 ns: an instant */
  simple(&t, 1300000, INSTANT, 2, "mark");
  simple(&t, 4000999, END, 2, NULL);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 5);
  assert_string_equal(g.ev[0], "{\"name\":\"process_name\",\"cat\":\"__metadata\",\"ph\":\"M\","
                               "\"ts\":0,\"pid\":7,\"tid\":0,\"args\":{\"name\":\"Renderer\"}}");
  assert_string_equal(g.ev[1], "{\"name\":\"thread_name\",\"cat\":\"__metadata\",\"ph\":\"M\","
                               "\"ts\":0,\"pid\":7,\"tid\":8,\"args\":{\"name\":\"CrRendererMain\"}}");
  assert_string_equal(g.ev[2], "{\"name\":\"inner\",\"cat\":\"\",\"ph\":\"I\",\"ts\":1200,"
                               "\"pid\":7,\"tid\":8,\"s\":\"t\",\"args\":{}}");
  assert_string_equal(g.ev[3], "{\"name\":\"mark\",\"cat\":\"\",\"ph\":\"I\",\"ts\":1300,"
                               "\"pid\":7,\"tid\":8,\"s\":\"t\",\"args\":{}}");
  /* 1000.5 us to 4000.999 us: ts 1000, dur 3000 (3000499 ns). */
  assert_string_equal(g.ev[4], "{\"name\":\"ParseHTML\",\"cat\":\"devtools.timeline,blink\","
                               "\"ph\":\"X\",\"ts\":1000,\"dur\":3000,\"pid\":7,\"tid\":8,"
                               "\"args\":{}}");
  got_free(&g);
  pb_free(&t);
}

static void test_scopes_async_and_open(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  child_track(&t, 9, 1);
  simple(&t, 5000, INSTANT, 1, "proc");
  simple(&t, 6000, INSTANT, 0, "global");
  simple(&t, 7000, BEGIN, 9, "async");
  simple(&t, 9000, END, 9, NULL);
  simple(&t, 9500, INSTANT, 9, "step");
  simple(&t, 10000, BEGIN, 2, "never ends");
  simple(&t, 11000, BEGIN, 9, "async open");
  simple(&t, 12000, END, 3, NULL); /* no open slice on track 3: nothing */
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 9);
  assert_string_equal(g.ev[2], "{\"name\":\"proc\",\"cat\":\"\",\"ph\":\"I\",\"ts\":5,\"pid\":7,"
                               "\"tid\":7,\"s\":\"p\",\"args\":{}}");
  assert_string_equal(g.ev[3], "{\"name\":\"global\",\"cat\":\"\",\"ph\":\"I\",\"ts\":6,"
                               "\"s\":\"g\",\"args\":{}}");
  assert_string_equal(g.ev[4], "{\"name\":\"async\",\"cat\":\"\",\"ph\":\"b\",\"ts\":7,\"pid\":7,"
                               "\"tid\":7,\"id2\":{\"local\":\"0x9\"},\"args\":{}}");
  assert_string_equal(g.ev[5], "{\"name\":\"async\",\"cat\":\"\",\"ph\":\"e\",\"ts\":9,\"pid\":7,"
                               "\"tid\":7,\"id2\":{\"local\":\"0x9\"},\"args\":{}}");
  assert_string_equal(g.ev[6], "{\"name\":\"step\",\"cat\":\"\",\"ph\":\"n\",\"ts\":9,\"pid\":7,"
                               "\"tid\":7,\"id2\":{\"local\":\"0x9\"},\"args\":{}}");
  /* Still open at the end: B on the thread, b on the async track (tracks in
   * the order they were first seen). */
  assert_string_equal(g.ev[7], "{\"name\":\"never ends\",\"cat\":\"\",\"ph\":\"B\",\"ts\":10,"
                               "\"pid\":7,\"tid\":8,\"args\":{}}");
  assert_string_equal(g.ev[8], "{\"name\":\"async open\",\"cat\":\"\",\"ph\":\"b\",\"ts\":11,"
                               "\"pid\":7,\"tid\":7,\"id2\":{\"local\":\"0x9\"},\"args\":{}}");
  got_free(&g);
  pb_free(&t);
}

static void annotation(pb *e, pb *a) { pb_msg(e, E_DEBUG, a); }

static void test_debug_annotations(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  pb p = {0}, e = {0}, a = {0}, x = {0}, y = {0}, n = {0}, m = {0};
  pb_u(&p, P_SEQ_ID, 1);
  interned(&p, I_ANNOT_NAMES, 3, "data");
  interned(&p, I_STRING_VALUES, 4, "interned \"value\"");
  pb_u(&p, P_TIMESTAMP, 2000);
  pb_u(&e, E_TYPE, INSTANT);
  pb_u(&e, E_TRACK_UUID, 2);
  pb_str(&e, E_NAME, "ev");
  /* data: {frame: "F", list: [1, true], empty: (no value, left out)} */
  pb_u(&a, D_NAME_IID, 3);
  pb_str(&x, D_NAME, "frame");
  pb_str(&x, D_STRING, "F");
  pb_msg(&a, D_DICT, &x);
  pb_str(&x, D_NAME, "list");
  pb_i(&y, D_INT, 1);
  pb_msg(&x, D_ARRAY, &y);
  pb_u(&y, D_BOOL, 1);
  pb_msg(&x, D_ARRAY, &y);
  pb_msg(&a, D_DICT, &x);
  pb_str(&x, D_NAME, "empty");
  pb_msg(&a, D_DICT, &x);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "u");
  pb_u(&a, D_UINT, UINT64_MAX);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "neg");
  pb_i(&a, D_INT, INT64_MIN);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "d");
  pb_double(&a, D_DOUBLE, 0.5);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "nan");
  pb_double(&a, D_DOUBLE, NAN);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "ptr");
  pb_u(&a, D_POINTER, 0xdeadbeef);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "s");
  pb_u(&a, D_STRING_IID, 4);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "json");
  pb_str(&a, D_LEGACY_JSON, "{\"a\": [1, 2]}");
  annotation(&e, &a);
  pb_str(&a, D_NAME, "badjson");
  pb_str(&a, D_LEGACY_JSON, "{\"a\": ");
  annotation(&e, &a);
  /* NestedValue: {"k": [7]} */
  pb_str(&a, D_NAME, "nested");
  pb_u(&n, 1, 1);
  pb_str(&n, 2, "k");
  pb_u(&m, 1, 2);
  pb_i(&y, 5, 7);
  pb_msg(&m, 4, &y);
  pb_msg(&n, 3, &m);
  pb_msg(&a, D_NESTED, &n);
  annotation(&e, &a);
  pb_str(&a, D_NAME, "bytes\x01\xff");
  pb_str(&a, D_STRING, "tab\there");
  annotation(&e, &a);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 3);
  assert_string_equal(
      g.ev[2],
      "{\"name\":\"ev\",\"cat\":\"\",\"ph\":\"I\",\"ts\":2,\"pid\":7,\"tid\":8,\"s\":\"t\","
      "\"args\":{\"data\":{\"frame\":\"F\",\"list\":[1,true]},\"u\":18446744073709551615,"
      "\"neg\":-9223372036854775808,\"d\":0.5,\"nan\":\"NaN\",\"ptr\":\"0xdeadbeef\","
      "\"s\":\"interned \\\"value\\\"\",\"json\":{\"a\": [1, 2]},\"badjson\":\"{\\\"a\\\": \","
      "\"nested\":{\"k\":[7]},\"bytes\\u0001\xEF\xBF\xBD\":\"tab\\u0009here\"}}");
  got_free(&g);
  pb_free(&t);
}

static void test_task_source_location(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  pb p = {0}, e = {0}, d = {0}, l = {0}, task = {0};
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&l, 1, 6);
  pb_str(&l, 2, "base/x.cc");
  pb_str(&l, 3, "Run");
  pb_u(&l, 4, 42);
  pb_msg(&d, I_SOURCE_LOCATIONS, &l);
  pb_msg(&p, P_INTERNED, &d);
  pb_u(&p, P_TIMESTAMP, 3000);
  pb_u(&e, E_TYPE, INSTANT);
  pb_u(&e, E_TRACK_UUID, 2);
  pb_str(&e, E_NAME, "RunTask");
  pb_u(&task, 1, 6);
  pb_msg(&e, E_TASK, &task);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 3);
  assert_string_equal(g.ev[2], "{\"name\":\"RunTask\",\"cat\":\"\",\"ph\":\"I\",\"ts\":3,\"pid\":7,"
                               "\"tid\":8,\"s\":\"t\",\"args\":{\"src_file\":\"base/x.cc\","
                               "\"src_func\":\"Run\",\"src_line\":42}}");
  got_free(&g);
  pb_free(&t);
}

static void test_flows(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  thread_track(&t, 3, 1, 7, 9, NULL);
  const char *names[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; i++) {
    pb e = {0};
    pb_u(&e, E_TYPE, INSTANT);
    pb_u(&e, E_TRACK_UUID, i == 1 ? 3 : 2);
    pb_str(&e, E_NAME, names[i]);
    pb_fixed64(&e, i == 2 ? E_TERMINATING_FLOW_IDS : E_FLOW_IDS, 0xabcdef0123456789ull);
    event(&t, 1000 * (uint64_t)(i + 1), &e);
  }
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 2 + 3 + 4);
  /* A, then B and the flow A->B (s at A, f at B, named after A), then C
   * and B->C. */
  assert_string_equal(g.ev[4], "{\"name\":\"A\",\"cat\":\"\",\"ph\":\"s\",\"ts\":1,\"pid\":7,"
                               "\"tid\":8,\"id\":0,\"args\":{}}");
  assert_string_equal(g.ev[5], "{\"name\":\"A\",\"cat\":\"\",\"ph\":\"f\",\"ts\":2,\"pid\":7,"
                               "\"tid\":9,\"bp\":\"e\",\"id\":0,\"args\":{}}");
  assert_string_equal(g.ev[7], "{\"name\":\"B\",\"cat\":\"\",\"ph\":\"s\",\"ts\":2,\"pid\":7,"
                               "\"tid\":9,\"id\":1,\"args\":{}}");
  assert_string_equal(g.ev[8], "{\"name\":\"B\",\"cat\":\"\",\"ph\":\"f\",\"ts\":3,\"pid\":7,"
                               "\"tid\":8,\"bp\":\"e\",\"id\":1,\"args\":{}}");
  got_free(&g);
  pb_free(&t);
}

static void test_clocks(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  /* The trace clock is MONOTONIC (3); BOOTTIME (6) runs 1 s ahead of it. */
  pb p = {0}, s = {0}, c = {0};
  pb_u(&c, 1, 3);
  pb_u(&c, 2, 5000000000ull);
  pb_msg(&s, 1, &c);
  pb_u(&c, 1, 6);
  pb_u(&c, 2, 6000000000ull);
  pb_msg(&s, 1, &c);
  pb_u(&s, 2, 3);
  pb_msg(&p, P_CLOCK_SNAPSHOT, &s);
  packet(&t, &p);
  /* Sequence 1: clock 64, incremental, in us, 10 us at BOOTTIME 6.5 s. */
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&c, 1, 64);
  pb_u(&c, 2, 10);
  pb_u(&c, 3, 1);
  pb_u(&c, 4, 1000);
  pb_msg(&s, 1, &c);
  pb_u(&c, 1, 6);
  pb_u(&c, 2, 6500000000ull);
  pb_msg(&s, 1, &c);
  pb_msg(&p, P_CLOCK_SNAPSHOT, &s);
  pb d = {0}, ted = {0};
  pb_u(&d, P_CLOCK_ID, 64);
  pb_u(&ted, 11, 2);
  pb_msg(&d, 11, &ted);
  pb_msg(&p, P_DEFAULTS, &d);
  packet(&t, &p);
  /* Deltas 5 and 7 us: 6.500005 s and 6.500012 s BOOTTIME = 5.500005 s,
   * 5.500012 s MONOTONIC. A BOOTTIME timestamp with no track: global. */
  for (int i = 0; i < 2; i++) {
    pb e = {0};
    pb_u(&p, P_SEQ_ID, 1);
    pb_u(&p, P_TIMESTAMP, i ? 7 : 5);
    pb_u(&e, E_TYPE, INSTANT);
    pb_str(&e, E_NAME, i ? "second" : "first");
    pb_msg(&p, P_TRACK_EVENT, &e);
    packet(&t, &p);
  }
  pb e = {0};
  pb_u(&p, P_SEQ_ID, 2);
  pb_u(&p, P_TIMESTAMP, 7000000000ull);
  pb_u(&e, E_TYPE, INSTANT);
  pb_str(&e, E_NAME, "boottime");
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  /* Clock 65 was never described: named, left out. */
  size_t at = t.len;
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&p, P_TIMESTAMP, 1);
  pb_u(&p, P_CLOCK_ID, 65);
  pb_u(&e, E_TYPE, INSTANT);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 5);
  assert_non_null(strstr(g.ev[2], "\"name\":\"first\",\"cat\":\"\",\"ph\":\"I\",\"ts\":5500005,"));
  assert_non_null(strstr(g.ev[3], "\"name\":\"second\",\"cat\":\"\",\"ph\":\"I\",\"ts\":5500012,"));
  assert_string_equal(g.ev[4], "{\"name\":\"boottime\",\"cat\":\"\",\"ph\":\"I\",\"ts\":6000000,"
                               "\"s\":\"g\",\"args\":{}}");
  assert_int_equal(g.nskip, 1);
  assert_int_equal(g.skip_code[0], TC_E_PB_CLOCK);
  assert_int_equal(g.skip_off[0], at);
  got_free(&g);
  pb_free(&t);
}

static void test_incremental_state_cleared(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  pb p = {0}, e = {0};
  pb_u(&p, P_SEQ_ID, 1);
  interned(&p, I_NAMES, 1, "old");
  packet(&t, &p);
  /* Cleared: iid 1 is gone until this same packet defines it again. */
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&p, P_SEQ_FLAGS, 1);
  interned(&p, I_NAMES, 2, "new");
  pb_u(&p, P_TIMESTAMP, 1000);
  pb_u(&e, E_TYPE, INSTANT);
  pb_u(&e, E_NAME_IID, 2);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  size_t at = t.len;
  pb_u(&p, P_SEQ_ID, 1);
  pb_u(&p, P_TIMESTAMP, 2000);
  pb_u(&e, E_TYPE, INSTANT);
  pb_u(&e, E_NAME_IID, 1);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  /* Sequence 2 never had iid 2. */
  size_t at2 = t.len;
  pb_u(&p, P_SEQ_ID, 2);
  pb_u(&p, P_TIMESTAMP, 3000);
  pb_u(&e, E_TYPE, INSTANT);
  pb_u(&e, E_NAME_IID, 2);
  pb_msg(&p, P_TRACK_EVENT, &e);
  packet(&t, &p);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 3);
  assert_non_null(strstr(g.ev[2], "\"name\":\"new\""));
  assert_int_equal(g.nskip, 2);
  assert_int_equal(g.skip_code[0], TC_E_PB_INTERNED);
  assert_int_equal(g.skip_off[0], at);
  assert_int_equal(g.skip_code[1], TC_E_PB_INTERNED);
  assert_int_equal(g.skip_off[1], at2);
  got_free(&g);
  pb_free(&t);
}

static void test_legacy_counter_metadata(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  pb e = {0}, lg = {0};
  pb_u(&e, E_TRACK_UUID, 2);
  pb_str(&e, E_NAME, "navigationStart");
  pb_str(&e, E_CATEGORIES, "blink.user_timing");
  pb_u(&lg, 2, 'R');
  pb_u(&lg, 6, 255);
  pb_msg(&e, E_LEGACY, &lg);
  event(&t, 4000, &e);
  pb_u(&e, E_TRACK_UUID, 2);
  pb_str(&e, E_NAME, "complete");
  pb_u(&lg, 2, 'X');
  pb_i(&lg, 3, 25);
  pb_msg(&e, E_LEGACY, &lg);
  event(&t, 5000, &e);
  /* A counter track under the process, and one of thread time (not an
   * event). */
  pb p = {0}, d = {0}, c = {0};
  pb_u(&d, T_UUID, 20);
  pb_u(&d, T_PARENT, 1);
  pb_str(&d, T_NAME, "JSHeap");
  pb_msg(&d, T_COUNTER, &c);
  pb_msg(&p, P_TRACK_DESCRIPTOR, &d);
  packet(&t, &p);
  pb_u(&d, T_UUID, 21);
  pb_u(&d, T_PARENT, 2);
  pb_u(&c, 1, 1);
  pb_msg(&d, T_COUNTER, &c);
  pb_msg(&p, P_TRACK_DESCRIPTOR, &d);
  packet(&t, &p);
  for (uint64_t k = 20; k <= 21; k++) {
    pb_u(&e, E_TYPE, COUNTER);
    pb_u(&e, E_TRACK_UUID, k);
    pb_i(&e, E_COUNTER_VALUE, -3);
    event(&t, 6000, &e);
  }
  pb b = {0}, m = {0};
  pb_str(&m, 1, "product-version");
  pb_str(&m, 2, "Chrome/156.0.8078.108");
  pb_msg(&b, 2, &m);
  pb_str(&m, 1, "cpu-num-cores");
  pb_i(&m, 4, 2);
  pb_msg(&b, 2, &m);
  pb_msg(&p, P_CHROME_EVENTS, &b);
  packet(&t, &p);
  /* ChromeMetadataPacket (51): the version string, field 6. */
  pb_str(&m, 6, "156.0.8078.114-64-devel");
  pb_msg(&p, 51, &m);
  packet(&t, &p);
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 5);
  assert_string_equal(g.ev[2], "{\"name\":\"navigationStart\",\"cat\":\"blink.user_timing\","
                               "\"id\":\"0xff\",\"ph\":\"R\",\"ts\":4,\"pid\":7,\"tid\":8,"
                               "\"args\":{}}");
  assert_string_equal(g.ev[3], "{\"name\":\"complete\",\"cat\":\"\",\"ph\":\"X\",\"ts\":5,"
                               "\"dur\":25,\"pid\":7,\"tid\":8,\"args\":{}}");
  assert_string_equal(g.ev[4], "{\"name\":\"JSHeap\",\"cat\":\"\",\"ph\":\"C\",\"ts\":6,\"pid\":7,"
                               "\"tid\":7,\"args\":{\"value\":-3}}");
  /* The bundle named the version first: the packet's is not repeated. */
  assert_string_equal(g.meta, "{\"product-version\":\"Chrome/156.0.8078.108\","
                              "\"cpu-num-cores\":2}");
  got_free(&g);
  pb_free(&t);
}

/* ---- broken traces: each problem named with its offset, the rest read ---- */

static void good_instant(pb *t, const char *name) { simple(t, 1000, INSTANT, 2, name); }

static void test_bad_packets_are_skipped(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  good_instant(&t, "before");
  size_t inner[4];
  /* A bad varint inside a packet: an 11-byte timestamp, after its tag. */
  inner[0] = t.len + 3;
  pb_raw(&t, "\x0a\x0c\x40\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 14);
  /* A wrong wire type: timestamp (8) as length-delimited. */
  inner[1] = t.len + 2;
  pb_raw(&t, "\x0a\x03\x42\x01\x00", 5);
  /* A length running past the packet: track_event of 9 bytes, 1 there;
   * named at the field's tag. */
  inner[2] = t.len + 2;
  pb_raw(&t, "\x0a\x03\x5a\x09\x00", 5);
  /* A group tag. */
  inner[3] = t.len + 2;
  pb_raw(&t, "\x0a\x01\x0b", 3);
  /* Wrong wire type deeper: TrackEvent.type (9) as fixed32, at byte 2 of
   * the event, byte 4 of the packet. */
  size_t deep = t.len + 2 + 2;
  pb_raw(&t, "\x0a\x07\x5a\x05\x4d\x01\x00\x00\x00", 9);
  good_instant(&t, "after");
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 4);
  assert_non_null(strstr(g.ev[2], "\"before\""));
  assert_non_null(strstr(g.ev[3], "\"after\""));
  static const tc_err want[] = {TC_E_PB_VARINT, TC_E_PB_WIRE_TYPE, TC_E_PB_LENGTH,
                                TC_E_PB_WIRE_TYPE, TC_E_PB_WIRE_TYPE};
  assert_int_equal(g.nskip, 5);
  for (size_t i = 0; i < 5; i++)
    assert_int_equal(g.skip_code[i], want[i]);
  for (size_t i = 0; i < 4; i++)
    assert_int_equal(g.skip_off[i], inner[i]);
  assert_int_equal(g.skip_off[4], deep);
  assert_false(g.broken);
  got_free(&g);
  pb_free(&t);
}

static void test_broken_framing(void **state) {
  (void)state;
  static const struct {
    const char *tail;
    size_t len;
    tc_err code;
  } cases[] = {
      {"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, TC_E_PB_VARINT}, /* tag */
      {"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12, TC_E_PB_VARINT}, /* length */
      {"\x08\x01", 2, TC_E_PB_WIRE_TYPE},  /* field 1 as a varint */
      {"\x0b", 1, TC_E_PB_WIRE_TYPE},      /* a group */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    pb t = {0};
    renderer(&t);
    good_instant(&t, "kept");
    size_t at = t.len;
    pb_raw(&t, cases[k].tail, cases[k].len);
    good_instant(&t, "never read");
    got g;
    run_both(&g, &t);
    assert_int_equal(g.feed_rc, cases[k].code);
    assert_true(g.broken);
    assert_int_equal(g.broken_at, at);
    assert_int_equal(g.nev, 3);
    assert_non_null(strstr(g.ev[2], "\"kept\""));
    assert_int_equal(g.nskip, 1);
    assert_int_equal(g.skip_code[0], cases[k].code);
    assert_int_equal(g.skip_off[0], at);
    got_free(&g);
    pb_free(&t);
  }
}

static void test_unknown_top_level_fields_skipped(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  pb_u(&t, 2, 300);         /* varint */
  pb_str(&t, 3, "skipped"); /* length-delimited */
  pb_fixed64(&t, 4, 1);     /* fixed64 */
  pb_raw(&t, "\x2d\x01\x02\x03\x04", 5); /* field 5, fixed32 */
  good_instant(&t, "read");
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 3);
  assert_non_null(strstr(g.ev[2], "\"read\""));
  got_free(&g);
  pb_free(&t);
}

static void test_cut_and_too_big(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  good_instant(&t, "kept");
  size_t at = t.len;
  pb e = {0};
  pb_u(&e, E_TYPE, INSTANT);
  pb_str(&e, E_NAME, "cut");
  event(&t, 1, &e);
  t.len -= 3;
  got g;
  run_both(&g, &t);
  assert_int_equal(g.nev, 3);
  assert_true(g.cut);
  assert_int_equal(g.nskip, 1);
  assert_int_equal(g.skip_code[0], TC_E_PB_TRUNCATED);
  assert_int_equal(g.skip_off[0], at);
  got_free(&g);
  /* A packet declared over the limit: named, its bytes passed over. */
  t.len = at;
  pb_tag(&t, 1, 2);
  pb_varint(&t, (uint64_t)TC_PROTO_PACKET_MAX + 1);
  got h;
  run(&h, &t, 0);
  assert_int_equal(h.nev, 3);
  assert_int_equal(h.nskip, 1);
  assert_int_equal(h.skip_code[0], TC_E_PB_TOO_BIG);
  assert_int_equal(h.skip_off[0], at);
  got_free(&h);
  /* A cut at a packet boundary is no cut. */
  t.len = at;
  run(&h, &t, 0);
  assert_false(h.cut);
  assert_int_equal(h.nskip, 0);
  got_free(&h);
  pb_free(&t);
}

/* An annotation nested N levels deep in dict_entries. */
static void nested_dicts(pb *a, int n) {
  if (n == 0) {
    pb_i(a, D_INT, 1);
    return;
  }
  pb x = {0};
  pb_str(&x, D_NAME, "k");
  nested_dicts(&x, n - 1);
  pb_msg(a, D_DICT, &x);
}

static void test_annotation_depth(void **state) {
  (void)state;
  for (int deep = 0; deep < 2; deep++) {
    pb t = {0};
    renderer(&t);
    size_t at = t.len;
    pb e = {0}, a = {0};
    pb_u(&e, E_TYPE, INSTANT);
    pb_u(&e, E_TRACK_UUID, 2);
    pb_str(&a, D_NAME, "a");
    nested_dicts(&a, deep ? 64 : 63);
    annotation(&e, &a);
    event(&t, 1000, &e);
    got g;
    run(&g, &t, 0);
    assert_int_equal(g.nev, deep ? 2 : 3);
    assert_int_equal(g.nskip, deep ? 1 : 0);
    if (deep) {
      assert_int_equal(g.skip_code[0], TC_E_PB_DEPTH);
      assert_int_equal(g.skip_off[0], at);
    }
    got_free(&g);
    pb_free(&t);
  }
}

/* Past TC_PROTO_MAX_DEPTH open slices on a track, a begin goes out at once
 * as B and its end as E; the others still make X. */
static void test_depth_cap(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  for (unsigned k = 0; k <= TC_PROTO_MAX_DEPTH; k++)
    simple(&t, 1000 * (uint64_t)(k + 1), BEGIN, 2, k == TC_PROTO_MAX_DEPTH ? "deepest" : "s");
  for (unsigned k = 0; k <= TC_PROTO_MAX_DEPTH; k++)
    simple(&t, 5000000 + 1000 * (uint64_t)k, END, 2, NULL);
  got g;
  run(&g, &t, 0);
  assert_int_equal(g.nskip, 0);
  assert_int_equal(g.nev, 2 + 2 + TC_PROTO_MAX_DEPTH);
  assert_string_equal(g.ev[2], "{\"name\":\"deepest\",\"cat\":\"\",\"ph\":\"B\",\"ts\":1025,"
                               "\"pid\":7,\"tid\":8,\"args\":{}}");
  assert_string_equal(g.ev[3], "{\"name\":\"deepest\",\"cat\":\"\",\"ph\":\"E\",\"ts\":5000,"
                               "\"pid\":7,\"tid\":8,\"args\":{}}");
  for (size_t i = 4; i < g.nev; i++)
    assert_non_null(strstr(g.ev[i], "\"ph\":\"X\""));
  got_free(&g);
  pb_free(&t);
}

/* Past TC_PROTO_MAX_FLOWS pending flows, all are forgotten: a later step
 * of an old flow starts anew, a step of the newest one still links. */
static void test_flow_cap(void **state) {
  (void)state;
  pb t = {0};
  renderer(&t);
  /* Flows 1 .. CAP pending; CAP + 1 is one too many. */
  uint64_t ids[] = {0, TC_PROTO_MAX_FLOWS + 1, 1, TC_PROTO_MAX_FLOWS + 1};
  for (uint64_t k = 1; k <= TC_PROTO_MAX_FLOWS; k++) {
    pb e = {0};
    pb_u(&e, E_TYPE, INSTANT);
    pb_u(&e, E_TRACK_UUID, 2);
    pb_fixed64(&e, E_FLOW_IDS, k);
    event(&t, k, &e);
  }
  for (size_t k = 1; k < 4; k++) {
    pb e = {0};
    pb_u(&e, E_TYPE, INSTANT);
    pb_u(&e, E_TRACK_UUID, 2);
    pb_str(&e, E_NAME, k == 1 ? "newest" : "late");
    pb_fixed64(&e, E_FLOW_IDS, ids[k]);
    event(&t, 1000000000 + k, &e);
  }
  got g;
  run(&g, &t, 0);
  size_t s = 0, f = 0;
  for (size_t i = 0; i < g.nev; i++) {
    s += strstr(g.ev[i], "\"ph\":\"s\"") != NULL;
    f += strstr(g.ev[i], "\"ph\":\"f\"") != NULL;
  }
  /* Only newest -> its second step: flow 1 was forgotten at the cap. */
  assert_int_equal(s, 1);
  assert_int_equal(f, 1);
  assert_non_null(strstr(g.ev[g.nev - 1], "\"name\":\"newest\",\"cat\":\"\",\"ph\":\"f\""));
  got_free(&g);
  pb_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_and_slices),
      cmocka_unit_test(test_scopes_async_and_open),
      cmocka_unit_test(test_debug_annotations),
      cmocka_unit_test(test_task_source_location),
      cmocka_unit_test(test_flows),
      cmocka_unit_test(test_clocks),
      cmocka_unit_test(test_incremental_state_cleared),
      cmocka_unit_test(test_legacy_counter_metadata),
      cmocka_unit_test(test_bad_packets_are_skipped),
      cmocka_unit_test(test_broken_framing),
      cmocka_unit_test(test_unknown_top_level_fields_skipped),
      cmocka_unit_test(test_cut_and_too_big),
      cmocka_unit_test(test_annotation_depth),
      cmocka_unit_test(test_depth_cap),
      cmocka_unit_test(test_flow_cap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
