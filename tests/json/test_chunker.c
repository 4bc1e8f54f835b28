/* The chunker: each accepted trace shape and each recorded error against a
 * truth written down while the input is built (and against the byte-wise
 * reference splitter), then split invariance: every input is also fed in
 * pieces of every size and in random pieces, and must give identical
 * chunks. Last, random traces from a small generator with fixed seeds,
 * whose chunks must also parse as JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_run.h"
#include "parse_check.h"
#include "ref_split.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"

#define TARGET 4096
/* Inputs up to this size are fed in every piece size 1..n. */
#define EVERY_SPLIT_MAX 4096

/* ---- inputs built together with their truth ---- */

typedef struct {
  char *p;
  size_t len, cap;
  ref_trace t;
} tb;

static void tb_put(tb *x, const char *s, size_t n) {
  if (x->len + n + 1 > x->cap) {
    x->cap = (x->len + n + 1) * 2;
    x->p = realloc(x->p, x->cap);
    assert_non_null(x->p);
  }
  memcpy(x->p + x->len, s, n);
  x->len += n;
  x->p[x->len] = '\0';
}

static void tb_raw(tb *x, const char *s) { tb_put(x, s, strlen(s)); }

static void tb_rep(tb *x, char c, size_t n) {
  for (size_t i = 0; i < n; i++)
    tb_put(x, &c, 1);
}

/* An element of the events array, and what the chunker must make of it. */
static void tb_elem(tb *x, const char *s) {
  ref_trace_add(&x->t, x->len, strlen(s), s[0] == '{', 1, 0);
  tb_raw(x, s);
}

/* A last element that the end of the input cuts off. */
static void tb_cut(tb *x, const char *s) {
  ref_trace_add(&x->t, x->len, strlen(s), s[0] == '{', 0, 0);
  tb_raw(x, s);
}

/* An element that a closer of the wrong kind ends; S ends with it. */
static void tb_bad(tb *x, const char *s) {
  ref_trace_add(&x->t, x->len, strlen(s), s[0] == '{', 1, 1);
  tb_raw(x, s);
}

static void tb_meta(tb *x, const char *s) {
  x->t.has_meta = 1;
  x->t.meta_offset = x->len;
  x->t.meta_len = strlen(s);
  tb_raw(x, s);
}

static void tb_free(tb *x) {
  free(x->p);
  ref_trace_free(&x->t);
  memset(x, 0, sizeof *x);
}

/* ---- split invariance ---- */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static size_t below(uint64_t *s, size_t n) { return (size_t)(splitmix(s) % n); }

/* 64 random piece sizes from one of three ranges (tiny, around a block,
 * large), so both the byte-wise and the block scanner meet piece ends. */
static void random_pieces(uint64_t seed, size_t *pieces) {
  static const size_t range[3][2] = {{1, 8}, {1, 130}, {60, 5000}};
  const size_t *r = range[seed % 3];
  for (size_t i = 0; i < 64; i++)
    pieces[i] = r[0] + below(&seed, r[1] - r[0] + 1);
}

/* Feeds IN in pieces of every size up to EVERY_SPLIT_MAX and in random
 * pieces, asserting each run equals WHOLE. */
static void assert_split_invariant(const chunk_run *whole, const char *in, size_t n, size_t target,
                                   size_t max_event) {
  size_t sizes = n < EVERY_SPLIT_MAX ? n : EVERY_SPLIT_MAX;
  for (size_t s = 1; s <= sizes; s++) {
    chunk_run r;
    chunk_run_feed(&r, in, n, target, max_event, &s, 1);
    chunk_run_assert_same(whole, &r);
    chunk_run_free(&r);
  }
  for (uint64_t seed = 1; seed <= 12; seed++) {
    size_t pieces[64];
    random_pieces(seed, pieces);
    chunk_run r;
    chunk_run_feed(&r, in, n, target, max_event, pieces, 64);
    chunk_run_assert_same(whole, &r);
    chunk_run_free(&r);
  }
}

static void assert_same_truth(const ref_trace *a, const ref_trace *b) {
  assert_int_equal(a->n, b->n);
  for (size_t i = 0; i < a->n; i++) {
    assert_int_equal(a->elems[i].offset, b->elems[i].offset);
    assert_int_equal(a->elems[i].len, b->elems[i].len);
    assert_int_equal(a->elems[i].is_object, b->elems[i].is_object);
    assert_int_equal(a->elems[i].complete, b->elems[i].complete);
    assert_int_equal(a->elems[i].mismatched, b->elems[i].mismatched);
  }
  assert_int_equal(a->object_form, b->object_form);
  assert_int_equal(a->found_events, b->found_events);
  assert_int_equal(a->unterminated, b->unterminated);
  assert_int_equal(a->has_meta, b->has_meta);
  if (a->has_meta) {
    assert_int_equal(a->meta_offset, b->meta_offset);
    assert_int_equal(a->meta_len, b->meta_len);
  }
}

/* The whole check of one input against its truth; the run fed in one
 * piece is left in *OUT for further assertions (free it). */
static void check_trace(const char *in, size_t n, const ref_trace *truth, size_t target,
                        size_t max_event, chunk_run *out) {
  ref_trace ref;
  assert_true(ref_split(in, n, &ref));
  assert_same_truth(truth, &ref);
  chunk_run_feed(out, in, n, target, max_event, NULL, 0);
  chunk_run_assert_well_formed(out, in, n, target);
  ref_assert_run(out, in, n, truth, max_event);
  ref_assert_tail(out, &ref);
  ref_trace_free(&ref);
  assert_split_invariant(out, in, n, target, max_event);
}

static void check_tb(tb *x, size_t target, size_t max_event, chunk_run *out) {
  check_trace(x->p, x->len, &x->t, target, max_event, out);
}

/* ---- shapes ---- */

static void test_bare_array(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_elem(&x, "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1}");
  tb_raw(&x, " , ");
  tb_elem(&x, "{\"name\":\"b\"}");
  tb_raw(&x, "\n,\t");
  tb_elem(&x, "{\"c\":[1,{\"d\":\"}\"}],\"e\":{}}");
  tb_raw(&x, "]\n");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(r.nchunks, 1);
  assert_int_equal(r.chunks[0]->nevents, 3);
  assert_int_equal(r.shape.object_form, 0);
  assert_int_equal(r.shape.unterminated, 0);
  assert_int_equal(r.shape.trailing_bytes, 0);
  assert_int_equal(r.shape.metadata.len, 0);
  assert_int_equal(r.nerrors, 0);
  chunk_run_free(&r);
  tb_free(&x);
}

static const char *const two_events[] = {
    "{\"name\":\"first\",\"args\":{\"s\":\"]}\\\"\"}}",
    "{\"name\":\"second\",\"args\":{\"data\":{\"frames\":[{\"frame\":\"F\"}]}}}",
};

static void add_events_array(tb *x) {
  tb_raw(x, "[");
  tb_elem(x, two_events[0]);
  tb_raw(x, ",\n  ");
  tb_elem(x, two_events[1]);
  tb_raw(x, "]");
  x->t.found_events = 1;
}

/* A metadata member of some thousands of bytes, full of brackets and
 * escapes that must not end it early. */
