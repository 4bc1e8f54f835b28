/* libFuzzer target for the stream readers: any bytes must sniff, decode and
 * end with a code, never crash or loop. The first byte picks the caller's
 * buffer size so that tiny reads and buffer boundaries get explored too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/tc_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  size_t cap = (size_t)data[0] * data[0] + 1;
  data++;
  size--;
  tc_stream *s;
  if (tc_stream_open_mem(data, size, &s) != TC_OK)
    return 0;
  unsigned char *buf = malloc(cap);
  if (!buf)
    abort();
  uint64_t total = 0;
  size_t got;
  tc_err e;
  while ((e = tc_stream_read(s, buf, cap, &got)) == TC_OK && got > 0) {
    if (got > cap)
      abort();
    total += got;
  }
  /* Invariants every reader promises: counters agree, errors come with no
   * bytes and stick, a plain stream is its input, and the input is only
   * ever consumed up to its end. */
  if (got != 0 || tc_stream_out_bytes(s) != total || tc_stream_in_bytes(s) > size)
    abort();
  if (tc_stream_read(s, buf, cap, &got) != e || got != 0)
    abort();
  if (tc_stream_format(s) == TC_FMT_PLAIN && (e != TC_OK || total != size))
    abort();
  if (e == TC_OK && tc_stream_in_bytes(s) != size)
    abort();
  tc_stream_close(s);
  free(buf);
  return 0;
}
