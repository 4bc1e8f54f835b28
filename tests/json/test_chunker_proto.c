/* The chunker's front door (issue 22): a Perfetto trace goes to the reader
 * and its events fill chunks as a JSON trace's do; other binary files are
 * refused with the error that names them; JSON whose first byte made the
 * chunker hold its head is read exactly as it would be at once. Every run
 * is made whole and in pieces (tests/json/chunk_run.h), which must agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_run.h"
#include "pb_build.h"

static const size_t ONE[] = {1};
static const size_t ODD[] = {3, 7, 1, 200, 13};

/* Runs IN whole, byte by byte and in odd pieces; the whole run in R. */
static void run3(chunk_run *r, const char *in, size_t n, size_t target) {
  chunk_run a, b;
  chunk_run_feed(r, in, n, target, 0, NULL, 0);
  chunk_run_assert_well_formed(r, in, n, target);
  chunk_run_feed(&a, in, n, target, 0, ONE, 1);
  chunk_run_feed(&b, in, n, target, 0, ODD, 5);
  chunk_run_assert_same(r, &a);
  chunk_run_assert_same(r, &b);
  assert_int_equal(r->feed_rc, a.feed_rc);
  assert_int_equal(r->finish_rc, a.finish_rc);
  chunk_run_free(&a);
  chunk_run_free(&b);
}

/* A thread (pid 7, tid 8) with N instants named "e<k>", each with an arg. */
static pb trace_of(int n) {
  pb t = {0}, p = {0}, d = {0}, x = {0};
  pb_u(&d, 1, 2);
  pb_i(&x, 1, 7);
  pb_i(&x, 2, 8);
  pb_str(&x, 5, "CrRendererMain");
  pb_msg(&d, 4, &x);
  pb_msg(&p, 60, &d);
  pb_msg(&t, 1, &p);
  for (int k = 0; k < n; k++) {
    char name[16];
    snprintf(name, sizeof name, "e%d", k);
    pb e = {0}, a = {0};
    pb_u(&e, 9, 3);
    pb_u(&e, 11, 2);
    pb_str(&e, 23, name);
    pb_str(&a, 10, "k");
    pb_i(&a, 4, k);
    pb_msg(&e, 4, &a);
    pb_u(&p, 8, 1000 * (uint64_t)(k + 1));
    pb_msg(&p, 11, &e);
    pb_msg(&t, 1, &p);
  }
  return t;
}

static void test_perfetto_events_fill_chunks(void **state) {
  (void)state;
  pb t = trace_of(300);
  chunk_run r;
  run3(&r, (const char *)t.p, t.len, 4096);
  assert_int_equal(r.feed_rc, TC_OK);
  assert_int_equal(r.finish_rc, TC_OK);
  assert_true(r.shape.perfetto);
  assert_int_equal(r.nerrors, 0);
  assert_int_equal(r.elements, 301); /* the thread's name and 300 instants */
  assert_true(r.nchunks > 1);
  /* The first event is the thread's name, then e0 at 1 us with its arg. */
  const tc_chunk *c = r.chunks[0];
  const char *want0 = "{\"name\":\"thread_name\",\"cat\":\"__metadata\",\"ph\":\"M\",\"ts\":0,"
                      "\"pid\":7,\"tid\":8,\"args\":{\"name\":\"CrRendererMain\"}}";
  assert_int_equal(c->events[0].end - c->events[0].start, strlen(want0));
  assert_memory_equal(c->buf + c->events[0].start, want0, strlen(want0));
  const char *want1 = "{\"name\":\"e0\",\"cat\":\"\",\"ph\":\"I\",\"ts\":1,\"pid\":7,\"tid\":8,"
                      "\"s\":\"t\",\"args\":{\"k\":0}}";
  assert_memory_equal(c->buf + c->events[1].start, want1, strlen(want1));
  /* The offset of an event is its packet's. */
  assert_int_equal(c->events[0].offset, 0);
  chunk_run_free(&r);
  pb_free(&t);
}

static void test_broken_framing_is_trailing_data(void **state) {
  (void)state;
  pb t = trace_of(3);
  size_t at = t.len;
  pb_raw(&t, "\x0b\x00\x00\x00\x00", 5);
  chunk_run r;
  run3(&r, (const char *)t.p, t.len, 1 << 20);
  assert_int_equal(r.feed_rc, TC_OK);
  assert_int_equal(r.elements, 4 + 1);
  assert_int_equal(r.nerrors, 1);
  assert_int_equal(r.errors[0].code, TC_E_PB_WIRE_TYPE);
  assert_int_equal(r.errors[0].offset, at);
  assert_int_equal(r.errors[0].index, 4);
  assert_true(r.shape.trailing_bytes);
  assert_int_equal(r.shape.trailing_offset, at);
  assert_int_equal(r.shape.trailing_size, 5);
  chunk_run_free(&r);
  pb_free(&t);
}

