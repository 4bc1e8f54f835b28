/* libFuzzer target for the chunker. Any bytes, fed in pieces whose sizes
 * come from the input, must give exactly the chunks, errors and shape of the
 * same bytes fed whole, and both runs must be well formed: each chunk "["
 * events "," "]" with readable padding, each event the input's own bytes at
 * its offset from '{' to '}', every element an event or an error
 * (tests/json/chunk_run.h). Pieces shorter than 64 bytes are scanned byte by
 * byte and the whole input in 64-byte blocks, so the two scanners must agree
 * on strings, escapes, depth and bracket kinds, past 64 levels too.
 * The first three bytes pick the chunk target, the event size limit and the
 * piece sizes. */
#include <stddef.h>
#include <stdint.h>

#include "chunk_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3)
    return 0;
  size_t target = 1 + (size_t)data[0] * data[0];
  size_t max_event = (size_t)data[1] * 4; /* 0: no limit */
  size_t pieces[16];
  uint32_t seed = data[2];
  for (size_t i = 0; i < 16; i++) {
    seed = seed * 1103515245u + 12345u;
    pieces[i] = 1 + (seed >> 16) % (1 + (size_t)data[2]);
  }
  const char *in = (const char *)data + 3;
  size -= 3;
  chunk_run whole, parts;
  chunk_run_feed(&whole, in, size, target, max_event, NULL, 0);
  chunk_run_assert_well_formed(&whole, in, size, target);
  chunk_run_feed(&parts, in, size, target, max_event, pieces, 16);
  chunk_run_assert_same(&whole, &parts);
  chunk_run_free(&parts);
  chunk_run_free(&whole);
  return 0;
}