static void add_big_metadata(tb *x) {
  tb y = {0};
  tb_raw(&y, "{");
  for (int i = 0; i < 60; i++) {
    char k[64];
    snprintf(k, sizeof k, "%s\"k%d\":", i ? "," : "", i);
    tb_raw(&y, k);
    tb_raw(&y, "{\"s\":\"a\\\"]}\\\\\",\"n\":[1,2,{\"x\":\"}\"}],\"traceEvents\":[]}");
  }
  tb_raw(&y, "}");
  tb_meta(x, y.p);
  tb_free(&y);
}

static void check_object(tb *x, const char *metadata) {
  x->t.object_form = 1;
  chunk_run r;
  check_tb(x, TARGET, 0, &r);
  assert_int_equal(r.shape.object_form, 1);
  assert_int_equal(r.shape.unterminated, 0);
  assert_int_equal(r.finish_rc, TC_OK);
  assert_int_equal(chunk_run_nevents(&r), 2);
  assert_int_equal(r.shape.metadata.len, strlen(metadata));
  assert_memory_equal(r.shape.metadata.ptr, metadata, strlen(metadata));
  chunk_run_free(&r);
}

static void test_object_events_first(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"traceEvents\":");
  add_events_array(&x);
  tb_raw(&x, ",\n\"metadata\": ");
  tb_meta(&x, "{\"source\":\"DevTools\",\"x\":\"]}\"}");
  tb_raw(&x, "}");
  check_object(&x, "{\"source\":\"DevTools\",\"x\":\"]}\"}");
  tb_free(&x);
}

static void test_object_events_last(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{ \"metadata\" : ");
  tb_meta(&x, "{\"a\":[1,2]}");
  tb_raw(&x, ", \"traceEvents\" : ");
  add_events_array(&x);
  tb_raw(&x, " }");
  check_object(&x, "{\"a\":[1,2]}");
  tb_free(&x);
}

static void test_object_events_after_big_metadata(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"metadata\":");
  add_big_metadata(&x);
  tb_raw(&x, ",\"otherData\":{\"traceEvents\":[{\"fake\":1}]},\"traceEvents\":");
  add_events_array(&x);
  tb_raw(&x, "}");
  char *meta = strndup(x.p + x.t.meta_offset, x.t.meta_len);
  check_object(&x, meta);
  free(meta);
  tb_free(&x);
}

/* Members with string values before the events, as Chrome writes
 * "displayTimeUnit"; the block scanner must see such a string end. */
static void test_object_string_members(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"displayTimeUnit\":\"ns\",\"systemTraceEvents\":\"a ] } [ {\",\"metadata\":");
  tb_meta(&x, "\"a string of metadata, longer than one 64-byte block of the scanner\"");
  tb_raw(&x, ",\"traceEvents\":");
  add_events_array(&x);
  tb_raw(&x, "}");
  check_object(&x, "\"a string of metadata, longer than one 64-byte block of the scanner\"");
  tb_free(&x);
}

static void test_unterminated(void **state) {
  (void)state;
  static const char *const tails[] = {"", " ,\n", ",,"};
  for (size_t i = 0; i < 3; i++) {
    tb x = {0};
    tb_raw(&x, "[");
    tb_elem(&x, "{\"a\":1}");
    tb_raw(&x, ",");
    tb_elem(&x, "{\"b\":[2]}");
    tb_raw(&x, tails[i]);
    x.t.found_events = 1;
    x.t.unterminated = 1;
    chunk_run r;
    check_tb(&x, TARGET, 0, &r);
    assert_int_equal(r.shape.unterminated, 1);
    assert_int_equal(r.finish_rc, TC_OK);
    assert_int_equal(r.nerrors, 0);
    assert_int_equal(chunk_run_nevents(&r), 2);
    chunk_run_free(&r);
    tb_free(&x);
  }
  /* Object form: the array closed but not the object, and neither. */
  for (int closed = 0; closed < 2; closed++) {
    tb x = {0};
    tb_raw(&x, "{\"traceEvents\":[");
    tb_elem(&x, "{\"a\":1}");
    tb_raw(&x, closed ? "]" : "");
    x.t.object_form = 1;
    x.t.found_events = 1;
    x.t.unterminated = 1;
    chunk_run r;
    check_tb(&x, TARGET, 0, &r);
    assert_int_equal(r.shape.unterminated, 1);
    assert_int_equal(r.finish_rc, TC_OK);
    chunk_run_free(&r);
    tb_free(&x);
  }
}

