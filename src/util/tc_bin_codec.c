#include "util/tc_bin_codec.h"

#include <stdlib.h>
#include <string.h>

void tc_codec_u64(tc_codec *c, uint64_t *v) {
  if (c->b)
    tc_bin_put_uvar(c->b, *v);
  else
    *v = tc_bin_get_uvar(c->r);
}

void tc_codec_u32(tc_codec *c, uint32_t *v) {
  uint64_t x = *v;
  size_t at = c->r ? c->r->pos : 0;
  tc_codec_u64(c, &x);
  if (x > UINT32_MAX) {
    tc_bin_fail_at(c->r, at, "count out of range");
    x = 0;
  }
  *v = (uint32_t)x;
}

unsigned tc_codec_small(tc_codec *c, unsigned v, unsigned max) {
  uint64_t x = v;
  size_t at = c->r ? c->r->pos : 0;
  tc_codec_u64(c, &x);
  if (c->r && x > max) {
    tc_bin_fail_at(c->r, at, "value out of range");
    x = 0;
  }
  return (unsigned)x;
}

void tc_codec_i64(tc_codec *c, int64_t *v) {
  if (c->b)
    tc_bin_put_svar(c->b, *v);
  else
    *v = tc_bin_get_svar(c->r);
}

void tc_codec_f64(tc_codec *c, double *v) {
  if (c->b)
    tc_bin_put_f64(c->b, *v);
  else
    *v = tc_bin_get_f64(c->r);
}

void tc_codec_str(tc_codec *c, char **s, size_t max) {
  if (c->b) {
    tc_bin_put_u8(c->b, *s != NULL);
    if (*s)
      tc_bin_put_bytes(c->b, tc_str_c(*s));
    return;
  }
  *s = NULL;
  if (!tc_codec_small(c, 0, 1))
    return;
  size_t at = c->r->pos;
  tc_str t = tc_bin_get_bytes(c->r, max);
  if (c->r->err)
    return;
  if (t.len && memchr(t.ptr, '\0', t.len)) {
    tc_bin_fail_at(c->r, at, "string holds a NUL byte");
    return;
  }
  if (!(*s = tc_str_dup(t)))
    tc_bin_fail_at(c->r, at, "out of memory");
}

uint32_t tc_codec_array(tc_codec *c, void **arr, uint32_t n, size_t elem, size_t each) {
  if (c->b) {
    tc_bin_put_uvar(c->b, n);
    return n;
  }
  *arr = NULL;
  uint64_t k = tc_bin_get_count(c->r, UINT32_MAX, each);
  if (!k)
    return 0;
  if (!(*arr = calloc(k, elem))) {
    tc_bin_fail_at(c->r, c->r->pos, "out of memory");
    return 0;
  }
  return (uint32_t)k;
}
