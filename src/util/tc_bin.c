#include "util/tc_bin.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "util/tc_grow.h"

void tc_bin_buf_init(tc_bin_buf *b) { memset(b, 0, sizeof *b); }

void tc_bin_buf_free(tc_bin_buf *b) {
  free(b->ptr);
  tc_bin_buf_init(b);
}

unsigned char *tc_bin_buf_take(tc_bin_buf *b, size_t *len) {
  unsigned char *p = b->err ? NULL : b->ptr;
  *len = p ? b->len : 0;
  if (!p)
    free(b->ptr);
  tc_bin_buf_init(b);
  return p;
}

/* Room for N more bytes; NULL once any put has failed. */
static unsigned char *room(tc_bin_buf *b, size_t n) {
  if (!b->err && (n > SIZE_MAX - b->len || TC_GROW(b->ptr, b->cap, b->len + n)))
    b->err = TC_E_NOMEM;
  if (b->err)
    return NULL;
  unsigned char *at = b->ptr + b->len;
  b->len += n;
  return at;
}

static void store_le(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t load_le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

void tc_bin_put_u8(tc_bin_buf *b, uint8_t v) {
  unsigned char *p = room(b, 1);
  if (p)
    *p = v;
}

void tc_bin_put_u32(tc_bin_buf *b, uint32_t v) {
  unsigned char *p = room(b, 4);
  if (p)
    store_le(p, v, 4);
}

void tc_bin_put_u64(tc_bin_buf *b, uint64_t v) {
  unsigned char *p = room(b, 8);
  if (p)
    store_le(p, v, 8);
}

void tc_bin_put_uvar(tc_bin_buf *b, uint64_t v) {
  unsigned char tmp[10];
  int n = 0;
  do {
    tmp[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  tc_bin_put_raw(b, tmp, (size_t)n);
}

void tc_bin_put_svar(tc_bin_buf *b, int64_t v) {
  uint64_t u = (uint64_t)v;
  tc_bin_put_uvar(b, (u << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void tc_bin_put_f64(tc_bin_buf *b, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  tc_bin_put_u64(b, bits);
}

void tc_bin_put_raw(tc_bin_buf *b, const void *p, size_t n) {
  unsigned char *at = room(b, n);
  if (at && n)
    memcpy(at, p, n);
}

void tc_bin_put_bytes(tc_bin_buf *b, tc_str s) {
  tc_bin_put_uvar(b, s.len);
  tc_bin_put_raw(b, s.ptr, s.len);
}

size_t tc_bin_section_begin(tc_bin_buf *b, uint32_t tag, uint32_t version) {
  size_t mark = b->len;
  tc_bin_put_u32(b, tag);
  tc_bin_put_u32(b, version);
  tc_bin_put_u64(b, 0);
  return mark;
}

void tc_bin_section_end(tc_bin_buf *b, size_t mark) {
  if (b->err)
    return;
  store_le(b->ptr + mark + 8, b->len - mark - TC_BIN_SECTION_HEAD, 8);
  uint32_t crc = tc_bin_crc32(0, b->ptr + mark, b->len - mark);
  tc_bin_put_u32(b, crc);
}

uint32_t tc_bin_crc32(uint32_t crc, const void *p, size_t n) {
  const unsigned char *c = p;
  uLong v = crc;
  while (n) {
    uInt step = n > UINT_MAX ? UINT_MAX : (uInt)n;
    v = crc32(v, c, step);
    c += step;
    n -= step;
  }
  return (uint32_t)v;
}

void tc_bin_reader_init(tc_bin_reader *r, const void *p, size_t n, uint64_t base) {
  memset(r, 0, sizeof *r);
  r->p = p;
  r->len = n;
  r->base = base;
}

void tc_bin_fail_at(tc_bin_reader *r, size_t pos, const char *why) {
  if (r->err)
    return;
  r->err = TC_E_BAD_BINARY;
  r->err_at = r->base + pos;
  r->why = why;
}

/* The next N bytes, consumed, or NULL (and an error) if fewer are left. */
static const unsigned char *take(tc_bin_reader *r, size_t n) {
  if (r->err)
    return NULL;
  if (n > r->len - r->pos) {
    tc_bin_fail_at(r, r->pos, "input ends inside a value");
    return NULL;
  }
  const unsigned char *p = r->p + r->pos;
  r->pos += n;
  return p;
}

uint8_t tc_bin_get_u8(tc_bin_reader *r) {
  const unsigned char *p = take(r, 1);
  return p ? *p : 0;
}

uint32_t tc_bin_get_u32(tc_bin_reader *r) {
  const unsigned char *p = take(r, 4);
  return p ? (uint32_t)load_le(p, 4) : 0;
}

uint64_t tc_bin_get_u64(tc_bin_reader *r) {
  const unsigned char *p = take(r, 8);
  return p ? load_le(p, 8) : 0;
}

uint64_t tc_bin_get_uvar(tc_bin_reader *r) {
  if (r->err)
    return 0;
  size_t start = r->pos;
  uint64_t v = 0;
  for (int i = 0; i < 10; i++) {
    if (r->pos == r->len) {
      tc_bin_fail_at(r, start, "input ends inside a varint");
      return 0;
    }
    unsigned char c = r->p[r->pos++];
    /* The tenth byte holds bit 63 only. */
    if (i == 9 && c > 1) {
      tc_bin_fail_at(r, start, "varint exceeds 64 bits");
      return 0;
    }
    v |= (uint64_t)(c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      if (c == 0 && i > 0) {
        tc_bin_fail_at(r, start, "varint not in its shortest form");
        return 0;
      }
      return v;
    }
  }
  tc_bin_fail_at(r, start, "varint exceeds 64 bits");
  return 0;
}

int64_t tc_bin_get_svar(tc_bin_reader *r) {
  uint64_t u = tc_bin_get_uvar(r);
  return (int64_t)((u >> 1) ^ (0 - (u & 1)));
}

double tc_bin_get_f64(tc_bin_reader *r) {
  uint64_t bits = tc_bin_get_u64(r);
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

const unsigned char *tc_bin_get_raw(tc_bin_reader *r, size_t n) { return take(r, n); }

tc_str tc_bin_get_bytes(tc_bin_reader *r, size_t max) {
  tc_str s = {"", 0};
  size_t start = r->pos;
  uint64_t n = tc_bin_get_uvar(r);
  if (r->err)
    return s;
  if (n > max) {
    tc_bin_fail_at(r, start, "string longer than the format allows");
    return s;
  }
  const unsigned char *p = take(r, (size_t)n);
  if (p) {
    s.ptr = (const char *)p;
    s.len = (size_t)n;
  }
  return s;
}

uint64_t tc_bin_get_count(tc_bin_reader *r, uint64_t max, size_t each) {
  size_t start = r->pos;
  uint64_t n = tc_bin_get_uvar(r);
  if (r->err)
    return 0;
  if (n > max) {
    tc_bin_fail_at(r, start, "count above the format's limit");
    return 0;
  }
  if (n > (r->len - r->pos) / (each ? each : 1)) {
    tc_bin_fail_at(r, start, "count larger than the rest of the input can hold");
    return 0;
  }
  return n;
}

tc_err tc_bin_finish(tc_bin_reader *r) {
  if (!r->err && r->pos != r->len)
    tc_bin_fail_at(r, r->pos, "trailing bytes after the last value");
  return r->err;
}

int tc_bin_section_open(tc_bin_reader *r, uint32_t tag, tc_bin_section *s) {
  size_t start = r->pos;
  s->outer_len = r->len;
  uint32_t t = tc_bin_get_u32(r);
  s->version = tc_bin_get_u32(r);
  uint64_t n = tc_bin_get_u64(r);
  if (r->err)
    return 0;
  if (t != tag) {
    tc_bin_fail_at(r, start, "section of another kind where this one was expected");
    return 0;
  }
  if (n > r->len - r->pos || r->len - r->pos - n < TC_BIN_SECTION_TAIL) {
    tc_bin_fail_at(r, start, "section longer than the input");
    return 0;
  }
  size_t end = r->pos + (size_t)n;
  uint32_t want = (uint32_t)load_le(r->p + end, 4);
  if (tc_bin_crc32(0, r->p + start, end - start) != want) {
    tc_bin_fail_at(r, start, "section checksum mismatch");
    return 0;
  }
  r->len = end;
  return 1;
}

void tc_bin_section_close(tc_bin_reader *r, tc_bin_section *s) {
  tc_bin_finish(r);
  r->len = s->outer_len;
  if (!r->err)
    r->pos += TC_BIN_SECTION_TAIL;
}