static void test_commas(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[,");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, ",,");
  tb_elem(&x, "{\"b\":2}");
  tb_raw(&x, ", ,, ]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  /* Commas are separators, never elements. */
  assert_int_equal(r.elements, 2);
  assert_int_equal(r.chunks[0]->events[1].index, 1);
  assert_int_equal(r.nerrors, 0);
  chunk_run_free(&r);
  tb_free(&x);

  tb y = {0};
  tb_raw(&y, "{\"traceEvents\":[");
  tb_elem(&y, "{\"a\":1}");
  tb_raw(&y, ",],\"metadata\":");
  tb_meta(&y, "{}");
  tb_raw(&y, ",}");
  y.t.object_form = 1;
  y.t.found_events = 1;
  check_tb(&y, TARGET, 0, &r);
  assert_int_equal(r.shape.unterminated, 0);
  chunk_run_free(&r);
  tb_free(&y);
}

static void test_bom(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "\xEF\xBB\xBF[");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(r.chunks[0]->events[0].offset, 4);
  chunk_run_free(&r);
  tb_free(&x);

  tb y = {0};
  tb_raw(&y, "\xEF\xBB\xBF \n{\"traceEvents\":[");
  tb_elem(&y, "{\"a\":1}");
  tb_raw(&y, "]}");
  y.t.object_form = 1;
  y.t.found_events = 1;
  check_tb(&y, TARGET, 0, &r);
  assert_int_equal(r.shape.object_form, 1);
  chunk_run_free(&r);
  tb_free(&y);
}

static void test_not_a_trace(void **state) {
  (void)state;
  static const struct {
    const char *in;
    tc_err feed, finish;
    uint64_t offset; /* where a feed error stopped the scan */
  } cases[] = {
      {"", TC_OK, TC_E_EMPTY_TRACE, 0},
      {" \n\t\r", TC_OK, TC_E_EMPTY_TRACE, 4},
      {"\xEF\xBB\xBF", TC_OK, TC_E_EMPTY_TRACE, 3},
      {"hello", TC_E_NOT_TRACE, TC_E_EMPTY_TRACE, 0},
      {"  \"[{}]\"", TC_E_NOT_TRACE, TC_E_EMPTY_TRACE, 2},
      {"\xEF\xBB\xBF\n123", TC_E_NOT_TRACE, TC_E_EMPTY_TRACE, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = strlen(cases[i].in);
    chunk_run r;
    chunk_run_feed(&r, cases[i].in, n, TARGET, 0, NULL, 0);
    assert_int_equal(r.feed_rc, cases[i].feed);
    assert_int_equal(r.finish_rc, cases[i].finish);
    assert_int_equal(r.shape.not_trace_offset, cases[i].offset);
    assert_int_equal(r.nchunks, 0);
    assert_int_equal(r.elements, 0);
    assert_int_equal(r.nerrors, 0);
    chunk_run_free(&r);
  }
}

static void test_no_events(void **state) {
  (void)state;
  static const char *const cases[] = {
      "{}",
      "{\"traceevents\":[{\"a\":1}]}",
      "{\"traceEvents\":{\"a\":1}}",
      "{\"traceEvents\":\"[{\\\"a\\\":1}]\"}",
      "{\"traceEvents\":null,\"x\":[{\"a\":1}]}",
      "{\"otherData\":{\"traceEvents\":[{\"a\":1}]}}",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tb x = {0};
    tb_raw(&x, cases[i]);
    x.t.object_form = 1;
    chunk_run r;
    check_tb(&x, TARGET, 0, &r);
    assert_int_equal(r.finish_rc, TC_E_NO_EVENTS);
    assert_int_equal(r.nchunks, 0);
    assert_int_equal(r.elements, 0);
    chunk_run_free(&r);
    tb_free(&x);
  }
  /* Metadata is still captured from a trace without events. */
  tb y = {0};
  tb_raw(&y, "{\"metadata\":");
  tb_meta(&y, "{\"a\":[1]}");
  tb_raw(&y, "}");
  y.t.object_form = 1;
  chunk_run r;
  check_tb(&y, TARGET, 0, &r);
  assert_int_equal(r.finish_rc, TC_E_NO_EVENTS);
  assert_int_equal(r.shape.metadata.len, strlen("{\"a\":[1]}"));
  chunk_run_free(&r);
  tb_free(&y);
}

/* ---- per-element errors ---- */

static void test_not_objects(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_elem(&x, "1");
  tb_raw(&x, ", ");
  tb_elem(&x, "\"s[{\\\"\"");
  tb_raw(&x, ",");
  tb_elem(&x, "[1,{\"a\":2},\"]\"]");
  tb_raw(&x, ",");
  tb_elem(&x, "{\"name\":\"x\"}");
  tb_raw(&x, ",");
  tb_elem(&x, "true");
  tb_raw(&x, ",");
  tb_elem(&x, "null");
  tb_raw(&x, ",");
  tb_elem(&x, "-2.5e3");
  tb_raw(&x, ",\n");
  tb_elem(&x, "{\"name\":\"y\"}");
  tb_raw(&x, ",");
  tb_elem(&x, "\"tail ] }\"");
  tb_raw(&x, ",");
  tb_elem(&x, "{\"name\":\"a long event that reaches well past one 64-byte block\"}");
  tb_raw(&x, ",");
  tb_elem(&x, "7");
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  /* Besides the reference: scanning went on after each of them. */
  assert_int_equal(r.elements, 11);
  assert_int_equal(r.nerrors, 8);
  assert_int_equal(chunk_run_nevents(&r), 3);
  for (size_t i = 0; i < r.nkept; i++)
    assert_int_equal(r.errors[i].code, TC_E_NOT_OBJECT);
  chunk_run_free(&r);
  tb_free(&x);
}

static void test_truncated(void **state) {
  (void)state;
  static const char *const cuts[] = {
      "{\"b\":\"xx", "{\"b\":\"x\\", "{\"b\":[{\"c\":", "{", "\"abc", "[1,2", "[\"]\",{",
  };
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    for (int object = 0; object < 2; object++) {
      tb x = {0};
      tb_raw(&x, object ? "{\"traceEvents\":[" : "[");
      tb_elem(&x, "{\"a\":1}");
      tb_raw(&x, ", ");
      tb_cut(&x, cuts[i]);
      x.t.object_form = object;
      x.t.found_events = 1;
      x.t.unterminated = 1;
      chunk_run r;
      check_tb(&x, TARGET, 0, &r);
      assert_int_equal(r.nerrors, 1);
      assert_int_equal(r.errors[0].code, TC_E_TRUNCATED_JSON);
      assert_int_equal(r.errors[0].index, 1);
      assert_int_equal(r.errors[0].offset, x.t.elems[1].offset);
      assert_int_equal(r.elements, 2);
      assert_int_equal(r.nchunks, 1);
      assert_int_equal(r.chunks[0]->nevents, 1);
      assert_int_equal(r.shape.unterminated, 1);
      chunk_run_free(&r);
      tb_free(&x);
    }
  }
  /* A number cut by the end is whole: it is simply not an object. */
  tb y = {0};
  tb_raw(&y, "[");
  tb_elem(&y, "{\"a\":1}");
  tb_raw(&y, ",");
  tb_elem(&y, "12");
  y.t.found_events = 1;
  y.t.unterminated = 1;
  chunk_run r;
  check_tb(&y, TARGET, 0, &r);
  assert_int_equal(r.errors[0].code, TC_E_NOT_OBJECT);
  chunk_run_free(&r);
  tb_free(&y);
}

/* {"p":"xx..."} of exactly LEN bytes. */
static void tb_event_of_len(tb *x, size_t len) {
  assert_true(len >= 8);
  tb e = {0};
  tb_raw(&e, "{\"p\":\"");
  tb_rep(&e, 'x', len - 8);
  tb_raw(&e, "\"}");
  assert_int_equal(e.len, len);
  tb_elem(x, e.p);
  tb_free(&e);
}

#define MAX_EVENT 40

static void add_sized_events(tb *x) {
  static const size_t lens[] = {10, 100, 12, MAX_EVENT, MAX_EVENT + 1, 9, 500, 11};
  tb_raw(x, "[");
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    tb_raw(x, i ? "," : "");
    tb_event_of_len(x, lens[i]);
  }
  tb_raw(x, "]");
  x->t.found_events = 1;
}

static void test_event_too_big(void **state) {
  (void)state;
  tb x = {0};
  add_sized_events(&x);
  chunk_run r;
  check_tb(&x, TARGET, MAX_EVENT, &r);
  assert_int_equal(r.nerrors, 3);
  assert_int_equal(r.errors[0].code, TC_E_EVENT_TOO_BIG);
  assert_int_equal(r.errors[0].index, 1);
  assert_int_equal(r.errors[1].index, 4);
  assert_int_equal(r.errors[2].index, 6);
  /* The events after a skipped one follow it in the same chunk, and the
   * chunk is exactly the kept events joined by commas. */
  assert_int_equal(r.nchunks, 1);
  tb want = {0};
  tb_raw(&want, "[");
  const tc_chunk *c = r.chunks[0];
  static const size_t kept[] = {0, 2, 3, 5, 7};
  assert_int_equal(c->nevents, 5);
  for (size_t i = 0; i < 5; i++) {
    const ref_elem *e = &x.t.elems[kept[i]];
    tb_raw(&want, i ? "," : "");
    tb_put(&want, x.p + e->offset, e->len);
    assert_int_equal(c->events[i].index, kept[i]);
  }
  tb_raw(&want, "]");
  assert_int_equal(c->len, want.len);
  assert_memory_equal(c->buf, want.p, want.len);
  tb_free(&want);
  chunk_run_free(&r);
  /* Small chunk targets: the cut points move, the result does not. */
  for (size_t target = 8; target <= 64; target += 8) {
    check_tb(&x, target, MAX_EVENT, &r);
    assert_int_equal(r.nerrors, 3);
    chunk_run_free(&r);
  }
  tb_free(&x);
}

/* With one event per chunk, a skipped event must not leave an empty
 * chunk behind (tc_chunker_feed cuts after it since "[" reaches a target of
 * one byte; see the report: the cut needs nevents > 0). */
static void test_too_big_event_alone_in_chunk(void **state) {
  (void)state;
  tb x = {0};
  add_sized_events(&x);
  chunk_run r;
  check_tb(&x, 1, MAX_EVENT, &r);
  assert_int_equal(r.nchunks, 5);
  chunk_run_free(&r);
  tb_free(&x);
}

