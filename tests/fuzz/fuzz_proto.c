/* libFuzzer target for the Perfetto reader (src/proto). The input after
 * its first byte is a trace; it is read
 *   - by the reader alone, fed whole and in pieces whose sizes come from the
 *     first byte: both runs must hand out the same events (text and packet
 *     offset) and the same problems (code and offset), every event one JSON
 *     object (util/tc_json_valid: strict RFC 8259, so the parser downstream
 *     never has to fall back to its lenient rewrite for what the reader
 *     wrote), every problem's offset inside the input;
 *   - through the chunker, which sniffs it (a Perfetto trace when it starts
 *     like one), whole and in pieces: the same chunks, errors and shape,
 *     well formed (tests/json/chunk_run.h);
 *   - by the plain decode the bench measures the reader against
 *     (proto/tc_proto_unpack.h): every packet it counts took at least a
 *     tag and a length byte.
 * The seeds (seeds_proto.py) are small real-shaped traces. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_run.h"
#include "proto/tc_proto.h"
#include "proto/tc_proto_unpack.h"
#include "test_check.h"
#include "util/tc_json_valid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  char *text; /* every event, each followed by its offset in 8 bytes */
  size_t len, cap;
  uint64_t skips[128][2];
  size_t nskips;
  size_t input;
} run;

static void put(run *r, const void *p, size_t n) {
  if (r->len + n > r->cap) {
    r->cap = (r->len + n) * 2;
    r->text = realloc(r->text, r->cap);
    check(r->text != NULL);
  }
  memcpy(r->text + r->len, p, n);
  r->len += n;
}

static tc_err on_event(void *ctx, const char *json, size_t len, uint64_t offset) {
  run *r = ctx;
  check(len >= 2 && json[0] == '{' && json[len - 1] == '}');
  check(tc_json_valid((tc_str){json, len}));
  check(offset < r->input);
  put(r, json, len);
  put(r, &offset, sizeof offset);
  return TC_OK;
}

static void on_skip(void *ctx, uint64_t offset, tc_err code) {
  run *r = ctx;
  check(offset < r->input || code == TC_E_PB_TRUNCATED);
  if (r->nskips < 128) {
    r->skips[r->nskips][0] = offset;
    r->skips[r->nskips][1] = (uint64_t)code;
  }
  r->nskips++;
}

static void read_all(run *r, const uint8_t *in, size_t n, const size_t *pieces) {
  memset(r, 0, sizeof *r);
  r->input = n;
  tc_proto_sink sink = {on_event, on_skip, r};
  tc_proto *p = tc_proto_create(&sink);
  check(p != NULL);
  size_t done = 0;
  tc_err e = TC_OK;
  for (size_t k = 0; done < n && !e; k++) {
    size_t len = pieces ? pieces[k % 16] : n;
    if (len > n - done)
      len = n - done;
    size_t pos = 0;
    while (pos < len && !e)
      e = tc_proto_feed(p, in + done, len, &pos);
    done += len;
  }
  check(e == TC_OK || e == TC_E_PB_VARINT || e == TC_E_PB_WIRE_TYPE);
  check(tc_proto_finish(p) == TC_OK);
  tc_proto_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  size_t pieces[16];
  uint32_t seed = data[0];
  for (size_t i = 0; i < 16; i++) {
    seed = seed * 1103515245u + 12345u;
    pieces[i] = 1 + (seed >> 16) % (1 + (size_t)data[0] * 4);
  }
  const uint8_t *in = data + 1;
  size -= 1;
  run whole, parts;
  read_all(&whole, in, size, NULL);
  read_all(&parts, in, size, pieces);
  check(whole.len == parts.len && whole.nskips == parts.nskips);
  check(whole.len == 0 || memcmp(whole.text, parts.text, whole.len) == 0);
  size_t kept = whole.nskips < 128 ? whole.nskips : 128;
  check(kept == 0 || memcmp(whole.skips, parts.skips, kept * sizeof whole.skips[0]) == 0);
  free(whole.text);
  free(parts.text);

  chunk_run a, b;
  size_t target = 1 + (size_t)data[0] * 64;
  chunk_run_feed(&a, (const char *)in, size, target, 0, NULL, 0);
  chunk_run_assert_well_formed(&a, (const char *)in, size, target);
  chunk_run_feed(&b, (const char *)in, size, target, 0, pieces, 16);
  chunk_run_assert_same(&a, &b);
  chunk_run_free(&a);
  chunk_run_free(&b);

  uint64_t bad;
  uint64_t ok = tc_proto_unpack_all(in, size, &bad);
  check(ok + bad <= size / 2);
  return 0;
}