static void test_cut_trace(void **state) {
  (void)state;
  pb t = trace_of(3);
  t.len -= 2;
  chunk_run r;
  run3(&r, (const char *)t.p, t.len, 1 << 20);
  assert_true(r.shape.cut_event);
  assert_int_equal(r.nerrors, 1);
  assert_int_equal(r.errors[0].code, TC_E_PB_TRUNCATED);
  assert_int_equal(r.elements, 3 + 1);
  chunk_run_free(&r);
  pb_free(&t);
}

static void test_not_traces(void **state) {
  (void)state;
  static const struct {
    const char *in;
    size_t len;
    tc_err code;
  } cases[] = {
      {"\x1f\x8b\x08\x00\x00\x00", 6, TC_E_NOT_TRACE_GZIP},
      {"\x28\xb5\x2f\xfd\x00", 5, TC_E_NOT_TRACE_ZSTD},
      {"PK\x03\x04\x14\x00", 6, TC_E_NOT_TRACE_ZIP},
      {"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16, TC_E_NOT_TRACE_PNG},
      {"\xff\xd8\xff\xe0\x00\x10JFIF", 10, TC_E_NOT_TRACE_JPEG},
      {"GIF89a\x01\x00", 8, TC_E_NOT_TRACE_GIF},
      {"%PDF-1.4\n", 9, TC_E_NOT_TRACE_PDF},
      {"\x08\x96\x01\x12\x03" "abc", 8, TC_E_NOT_TRACE_PROTOBUF},
      {"\x00\x00\x00\x01", 4, TC_E_NOT_TRACE_BINARY},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    /* Short (decided at finish) and padded past the head (at a feed). */
    /* Zeros are no protobuf fields: that case is short only. */
    int pads = cases[i].code == TC_E_NOT_TRACE_PROTOBUF ? 1 : 2;
    for (int padded = 0; padded < pads; padded++) {
      size_t n = padded ? 4096 : cases[i].len;
      char *in = calloc(1, n);
      memcpy(in, cases[i].in, cases[i].len);
      chunk_run r;
      run3(&r, in, n, 1 << 20);
      assert_int_equal(padded ? r.feed_rc : r.finish_rc, cases[i].code);
      assert_int_equal(r.nchunks, 0);
      assert_int_equal(r.elements, 0);
      chunk_run_free(&r);
      free(in);
    }
  }
  const char har[] = "{\"log\":{\"version\":\"1.2\",\"entries\":[]}}";
  chunk_run r;
  run3(&r, har, sizeof har - 1, 1 << 20);
  assert_int_equal(r.finish_rc, TC_E_NOT_TRACE_HAR);
  chunk_run_free(&r);
}

/* JSON held back by its first byte reads as it would at once: the same
 * events at offsets one further, over any chunk target. */
static void test_held_json_reads_the_same(void **state) {
  (void)state;
  const char *body = "[{\"name\":\"a\",\"ph\":\"X\"},{\"name\":\"b\"},{},\"s\",{\"name\":\"c\"}]";
  size_t n = strlen(body);
  char *nl = malloc(n + 1);
  nl[0] = '\n';
  memcpy(nl + 1, body, n);
  for (size_t target = 1; target < 64; target += 7) {
    chunk_run a, b;
    run3(&a, body, n, target);
    run3(&b, nl, n + 1, target);
    assert_false(b.shape.perfetto);
    assert_int_equal(a.elements, b.elements);
    assert_int_equal(a.nerrors, b.nerrors);
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < a.nchunks; i++)
      na += a.chunks[i]->nevents;
    for (size_t i = 0; i < b.nchunks; i++)
      nb += b.chunks[i]->nevents;
    assert_int_equal(na, nb);
    assert_int_equal(b.chunks[0]->events[0].offset, a.chunks[0]->events[0].offset + 1);
    chunk_run_free(&a);
    chunk_run_free(&b);
  }
  /* Text after a newline is still "not a trace" at its byte. */
  chunk_run r;
  run3(&r, "\n  hello", 8, 1 << 20);
  assert_int_equal(r.finish_rc, TC_E_NOT_TRACE);
  assert_int_equal(r.shape.not_trace_offset, 3);
  chunk_run_free(&r);
  free(nl);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_perfetto_events_fill_chunks),
      cmocka_unit_test(test_broken_framing_is_trailing_data),
      cmocka_unit_test(test_cut_trace),
      cmocka_unit_test(test_not_traces),
      cmocka_unit_test(test_held_json_reads_the_same),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