static void test_error_cap(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  for (int i = 0; i < 150; i++) {
    tb_elem(&x, "1");
    tb_raw(&x, ",");
  }
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(r.nerrors, 150);
  assert_int_equal(r.nkept, TC_CHUNKER_MAX_ERRORS);
  assert_int_equal(r.errors[TC_CHUNKER_MAX_ERRORS - 1].index, TC_CHUNKER_MAX_ERRORS - 1);
  assert_int_equal(r.elements, 151);
  assert_int_equal(r.chunks[0]->events[0].index, 150);
  chunk_run_free(&r);
  tb_free(&x);
}

/* A stray '}' in the events array. Today tc_chunker_feed never returns:
 * the '}' ends the scalar it starts before it is consumed, and ST_ARRAY
 * starts it again (see the report for the fix: take it as a one-byte
 * element that is not an object). */
static void test_stray_closer(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_elem(&x, "}");
  tb_raw(&x, ",");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, ",");
  tb_elem(&x, "}");
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(r.nerrors, 2);
  assert_int_equal(r.errors[1].code, TC_E_NOT_OBJECT);
  chunk_run_free(&r);
  tb_free(&x);
}

/* Found by fuzz_chunker: a backslash outside any string (bad JSON). The
 * block scan takes it as escaping the next byte, the byte-wise scan did
 * not, so the events found depended on where the pieces fell; fed in small
 * pieces, the "}" left over then hung tc_chunker_feed (test_stray_closer).
 * Both scans must agree; see the report for the fix. */
static void test_backslash_outside_strings(void **state) {
  (void)state;
  static const char ev[] = "{\"a\":[1,2],\\\"b\\\":\"]}\"}";
  tb x = {0};
  tb_raw(&x, "[");
  tb_raw(&x, ev);
  tb_raw(&x, ",{\"c\":\"");
  tb_rep(&x, 'x', 70);
  tb_raw(&x, "\"}]");
  chunk_run whole;
  chunk_run_feed(&whole, x.p, x.len, TARGET, 0, NULL, 0);
  chunk_run_assert_well_formed(&whole, x.p, x.len, TARGET);
  assert_int_equal(chunk_run_nevents(&whole), 2);
  const tc_chunk *c = whole.chunks[0];
  assert_int_equal(c->events[0].end - c->events[0].start, strlen(ev));
  assert_split_invariant(&whole, x.p, x.len, TARGET, 0);
  chunk_run_free(&whole);
  tb_free(&x);
}

static void test_trailing_bytes(void **state) {
  (void)state;
  static const struct {
    const char *head, *tail;
    int object, trailing;
  } cases[] = {
      {"[", "] x", 0, 1},
      {"[", "]\n \t", 0, 0},
      {"{\"traceEvents\":[", "]} }", 1, 1},
      {"{\"traceEvents\":[", "]}\r\n", 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tb x = {0};
    tb_raw(&x, cases[i].head);
    tb_elem(&x, "{\"a\":1}");
    tb_raw(&x, cases[i].tail);
    x.t.object_form = cases[i].object;
    x.t.found_events = 1;
    chunk_run r;
    check_tb(&x, TARGET, 0, &r);
    assert_int_equal(r.shape.trailing_bytes, cases[i].trailing);
    chunk_run_free(&r);
    tb_free(&x);
  }
}

/* Data after the trace's end: its offset, size and JSON values (commas,
 * brackets and braces between them are not values), never events. */
static void test_data_after_the_end(void **state) {
  (void)state;
  static const struct {
    const char *text; /* the trace is "[{"a":1}" then TEXT */
    uint64_t offset, values;
  } cases[] = {
      {"]]", 9, 0},
      {"],{\"name\":\"b\"},{\"name\":\"c\"}]", 9, 2},
      {"] [{\"name\":\"c\"},{\"d\":[1]}]\n", 10, 2},          /* a second document */
      {"]\n{\"traceEvents\":[{\"name\":\"c\"}]}", 10, 1},  /* its object form */
      {"] garbage, 12 \"s\" null", 10, 4},
      {"]{\"cut", 9, 1},                                     /* cut off in a value */
      {"]{\"a\":[1}]", 9, 1},                                /* mismatched */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tb x = {0};
    tb_raw(&x, "[");
    tb_elem(&x, "{\"a\":1}");
    tb_raw(&x, cases[i].text);
    x.t.found_events = 1;
    chunk_run r;
    check_tb(&x, TARGET, 0, &r);
    assert_int_equal(chunk_run_nevents(&r), 1);
    assert_int_equal(r.elements, 1);
    assert_int_equal(r.nerrors, 0);
    assert_int_equal(r.shape.unterminated, 0);
    assert_int_equal(r.shape.trailing_bytes, 1);
    assert_int_equal(r.shape.trailing_offset, cases[i].offset);
    assert_int_equal(r.shape.trailing_size, x.len - cases[i].offset);
    assert_int_equal(r.shape.trailing_values, cases[i].values);
    chunk_run_free(&r);
    tb_free(&x);
  }
}

/* A traceEvents key given twice: both arrays' events count, as Perfetto's
 * importer counts them, indexed on from the first array. */
static void test_events_key_twice(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"traceEvents\":[");
  tb_elem(&x, "{\"name\":\"a\"}");
  tb_raw(&x, "],\"metadata\":");
  tb_meta(&x, "{\"k\":1}");
  tb_raw(&x, ",\"traceEvents\":[");
  tb_elem(&x, "{\"name\":\"b\"}");
  tb_raw(&x, ",");
  tb_elem(&x, "{\"name\":\"c\"}");
  tb_raw(&x, "],\"metadata\":{\"second\":2}}");
  x.t.object_form = 1;
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(chunk_run_nevents(&r), 3);
  assert_int_equal(r.chunks[0]->events[2].index, 2);
  assert_int_equal(r.shape.events_arrays, 2);
  assert_int_equal(r.shape.trailing_bytes, 0);
  chunk_run_free(&r);
  tb_free(&x);
}

/* Top-level keys are compared unescaped: "trace\u0045vents" is traceEvents,
 * "\u0074raceEvents" too; an escape that decodes elsewhere matches nothing. */
