/* Test helper: a deliberately simple, byte-at-a-time reference for what the
 * chunker must find in a trace (each element of the events array, where it
 * starts, whether it is an object, whether it was cut off and whether a
 * closer of the wrong kind ended it), and the check of a chunker run
 * against it. The random trace generator of the chunker test fills the same
 * structure as it writes, so the reference itself is checked too. */
#ifndef TC_TEST_REF_SPLIT_H
#define TC_TEST_REF_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "chunk_run.h"

typedef struct {
  uint64_t offset; /* of its first byte */
  size_t len;
  int is_object;
  int complete;   /* 0 when the input ends inside it */
  int mismatched; /* it ends at a closer that does not match its opener, at
                     one of the outer 64 levels; the closers and spaces after
                     it are skipped, not elements */
} ref_elem;

typedef struct {
  ref_elem *elems;
  size_t n, cap;
  int object_form;
  int found_events; /* a bare array, or an object with a traceEvents array */
  int unterminated; /* the top-level array or object is not closed */
  int has_meta;
  uint64_t meta_offset;
  size_t meta_len;
  uint32_t events_arrays;
  /* after the top-level array or object closes */
  int trailing;
  uint64_t trail_offset, trail_size, trail_values;
} ref_trace;

/* Splits IN[0..n), which must start (after an optional BOM and spaces) with
 * '[' or '{'. Returns 0 if it does not. */
int ref_split(const char *in, size_t n, ref_trace *out);
void ref_trace_add(ref_trace *t, uint64_t offset, size_t len, int is_object, int complete,
                   int mismatched);
void ref_trace_free(ref_trace *t);

/* Fails the test unless the run found exactly what T describes: events,
 * errors with index/offset/code, element count, shape and metadata. */
void ref_assert_run(const chunk_run *r, const char *in, size_t n, const ref_trace *t,
                    size_t max_event);

/* Fails unless the run's count of traceEvents arrays and of the data after
 * the trace (offset, size, values) is the reference's. */
void ref_assert_tail(const chunk_run *r, const ref_trace *t);

#endif
