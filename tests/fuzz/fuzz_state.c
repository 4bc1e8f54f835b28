/* libFuzzer target for every decoder of partial state, in one target so
 * the fuzz stage pays 30 s once. The first byte picks what the rest is:
 *   0-4  bytes to decode as a section holding a profile, top values, a
 *        HyperLogLog, a quantile sketch or a profile
 *   5    a recipe of values: added to two profiles, merged, encoded,
 *        decoded, compared, and every prefix of the encoding refused
 *   6    a recipe as in 5 whose encoding is then changed by the bytes
 *        after it (offset, xor pairs) and decoded: mutations deep inside
 *        valid encodings that a checksum-free decoder must survive
 *   7, 8 a whole site partial or shard record file (pipeline/tc_partial.h)
 *   9, 10 the payload of a site partial or shard record, framed here with
 *        the right magic, version and checksum, so mutations reach the
 *        decoders behind the checksum (seeds_state.py makes real ones)
 * Whatever a decoder accepts must encode back to exactly the bytes it read
 * (the decoders are strict), and render, merge and quantiles of decoded
 * profiles must not crash. Any broken invariant aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tc_partial.h"
#include "util/tc_sketch_bin.h"
#include "report/tc_valprof_text.h"
#include "util/tc_xxh64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TAG TC_BIN_TAG('F', 'U', 'Z', 'Z')

static void same_bytes(const tc_bin_buf *b, const uint8_t *p, size_t n) {
  if (b->err || b->len != n || (n && memcmp(b->ptr, p, n)))
    abort();
}

static void use_profile(tc_valprof *p, const uint8_t *bytes, size_t n) {
  char line[512];
  tc_valprof_render(p, 3, line, sizeof line);
  tc_valprof_render(p, 0, line, 7);
  if (p->types[2]) {
    tc_valprof_quantile(p, 0.5);
    tc_valprof_quantile(p, 0.99);
  }
  tc_valprof twin;
  tc_valprof_init(&twin, 0);
  tc_bin_reader r;
  tc_bin_reader_init(&r, bytes, n, 0);
  if (tc_valprof_decode(&r, &twin) == TC_OK && tc_valprof_merge(p, &twin) == TC_OK)
    tc_valprof_render(p, 3, line, sizeof line);
  tc_valprof_free(&twin);
}

/* Decodes DATA as KIND; returns 1 if accepted. */
static int decode_kind(int kind, const uint8_t *data, size_t size) {
  tc_bin_reader r;
  tc_bin_reader_init(&r, data, size, 0);
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  int ok = 0;
  if (kind == 0) {
    tc_bin_section s;
    if (tc_bin_section_open(&r, TAG, &s)) {
      size_t start = r.pos;
      tc_valprof p;
      tc_valprof_init(&p, 0);
      if (tc_valprof_decode(&r, &p) == TC_OK) {
        size_t end = r.pos;
        tc_bin_section_close(&r, &s);
        if (!r.err) {
          tc_valprof_encode(&p, &b);
          same_bytes(&b, data + start, end - start);
          ok = 1;
        }
      }
      tc_valprof_free(&p);
    }
  } else if (kind == 1) {
    tc_topk t;
    tc_topk_init(&t);
    if (tc_topk_decode(&r, &t) == TC_OK) {
      tc_topk_encode(&t, &b);
      same_bytes(&b, data, r.pos);
      tc_topk_item it[TC_TOPK_K];
      tc_topk_list(&t, it);
      tc_topk_add(&t, tc_str_c("x"), tc_xxh64("x", 1, 0), 1);
      ok = 1;
    }
    tc_topk_free(&t);
  } else if (kind == 2) {
    tc_hll h;
    tc_hll_init(&h);
    if (tc_hll_decode(&r, &h) == TC_OK) {
      tc_hll_encode(&h, &b);
      same_bytes(&b, data, r.pos);
      tc_hll_count(&h);
      ok = 1;
    }
    tc_hll_free(&h);
  } else if (kind == 3) {
    tc_sketch s;
    tc_sketch_init(&s);
    if (tc_sketch_decode(&r, &s) == TC_OK) {
      tc_sketch_encode(&s, &b);
      same_bytes(&b, data, r.pos);
      tc_sketch_quantile(&s, 0.5);
      ok = 1;
    }
    tc_sketch_free(&s);
  } else {
    tc_valprof p;
    tc_valprof_init(&p, 0);
    if (tc_valprof_decode(&r, &p) == TC_OK) {
      tc_valprof_encode(&p, &b);
      same_bytes(&b, data, r.pos);
      use_profile(&p, data, r.pos);
      ok = 1;
    }
    tc_valprof_free(&p);
  }
  if (!ok && (r.err != TC_E_BAD_BINARY && r.err != TC_OK))
    abort();
  if (r.err && (r.err_at > size || !r.why))
    abort();
  tc_bin_buf_free(&b);
  return ok;
}

/* Values from the recipe: a type byte, then a number or a short string
 * taken from the recipe itself. Returns the bytes used. */