static void test_escaped_keys(void **state) {
  (void)state;
  static const struct {
    const char *key;
    int events;
  } cases[] = {
      {"trace\\u0045vents", 1}, {"\\u0074raceEvents", 1}, {"traceEvent\\u0073", 1},
      {"trace\\u00C5vents", 0}, {"trace\\u00", 0},          {"traceEvents\\n", 0},
      {"trace\\\\Events", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tb x = {0};
    tb_raw(&x, "{\"");
    tb_raw(&x, cases[i].key);
    tb_raw(&x, "\":[{\"name\":\"a\"}]}");
    chunk_run r;
    chunk_run_feed(&r, x.p, x.len, TARGET, 0, NULL, 0);
    assert_int_equal(chunk_run_nevents(&r), cases[i].events);
    assert_int_equal(r.finish_rc, cases[i].events ? TC_OK : TC_E_NO_EVENTS);
    for (size_t s = 1; s <= x.len; s++) {
      chunk_run p;
      chunk_run_feed(&p, x.p, x.len, TARGET, 0, &s, 1);
      chunk_run_assert_same(&r, &p);
      chunk_run_free(&p);
    }
    chunk_run_free(&r);
    tb_free(&x);
  }
}

/* Tiny events fill a chunk by count before they fill it by bytes. */
static void test_chunk_event_cap(void **state) {
  (void)state;
  enum { N = 2 * TC_CHUNK_MAX_EVENTS + 100 };
  tb x = {0};
  tb_raw(&x, "[");
  for (int i = 0; i < N; i++) {
    tb_elem(&x, i % 2 ? "{}" : "{\"ph\":\"X\"}");
    tb_raw(&x, ",");
  }
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  chunk_run_feed(&r, x.p, x.len, 1u << 30, 0, NULL, 0);
  chunk_run_assert_well_formed(&r, x.p, x.len, 1u << 30);
  ref_assert_run(&r, x.p, x.len, &x.t, 0);
  assert_int_equal(r.nchunks, 3);
  assert_int_equal(r.chunks[0]->nevents, TC_CHUNK_MAX_EVENTS);
  assert_int_equal(r.chunks[1]->nevents, TC_CHUNK_MAX_EVENTS);
  assert_int_equal(r.chunks[2]->nevents, 100);
  chunk_run_free(&r);
  tb_free(&x);
}

static void test_metadata_cut(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"metadata\":{\"k\":\"");
  tb_rep(&x, 'm', 2u << 20);
  tb_raw(&x, "\"},\"traceEvents\":[");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, "]}");
  chunk_run r;
  chunk_run_feed(&r, x.p, x.len, TARGET, 0, NULL, 0);
  assert_int_equal(r.shape.metadata_cut, 1);
  assert_int_equal(r.finish_rc, TC_OK);
  assert_int_equal(r.shape.unterminated, 0);
  assert_int_equal(chunk_run_nevents(&r), 1);
  assert_int_equal(r.chunks[0]->events[0].offset, x.t.elems[0].offset);
  chunk_run_free(&r);
  tb_free(&x);
}

/* ---- mismatched brackets ---- */

/* One broken event must not take the rest of the trace with it. Counting
 * depth alone, the "}" closing "[" left the event open to the array's end:
 * no events, one error. */
static void test_mismatch_then_good_events(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_bad(&x, "{\"name\":\"bad\",\"x\":[1}");
  for (int i = 0; i < 1000; i++) {
    char ev[64];
    snprintf(ev, sizeof ev, "{\"name\":\"good\",\"ts\":%d}", i);
    tb_raw(&x, ",");
    tb_elem(&x, ev);
  }
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(chunk_run_nevents(&r), 1000);
  assert_int_equal(r.nerrors, 1);
  assert_int_equal(r.errors[0].code, TC_E_BAD_BRACKETS);
  assert_int_equal(r.errors[0].index, 0);
  assert_int_equal(r.errors[0].offset, 1);
  assert_int_equal(r.elements, 1001);
  assert_int_equal(r.chunks[0]->events[0].index, 1);
  assert_int_equal(r.shape.unterminated, 0);
  chunk_run_free(&r);
  tb_free(&x);
}

/* Fails unless the run's chunks hold exactly the elements of X's truth
 * that are events, joined by commas: a broken event leaves no byte behind. */
static void assert_kept_exactly(const chunk_run *r, const tb *x) {
  tb want = {0};
  tb_raw(&want, "[");
  size_t k = 0;
  for (size_t i = 0; i < x->t.n; i++) {
    const ref_elem *e = &x->t.elems[i];
    if (!e->is_object || e->mismatched || !e->complete)
      continue;
    tb_raw(&want, k++ ? "," : "");
    tb_put(&want, x->p + e->offset, e->len);
  }
  tb_raw(&want, "]");
  assert_int_equal(r->nchunks, 1);
  assert_int_equal(r->chunks[0]->len, want.len);
  assert_memory_equal(r->chunks[0]->buf, want.p, want.len);
  tb_free(&want);
}

/* Each kind of wrong closer, at depth 1 to 4, in both trace forms, between
 * good events: the broken one ends at its wrong closer, the closers and
 * spaces after it are its own, and the next event is found. */
static void test_wrong_closers(void **state) {
  (void)state;
  static const struct {
    const char *bad, *tail;
    tc_err code;
  } cases[] = {
      {"{]", "", TC_E_BAD_BRACKETS},                                /* ']' for '{', depth 1 */
      {"{\"a\":1]", "", TC_E_BAD_BRACKETS},                         /* the same after members */
      {"{\"a\":[1}", "", TC_E_BAD_BRACKETS},                        /* '}' for '[', depth 2 */
      {"{\"a\":{\"b\":1]", "}", TC_E_BAD_BRACKETS},                 /* ']' for '{', depth 2 */
      {"{\"a\":[1}", "]}", TC_E_BAD_BRACKETS},                      /* swapped closers */
      {"{\"a\":[{\"b\":[[1]}", " ]\n}\t] } ", TC_E_BAD_BRACKETS},   /* depth 4 */
      {"{\"a\":[\"]\",{\"b\":\"}\"}}", "]}", TC_E_BAD_BRACKETS},    /* strings hide nothing */
      {"[1,{\"a\":2]", "]", TC_E_NOT_OBJECT},                       /* not an event at all */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int object = 0; object < 2; object++) {
      tb x = {0};
      tb_raw(&x, object ? "{\"traceEvents\":[" : "[");
      tb_elem(&x, "{\"name\":\"before\"}");
      tb_raw(&x, ",");
      tb_bad(&x, cases[i].bad);
      tb_raw(&x, cases[i].tail);
      tb_raw(&x, ",");
      tb_elem(&x, "{\"name\":\"after\",\"args\":{\"s\":\"long enough to cross a 64-byte block\"}}");
      tb_raw(&x, ",");
      tb_elem(&x, "{\"name\":\"last\"}");
      tb_raw(&x, object ? "],\"metadata\":" : "]");
      if (object) {
        tb_meta(&x, "{\"source\":\"x\"}");
        tb_raw(&x, "}");
      }
      x.t.object_form = object;
      x.t.found_events = 1;
      chunk_run r;
      check_tb(&x, TARGET, 0, &r);
      assert_int_equal(r.nerrors, 1);
      assert_int_equal(r.errors[0].code, cases[i].code);
      assert_int_equal(r.errors[0].index, 1);
      assert_int_equal(r.errors[0].offset, x.t.elems[1].offset);
      assert_int_equal(r.elements, 4);
      assert_int_equal(r.shape.unterminated, 0);
      assert_int_equal(r.shape.trailing_bytes, 0);
      assert_kept_exactly(&r, &x);
      chunk_run_free(&r);
      tb_free(&x);
    }
  }
}

/* A broken last event takes the array's "]" as one of its own closers:
 * the array is then reported unterminated, its events all found. */
static void test_wrong_closer_last(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, ",");
  tb_bad(&x, "{\"b\":[2}");
  tb_raw(&x, "]\n");
  x.t.found_events = 1;
  x.t.unterminated = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(chunk_run_nevents(&r), 1);
  assert_int_equal(r.errors[0].code, TC_E_BAD_BRACKETS);
  assert_int_equal(r.shape.unterminated, 1);
  assert_int_equal(r.shape.trailing_bytes, 0);
  chunk_run_free(&r);
  tb_free(&x);
}

/* Members of the top-level object end at a wrong closer too, so the events
 * after them are still found; the metadata kept is what the chunker saw. */
static void test_wrong_closer_in_members(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "{\"otherData\":{\"x\":[}],\"metadata\":");
  tb_meta(&x, "{\"a\":[1}");
  tb_raw(&x, "} ,\"traceEvents\":[");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, ",");
  tb_elem(&x, "{\"b\":2}");
  tb_raw(&x, "]}");
  x.t.object_form = 1;
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(chunk_run_nevents(&r), 2);
  assert_int_equal(r.nerrors, 0);
  assert_int_equal(r.shape.unterminated, 0);
  assert_int_equal(r.shape.metadata.len, strlen("{\"a\":[1}"));
  chunk_run_free(&r);
  tb_free(&x);
}

