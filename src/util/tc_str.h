/* A borrowed byte string: never owns its bytes, never NUL-terminated by
 * contract. Whoever hands one out says how long the bytes stay valid. */
#ifndef TC_STR_H
#define TC_STR_H

#include <stddef.h>
#include <stdint.h>
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

/* Bytewise order, shorter first on a shared prefix: the one order every
 * report uses, so output never depends on locale. */
static inline int tc_str_cmp(tc_str a, tc_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  if (c)
    return c;
  return (a.len > b.len) - (a.len < b.len);
}

/* FNV-1a is enough here: keys are short names and paths, and every table
 * compares the bytes after the hash. */
static inline uint64_t tc_hash_bytes(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return h;
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