static size_t cook(tc_valprof *p, tc_valprof *q, const uint8_t *d, size_t n) {
  static const double nums[] = {0, -1, 1, 0.5, -2.5, 4096, 1e30, -1e-9, 1e-5, 123456789};
  size_t i = 0;
  while (i + 2 <= n && d[i] != 0xff) {
    uint8_t op = d[i], arg = d[i + 1];
    i += 2;
    unsigned type = 1u << (op % 6);
    double num = type == TC_JT_BOOL ? arg & 1 : nums[arg % 10] * (1 + (arg >> 4));
    size_t len = arg % 24 < n - i ? arg % 24 : n - i;
    tc_str s = {(const char *)d + i, type == TC_JT_STRING ? len : 0};
    if (type == TC_JT_STRING)
      i += len;
    if (tc_valprof_add(op & 0x40 ? q : p, type, num, s, op >> 7) != TC_OK)
      abort();
  }
  return i < n ? i + 1 : n;
}

static void round_trip(const uint8_t *data, size_t size, int mutate) {
  tc_valprof p, q, back;
  tc_valprof_init(&p, 0);
  tc_valprof_init(&q, 0);
  tc_valprof_init(&back, 0);
  size_t used = cook(&p, &q, data, size);
  if (tc_valprof_merge(&p, &q) != TC_OK)
    abort();
  tc_bin_buf b, again;
  tc_bin_buf_init(&b);
  tc_bin_buf_init(&again);
  tc_valprof_encode(&p, &b);
  if (b.err)
    abort();
  if (mutate) {
    for (size_t i = used; i + 2 <= size; i += 2)
      if (b.len)
        b.ptr[((size_t)data[i] * 7919u + i) % b.len] ^= data[i + 1];
    decode_kind(4, b.ptr, b.len);
  } else {
    tc_bin_reader r;
    tc_bin_reader_init(&r, b.ptr, b.len, 0);
    if (tc_valprof_decode(&r, &back) != TC_OK || tc_bin_finish(&r) != TC_OK)
      abort();
    tc_valprof_encode(&back, &again);
    same_bytes(&again, b.ptr, b.len);
    /* The same profile framed in a section reads back through it. */
    tc_bin_buf_free(&again);
    size_t mark = tc_bin_section_begin(&again, TAG, 1);
    tc_valprof_encode(&p, &again);
    tc_bin_section_end(&again, mark);
    if (!decode_kind(0, again.ptr, again.len))
      abort();
    size_t step = b.len / 64 + 1;
    for (size_t cut = 0; cut < b.len; cut += step) {
      tc_valprof t;
      tc_valprof_init(&t, 0);
      tc_bin_reader_init(&r, b.ptr, cut, 0);
      if (tc_valprof_decode(&r, &t) == TC_OK || r.err_at > cut)
        abort();
    }
  }
  tc_bin_buf_free(&b);
  tc_bin_buf_free(&again);
  tc_valprof_free(&p);
  tc_valprof_free(&q);
  tc_valprof_free(&back);
}

/* A partial file of KIND (1 site, 2 record): accepted bytes must encode
 * back to themselves; refused ones name an offset inside the file. */
static void partial_file(int kind, const uint8_t *data, size_t size) {
  tc_why why;
  unsigned char *again = NULL;
  size_t len = 0;
  tc_err e;
  if (kind == 1) {
    tc_partial_site p;
    e = tc_partial_site_decode(data, size, &p, &why);
    if (!e) {
      if (tc_partial_site_encode(p.settings, &p.unit, &again, &len))
        abort();
      tc_partial_site_free(&p);
    }
  } else {
    tc_partial_record r;
    e = tc_partial_record_decode(data, size, &r, &why);
    if (!e) {
      if (tc_partial_record_encode(&r, &again, &len))
        abort();
      tc_partial_record_free(&r);
    }
  }
  if (!e && (len != size || memcmp(again, data, size)))
    abort();
  if (e && (why.offset > size || !why.reason ||
            (e != TC_E_BAD_BINARY && e != TC_E_NOT_PARTIAL && e != TC_E_PARTIAL_VERSION)))
    abort();
  free(again);
}

static void partial_payload(int kind, const uint8_t *data, size_t size) {
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_raw(&b, "TCPART\r\n", 8);
  tc_bin_put_u32(&b, TC_PARTIAL_VERSION);
  tc_bin_put_u32(&b, (uint32_t)kind);
  size_t mark = tc_bin_section_begin(&b, kind == 1 ? TC_BIN_TAG('S', 'I', 'T', 'E')
                                                   : TC_BIN_TAG('S', 'H', 'R', 'D'),
                                     TC_PARTIAL_VERSION);
  tc_bin_put_raw(&b, data, size);
  tc_bin_section_end(&b, mark);
  if (b.err)
    abort();
  partial_file(kind, b.ptr, b.len);
  tc_bin_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  int kind = data[0] % 11;
  data++;
  size--;
  if (kind < 5)
    decode_kind(kind, data, size);
  else if (kind < 7)
    round_trip(data, size, kind == 6);
  else if (kind < 9)
    partial_file(kind - 6, data, size);
  else
    partial_payload(kind - 8, data, size);
  return 0;
}
