/* tc_trace_rows: every field of a status comes back as it went in, each
 * metadata block is kept once with its first trace and its count, and a
 * status given to the rows loses its own copy of the block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "reduce/tc_trace_rows.h"

static tc_trace_status status_of(uint64_t k, const char *meta) {
  tc_trace_status st;
  memset(&st, 0, sizeof st);
  st.fatal = k % 3 ? TC_OK : TC_E_NOT_TRACE;
  st.stream_err = k % 2 ? TC_E_TRUNCATED : TC_OK;
  st.stream_offset = 1000 + k;
  st.format = TC_FMT_ZSTD;
  st.in_bytes = 10 * k;
  st.out_bytes = 20 * k;
  st.elements = k + 7;
  st.events = k + 5;
  st.bad_events = k % 4;
  st.lenient_events = 1;
  st.nerrors = k % 4;
  for (size_t i = 0; i < st.nerrors; i++)
    st.errors[i] = (tc_chunk_error){i + 1, 100 * i + k, TC_E_BAD_EVENT};
  st.shape.object_form = 1;
  st.shape.cut_event = (int)(k % 2);
  st.shape.events_arrays = 1;
  st.shape.trailing_bytes = 1;
  st.shape.trailing_offset = 77;
  st.shape.trailing_size = 3;
  st.shape.trailing_values = 1;
  st.shape.not_trace_offset = 9;
  st.chunks = k + 1;
  if (meta) {
    st.meta = strdup(meta);
    st.shape.metadata = tc_str_c(st.meta);
  }
  return st;
}

static void same_status(const tc_trace_status *a, const tc_trace_status *b) {
  assert_int_equal(a->fatal, b->fatal);
  assert_int_equal(a->stream_err, b->stream_err);
  assert_int_equal(a->stream_offset, b->stream_offset);
  assert_int_equal(a->format, b->format);
  assert_int_equal(a->in_bytes, b->in_bytes);
  assert_int_equal(a->out_bytes, b->out_bytes);
  assert_int_equal(a->elements, b->elements);
  assert_int_equal(a->events, b->events);
  assert_int_equal(a->bad_events, b->bad_events);
  assert_int_equal(a->lenient_events, b->lenient_events);
  assert_int_equal(a->nerrors, b->nerrors);
  for (size_t i = 0; i < a->nerrors; i++) {
    assert_int_equal(a->errors[i].index, b->errors[i].index);
    assert_int_equal(a->errors[i].offset, b->errors[i].offset);
    assert_int_equal(a->errors[i].code, b->errors[i].code);
  }
  assert_int_equal(a->shape.object_form, b->shape.object_form);
  assert_int_equal(a->shape.cut_event, b->shape.cut_event);
  assert_int_equal(a->shape.events_arrays, b->shape.events_arrays);
  assert_int_equal(a->shape.trailing_offset, b->shape.trailing_offset);
  assert_int_equal(a->shape.not_trace_offset, b->shape.not_trace_offset);
  assert_int_equal(a->chunks, b->chunks);
}

static void statuses_and_blocks_read_back(void **state) {
  (void)state;
  static const char *const metas[] = {"{\"a\":1}", NULL, "{\"b\":2}", "{\"a\":1}", NULL};
  enum { N = 5 };
  tc_trace_rows rows;
  tc_trace_rows_init(&rows);
  for (uint64_t k = 0; k < N; k++) {
    tc_trace_status st = status_of(k, metas[k]);
    assert_int_equal(tc_trace_rows_add(&rows, (uint32_t)(10 + k), &st, NULL), TC_OK);
    assert_null(st.meta); /* the rows' copy is the one */
    assert_int_equal(st.shape.metadata.len, 0);
  }
  assert_int_equal(tc_trace_rows_seal(&rows), TC_OK);
  assert_int_equal(tc_trace_rows_count(&rows), N);
  assert_int_equal(tc_trace_rows_blocks(&rows), 2);
  assert_int_equal(rows.block_first[0], 0);
  assert_int_equal(rows.block_traces[0], 2);
  assert_int_equal(rows.block_first[1], 2);
  assert_int_equal(rows.block_traces[1], 1);
  unsigned char *buf = NULL;
  size_t cap = 0;
  const char *first_a = NULL;
  for (uint64_t k = 0; k < N; k++) {
    tc_trace_status got, want = status_of(k, NULL);
    uint32_t block;
    assert_int_equal(tc_trace_rows_get(&rows, k, &got, &block, NULL, &buf, &cap), TC_OK);
    assert_int_equal(tc_trace_rows_trace(&rows, k), 10 + k); /* the corpus's trace, not the row */
    same_status(&got, &want);
    if (!metas[k]) {
      assert_int_equal(block, TC_NO_BLOCK);
      assert_null(got.meta);
      continue;
    }
    assert_string_equal(got.meta, metas[k]);
    assert_int_equal(got.shape.metadata.len, strlen(metas[k]));
    if (block == 0) {
      /* one block, one copy */
      if (first_a)
        assert_ptr_equal(got.meta, first_a);
      first_a = got.meta;
    }
  }
  tc_trace_status none;
  assert_int_not_equal(tc_trace_rows_get(&rows, N, &none, NULL, NULL, &buf, &cap), TC_OK);
  free(buf);
  tc_trace_rows_free(&rows);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(statuses_and_blocks_read_back),
  };
  return cmocka_run_group_tests_name("trace_rows", tests, NULL, NULL);
}
