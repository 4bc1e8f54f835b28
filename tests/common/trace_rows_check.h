/* A run's trace statuses in a test as if they were an array:
 * run_status(&result.traces, i) reads record I back into one of a few
 * rotating copies (so two may be compared), failing the test when it
 * cannot be read. */
#ifndef TRACE_ROWS_CHECK_H
#define TRACE_ROWS_CHECK_H

#include "reduce/tc_trace_rows.h"

static inline const tc_trace_status *run_status(const tc_trace_rows *rows, size_t i) {
  static tc_trace_status copies[4];
  static unsigned next;
  static unsigned char *buf;
  static size_t cap;
  tc_trace_status *st = &copies[next++ % 4];
  assert_int_equal(tc_trace_rows_get(rows, i, st, NULL, NULL, &buf, &cap), TC_OK);
  return st;
}

#endif