/* An event nested LEVELS deep ({"d": then '[' or {"k": by PATTERN, one
 * bit per level), whose closer of level WRONG (0: none) is of the wrong
 * kind. Levels past 64 are not checked: such an event is kept whole. */
static void tb_deep(tb *x, int levels, int wrong, uint64_t pattern) {
  tb e = {0};
  char square[128];
  tb_raw(&e, "{\"d\":");
  for (int l = 2; l <= levels; l++) {
    square[l] = (char)(pattern >> (l % 64) & 1);
    tb_raw(&e, square[l] ? "[" : "{\"k\":");
  }
  tb_raw(&e, "0");
  square[1] = 0;
  size_t bad_end = 0;
  for (int l = levels; l >= 1; l--) {
    int sq = square[l] != (l == wrong);
    tb_raw(&e, sq ? "]" : "}");
    if (l == wrong && l <= 64)
      bad_end = e.len;
  }
  if (bad_end) {
    ref_trace_add(&x->t, x->len, bad_end, 1, 1, 1);
    tb_raw(x, e.p);
  } else {
    tb_elem(x, e.p);
  }
  tb_free(&e);
}

static void test_deep_mismatch(void **state) {
  (void)state;
  static const int levels[] = {2, 3, 63, 64, 65, 66, 100};
  static const int wrongs[] = {0, 1, 2, 3, 63, 64, 65, 66, 100};
  static const uint64_t patterns[] = {0, ~0ULL, 0x5555555555555555ULL, 0x0123456789ABCDEFULL};
  size_t bad = 0, kept_unchecked = 0;
  for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
    for (size_t wi = 0; wi < sizeof wrongs / sizeof wrongs[0]; wi++) {
      if (wrongs[wi] > levels[li])
        continue;
      for (size_t pi = 0; pi < sizeof patterns / sizeof patterns[0]; pi++) {
        tb x = {0};
        tb_raw(&x, "[");
        tb_deep(&x, levels[li], wrongs[wi], patterns[pi]);
        tb_raw(&x, ",");
        tb_elem(&x, "{\"a\":1}");
        tb_raw(&x, "]");
        x.t.found_events = 1;
        chunk_run r;
        check_tb(&x, TARGET, 0, &r);
        int checked = wrongs[wi] && wrongs[wi] <= 64;
        assert_int_equal(r.nerrors, checked);
        assert_int_equal(chunk_run_nevents(&r), checked ? 1 : 2);
        if (checked)
          assert_int_equal(r.errors[0].code, TC_E_BAD_BRACKETS);
        bad += (size_t)checked;
        kept_unchecked += (size_t)(wrongs[wi] > 64);
        assert_int_equal(r.shape.unterminated, 0);
        chunk_run_free(&r);
        tb_free(&x);
      }
    }
  }
  assert_true(bad > 50 && kept_unchecked > 10);
}

/* The wrong closer at every offset of a 64-byte block, after brackets in
 * strings that would match or mismatch if they counted. */
static void test_mismatch_at_every_offset(void **state) {
  (void)state;
  for (size_t pad = 0; pad <= 130; pad++) {
    for (int hidden = 0; hidden < 2; hidden++) {
      tb x = {0};
      tb e = {0};
      tb_raw(&e, "{\"p\":\"");
      tb_rep(&e, 'x', pad);
      tb_raw(&e, hidden ? "\",\"s\":[\"]\",\"\\\"}\"}" : "\",\"s\":{\"t\":\"}]\\\\\"]");
      tb_raw(&x, "[");
      tb_elem(&x, "{\"q\":[\"}\",{\"r\":\"]\"}]}");
      tb_raw(&x, ",");
      tb_bad(&x, e.p);
      tb_raw(&x, "}]");
      tb_raw(&x, ",");
      tb_elem(&x, "{\"q\":\"\\\\\"}");
      tb_raw(&x, "]");
      x.t.found_events = 1;
      chunk_run r;
      check_tb(&x, TARGET, 0, &r);
      assert_int_equal(chunk_run_nevents(&r), 2);
      assert_int_equal(r.nerrors, 1);
      assert_int_equal(r.errors[0].code, TC_E_BAD_BRACKETS);
      assert_kept_exactly(&r, &x);
      chunk_run_free(&r);
      tb_free(&e);
      tb_free(&x);
    }
  }
}

/* A broken event that is also too big is reported for its brackets; the
 * size limit still keeps it out of memory. */
static void test_mismatch_too_big(void **state) {
  (void)state;
  tb x = {0};
  tb_raw(&x, "[");
  tb_elem(&x, "{\"a\":1}");
  tb_raw(&x, ",");
  tb_bad(&x, "{\"p\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",\"a\":[1}");
  tb_raw(&x, "]}, ");
  tb_elem(&x, "{\"b\":2}");
  tb_raw(&x, "]");
  x.t.found_events = 1;
  chunk_run r;
  check_tb(&x, TARGET, MAX_EVENT, &r);
  assert_int_equal(r.nerrors, 1);
  assert_int_equal(r.errors[0].code, TC_E_BAD_BRACKETS);
  assert_kept_exactly(&r, &x);
  chunk_run_free(&r);
  tb_free(&x);
}

/* ---- strings and block boundaries ---- */

/* Escapes placed at every offset of a 64-byte block: backslash runs of
 * even length before an escaped quote and before the closing quote,
 * brackets inside strings, \u escapes of brackets, quotes and backslash. */
static void test_tricky_strings(void **state) {
  (void)state;
  for (size_t pad = 0; pad <= 70; pad++) {
    for (size_t k = 0; k <= 4; k++) {
      tb x = {0};
      tb s = {0};
      tb_raw(&s, "{\"p\":\"");
      tb_rep(&s, 'x', pad);
      tb_raw(&s, "\",\"s\":\"x");
      tb_rep(&s, '\\', 2 * k);
      tb_raw(&s, "\\\"]}");
      tb_rep(&s, '\\', 2 * k);
      tb_raw(&s, "\",\"u\":\"\\u005d\\u0022\\u005c\",\"t\":[\"]\",{\"}\":\"{\"}]}");
      tb_raw(&x, "[");
      tb_elem(&x, s.p);
      tb_raw(&x, ",");
      tb_elem(&x, "{\"q\":\"\\\\\"}");
      tb_raw(&x, ",");
      tb_elem(&x, "\"\\\\\\\"]\"");
      tb_raw(&x, ",");
      tb_elem(&x, "{\"r\":\"[\"}");
      tb_raw(&x, "]");
      x.t.found_events = 1;
      chunk_run r;
      check_tb(&x, TARGET, 0, &r);
      assert_int_equal(chunk_run_nevents(&r), 3);
      assert_int_equal(r.nerrors, 1);
      chunk_run_free(&r);
      tb_free(&s);
      tb_free(&x);
    }
  }
}

/* Events of every length from 2 to 140 bytes back to back, so that event
 * starts and ends fall at every offset of a block. */
static void add_staircase(tb *x, size_t count) {
  tb_raw(x, "[");
  for (size_t i = 0; i < count; i++) {
    tb_raw(x, i ? "," : "");
    if (i == 0) {
      tb_elem(x, "{}");
      continue;
    }
    tb_event_of_len(x, 8 + i % 133);
  }
  tb_raw(x, "]");
  x->t.found_events = 1;
}

