/* Reading a metrics reduction's records in a test as if they were arrays:
 * reduced_site(r, i) and reduced_trace(r, i) through a cursor kept per
 * reduction (a handful at once), each valid until the next read of the
 * same kind from the same reduction. A record that cannot be read fails
 * the test. */
#ifndef METRICS_ROWS_H
#define METRICS_ROWS_H

#include "reduce/tc_metrics_reduction.h"

enum { METRICS_ROWS_CURSORS = 8 };

static inline tc_metrics_cursor *metrics_rows_cursor(const tc_metrics_reduction *r) {
  static tc_metrics_cursor cs[METRICS_ROWS_CURSORS];
  static unsigned next;
  for (unsigned i = 0; i < METRICS_ROWS_CURSORS; i++)
    if (cs[i].r == r)
      return &cs[i];
  /* A reduction freed and another made at its address reuse the cursor,
   * which reads through its r each time. */
  tc_metrics_cursor *c = &cs[next++ % METRICS_ROWS_CURSORS];
  tc_metrics_cursor_free(c);
  assert_int_equal(tc_metrics_cursor_init(c, r), TC_OK);
  return c;
}

static inline const tc_site_metrics *reduced_site(const tc_metrics_reduction *r, size_t i) {
  tc_metrics_cursor *c = metrics_rows_cursor(r);
  const tc_site_metrics *s = tc_metrics_cursor_site(c, i);
  assert_int_equal(c->err, TC_OK);
  return s;
}

static inline const tc_trace_metrics *reduced_trace(const tc_metrics_reduction *r, size_t i) {
  tc_metrics_cursor *c = metrics_rows_cursor(r);
  const tc_trace_metrics *t = tc_metrics_cursor_trace(c, i);
  assert_int_equal(c->err, TC_OK);
  return t;
}

#endif
