/* Test helper: runs the chunker over an in-memory input fed in pieces and
 * keeps everything it produced, so that tests can compare whole runs.
 *
 * Each piece is copied into a buffer of exactly its size before it is fed,
 * so a read past the piece is caught by AddressSanitizer. The checks fail
 * the cmocka test, or abort in a fuzz target (see test_check.h). */
#ifndef TC_TEST_CHUNK_RUN_H
#define TC_TEST_CHUNK_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "json/tc_chunker.h"

typedef struct {
  tc_chunk **chunks; /* owned by the run */
  size_t nchunks;
  tc_err feed_rc; /* first error tc_chunker_feed returned, or TC_OK */
  tc_err finish_rc;
  tc_chunk_error *errors; /* the kept errors, owned by the run */
  size_t nkept;
  uint64_t nerrors; /* exact count */
  uint64_t elements;
  tc_trace_shape shape; /* shape.metadata points to metadata, taken from the chunker */
  char *metadata;
} chunk_run;

/* Feeds IN[0..n) in pieces of PIECES[0], PIECES[1], ... bytes (cycled; a
 * zero length or NPIECES == 0 means the rest in one piece), then finishes. */
void chunk_run_feed(chunk_run *r, const char *in, size_t n, size_t target, size_t max_event,
                    const size_t *pieces, size_t npieces);
void chunk_run_free(chunk_run *r);

/* Fails unless A and B produced identical chunks, errors and shape. */
void chunk_run_assert_same(const chunk_run *a, const chunk_run *b);

/* Fails unless every element is an event or a recorded error, every chunk
 * is "[" events joined by "," "]" followed by TC_JSON_PADDING readable
 * bytes, each event is the text of IN at its offset from '{' to '}', seq
 * runs 0, 1, 2, ..., indices and offsets increase, and chunks were cut at
 * TARGET as tc_chunker_create promises. */
void chunk_run_assert_well_formed(const chunk_run *r, const char *in, size_t n, size_t target);

/* Total events over all chunks. */
size_t chunk_run_nevents(const chunk_run *r);

#endif