static void test_staircase(void **state) {
  (void)state;
  tb x = {0};
  add_staircase(&x, 140);
  chunk_run r;
  check_tb(&x, TARGET, 0, &r);
  assert_int_equal(chunk_run_nevents(&r), 140);
  chunk_run_free(&r);
  tb_free(&x);
}

static void test_chunk_targets(void **state) {
  (void)state;
  tb x = {0};
  add_staircase(&x, 50);
  chunk_run r;
  check_tb(&x, 1, 0, &r);
  assert_int_equal(r.nchunks, 50);
  for (size_t i = 0; i < r.nchunks; i++) {
    assert_int_equal(r.chunks[i]->nevents, 1);
    assert_int_equal(r.chunks[i]->events[0].index, i);
  }
  chunk_run_free(&r);
  check_tb(&x, (size_t)1 << 20, 0, &r);
  assert_int_equal(r.nchunks, 1);
  assert_int_equal(r.chunks[0]->nevents, 50);
  /* A target far beyond the trace changes nothing (fed whole only: the
   * chunker reserves the target's size for every chunk up front). */
  chunk_run huge;
  chunk_run_feed(&huge, x.p, x.len, (size_t)256 << 20, 0, NULL, 0);
  chunk_run_assert_same(&r, &huge);
  chunk_run_free(&huge);
  chunk_run_free(&r);
  check_tb(&x, 500, 0, &r);
  assert_true(r.nchunks > 1);
  chunk_run_free(&r);
  tb_free(&x);
}

/* ---- random traces ---- */

typedef struct {
  tb *x;
  uint64_t seed;
  int inject;     /* elements of this trace may get a wrong closer */
  int may_break;  /* the current element may */
  int level;      /* brackets open in the current value */
  size_t bad_end; /* just past the wrong closer written, or 0 */
  size_t deep;    /* elements nested deeper than the 64 checked levels */
} gen;

static size_t g_below(gen *g, size_t n) { return below(&g->seed, n); }

static void gen_ws(gen *g) {
  static const char *const ws[] = {"", "", "", "", " ", "\n  ", "\t", "\r\n"};
  size_t k = g_below(g, 9);
  if (k == 8)
    tb_rep(g->x, ' ', 50 + g_below(g, 30));
  else
    tb_raw(g->x, ws[k]);
}

static void gen_string(gen *g) {
  static const char *const escapes[] = {
      "\\\"", "\\\\",    "\\/",     "\\n",     "\\t",     "\\b",     "\\f",
      "\\r",  "\\u00e9", "\\u005d", "\\u0022", "\\u005c", "\\u007b", "\\ud83d\\ude00",
  };
  static const char *const literals[] = {
      "[", "]", "{", "}", ",", ":", "]}", "{[", "'", "\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac",
  };
  tb_raw(g->x, "\"");
  size_t parts = g_below(g, 7);
  for (size_t i = 0; i < parts; i++) {
    switch (g_below(g, 6)) {
    case 0:
      tb_rep(g->x, (char)('a' + g_below(g, 26)), 1 + g_below(g, 10));
      break;
    case 1:
      tb_raw(g->x, literals[g_below(g, sizeof literals / sizeof literals[0])]);
      break;
    case 2:
      tb_raw(g->x, escapes[g_below(g, sizeof escapes / sizeof escapes[0])]);
      break;
    case 3:
      tb_rep(g->x, '\\', 2 * (1 + g_below(g, 5)));
      if (g_below(g, 2))
        tb_raw(g->x, "\\\"");
      break;
    case 4:
      tb_rep(g->x, 'x', 40 + g_below(g, 120));
      break;
    default:
      tb_raw(g->x, " ");
      break;
    }
  }
  tb_raw(g->x, "\"");
}

static void gen_number(gen *g) {
  char b[64];
  unsigned a = (unsigned)g_below(g, 100000), c = (unsigned)g_below(g, 1000);
  switch (g_below(g, 4)) {
  case 0:
    snprintf(b, sizeof b, "%u", a);
    break;
  case 1:
    snprintf(b, sizeof b, "-%u.%u", a, c);
    break;
  case 2:
    snprintf(b, sizeof b, "%u.%ue%s%u", 1 + a % 9, c, g_below(g, 2) ? "-" : "+", c % 30);
    break;
  default:
    snprintf(b, sizeof b, "%uE%u", 1 + a % 9, c % 20);
    break;
  }
  tb_raw(g->x, b);
}

static void gen_value(gen *g, int depth);

/* Closes a container; in an element that may break, now and then with a
 * closer of the wrong kind, at the levels whose kinds the chunker checks.
 * After that the element gets only closers, some left out, as they would be
 * written for the levels still open. */
static void gen_close(gen *g, int object) {
  if (g->bad_end) {
    if (g_below(g, 3)) {
      gen_ws(g);
      tb_raw(g->x, g_below(g, 2) ? "}" : "]");
    }
  } else if (g->may_break && g->level <= 64 && !g_below(g, 12)) {
    tb_raw(g->x, object ? "]" : "}");
    g->bad_end = g->x->len;
  } else {
    tb_raw(g->x, object ? "}" : "]");
  }
  g->level--;
}

static void gen_container(gen *g, int depth, int object) {
  tb_raw(g->x, object ? "{" : "[");
  g->level++;
  gen_ws(g);
  size_t n = g_below(g, depth ? 4 : 6);
  for (size_t i = 0; i < n && !g->bad_end; i++) {
    if (i) {
      tb_raw(g->x, ",");
      gen_ws(g);
    }
    if (object) {
      gen_string(g);
      gen_ws(g);
      tb_raw(g->x, ":");
      gen_ws(g);
    }
    gen_value(g, depth + 1);
    gen_ws(g);
  }
  gen_close(g, object);
}

/* LEVELS containers one inside the other, each '[' or {"k":. */
static void gen_deep(gen *g, size_t levels) {
  int object = (int)g_below(g, 2);
  tb_raw(g->x, object ? "{\"k\":" : "[");
  g->level++;
  if (levels > 1)
    gen_deep(g, levels - 1);
  else
    gen_number(g);
  gen_close(g, object);
}

static void gen_value(gen *g, int depth) {
  static const char *const words[] = {"true", "false", "null"};
  switch (g_below(g, depth < 4 ? 7 : 4)) {
  case 0:
    gen_number(g);
    break;
  case 1:
    tb_raw(g->x, words[g_below(g, 3)]);
    break;
  case 2:
  case 3:
    gen_string(g);
    break;
  case 4:
  case 5:
    gen_container(g, depth, 1);
    break;
  default:
    gen_container(g, depth, 0);
    break;
  }
}

/* An element of the events array: mostly objects, a few nested past the
 * checked levels, sometimes anything. If MAY_BREAK, a wrong closer may end
 * it; a comma must then follow its closers. */
static void gen_element(gen *g, int may_break) {
  size_t off = g->x->len;
  g->may_break = may_break;
  g->bad_end = 0;
  size_t kind = g_below(g, 28);
  if (kind == 0) {
    size_t levels = 1 + g_below(g, 100);
    g->deep += levels >= 64;
    tb_raw(g->x, "{\"deep\":");
    g->level++;
    gen_deep(g, levels);
    gen_close(g, 1);
  } else if (kind < 24) {
    gen_container(g, 0, 1);
  } else {
    gen_value(g, 0);
  }
  size_t end = g->bad_end ? g->bad_end : g->x->len;
  ref_trace_add(&g->x->t, off, end - off, g->x->p[off] == '{', 1, g->bad_end != 0);
  g->may_break = 0;
  g->bad_end = 0;
}

