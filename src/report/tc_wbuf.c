#include "report/tc_wbuf.h"

#include "util/tc_numfmt.h"

void tc_wbuf_init(tc_wbuf *b, FILE *fp) {
  b->fp = fp;
  b->len = 0;
}

void tc_wbuf_flush(tc_wbuf *b) {
  if (b->len)
    fwrite(b->buf, 1, b->len, b->fp);
  b->len = 0;
}

void tc_wbuf_put_long(tc_wbuf *b, const void *p, size_t n) {
  tc_wbuf_flush(b);
  if (n >= TC_WBUF_CAP) { /* a block of its own: no copy */
    fwrite(p, 1, n, b->fp);
    return;
  }
  memcpy(b->buf, p, n);
  b->len = n;
}

void tc_wbuf_u64(tc_wbuf *b, uint64_t v) {
  char *o = tc_wbuf_room(b, TC_NUMFMT_MAX);
  b->len += tc_numfmt_u64(v, o);
}

void tc_wbuf_i64(tc_wbuf *b, int64_t v) {
  char *o = tc_wbuf_room(b, TC_NUMFMT_MAX);
  b->len += tc_numfmt_i64(v, o);
}

void tc_wbuf_num(tc_wbuf *b, double v) {
  char *o = tc_wbuf_room(b, TC_NUMFMT_MAX);
  b->len += tc_numfmt_num(v, o);
}

void tc_wbuf_g(tc_wbuf *b, double v, int precision) {
  char *o = tc_wbuf_room(b, TC_NUMFMT_MAX);
  b->len += tc_numfmt_g(v, precision, o);
}

void tc_wbuf_fixed(tc_wbuf *b, double v, int precision) {
  char *o = tc_wbuf_room(b, TC_NUMFMT_FIXED_MAX);
  b->len += tc_numfmt_fixed(v, precision, o);
}

void tc_wbuf_str_to_nul(tc_wbuf *b, tc_str s) {
  const char *nul = s.len ? memchr(s.ptr, '\0', s.len) : NULL;
  tc_wbuf_put(b, s.ptr, nul ? (size_t)(nul - s.ptr) : s.len);
}
