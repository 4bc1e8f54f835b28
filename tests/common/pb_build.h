/* Test helper: a protobuf wire writer for making Perfetto traces byte by
 * byte, with the field numbers typed in the tests from Perfetto's protos,
 * independently of src/proto/tc_perfetto.proto and of protobuf-c. Header
 * only; every function aborts if memory fails (it is a test). */
#ifndef TC_TEST_PB_BUILD_H
#define TC_TEST_PB_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned char *p;
  size_t len, cap;
} pb;

static inline void pb_raw(pb *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = (b->len + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    if (!b->p)
      abort();
  }
  if (n)
    memcpy(b->p + b->len, p, n);
  b->len += n;
}

static inline void pb_varint(pb *b, uint64_t v) {
  unsigned char t[10];
  size_t n = 0;
  do {
    t[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v)
      t[n] |= 0x80;
    n++;
  } while (v);
  pb_raw(b, t, n);
}

static inline void pb_tag(pb *b, unsigned field, unsigned wire) {
  pb_varint(b, (uint64_t)field << 3 | wire);
}

/* Varint fields: uint64, int64 (two's complement), int32, bool, enum. */
static inline void pb_u(pb *b, unsigned field, uint64_t v) {
  pb_tag(b, field, 0);
  pb_varint(b, v);
}

static inline void pb_i(pb *b, unsigned field, int64_t v) { pb_u(b, field, (uint64_t)v); }

static inline void pb_fixed64(pb *b, unsigned field, uint64_t v) {
  unsigned char t[8];
  for (int i = 0; i < 8; i++)
    t[i] = (unsigned char)(v >> (8 * i));
  pb_tag(b, field, 1);
  pb_raw(b, t, 8);
}

static inline void pb_double(pb *b, unsigned field, double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  pb_fixed64(b, field, v);
}

static inline void pb_bytes(pb *b, unsigned field, const void *p, size_t n) {
  pb_tag(b, field, 2);
  pb_varint(b, n);
  pb_raw(b, p, n);
}

static inline void pb_str(pb *b, unsigned field, const char *s) { pb_bytes(b, field, s, strlen(s)); }

/* SUB as a length-delimited field of B; SUB is freed and emptied. */
static inline void pb_msg(pb *b, unsigned field, pb *sub) {
  pb_bytes(b, field, sub->p, sub->len);
  free(sub->p);
  memset(sub, 0, sizeof *sub);
}

static inline void pb_free(pb *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

#endif