static void gen_events(gen *g, int close) {
  tb_raw(g->x, "[");
  gen_ws(g);
  size_t n = g_below(g, 30);
  for (size_t i = 0; i < n; i++) {
    if (!g_below(g, 8))
      tb_raw(g->x, ",");
    gen_ws(g);
    gen_element(g, g->inject && i + 1 < n);
    gen_ws(g);
    if (i + 1 < n || !g_below(g, 4))
      tb_raw(g->x, g_below(g, 10) ? "," : ",,");
    gen_ws(g);
  }
  if (close)
    tb_raw(g->x, "]");
  g->x->t.found_events = 1;
}

static void gen_object_trace(gen *g) {
  enum { EVENTS, META, UNIT, OTHER, NMEMBERS };
  int order[NMEMBERS] = {EVENTS, META, UNIT, OTHER};
  for (int i = NMEMBERS - 1; i > 0; i--) {
    int j = (int)g_below(g, (size_t)i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  int close = g_below(g, 5) != 0;
  tb_raw(g->x, "{");
  gen_ws(g);
  int first = 1;
  for (int i = 0; i < NMEMBERS; i++) {
    if (order[i] != EVENTS && !g_below(g, 3))
      continue;
    if (order[i] == EVENTS && !g_below(g, 15))
      continue;
    if (!first)
      tb_raw(g->x, ",");
    first = 0;
    gen_ws(g);
    static const char *const keys[] = {"\"traceEvents\"", "\"metadata\"", "\"displayTimeUnit\"",
                                       "\"otherData\""};
    tb_raw(g->x, keys[order[i]]);
    gen_ws(g);
    tb_raw(g->x, ":");
    gen_ws(g);
    size_t off = g->x->len;
    if (order[i] == EVENTS)
      gen_events(g, 1);
    else if (order[i] == UNIT)
      tb_raw(g->x, "\"ns\"");
    else if (g_below(g, 4))
      gen_container(g, 1, 1);
    else
      gen_value(g, 1);
    if (order[i] == META) {
      g->x->t.has_meta = 1;
      g->x->t.meta_offset = off;
      g->x->t.meta_len = g->x->len - off;
    }
    gen_ws(g);
  }
  if (close)
    tb_raw(g->x, "}");
  g->x->t.object_form = 1;
  g->x->t.unterminated = !close;
}

/* Returns the number of elements nested past the checked levels. */
static size_t gen_trace(tb *x, uint64_t seed) {
  gen g = {.x = x, .seed = seed};
  g.inject = (int)g_below(&g, 2);
  if (!g_below(&g, 10))
    tb_raw(x, "\xEF\xBB\xBF");
  gen_ws(&g);
  if (g_below(&g, 3)) {
    int close = g_below(&g, 5) != 0;
    gen_events(&g, close);
    x->t.unterminated = !close;
  } else {
    gen_object_trace(&g);
  }
  if (!x->t.unterminated)
    gen_ws(&g);
  return g.deep;
}

/* Every chunk must be a JSON array of valid events. */
static void assert_chunks_parse(const chunk_run *r, tc_parser *p) {
  for (size_t i = 0; i < r->nchunks; i++) {
    tc_parsed out;
    assert_int_equal(tc_parser_parse(p, r->chunks[i], &out), TC_OK);
    parsed_assert_sane(p, r->chunks[i], &out, 0);
    assert_int_equal(out.slow_path, 0);
  }
}

static void test_random_traces(void **state) {
  (void)state;
  static const size_t targets[] = {1, 50, 700, TARGET, 1 << 20};
  static const size_t max_events[] = {0, 0, 40, 200, 1000};
  tc_parser *p = tc_parser_create(NULL, 0);
  assert_non_null(p);
  size_t events = 0, errors = 0, bytes = 0, mismatched = 0, deep = 0;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    tb x = {0};
    deep += gen_trace(&x, seed);
    for (size_t i = 0; i < x.t.n; i++)
      mismatched += (size_t)x.t.elems[i].mismatched;
    size_t target = targets[seed % 5], max_event = max_events[(seed / 5) % 5];
    ref_trace ref;
    assert_true(ref_split(x.p, x.len, &ref));
    assert_same_truth(&x.t, &ref);
    chunk_run whole;
    chunk_run_feed(&whole, x.p, x.len, target, max_event, NULL, 0);
    chunk_run_assert_well_formed(&whole, x.p, x.len, target);
    ref_assert_run(&whole, x.p, x.len, &x.t, max_event);
    ref_assert_tail(&whole, &ref);
    ref_trace_free(&ref);
    assert_chunks_parse(&whole, p);
    for (uint64_t s = 0; s < 4; s++) {
      size_t pieces[64];
      random_pieces(seed * 4 + s, pieces);
      chunk_run r;
      chunk_run_feed(&r, x.p, x.len, target, max_event, pieces, s == 3 ? 1 : 64);
      chunk_run_assert_same(&whole, &r);
      chunk_run_free(&r);
    }
    events += chunk_run_nevents(&whole);
    errors += whole.nerrors;
    bytes += x.len;
    chunk_run_free(&whole);
    tb_free(&x);
  }
  print_message("random traces: %zu bytes, %zu events, %zu element errors, %zu with mismatched "
                "brackets, %zu nested past 64 levels\n",
                bytes, events, errors, mismatched, deep);
  /* The generator must have produced enough of everything to mean much. */
  assert_true(events > 2000 && errors > 200 && bytes > (1u << 20));
  assert_true(mismatched > 100 && deep > 20);
  tc_parser_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bare_array),
      cmocka_unit_test(test_object_events_first),
      cmocka_unit_test(test_object_events_last),
      cmocka_unit_test(test_object_events_after_big_metadata),
      cmocka_unit_test(test_object_string_members),
      cmocka_unit_test(test_unterminated),
      cmocka_unit_test(test_commas),
      cmocka_unit_test(test_bom),
      cmocka_unit_test(test_not_a_trace),
      cmocka_unit_test(test_no_events),
      cmocka_unit_test(test_not_objects),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_event_too_big),
      cmocka_unit_test(test_too_big_event_alone_in_chunk),
      cmocka_unit_test(test_error_cap),
      cmocka_unit_test(test_stray_closer),
      cmocka_unit_test(test_backslash_outside_strings),
      cmocka_unit_test(test_trailing_bytes),
      cmocka_unit_test(test_data_after_the_end),
      cmocka_unit_test(test_events_key_twice),
      cmocka_unit_test(test_escaped_keys),
      cmocka_unit_test(test_chunk_event_cap),
      cmocka_unit_test(test_metadata_cut),
      cmocka_unit_test(test_mismatch_then_good_events),
      cmocka_unit_test(test_wrong_closers),
      cmocka_unit_test(test_wrong_closer_last),
      cmocka_unit_test(test_wrong_closer_in_members),
      cmocka_unit_test(test_deep_mismatch),
      cmocka_unit_test(test_mismatch_at_every_offset),
      cmocka_unit_test(test_mismatch_too_big),
      cmocka_unit_test(test_tricky_strings),
      cmocka_unit_test(test_staircase),
      cmocka_unit_test(test_chunk_targets),
      cmocka_unit_test(test_random_traces),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
