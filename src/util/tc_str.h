/* A borrowed byte string: never owns its bytes, never NUL-terminated by
 * contract. Whoever hands one out says how long the bytes stay valid. */
#ifndef TC_STR_H
#define TC_STR_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *ptr;
  size_t len;
} tc_str;

static inline tc_str tc_str_c(const char *s) {
  tc_str r = {s, s ? strlen(s) : 0};
  return r;
}

static inline int tc_str_eq(tc_str a, tc_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static inline int tc_str_eqc(tc_str a, const char *c) {
  return tc_str_eq(a, tc_str_c(c));
}

/* A NUL-terminated copy of S in a new malloc'd buffer the caller frees;
 * NULL when out of memory. */
static inline char *tc_str_dup(tc_str s) {
  char *d = (char *)malloc(s.len + 1);
  if (d) {
    if (s.len)
      memcpy(d, s.ptr, s.len);
    d[s.len] = '\0';
  }
  return d;
}

/* Bytewise order, shorter first on a shared prefix: the one order every
 * report uses, so output never depends on locale. */
static inline int tc_str_cmp(tc_str a, tc_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  if (c)
    return c;
  return (a.len > b.len) - (a.len < b.len);
}

/* A word-at-a-time multiplicative hash: names, categories and paths are
 * hashed once per event, so this sits on the hot path. Every table compares
 * the bytes after the hash, so only speed and spread matter. */
static inline uint64_t tc_hash_mix(uint64_t a, uint64_t b) {
  __uint128_t m = (__uint128_t)(a ^ 0xa0761d6478bd642fULL) * (b ^ 0xe7037ed1a0b428dbULL);
  return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static inline uint64_t tc_hash_bytes(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ULL);
  while (n >= 16) {
    uint64_t x, y;
    memcpy(&x, b, 8);
    memcpy(&y, b + 8, 8);
    h = tc_hash_mix(h ^ x, y ^ 0x8ebc6af09c88c6e3ULL);
    b += 16;
    n -= 16;
  }
  /* The last 0..15 bytes as two little-endian words, zero-extended: read
   * with fixed-size loads that overlap (OR of equal bytes at equal places,
   * or a shift that drops them), since a memcpy of a variable length is a
   * call. */
  uint64_t x = 0, y = 0;
  if (n > 8) {
    memcpy(&x, b, 8);
    memcpy(&y, b + n - 8, 8);
    y >>= 8 * (16 - n);
  } else if (n >= 4) {
    uint32_t lo, hi;
    memcpy(&lo, b, 4);
    memcpy(&hi, b + n - 4, 4);
    x = (uint64_t)lo | (uint64_t)hi << (8 * (n - 4));
  } else if (n) {
    x = (uint64_t)b[0] | (uint64_t)b[n / 2] << (8 * (n / 2)) | (uint64_t)b[n - 1] << (8 * (n - 1));
  }
  return tc_hash_mix(h ^ x, y ^ 0x589965cc75374cc3ULL);
}

/* Iterates the SEP-separated fields of S with surrounding spaces trimmed:
 * start with *pos = 0; returns 0 when no field is left. */
static inline int tc_str_next_field(tc_str s, char sep, size_t *pos, tc_str *out) {
  if (*pos > s.len)
    return 0;
  size_t start = *pos, j = start;
  while (j < s.len && s.ptr[j] != sep)
    j++;
  *pos = j + 1;
  tc_str f = {s.ptr + start, j - start};
  while (f.len && f.ptr[0] == ' ') {
    f.ptr++;
    f.len--;
  }
  while (f.len && f.ptr[f.len - 1] == ' ')
    f.len--;
  *out = f;
  return 1;
}

#endif
